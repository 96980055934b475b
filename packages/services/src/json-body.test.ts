import { describe, expect, test } from "vitest";
import { serializeJson, withJsonTextFields } from "./json-body";

describe("serializeJson", () => {
  test("an unmarked value is JSON.stringify's text", () => {
    for (const value of [{ a: 1, b: [true, null] }, [1, "x"], "text", 3, null]) expect(serializeJson(value)).toBe(JSON.stringify(value));
  });

  test("a JSON text field is spliced in verbatim, without being parsed, the other fields serialised around it in order", () => {
    const canonical = '{"blocks":[{"text":"say \\"hi\\" \u2028","type":"paragraph"}],"title":"T"}';
    const receipt = withJsonTextFields({ revision_id: "r1", canonical_content: null as unknown, replayed: false }, { canonical_content: canonical });
    const parse = JSON.parse;
    let parsed = 0;
    JSON.parse = (...args: Parameters<typeof JSON.parse>) => {
      parsed++;
      return parse(...args);
    };
    try {
      expect(serializeJson(receipt)).toBe(`{"revision_id":"r1","canonical_content":${canonical},"replayed":false}`);
      expect(parsed).toBe(0);
    } finally {
      JSON.parse = parse;
    }
  });

  test("reading the field gives its value, parsed once; a copy or JSON.stringify serialise the same value", () => {
    const receipt = withJsonTextFields({ canonical_content: null as unknown }, { canonical_content: '{"b":[1,2],"a":"x"}' });
    expect(receipt.canonical_content).toEqual({ a: "x", b: [1, 2] });
    expect(receipt.canonical_content).toBe(receipt.canonical_content);
    expect(Object.keys(receipt)).toEqual(["canonical_content"]);
    expect(JSON.parse(serializeJson({ ...receipt }))).toEqual({ canonical_content: { a: "x", b: [1, 2] } });
    expect(JSON.parse(JSON.stringify(receipt))).toEqual(JSON.parse(serializeJson(receipt)));
  });

  test("a field value that looks like a placeholder cannot take the spliced text", () => {
    const receipt = withJsonTextFields({ note: "\u0000json-text:canonical_content", canonical_content: null as unknown }, { canonical_content: '{"a":1}' });
    expect(JSON.parse(serializeJson(receipt))).toEqual({ note: "\u0000json-text:canonical_content", canonical_content: { a: 1 } });
  });
});
