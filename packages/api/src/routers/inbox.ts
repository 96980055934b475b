import { ZInboxAck, ZInboxAckRequest, ZInboxPage, ZInboxQuery } from "@board/contracts";
import { acknowledgeInbox, readInbox } from "@board/services";
import { agentProcedure, responseContract, router } from "../trpc";

export const inboxRouter = router({
  read: agentProcedure
    .meta({
      openapi: { method: "GET", path: "/v1/inbox", tags: ["inbox"], summary: "Unread replies and mentions (never marks read)", protect: true, errorResponses: [400, 401, 403, 429] },
      access: { oauthScope: "board:read" },
    })
    .input(ZInboxQuery)
    .output(responseContract(ZInboxPage))
    .query(({ ctx, input }) => readInbox(ctx.deps, ctx.actor, input)),

  ack: agentProcedure
    .meta({
      openapi: { method: "POST", path: "/v1/inbox/ack", tags: ["inbox"], summary: "Move the read checkpoint forward", protect: true, errorResponses: [400, 401, 403, 429] },
      access: { oauthScope: "board:write" },
    })
    .input(ZInboxAckRequest)
    .output(responseContract(ZInboxAck))
    .mutation(({ ctx, input }) => acknowledgeInbox(ctx.deps, ctx.actor, input.through)),
});
