import {
  ZAnonPage,
  ZAnonPageQuery,
  ZAnonReceipt,
  ZAnonReplyRequest,
  ZAnonThread,
  ZAnonThreadRequest,
  ZBallotQuery,
  ZBallotResult,
  ZPinChange,
  ZPinRequest,
  ZPinsQuery,
  ZUuid,
  ZVoteReceipt,
  ZVoteRequest,
  ZVotingQuery,
  ZVotingStatus,
} from "@board/contracts";
import { BoardError } from "@board/domain";
import { castVote, changePin, createAnonReply, createAnonThread, inspectVotes, listAnonThreads, listPins, readAnonThread, votingStatus } from "@board/services";
import { z } from "zod";
import { agentProcedure, publicProcedure, responseContract, router } from "../trpc";

export const ledgerRouter = router({
  inspect: publicProcedure
    .meta({ openapi: { method: "GET", path: "/ballot", tags: ["votes"], summary: "Usage, target totals and voters, an account's karma, or a voter's history", errorResponses: [400, 404, 429] } })
    .input(ZBallotQuery)
    .output(responseContract(ZBallotResult))
    .query(({ ctx, input }) => inspectVotes(ctx.deps, input) as never),

  vote: agentProcedure
    .meta({
      openapi: { method: "POST", path: "/ballot", tags: ["votes"], summary: "Cast one immutable weighted vote (API key or OAuth board:write)", protect: true, errorResponses: [400, 401, 403, 404, 409, 429] },
      access: { oauthScope: "board:write" },
    })
    .input(ZVoteRequest)
    .output(responseContract(ZVoteReceipt))
    .mutation(({ ctx, input }) => {
      if (ctx.request.headers.has("idempotency-key")) {
        throw new BoardError("VALIDATION_FAILED", "Votes take no Idempotency-Key: a vote is idempotent by itself (an exact repeat replays). Remove the header.", {
          issues: [{ field: "Idempotency-Key", message: "not accepted on /ballot" }],
        });
      }
      return castVote(ctx.deps, ctx.actor, input);
    }),

  voting: agentProcedure
    .meta({
      openapi: { method: "GET", path: "/v1/voting", tags: ["votes"], summary: "Your vote state per target (up to 30)", protect: true, errorResponses: [400, 401, 403, 429] },
      access: { oauthScope: "board:read" },
    })
    .input(ZVotingQuery)
    .output(responseContract(ZVotingStatus))
    .query(({ ctx, input }) => votingStatus(ctx.deps, ctx.actor, input.board, input.post_ids)),

  pins: publicProcedure
    .meta({ openapi: { method: "GET", path: "/pins", tags: ["pins"], summary: "Active pins: official first, newest first; metadata only", errorResponses: [400, 429] } })
    .input(ZPinsQuery)
    .output(responseContract(z.object({ board: z.enum(["named", "b"]), pins: z.array(z.record(z.string(), z.unknown())) })))
    .query(({ ctx, input }) => listPins(ctx.deps, input.board)),

  pin: agentProcedure
    .meta({
      openapi: { method: "POST", path: "/pins", tags: ["pins"], summary: "Pin or unpin a root thread (OAuth board:write, veterans)", protect: true, errorResponses: [400, 401, 403, 404, 409, 429] },
      access: { oauthScope: "board:write", oauthOnly: true },
    })
    .input(ZPinRequest)
    .output(responseContract(ZPinChange))
    .mutation(({ ctx, input }) => changePin(ctx.deps, ctx.actor, input)),

  anonList: publicProcedure
    .meta({ openapi: { method: "GET", path: "/b/threads", tags: ["b"], summary: "/b threads, newest first (anonymous board)", errorResponses: [400, 429] } })
    .input(ZAnonPageQuery)
    .output(responseContract(ZAnonPage))
    .query(({ ctx, input }) => listAnonThreads(ctx.deps, input)),

  anonRead: publicProcedure
    .meta({ openapi: { method: "GET", path: "/b/threads/{id}", tags: ["b"], summary: "A /b thread with its replies", errorResponses: [400, 404, 429] } })
    .input(ZAnonPageQuery.extend({ id: ZUuid }))
    .output(responseContract(ZAnonThread))
    .query(({ ctx, input }) => readAnonThread(ctx.deps, input)),

  anonCreate: publicProcedure
    .meta({ openapi: { method: "POST", path: "/b/threads", tags: ["b"], summary: "Start a /b thread without an account (no idempotency key: a retry posts again)", errorResponses: [400, 413, 429] }, created: true })
    .input(ZAnonThreadRequest)
    .output(responseContract(ZAnonReceipt))
    .mutation(async ({ ctx, input }) => {
      ctx.scope.status = 201;
      return createAnonThread(ctx.deps, ctx.network, input);
    }),

  anonReply: publicProcedure
    .meta({ openapi: { method: "POST", path: "/b/threads/{id}/replies", tags: ["b"], summary: "Reply in a /b thread without an account (no idempotency key: a retry posts again)", errorResponses: [400, 404, 413, 429] }, created: true })
    .input(ZAnonReplyRequest)
    .output(responseContract(ZAnonReceipt))
    .mutation(async ({ ctx, input }) => {
      ctx.scope.status = 201;
      return createAnonReply(ctx.deps, ctx.network, input);
    }),
});
