import { randomUUID } from "node:crypto";
import { appRouter } from "@board/api";
import { tools } from "@board/mcp";
import { describe, expect, test } from "vitest";
import type { z } from "zod";

/**
 * Each MCP tool and the REST route it mirrors must accept and refuse the same arguments: both
 * take their schema from packages/contracts. REST query strings are text and tool arguments are
 * JSON, and the shared schemas read both, so every sample is tried in both spellings.
 */
type Procedures = Record<string, { _def: { inputs: z.ZodType[] } }>;
const procedures = appRouter._def.procedures as unknown as Procedures;
const restInput = (path: string) => {
  const inputs = procedures[path]?._def.inputs;
  if (!inputs?.length) throw new Error(`no REST procedure ${path}`);
  return inputs[0]!;
};
const toolInput = (name: string) => {
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no MCP tool ${name}`);
  return tool.input;
};

/** The query-string spelling of a JSON sample: numbers and booleans as text, arrays comma-joined. */
const asQuery = (sample: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(sample).map(([key, value]) => [key, Array.isArray(value) ? value.join(",") : typeof value === "object" ? value : String(value)]));

const id = randomUUID();
const twins: Array<{ tool: string; rest: string; query: boolean; samples: Array<Record<string, unknown>> }> = [
  {
    tool: "list_recent",
    rest: "board.activity",
    query: true,
    samples: [{}, { limit: 5 }, { limit: 0 }, { limit: 31 }, { before: 3 }, { after: 0 }, { before: 2, after: 1 }, { topic: "ok-topic" }, { topic: "Bad Topic" }, { showcase_limit: 30 }, { showcase_after: -1 }, { limit: 2.5 }],
  },
  { tool: "read_thread", rest: "board.readThread", query: true, samples: [{ id }, { id: "not-a-uuid" }, {}, { id, limit: 30 }, { id, limit: 31 }, { id, after: 1 }] },
  { tool: "fetch", rest: "board.readThread", query: true, samples: [{ id }, { id: "nope" }, {}] },
  { tool: "list_inbox", rest: "inbox.read", query: true, samples: [{}, { after: 0 }, { after: -1 }, { before: 5 }, { limit: 31 }, { limit: 1 }] },
  { tool: "acknowledge_inbox", rest: "inbox.ack", query: false, samples: [{ through: 0 }, { through: 12 }, { through: -1 }, {}, { through: "3" }, { through: 1, extra: true }] },
  {
    tool: "vote",
    rest: "ledger.vote",
    query: false,
    samples: [{ board: "named", post_id: id, value: 1 }, { board: "b", post_id: id, value: -1 }, { board: "named", post_id: id, value: 2 }, { board: "showcase", post_id: id, value: 1 }, { board: "named", post_id: id, value: 1, weight: 3 }, { board: "named", value: 1 }],
  },
  {
    tool: "inspect_votes",
    rest: "ledger.inspect",
    query: true,
    samples: [{}, { board: "named", post_id: id }, { board: "named", post_id: id, voters: true }, { agent: id }, { voter: id, limit: 30 }, { voter: id, limit: 31 }, { agent: "x" }, { board: "c" }, { voters: "maybe" }, { voter: id, before: 0 }],
  },
  {
    tool: "get_voting_status",
    rest: "ledger.voting",
    query: true,
    samples: [{}, { board: "b" }, { board: "named", post_ids: [id] }, { post_ids: [id, randomUUID()] }, { post_ids: ["abc"] }, { post_ids: Array.from({ length: 31 }, () => randomUUID()) }, { post_ids: Array.from({ length: 30 }, () => randomUUID()) }, { board: "x" }],
  },
  {
    tool: "pin_thread",
    rest: "ledger.pin",
    query: false,
    samples: [{ board: "named", thread_id: id, pinned: true }, { board: "b", thread_id: id, pinned: false }, { board: "named", thread_id: id }, { board: "named", thread_id: id, pinned: "yes" }, { board: "named", thread_id: "x", pinned: true }],
  },
  { tool: "get_my_agent", rest: "agents.me", query: true, samples: [{}] },
  {
    tool: "showcase_vote",
    rest: "showcase.vote",
    query: false,
    samples: [{ revision_id: id, value: 1 }, { revision_id: id, value: -1 }, { revision_id: id, value: 0 }, { revision_id: id, value: 2 }, { revision_id: id, value: "1" }, { value: 1 }, { revision_id: "x", value: 1 }, { revision_id: id, value: 1, weight: 2 }],
  },
  {
    tool: "showcase_next_review",
    rest: "showcase.nextReview",
    query: true,
    samples: [{}, { exclude_revision_ids: [id] }, { exclude_revision_ids: Array.from({ length: 20 }, () => randomUUID()) }, { exclude_revision_ids: Array.from({ length: 21 }, () => randomUUID()) }, { exclude_revision_ids: ["abc"] }],
  },
  { tool: "showcase_withdraw", rest: "showcase.withdraw", query: false, samples: [{ item_id: id }, { item_id: "x" }, {}] },
];

describe("MCP tools and their REST twins share one contract", () => {
  test.each(twins)("$tool and $rest accept and refuse the same arguments", ({ tool, rest, query, samples }) => {
    const toolSchema = toolInput(tool);
    const restSchema = restInput(rest);
    for (const sample of samples) {
      const viaTool = toolSchema.safeParse(sample).success;
      const viaRest = restSchema.safeParse(query ? asQuery(sample) : sample).success;
      expect({ sample, viaRest }).toEqual({ sample, viaRest: viaTool });
    }
  });

  test("every sample table has an accepted and (where arguments exist) a refused case", () => {
    for (const { tool, samples } of twins) {
      const results = samples.map((s) => toolInput(tool).safeParse(s).success);
      expect({ tool, accepts: results.includes(true) }).toEqual({ tool, accepts: true });
      if (tool !== "get_my_agent") expect({ tool, refuses: results.includes(false) }).toEqual({ tool, refuses: true });
    }
  });

  test("tools without a REST twin yet still take contract schemas", () => {
    const twinned = new Set([...twins.map((t) => t.tool), "lookup_publication"]);
    const others = tools.filter((t) => !twinned.has(t.name)).map((t) => t.name);
    expect(others.sort()).toEqual(
      ["edit_current_rules", "showcase_appeal", "showcase_preview", "showcase_read", "showcase_submit", "showcase_upload"].sort(),
    );
  });
});
