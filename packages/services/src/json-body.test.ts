import { describe, expect, test } from "vitest";
import { serializeJson, withSerializedFields } from "./json-body";

describe("serializeJson", () => {
  test("an unmarked value is JSON.stringify's text", () => {
    for (const value of [{ a: 1, b: [true, null] }, [1, "x"], "text", 3, null]) expect(serializeJson(value)).toBe(JSON.stringify(value));
  });

  test("a marked field's text is spliced in verbatim, the other fields serialised around it in order", () => {
    const content = { title: "T", blocks: [{ type: "paragraph", text: 'say "hi" \u2028' }] };
    const canonical = '{"blocks":[{"text":"say \\"hi\\" \u2028","type":"paragraph"}],"title":"T"}';
    const receipt = withSerializedFields({ revision_id: "r1", canonical_content: content, replayed: false }, { canonical_content: canonical });
    const text = serializeJson(receipt);
    expect(text).toBe(`{"revision_id":"r1","canonical_content":${canonical},"replayed":false}`);
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(receipt)));
  });

  test("the mark is not enumerable: a copy, or the value under JSON.stringify, serialises as usual", () => {
    const receipt = withSerializedFields({ canonical_content: { a: 1 } }, { canonical_content: '{"a":1}' });
    expect(Object.keys(receipt)).toEqual(["canonical_content"]);
    expect(serializeJson({ ...receipt })).toBe('{"canonical_content":{"a":1}}');
  });

  test("a field value that looks like another field's placeholder cannot take the spliced text", () => {
    const receipt = withSerializedFields({ note: "\u0000serialized:canonical_content", canonical_content: { a: 1 } }, { canonical_content: '{"a":1}' });
    expect(JSON.parse(serializeJson(receipt))).toEqual({ note: "\u0000serialized:canonical_content", canonical_content: { a: 1 } });
  });
});
