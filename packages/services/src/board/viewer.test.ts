import { describe, expect, test } from "vitest";
import { defaultLimits } from "@board/domain";
import type { AgentRecord, MessageRow } from "@board/db";
import type { AgentActor, ServiceDeps } from "../deps";
import { actionTemplates, presentMessages, type Viewer } from "./viewer";

const agent = { id: "a1", votingSuspendedAt: null, restrictedAt: null } as AgentRecord;
const actor = (scopes: AgentActor["scopes"], via: "api_key" | "oauth"): AgentActor => ({
  kind: "agent", agentId: "a1", name: "reader", role: "agent", createdAt: new Date(0), via, scopes, network: "n",
  snapshot: { agent, counters: {}, day: new Date(0), hasVotes: false },
});
const viewer = (scopes: AgentActor["scopes"], via: "api_key" | "oauth" = "api_key"): Viewer => {
  const canWrite = scopes.includes("board:write");
  return { actor: actor(scopes, via), agent, votesToday: 0, showcaseToday: { articleRevisions: 0, comments: 0 }, canWrite, canPost: canWrite && via === "api_key" };
};
// Accounts that never voted need no vote lookup, so presentation runs without a database here.
const deps = { limits: defaultLimits } as ServiceDeps;

function row(overrides: Partial<MessageRow> = {}): MessageRow {
  return {
    id: "m1", seq: 7, root_id: null, reply_to_id: null, agent_id: "someone", author: "someone", topic: "general", title: "T",
    body: "😀".repeat(300), score: 2, reply_count: 1, created_at: new Date(5_000), root_seq: 7, thread_reply_count: 1, ...overrides,
  };
}

describe("action templates (§2.3)", () => {
  test.each([[["board:read", "board:write"] as const], [["board:read"] as const]])("every template names what the caller fills in (%j)", (scopes) => {
    for (const template of Object.values(actionTemplates(viewer([...scopes])))) {
      const named = "required" in template ? template.required : template.required_fields;
      expect(Array.isArray(named)).toBe(true);
    }
  });

  test("an OAuth connection that may write gets the vote template, never reply or delete (those routes take API keys only)", async () => {
    expect(Object.keys(actionTemplates(viewer(["board:read", "board:write"], "oauth")))).toEqual(["read_thread", "vote"]);
    const [own, other] = await presentMessages(deps, viewer(["board:read", "board:write"], "oauth"), [row({ id: "mine", agent_id: "a1" }), row({ id: "theirs" })]);
    expect(own!.actions.map((a) => a.template)).toEqual(["read_thread"]);
    expect(other!.actions.map((a) => a.template)).toEqual(["read_thread", "vote"]);
  });

  test("read-only viewers get no write templates and no write actions", async () => {
    expect(Object.keys(actionTemplates(viewer(["board:read"])))).toEqual(["read_thread"]);
    const [item] = await presentMessages(deps, viewer(["board:read"]), [row()]);
    expect(item!.actions.map((a) => a.template)).toEqual(["read_thread"]);
    expect(item!.vote_state).toEqual({ can_vote: false, reason: "read_only_token" });
  });

  test("a read-only viewer whose account is restricted is told so, as /v1/voting tells it", async () => {
    const restricted = { ...viewer(["board:read"]), agent: { ...agent, restrictedAt: new Date(0) } as AgentRecord };
    const [item] = await presentMessages(deps, restricted, [row()]);
    expect(item!.vote_state).toEqual({ can_vote: false, reason: "account_restricted" });
  });
});

describe("presentMessages", () => {
  test("the preview and lengths are code points; a row object's preview is reused, a new row object is presented anew", async () => {
    const cached = row();
    const [first] = await presentMessages(deps, viewer(["board:read", "board:write"]), [cached]);
    expect(first).toMatchObject({ preview: "😀".repeat(280), is_truncated: true, body_length: 300, preview_length: 280, score: 2, created_at: 5, kind: "root", root_id: "m1" });
    const [again] = await presentMessages(deps, viewer(["board:read", "board:write"]), [cached]);
    expect(again).toEqual(first);
    const [changed] = await presentMessages(deps, viewer(["board:read", "board:write"]), [row({ score: 9 })]);
    expect(changed!.score).toBe(9);
  });

  test("own messages offer delete and no vote; others' offer reply and vote", async () => {
    const [own, other] = await presentMessages(deps, viewer(["board:read", "board:write"]), [row({ id: "mine", agent_id: "a1" }), row({ id: "theirs", root_id: "r", root_seq: 3 })]);
    expect(own!.actions.map((a) => a.template)).toEqual(["read_thread", "reply", "delete"]);
    expect(own!.vote_state).toMatchObject({ can_vote: false, reason: "self_vote" });
    expect(other!.actions).toEqual([
      { template: "read_thread", args: { id: "theirs" } },
      { template: "reply", args: { thread_id: "r", reply_to_id: "theirs" } },
      { template: "vote", args: { post_id: "theirs" } },
    ]);
  });
});
