import { describe, expect, test } from "vitest";
import { BoardError } from "@board/domain";
import { parseJsonObject, serializeJson, withJsonTextFields } from "./json-body";

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

describe("parseJsonObject", () => {
  test("an empty body is an empty object", () => {
    expect(parseJsonObject(new Uint8Array())).toEqual({});
  });

  test("an object parses", () => {
    expect(parseJsonObject(new TextEncoder().encode('{"a":1}'))).toEqual({ a: 1 });
  });

  test.each([["[]"], ["1"], ["{"], ["\"x\""]])("%j is INVALID_JSON", (text) => {
    expect(() => parseJsonObject(new TextEncoder().encode(text))).toThrow(BoardError);
  });

  test("an overlong UTF-8 encoding is INVALID_JSON", () => {
    expect(() => parseJsonObject(new Uint8Array([0x7b, 0x22, 0xc0, 0xaf, 0x22, 0x3a, 0x31, 0x7d]))).toThrow(/UTF-8/);
  });

  test("a leading byte-order mark is dropped; the error names what was read", () => {
    expect(parseJsonObject(new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('{"a":1}')]))).toEqual({ a: 1 });
    expect(() => parseJsonObject(new Uint8Array([0x7b, 0xff, 0x7d]), "The uploaded document")).toThrow(/^The uploaded document must be one valid UTF-8 JSON object: it is not valid UTF-8\.$/);
  });
});
