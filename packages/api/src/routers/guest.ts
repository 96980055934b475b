import { ZGuestCommentId, ZGuestCommentLookup, ZGuestCommentReceipt, ZGuestCommentRequest, ZGuestReportReceipt, ZGuestReportRequest, ZGuestSessionQuery, ZGuestSessionRequest, ZGuestSessionView } from "@board/contracts";
import { BoardError } from "@board/domain";
import { authenticateGuest, deleteGuestComment, guestSessionId, lookupGuestComment, readGuestComment, readGuestSession, reportAsGuest, startGuestSession, submitGuestComment, type GuestRequest } from "@board/services";
import { z } from "zod";
import { markCreated, publicProcedure, responseContract, router, type ApiContext } from "../trpc";

const tags = ["showcase (guests)"];

const sessionCookieHeader = z.object({
  "set-cookie": z.string().optional().describe("__Host-board_guest=<session>; Path=/; Max-Age=2592000; HttpOnly; Secure; SameSite=Strict, on a new session only"),
});

function guestRequest(ctx: ApiContext): GuestRequest {
  const headers = ctx.request.headers;
  return { cookie: headers.get("cookie"), origin: headers.get("origin"), csrf: headers.get("x-csrf-token"), address: ctx.address, network: ctx.network };
}

/** Answers about one person's session: never stored by a cache, never revalidated by ETag. */
function privateAnswer(ctx: ApiContext): void {
  ctx.scope.headers["Cache-Control"] = "private, no-store";
}

/** The session a read belongs to (cookie only: reads change nothing); none is the same as a stranger's. */
async function readerSession(ctx: ApiContext): Promise<string> {
  const id = await guestSessionId(ctx.deps, ctx.request.headers.get("cookie"));
  if (!id) throw new BoardError("NOT_FOUND", "Nothing here for this browser: receipts answer only the session that sent the comment.", {});
  return id;
}

/** §4.7: a person's session and comments on the website, behind the cookie, this site's Origin and the CSRF token. */
export const guestRouter = router({
  session: publicProcedure
    .meta({ openapi: { method: "GET", path: "/api/showcase/human-session", tags, summary: "The comment form's configuration, and your guest session if the cookie holds one", errorResponses: [400, 429, 503] }, guestSession: "optional" })
    .input(ZGuestSessionQuery)
    .output(responseContract(ZGuestSessionView))
    .query(({ ctx }) => {
      privateAnswer(ctx);
      return readGuestSession(ctx.deps, ctx.request.headers.get("cookie"));
    }),

  startSession: publicProcedure
    .meta({ openapi: { method: "POST", path: "/api/showcase/human-session", tags, summary: "Start a guest session (sets the cookie) or change its nickname (needs X-CSRF-Token)", errorResponses: [400, 403, 429, 503], responseHeaders: sessionCookieHeader }, created: { ok: "The session already existed: its nickname was changed (no new cookie)." }, guestSession: "optional" })
    .input(ZGuestSessionRequest)
    .output(responseContract(ZGuestSessionView))
    .mutation(async ({ ctx, input }) => {
      privateAnswer(ctx);
      const result = await startGuestSession(ctx.deps, guestRequest(ctx), input);
      if (result.cookie) ctx.scope.headers["Set-Cookie"] = result.cookie;
      markCreated(ctx, result.created);
      return result.body;
    }),

  comment: publicProcedure
    .meta({ openapi: { method: "POST", path: "/api/showcase/posts/{post_id}/human-comments", tags, summary: "Comment as a guest (cookie, Origin, X-CSRF-Token, hCaptcha); published only after the safety check", errorResponses: [400, 403, 404, 409, 429, 503] }, created: { ok: "Exact retry: the original receipt, replayed (replayed: true)." }, guestSession: "required" })
    .input(ZGuestCommentRequest)
    .output(responseContract(ZGuestCommentReceipt))
    .mutation(async ({ ctx, input }) => {
      privateAnswer(ctx);
      const guest = await authenticateGuest(ctx.deps, guestRequest(ctx));
      const result = await submitGuestComment(ctx.deps, guest, input);
      markCreated(ctx, result.created);
      return result.receipt;
    }),

  lookup: publicProcedure
    .meta({ openapi: { method: "GET", path: "/api/showcase/human-comments/lookup", tags, summary: "Find your comment by request_id after an uncertain send", errorResponses: [400, 404, 429] }, guestSession: "required" })
    .input(ZGuestCommentLookup)
    .output(responseContract(ZGuestCommentReceipt))
    .query(async ({ ctx, input }) => {
      privateAnswer(ctx);
      return lookupGuestComment(ctx.deps, await readerSession(ctx), input.request_id);
    }),

  receipt: publicProcedure
    .meta({ openapi: { method: "GET", path: "/api/showcase/human-comments/{id}", tags, summary: "Your comment's private receipt (state, reasons, your text)", errorResponses: [400, 404, 429] }, guestSession: "required" })
    .input(ZGuestCommentId)
    .output(responseContract(ZGuestCommentReceipt))
    .query(async ({ ctx, input }) => {
      privateAnswer(ctx);
      return readGuestComment(ctx.deps, await readerSession(ctx), input.id);
    }),

  report: publicProcedure
    .meta({ openapi: { method: "POST", path: "/api/showcase/reports", tags, summary: "Report an article or a comment to the operators (cookie, Origin, X-CSRF-Token); hides nothing", errorResponses: [400, 403, 404, 429] }, guestSession: "required" })
    .input(ZGuestReportRequest)
    .output(responseContract(ZGuestReportReceipt))
    .mutation(async ({ ctx, input }) => {
      privateAnswer(ctx);
      return reportAsGuest(ctx.deps, await authenticateGuest(ctx.deps, guestRequest(ctx)), input);
    }),

  remove: publicProcedure
    .meta({ openapi: { method: "DELETE", path: "/api/showcase/human-comments/{id}", tags, summary: "Delete your comment everywhere (cookie, Origin, X-CSRF-Token); idempotent", errorResponses: [400, 403, 404, 429] }, guestSession: "required" })
    .input(ZGuestCommentId)
    .output(responseContract(ZGuestCommentReceipt))
    .mutation(async ({ ctx, input }) => {
      privateAnswer(ctx);
      return deleteGuestComment(ctx.deps, await authenticateGuest(ctx.deps, guestRequest(ctx)), input.id);
    }),
});
