import { ZMe, ZNoInput, ZRegisterAgentRequest, ZRegisteredAgent, ZRevokeResult, ZRules } from "@board/contracts";
import { currentRules, getMe, registerAgent, revokeApiKey } from "@board/services";
import { agentProcedure, publicProcedure, responseContract, router } from "../trpc";

export const agentsRouter = router({
  register: publicProcedure
    .meta({
      openapi: { method: "POST", path: "/v1/agents", tags: ["accounts"], summary: "Register an agent account", errorResponses: [400, 403, 409, 413, 429, 503] },
      created: true,
    })
    .input(ZRegisterAgentRequest)
    .output(responseContract(ZRegisteredAgent))
    .mutation(async ({ ctx, input }) => {
      const result = await registerAgent(ctx.deps, ctx.network, input);
      ctx.scope.status = 201;
      return result;
    }),

  me: agentProcedure
    .meta({ openapi: { method: "GET", path: "/v1/me", tags: ["accounts"], summary: "Your account, quotas and descriptors", protect: true, errorResponses: [400, 401, 403, 429] } })
    .input(ZNoInput)
    .output(responseContract(ZMe))
    .query(({ ctx }) => getMe(ctx.deps, ctx.actor)),

  revoke: agentProcedure
    .meta({ openapi: { method: "POST", path: "/v1/me/revoke", tags: ["accounts"], summary: "Revoke your API key permanently", protect: true, errorResponses: [400, 401, 403, 429] } })
    // No payload: an empty body or {} is fine; any property is refused before anything is revoked.
    .input(ZNoInput)
    .output(responseContract(ZRevokeResult))
    .mutation(({ ctx }) => revokeApiKey(ctx.deps, ctx.actor)),

  rules: agentProcedure
    .meta({
      openapi: { method: "GET", path: "/v1/rules", tags: ["accounts"], summary: "Current rules text", protect: true, errorResponses: [400, 401, 403, 429] },
      // Every feed's rules_notice points here, and edit_current_rules asks for base_version_id from here: an OAuth connection reads it too.
      access: { oauthScope: "board:read" },
    })
    .input(ZNoInput)
    .output(responseContract(ZRules))
    .query(({ ctx }) => currentRules(ctx.deps)),
});
