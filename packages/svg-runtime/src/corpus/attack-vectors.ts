import type { AdmissionCode } from "../errors";

/**
 * Hostile inputs, written for this project after the kinds of SVG vectors in DOMPurify's test
 * suite, OWASP's filter-evasion sheet and the HTML5 Security Cheatsheet: script placement, event
 * attributes in any case, namespace confusion, entity and CDATA tricks, SMIL retargeting of href,
 * URL schemes hidden by entities or whitespace, CSS loaders, XXE and entity expansion. Every
 * vector must be refused, and the first error must carry `code`.
 */
export interface AttackVector {
  name: string;
  family: "script" | "event" | "element" | "namespace" | "url" | "css" | "smil" | "xml" | "id" | "budget";
  source: string;
  code: AdmissionCode;
}

const svg = (body: string, rootAttributes = "") =>
  `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"${rootAttributes}>${body}</svg>`;

export const ATTACK_VECTORS: AttackVector[] = [
  // Scripts in every shape but the one allowed.
  { family: "script", name: "script without CDATA", source: svg("<script>alert(1)</script>"), code: "SVG_SCRIPT_FORM" },
  { family: "script", name: "script with href", source: svg('<script href="https://evil.example/x.js"><![CDATA[]]></script>'), code: "SVG_SCRIPT_ATTRIBUTE" },
  { family: "script", name: "script with xlink:href", source: svg('<script xlink:href="data:text/javascript,alert(1)"><![CDATA[]]></script>'), code: "SVG_SCRIPT_ATTRIBUTE" },
  { family: "script", name: "module script", source: svg('<script type="module"><![CDATA[import "x"]]></script>'), code: "SVG_SCRIPT_ATTRIBUTE" },
  { family: "script", name: "script nested in g", source: svg("<g><script><![CDATA[alert(1)]]></script></g>"), code: "SVG_SCRIPT_PLACEMENT" },
  { family: "script", name: "two scripts", source: svg("<script><![CDATA[a()]]></script><script><![CDATA[b()]]></script>"), code: "SVG_SCRIPT_PLACEMENT" },
  { family: "script", name: "script with two CDATA sections", source: svg("<script><![CDATA[a()]]><![CDATA[b()]]></script>"), code: "SVG_SCRIPT_FORM" },
  { family: "script", name: "script with text after CDATA", source: svg("<script><![CDATA[a()]]>alert(1)</script>"), code: "SVG_SCRIPT_FORM" },
  { family: "script", name: "script with an element child", source: svg("<script><![CDATA[a()]]><g/></script>"), code: "SVG_SCRIPT_FORM" },
  { family: "script", name: "script with event attribute", source: svg('<script onload="alert(1)"><![CDATA[]]></script>'), code: "SVG_EVENT_ATTRIBUTE" },
  { family: "script", name: "script with unknown type", source: svg('<script type="text/vbscript"><![CDATA[x]]></script>'), code: "SVG_SCRIPT_ATTRIBUTE" },
  { family: "script", name: "upper-case SCRIPT element", source: svg("<SCRIPT>alert(1)</SCRIPT>"), code: "SVG_UNKNOWN_ELEMENT" },
  { family: "script", name: "script inside title", source: svg("<title><script><![CDATA[alert(1)]]></script></title>"), code: "SVG_SCRIPT_PLACEMENT" },
  { family: "script", name: "script inside style", source: svg("<style><script><![CDATA[alert(1)]]></script></style>"), code: "SVG_CSS_SYNTAX" },

  // Event attributes, any case, and XML Events.
  { family: "event", name: "onload on root", source: svg("", ' onload="alert(1)"'), code: "SVG_EVENT_ATTRIBUTE" },
  { family: "event", name: "upper-case ONLOAD", source: svg("", ' ONLOAD="alert(1)"'), code: "SVG_EVENT_ATTRIBUTE" },
  { family: "event", name: "mixed-case OnClIcK", source: svg('<rect OnClIcK="alert(1)"/>'), code: "SVG_EVENT_ATTRIBUTE" },
  { family: "event", name: "onbegin on animate", source: svg('<animate onbegin="alert(1)" attributeName="x" dur="1s"/>'), code: "SVG_EVENT_ATTRIBUTE" },
  { family: "event", name: "onend on set", source: svg('<set onend="alert(1)" attributeName="x" to="1"/>'), code: "SVG_EVENT_ATTRIBUTE" },
  { family: "event", name: "onfocusin with tabindex", source: svg('<rect tabindex="0" onfocusin="alert(1)"/>'), code: "SVG_EVENT_ATTRIBUTE" },
  { family: "event", name: "entity-encoded attribute value", source: svg('<g onmouseover="&#97;lert(1)"/>'), code: "SVG_EVENT_ATTRIBUTE" },
  { family: "event", name: "namespaced onload", source: svg('<rect x:onload="alert(1)"/>', ' xmlns:x="http://www.w3.org/2000/svg"'), code: "SVG_FOREIGN_NAMESPACE" },
  { family: "event", name: "XML Events attribute", source: svg('<rect ev:event="click"/>', ' xmlns:ev="http://www.w3.org/2001/xml-events"'), code: "SVG_EVENT_ATTRIBUTE" },
  { family: "event", name: "XML Events attribute declared on its element", source: svg('<rect xmlns:ev="http://www.w3.org/2001/xml-events" ev:event="click" ev:handler="#h"/>'), code: "SVG_EVENT_ATTRIBUTE" },
  { family: "event", name: "XML Events listener in its namespace", source: svg('<listener xmlns="http://www.w3.org/2001/xml-events" event="click" handler="#h"/>'), code: "SVG_EVENT_ATTRIBUTE" },
  { family: "event", name: "XML Events handler element", source: svg('<handler type="application/ecmascript">alert(1)</handler>'), code: "SVG_FORBIDDEN_ELEMENT" },
  { family: "event", name: "XML Events listener element", source: svg('<listener event="click" handler="#h"/>'), code: "SVG_FORBIDDEN_ELEMENT" },

  // Elements that embed, load or link.
  { family: "element", name: "foreignObject with HTML", source: svg('<foreignObject><body xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="alert(1)"/></body></foreignObject>'), code: "SVG_FORBIDDEN_ELEMENT" },
  { family: "element", name: "image with remote href", source: svg('<image href="https://evil.example/track.png"/>'), code: "SVG_FORBIDDEN_ELEMENT" },
  { family: "element", name: "image with data URL", source: svg('<image xlink:href="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4="/>'), code: "SVG_FORBIDDEN_ELEMENT" },
  { family: "element", name: "feImage", source: svg('<filter id="f"><feImage href="https://evil.example/x.svg"/></filter>'), code: "SVG_FORBIDDEN_ELEMENT" },
  { family: "element", name: "a with javascript: URL", source: svg('<a href="javascript:alert(1)"><rect width="10" height="10"/></a>'), code: "SVG_FORBIDDEN_ELEMENT" },
  { family: "element", name: "a with xlink:href", source: svg('<a xlink:href="https://evil.example"><text>x</text></a>'), code: "SVG_FORBIDDEN_ELEMENT" },
  { family: "element", name: "iframe", source: svg('<iframe src="https://evil.example"/>'), code: "SVG_FORBIDDEN_ELEMENT" },
  { family: "element", name: "embed", source: svg('<embed src="x.swf"/>'), code: "SVG_FORBIDDEN_ELEMENT" },
  { family: "element", name: "object", source: svg('<object data="x.html"/>'), code: "SVG_FORBIDDEN_ELEMENT" },
  { family: "element", name: "video", source: svg('<video src="x.mp4"/>'), code: "SVG_FORBIDDEN_ELEMENT" },
  { family: "element", name: "audio", source: svg('<audio src="x.mp3"/>'), code: "SVG_FORBIDDEN_ELEMENT" },
  { family: "element", name: "SVG font loading glyphs", source: svg('<font-face font-family="x"/>'), code: "SVG_FORBIDDEN_ELEMENT" },
  { family: "element", name: "unknown element", source: svg("<blink>x</blink>"), code: "SVG_UNKNOWN_ELEMENT" },
  { family: "element", name: "HTML img in SVG namespace", source: svg('<img src="x" onerror="alert(1)"/>'), code: "SVG_UNKNOWN_ELEMENT" },
  // Names of Object.prototype members must not be found in the allow-lists.
  ...["toString", "constructor", "__proto__", "valueOf", "hasOwnProperty"].flatMap((name): AttackVector[] => [
    { family: "element", name: `<${name}> element`, source: svg(`<${name}>hi</${name}>`), code: "SVG_UNKNOWN_ELEMENT" },
    { family: "element", name: `${name} attribute`, source: svg(`<rect ${name}="x"/>`), code: "SVG_FORBIDDEN_ATTRIBUTE" },
    { family: "smil", name: `animating ${name}`, source: svg(`<rect><set attributeName="${name}" to="x"/></rect>`), code: "SVG_SMIL_TARGET" },
  ]),

  // Namespace confusion.
  { family: "namespace", name: "root in the HTML namespace", source: '<svg xmlns="http://www.w3.org/1999/xhtml"><rect/></svg>', code: "SVG_FOREIGN_NAMESPACE" },
  { family: "namespace", name: "root without namespace", source: "<svg><rect/></svg>", code: "SVG_FOREIGN_NAMESPACE" },
  { family: "namespace", name: "HTML element by default namespace", source: svg('<div xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></div>'), code: "SVG_FOREIGN_NAMESPACE" },
  { family: "namespace", name: "HTML script by prefix", source: svg('<h:script xmlns:h="http://www.w3.org/1999/xhtml">alert(1)</h:script>'), code: "SVG_FOREIGN_NAMESPACE" },
  { family: "namespace", name: "SVG namespace under a prefix", source: '<s:svg xmlns:s="http://www.w3.org/2000/svg"><s:script><![CDATA[alert(1)]]></s:script></s:svg>', code: "SVG_FOREIGN_NAMESPACE" },
  { family: "namespace", name: "xlink prefix rebound", source: '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://evil.example/ns"><use xlink:href="#a"/></svg>', code: "SVG_FOREIGN_NAMESPACE" },
  { family: "namespace", name: "MathML island", source: svg('<math xmlns="http://www.w3.org/1998/Math/MathML"><mi>x</mi></math>'), code: "SVG_FOREIGN_NAMESPACE" },
  { family: "namespace", name: "root is not svg", source: '<html xmlns="http://www.w3.org/2000/svg"><rect/></html>', code: "SVG_ROOT" },

  // URLs other than local #id.
  { family: "url", name: "use with remote document", source: svg('<use href="https://evil.example/sprite.svg#icon"/>'), code: "SVG_EXTERNAL_URL" },
  { family: "url", name: "use with relative document", source: svg('<use href="sprite.svg#icon"/>'), code: "SVG_EXTERNAL_URL" },
  { family: "url", name: "use with data URL", source: svg('<use href="data:image/svg+xml,&lt;svg id=&quot;x&quot; xmlns=&quot;http://www.w3.org/2000/svg&quot;&gt;&lt;/svg&gt;#x"/>'), code: "SVG_EXTERNAL_URL" },
  { family: "url", name: "use with javascript: URL", source: svg('<use xlink:href="javascript:alert(1)"/>'), code: "SVG_EXTERNAL_URL" },
  { family: "url", name: "entity-encoded javascript scheme", source: svg('<use href="&#106;&#x61;vascript:alert(1)"/>'), code: "SVG_EXTERNAL_URL" },
  { family: "url", name: "whitespace-split scheme", source: svg('<use href="java&#9;script:alert(1)"/>'), code: "SVG_EXTERNAL_URL" },
  { family: "url", name: "newline-split scheme", source: svg('<use href=" java&#x0A;script:alert(1)"/>'), code: "SVG_EXTERNAL_URL" },
  { family: "url", name: "leading space before #id", source: svg('<use href=" #a"/>'), code: "SVG_EXTERNAL_URL" },
  { family: "url", name: "protocol-relative URL", source: svg('<use href="//evil.example/x.svg#a"/>'), code: "SVG_EXTERNAL_URL" },
  { family: "url", name: "href on a rect", source: svg('<rect href="javascript:alert(1)"/>'), code: "SVG_EXTERNAL_URL" },
  { family: "url", name: "gradient inheriting from remote file", source: svg('<linearGradient href="https://evil.example/g.svg#g"/>'), code: "SVG_EXTERNAL_URL" },
  { family: "url", name: "textPath to remote path", source: svg('<text><textPath xlink:href="https://evil.example/p.svg#p">x</textPath></text>'), code: "SVG_EXTERNAL_URL" },
  { family: "url", name: "mpath to javascript:", source: svg('<animateMotion dur="1s"><mpath href="javascript:alert(1)"/></animateMotion>'), code: "SVG_EXTERNAL_URL" },
  { family: "url", name: "fill url to remote paint server", source: svg('<rect fill="url(https://evil.example/p.svg#g)"/>'), code: "SVG_EXTERNAL_URL" },
  { family: "url", name: "filter url with data URL", source: svg('<rect filter="url(data:image/svg+xml;base64,AAAA)"/>'), code: "SVG_EXTERNAL_URL" },
  { family: "url", name: "mask url with quotes", source: svg(`<rect mask="url('//evil.example/m.svg#m')"/>`), code: "SVG_EXTERNAL_URL" },
  { family: "url", name: "src attribute", source: svg('<rect src="https://evil.example"/>'), code: "SVG_EXTERNAL_URL" },

  // CSS loaders and escapes.
  { family: "css", name: "@import", source: svg('<style>@import url("https://evil.example/x.css");</style>'), code: "SVG_CSS_AT_RULE" },
  { family: "css", name: "@import with a string", source: svg("<style>@import 'x.css';</style>"), code: "SVG_CSS_AT_RULE" },
  { family: "css", name: "url() in a @keyframes name (found by the fuzzer)", source: svg("<style>@keyframes url('//x')M0 0L1 1pulse { 0% { opacity: 1; } }</style>"), code: "SVG_CSS_SYNTAX" },
  { family: "css", name: "url() as a keyframe selector", source: svg("<style>@keyframes k { url(//x) { opacity: 1; } }</style>"), code: "SVG_CSS_SYNTAX" },
  { family: "css", name: "url() in a @media condition", source: svg("<style>@media url(//x) { rect { fill: red; } }</style>"), code: "SVG_CSS_SYNTAX" },
  { family: "css", name: "@font-face", source: svg("<style>@font-face { font-family: x; src: url(https://evil.example/f.woff2); }</style>"), code: "SVG_CSS_AT_RULE" },
  { family: "css", name: "@namespace", source: svg('<style>@namespace x url("http://www.w3.org/1999/xhtml");</style>'), code: "SVG_CSS_AT_RULE" },
  { family: "css", name: "background-image in style attribute", source: svg('<rect style="background-image: url(https://evil.example/t.png)"/>'), code: "SVG_CSS_PROPERTY" },
  { family: "css", name: "remote url in fill", source: svg("<style>rect { fill: url(https://evil.example/p.svg#g) }</style>"), code: "SVG_EXTERNAL_URL" },
  { family: "css", name: "url in cursor", source: svg('<rect style="cursor: url(https://evil.example/c.cur), auto"/>'), code: "SVG_EXTERNAL_URL" },
  { family: "css", name: "escaped url function", source: svg('<rect style="fill: u\\72l(https://evil.example/x)"/>'), code: "SVG_CSS_SYNTAX" },
  { family: "css", name: "comment-split url", source: svg('<rect style="fill: u/**/rl(https://evil.example/x)"/>'), code: "SVG_CSS_SYNTAX" },
  { family: "css", name: "expression()", source: svg('<rect style="fill: expression(alert(1))"/>'), code: "SVG_CSS_FUNCTION" },
  { family: "css", name: "-moz-binding", source: svg('<rect style="-moz-binding: url(https://evil.example/x.xml#b)"/>'), code: "SVG_CSS_PROPERTY" },
  { family: "css", name: "behavior", source: svg('<rect style="behavior: url(x.htc)"/>'), code: "SVG_CSS_PROPERTY" },
  { family: "css", name: "custom property carrying a url", source: svg('<rect style="--x: url(https://evil.example/x)"/>'), code: "SVG_CSS_PROPERTY" },
  { family: "css", name: "var() indirection", source: svg('<rect style="fill: var(--x)"/>'), code: "SVG_CSS_FUNCTION" },
  { family: "css", name: "image-set", source: svg('<rect style="fill: image-set(&quot;x.png&quot; 1x)"/>'), code: "SVG_CSS_FUNCTION" },
  { family: "css", name: "position fixed overlay", source: svg('<rect style="position: fixed; top: 0"/>'), code: "SVG_CSS_PROPERTY" },
  { family: "css", name: "HTML breakout inside style", source: svg("<style>&lt;/style&gt;&lt;img src=x onerror=alert(1)&gt;</style>"), code: "SVG_CSS_SYNTAX" },
  { family: "css", name: "style element with a child element", source: svg("<style><g/>rect{fill:red}</style>"), code: "SVG_CSS_SYNTAX" },
  { family: "css", name: "pseudo-element content", source: svg("<style>rect::before { content: 'x' }</style>"), code: "SVG_CSS_SYNTAX" },
  // Nesting deep enough to overflow css-tree's recursive parser, walker or generator.
  { family: "css", name: "1000 nested :not()", source: svg(`<style>${":not(".repeat(1000)}rect${")".repeat(1000)}{fill:red}</style>`), code: "SVG_CSS_SYNTAX" },
  { family: "css", name: "2000 nested @media blocks", source: svg(`<style>${"@media print{".repeat(2000)}rect{fill:red}${"}".repeat(2000)}</style>`), code: "SVG_CSS_SYNTAX" },
  { family: "css", name: "unclosed calc() parentheses", source: svg(`<rect style="opacity:calc(${"(".repeat(2100)}"/>`), code: "SVG_CSS_SYNTAX" },
  { family: "css", name: "nested functions in a presentation attribute", source: svg(`<rect fill="${"rgb(".repeat(500)}${")".repeat(500)}"/>`), code: "SVG_CSS_SYNTAX" },
  { family: "css", name: "nesting behind a comment", source: svg(`<style>rect{opacity:/*)*/${"calc(".repeat(40)}1${")".repeat(40)}}</style>`), code: "SVG_CSS_SYNTAX" },

  // SMIL retargeting.
  { family: "smil", name: "set href to javascript:", source: svg('<use href="#a"><set attributeName="href" to="javascript:alert(1)"/></use>'), code: "SVG_SMIL_TARGET" },
  { family: "smil", name: "animate xlink:href values", source: svg('<use href="#a"><animate attributeName="xlink:href" values="javascript:alert(1)" dur="1s"/></use>'), code: "SVG_SMIL_TARGET" },
  { family: "smil", name: "set an event attribute", source: svg('<rect><set attributeName="onclick" to="alert(1)"/></rect>'), code: "SVG_SMIL_TARGET" },
  { family: "smil", name: "animate style", source: svg('<rect><animate attributeName="style" values="background:url(x)" dur="1s"/></rect>'), code: "SVG_SMIL_TARGET" },
  { family: "smil", name: "animate class", source: svg('<rect><animate attributeName="class" values="a;b" dur="1s"/></rect>'), code: "SVG_SMIL_TARGET" },
  { family: "smil", name: "animate fill to remote url", source: svg('<rect><animate attributeName="fill" values="red;url(https://evil.example/p#g)" dur="1s"/></rect>'), code: "SVG_EXTERNAL_URL" },
  { family: "smil", name: "set fill to javascript:", source: svg('<rect><set attributeName="fill" to="javascript:alert(1)"/></rect>'), code: "SVG_CSS_SYNTAX" },
  { family: "smil", name: "click-triggered animation", source: svg('<rect><animate attributeName="x" to="9" begin="click" dur="1s"/></rect>'), code: "SVG_SMIL_EVENT" },
  { family: "smil", name: "event on another element", source: svg('<rect id="b"/><rect><set attributeName="x" to="9" begin="b.mouseover"/></rect>'), code: "SVG_SMIL_EVENT" },
  { family: "smil", name: "event on a hyphenated id", source: svg('<rect id="my-button"/><rect><set attributeName="x" to="9" begin="my-button.click"/></rect>'), code: "SVG_SMIL_EVENT" },
  { family: "smil", name: "accessKey trigger", source: svg('<rect><set attributeName="x" to="9" begin="accessKey(a)"/></rect>'), code: "SVG_SMIL_EVENT" },
  { family: "smil", name: "animateTransform on something else", source: svg('<rect><animateTransform attributeName="href" type="rotate" to="1" dur="1s"/></rect>'), code: "SVG_SMIL_TARGET" },

  // XML: DOCTYPE, entities, processing instructions, malformed input.
  { family: "xml", name: "XXE external entity", source: '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><text>&xxe;</text></svg>', code: "SVG_DOCTYPE" },
  { family: "xml", name: "billion laughs", source: '<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><svg xmlns="http://www.w3.org/2000/svg"><text>&c;</text></svg>', code: "SVG_DOCTYPE" },
  { family: "xml", name: "parameter entity", source: '<!DOCTYPE svg [<!ENTITY % p SYSTEM "https://evil.example/x.dtd"> %p;]><svg xmlns="http://www.w3.org/2000/svg"/>', code: "SVG_DOCTYPE" },
  { family: "xml", name: "public DTD", source: '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd"><svg xmlns="http://www.w3.org/2000/svg"/>', code: "SVG_DOCTYPE" },
  { family: "xml", name: "undeclared HTML entity", source: svg("<text>a&nbsp;b</text>"), code: "SVG_ENTITY" },
  { family: "xml", name: "undeclared entity in attribute", source: svg('<rect fill="&evil;"/>'), code: "SVG_ENTITY" },
  { family: "xml", name: "xml-stylesheet instruction", source: '<?xml-stylesheet href="https://evil.example/x.css"?><svg xmlns="http://www.w3.org/2000/svg"/>', code: "SVG_PROCESSING_INSTRUCTION" },
  { family: "xml", name: "processing instruction inside", source: svg('<?php echo 1 ?>'), code: "SVG_PROCESSING_INSTRUCTION" },
  { family: "xml", name: "unclosed tag", source: svg("<rect>"), code: "SVG_MALFORMED_XML" },
  { family: "xml", name: "unquoted attribute (HTML style)", source: svg("<rect fill=red/>"), code: "SVG_MALFORMED_XML" },
  { family: "xml", name: "CDATA breakout into image", source: '<svg xmlns="http://www.w3.org/2000/svg"><![CDATA[><image xlink:href="]]><img src=xx:x onerror=alert(2)//"></svg>', code: "SVG_MALFORMED_XML" },
  { family: "xml", name: "two roots", source: svg("") + svg(""), code: "SVG_MALFORMED_XML" },
  { family: "xml", name: "empty document", source: "", code: "SVG_MALFORMED_XML" },
  { family: "xml", name: "stray text in a group", source: svg("<g>alert(1)</g>"), code: "SVG_UNEXPECTED_TEXT" },
  { family: "xml", name: "NUL character reference", source: svg("<text>&#0;</text>"), code: "SVG_ENTITY" },

  // Identifiers.
  { family: "id", name: "duplicate id", source: svg('<rect id="a"/><circle id="a"/>'), code: "SVG_DUPLICATE_ID" },
  { family: "id", name: "id with a space", source: svg('<rect id="a b"/>'), code: "SVG_MALFORMED_ID" },
  { family: "id", name: "id starting with a digit", source: svg('<rect id="1a"/>'), code: "SVG_MALFORMED_ID" },
  { family: "id", name: "id with markup", source: svg('<rect id="&quot;&gt;&lt;script&gt;"/>'), code: "SVG_MALFORMED_ID" },
  { family: "id", name: "overlong id", source: svg(`<rect id="${"a".repeat(65)}"/>`), code: "SVG_MALFORMED_ID" },

  // Budgets.
  { family: "budget", name: "filter with too many primitives", source: svg(`<filter id="f">${"<feOffset/>".repeat(17)}</filter>`), code: "SVG_FILTER_LIMIT" },
  { family: "budget", name: "huge blur", source: svg('<filter id="f"><feGaussianBlur stdDeviation="5000"/></filter>'), code: "SVG_FILTER_LIMIT" },
  { family: "budget", name: "huge morphology radius", source: svg('<filter id="f"><feMorphology radius="1e9"/></filter>'), code: "SVG_FILTER_LIMIT" },
  { family: "budget", name: "turbulence octaves", source: svg('<filter id="f"><feTurbulence numOctaves="1000"/></filter>'), code: "SVG_FILTER_LIMIT" },
  { family: "budget", name: "huge displacement scale", source: svg('<filter id="f"><feDisplacementMap scale="1e6"/></filter>'), code: "SVG_FILTER_LIMIT" },
  { family: "budget", name: "huge feDropShadow blur", source: svg('<filter id="f"><feDropShadow stdDeviation="5000"/></filter>'), code: "SVG_FILTER_LIMIT" },
  // The same caps through CSS filter functions and SMIL.
  { family: "budget", name: "CSS blur and drop-shadow in style", source: svg('<rect style="filter: blur(100000px) drop-shadow(0 0 90000px red)"/>'), code: "SVG_FILTER_LIMIT" },
  { family: "budget", name: "CSS blur as a filter attribute", source: svg('<rect filter="blur(100000px)"/>'), code: "SVG_FILTER_LIMIT" },
  { family: "budget", name: "CSS drop-shadow radius in a style sheet", source: svg("<style>rect { filter: drop-shadow(red 1px 1px 1000px) }</style>"), code: "SVG_FILTER_LIMIT" },
  { family: "budget", name: "CSS blur in centimetres", source: svg('<rect style="filter: blur(30cm)"/>'), code: "SVG_FILTER_LIMIT" },
  { family: "budget", name: "CSS blur in a relative unit", source: svg('<rect style="font-size: 9999px; filter: blur(100em)"/>'), code: "SVG_FILTER_LIMIT" },
  { family: "budget", name: "CSS blur through calc()", source: svg('<rect style="filter: blur(calc(1000px * 1000))"/>'), code: "SVG_FILTER_LIMIT" },
  { family: "budget", name: "CSS blur in keyframes", source: svg("<style>@keyframes k { to { filter: blur(100000px) } }</style>"), code: "SVG_FILTER_LIMIT" },
  { family: "budget", name: "CSS filter chain longer than a filter", source: svg(`<rect style="filter:${" blur(1px)".repeat(17)}"/>`), code: "SVG_FILTER_LIMIT" },
  { family: "budget", name: "SMIL animating filter to a huge blur", source: svg('<rect><animate attributeName="filter" values="blur(1px);blur(100000px)" dur="1s"/></rect>'), code: "SVG_FILTER_LIMIT" },
  { family: "budget", name: "SMIL animating stdDeviation past the cap", source: svg('<filter id="f"><feGaussianBlur stdDeviation="1"><animate attributeName="stdDeviation" values="1;100000" dur="1s"/></feGaussianBlur></filter>'), code: "SVG_FILTER_LIMIT" },
  { family: "budget", name: "SMIL setting stdDeviation past the cap", source: svg('<filter id="f"><feGaussianBlur stdDeviation="1"><set attributeName="stdDeviation" to="1e9"/></feGaussianBlur></filter>'), code: "SVG_FILTER_LIMIT" },
  { family: "budget", name: "SMIL from past the cap through href", source: svg('<filter id="f"><feGaussianBlur id="b"/></filter><animate href="#b" attributeName="stdDeviation" from="5000" to="1" dur="1s"/>'), code: "SVG_FILTER_LIMIT" },
  { family: "budget", name: "SMIL by past the cap", source: svg('<filter id="f"><feGaussianBlur><animate attributeName="stdDeviation" from="0" by="1000" dur="1s"/></feGaussianBlur></filter>'), code: "SVG_FILTER_LIMIT" },
  { family: "budget", name: "SMIL additive stdDeviation stacking", source: svg('<filter id="f"><feGaussianBlur stdDeviation="100">' + '<animate attributeName="stdDeviation" to="100" additive="sum" dur="1s"/>'.repeat(3) + "</feGaussianBlur></filter>"), code: "SVG_FILTER_LIMIT" },
  { family: "budget", name: "SMIL accumulating stdDeviation", source: svg('<filter id="f"><feGaussianBlur><animate attributeName="stdDeviation" values="0;100" accumulate="sum" repeatCount="indefinite" dur="1s"/></feGaussianBlur></filter>'), code: "SVG_FILTER_LIMIT" },
  { family: "budget", name: "SMIL by-animation of stdDeviation (additive)", source: svg('<filter id="f"><feGaussianBlur><animate attributeName="stdDeviation" by="50" dur="1s"/></feGaussianBlur></filter>'), code: "SVG_FILTER_LIMIT" },
  { family: "budget", name: "too many attributes", source: svg(`<rect ${Array.from({ length: 49 }, (_, i) => `data-a${i}="1"`).join(" ")}/>`), code: "SVG_BUDGET_ATTRIBUTES" },
  { family: "budget", name: "deep nesting", source: svg("<g>".repeat(70) + "</g>".repeat(70)), code: "SVG_BUDGET_DEPTH" },
  { family: "budget", name: "node bomb", source: svg("<rect/>".repeat(20_001)), code: "SVG_BUDGET_NODES" },
  // One attribute is capped at 256 Ki characters, so the path bombs spread over several elements.
  { family: "budget", name: "path command bomb", source: svg(`<path d="M0 0${"z".repeat(60_000)}"/>`.repeat(5)), code: "SVG_BUDGET_PATH_COMMANDS" },
  { family: "budget", name: "implicit path repeats count", source: svg(`<path d="M0 0H${"1 ".repeat(60_000)}"/>`.repeat(5)), code: "SVG_BUDGET_PATH_COMMANDS" },
  { family: "budget", name: "polyline point bomb", source: svg(`<polyline points="${"1 1 ".repeat(63_000)}"/>`.repeat(4)), code: "SVG_BUDGET_PATH_COMMANDS" },
  { family: "budget", name: "text run over the cap once its CDATA is merged", source: svg(`<text>${"a".repeat(10_000)}<![CDATA[${"b".repeat(10_000)}]]></text>`), code: "SVG_BUDGET_TEXT" },
  { family: "budget", name: "over-long attribute value", source: svg(`<path d="M0 0${"z".repeat(262_145)}"/>`), code: "SVG_BUDGET_TEXT" },
  { family: "budget", name: "source over the byte limit", source: svg(`<desc>${"x".repeat(1_048_577)}</desc>`), code: "SVG_BUDGET_BYTES" },
  { family: "budget", name: "malformed path data", source: svg('<path d="M 0 0 L 1"/>'), code: "SVG_PATH_SYNTAX" },
];
