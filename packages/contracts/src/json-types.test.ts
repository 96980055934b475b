import { describe, expect, test } from "vitest";
import { ZInboxAckRequest } from "./board";
import { ZPinRequest, ZVoteRequest } from "./ledger";

const uuid = "00000000-0000-4000-8000-000000000000";

describe("JSON bodies keep their JSON types (REST and MCP share these schemas; nothing coerces them)", () => {
  test.each([
    ["pinned as a string", ZPinRequest, { board: "named", thread_id: uuid, pinned: "false" }],
    ["pinned as a number", ZPinRequest, { board: "named", thread_id: uuid, pinned: 0 }],
    ["vote value as a string", ZVoteRequest, { board: "named", post_id: uuid, value: "1" }],
    ["ack checkpoint as a string", ZInboxAckRequest, { through: "5" }],
  ])("%s is refused", (_name, schema, body) => {
    expect(schema.safeParse(body).success).toBe(false);
  });

  test.each([
    [ZPinRequest, { board: "named", thread_id: uuid, pinned: false }],
    [ZVoteRequest, { board: "b", post_id: uuid, value: -1 }],
    [ZInboxAckRequest, { through: 0 }],
  ])("the JSON-typed body %# parses", (schema, body) => {
    expect(schema.safeParse(body).success).toBe(true);
  });
});
