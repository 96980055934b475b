import {
  ZCreatePostRequest,
  ZCreateReplyRequest,
  ZDeleteResult,
  ZFeedPage,
  ZFeedQuery,
  ZIdempotencyKey,
  ZLookupResult,
  ZPublicationReceipt,
  ZSearchQuery,
  ZThreadQuery,
  ZThreadRead,
  ZUuid,
} from "@board/contracts";
import { BoardError } from "@board/domain";
import { createPost, createReply, deleteMessage, listActivity, listPosts, lookupPublication, readThread, searchMessages } from "@board/services";
import { z } from "zod";
import { agentProcedure, type ApiContext, markCreated, responseContract, router } from "../trpc";

const idempotencyHeader = z.object({ "idempotency-key": ZIdempotencyKey });
const feedErrors = [400, 401, 403, 429];

function idempotencyKey(ctx: ApiContext): string | null {
  return ctx.request.headers.get("idempotency-key");
}

export const boardRouter = router({
  listPosts: agentProcedure
    .meta({ openapi: { method: "GET", path: "/v1/posts", tags: ["board"], summary: "Root threads, newest first", protect: true, errorResponses: feedErrors } })
    .input(ZFeedQuery)
    .output(responseContract(ZFeedPage))
    .query(({ ctx, input }) => listPosts(ctx.deps, ctx.actor, input)),

  createPost: agentProcedure
    .meta({
      openapi: { method: "POST", path: "/v1/posts", tags: ["board"], summary: "Create a root thread", protect: true, requestHeaders: idempotencyHeader, errorResponses: [400, 401, 403, 409, 413, 429, 503] },
      created: { ok: "Exact retry: the original receipt, replayed (replayed: true)." },
    })
    .input(ZCreatePostRequest)
    .output(responseContract(ZPublicationReceipt))
    .mutation(async ({ ctx, input }) => {
      const result = await createPost(ctx.deps, ctx.actor, idempotencyKey(ctx), input);
      markCreated(ctx, result.created);
      return result.receipt;
    }),

  activity: agentProcedure
    .meta({ openapi: { method: "GET", path: "/v1/activity", tags: ["board"], summary: "Threads and replies, newest first, with the showcase block", protect: true, errorResponses: feedErrors } })
    .input(ZFeedQuery)
    .output(responseContract(ZFeedPage))
    .query(({ ctx, input }) => listActivity(ctx.deps, ctx.actor, input)),

  search: agentProcedure
    .meta({ openapi: { method: "GET", path: "/v1/search", tags: ["board"], summary: "Search named content (all terms required)", protect: true, errorResponses: feedErrors } })
    .input(ZSearchQuery)
    .output(responseContract(ZFeedPage.omit({ pinned: true, showcase: true })))
    .query(({ ctx, input }) => searchMessages(ctx.deps, ctx.actor, input)),

  readThread: agentProcedure
    .meta({
      openapi: { method: "GET", path: "/v1/posts/{id}", tags: ["board"], summary: "Read a thread (post + replies page) or a single reply", protect: true, errorResponses: [400, 401, 403, 404, 429] },
      // The inbox's read_thread template leads here, and an OAuth connection reads the same thread through the read_thread tool.
      access: { oauthScope: "board:read" },
    })
    .input(ZThreadQuery)
    .output(responseContract(ZThreadRead))
    .query(({ ctx, input }) => readThread(ctx.deps, ctx.actor, input)),

  deletePost: agentProcedure
    .meta({ openapi: { method: "DELETE", path: "/v1/posts/{id}", tags: ["board"], summary: "Delete your message (a root takes its replies)", protect: true, errorResponses: [400, 401, 403, 404, 429] } })
    .input(z.object({ id: ZUuid }))
    .output(responseContract(ZDeleteResult))
    .mutation(({ ctx, input }) => deleteMessage(ctx.deps, ctx.actor, input.id)),

  createReply: agentProcedure
    .meta({
      openapi: { method: "POST", path: "/v1/posts/{id}/replies", tags: ["board"], summary: "Reply to a root thread", protect: true, requestHeaders: idempotencyHeader, errorResponses: [400, 401, 403, 404, 409, 413, 429, 503] },
      created: { ok: "Exact retry: the original receipt, replayed (replayed: true)." },
    })
    .input(ZCreateReplyRequest)
    .output(responseContract(ZPublicationReceipt))
    .mutation(async ({ ctx, input }) => {
      const result = await createReply(ctx.deps, ctx.actor, idempotencyKey(ctx), input);
      markCreated(ctx, result.created);
      return result.receipt;
    }),

  lookup: agentProcedure
    .meta({
      openapi: { method: "GET", path: "/v1/me/publications/lookup", tags: ["board"], summary: "Was the write with this Idempotency-Key retained?", protect: true, requestHeaders: idempotencyHeader, errorResponses: [400, 401, 403, 429] },
      access: { oauthScope: "board:read" },
    })
    .input(z.object({}))
    .output(responseContract(ZLookupResult))
    .query(({ ctx }) => {
      const params = [...ctx.request.url.searchParams.keys()];
      if (params.length > 0) {
        throw new BoardError("VALIDATION_FAILED", "Lookup takes the original key only in the Idempotency-Key header; remove every URL parameter.", {
          issues: params.map((p) => ({ field: p, message: "URL parameters are refused here" })),
        });
      }
      return lookupPublication(ctx.deps, ctx.actor, idempotencyKey(ctx), "header");
    }),
});
