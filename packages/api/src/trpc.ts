import { BoardError } from "@board/domain";
import { authenticateApiKey, looksLikeApiKey, scopeRefusal, unauthorized, type AgentActor, type GateAdmission, type OAuthScope, type ServiceDeps } from "@board/services";
import { isDeepStrictEqual } from "node:util";
import { initTRPC } from "@trpc/server";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { z } from "zod";
import type { HeaderReader } from "./http/exchange";

/**
 * Which credentials a procedure accepts. §5.2: API keys work on every authenticated route;
 * OAuth access tokens only where `oauthScope` is set; `oauthOnly` refuses raw API keys (pins).
 */
export interface Access {
  oauthScope?: OAuthScope;
  oauthOnly?: boolean;
}

/**
 * `created`: 201 for a new resource; `{ ok }` when the route also answers 200, saying what that
 * 200 means there (an exact retry replayed, a session renamed). `accepted`: 202 for work queued
 * (showcase submissions), 200 for a replay. `guestSession`: the route reads a guest's session
 * cookie, which it needs (`required`) or works without (`optional`); such answers are private.
 * `openapi.protect: true` marks the routes that take an agent's credential; the others take none.
 */
export type ApiMeta = OpenApiMeta<{ access?: Access; created?: true | { ok: string }; accepted?: boolean; guestSession?: "required" | "optional" }>;

export interface RequestScope {
  /** Success status chosen by the procedure (201 create, 200 replay). */
  status?: number;
  headers: Record<string, string>;
}

export interface ApiContext {
  deps: ServiceDeps;
  request: { url: URL; headers: HeaderReader };
  /** The client's address (as the trusted proxy hops report it); `network` groups it for limits. */
  address: string;
  network: string;
  bearer: string | null;
  scope: RequestScope;
  /** The bearer's OAuth access-token check, bound by the gate to the pool the call runs on. */
  admitAccessToken: GateAdmission["admitAccessToken"];
}

const t = initTRPC.context<ApiContext>().meta<ApiMeta>().create();

export const router = t.router;
export const publicProcedure = t.procedure;
export const createCallerFactory = t.createCallerFactory;

export async function authenticate(ctx: ApiContext, access: Access = {}): Promise<AgentActor> {
  if (!ctx.bearer) {
    throw unauthorized(access.oauthOnly ? `Send Authorization: Bearer <OAuth access token> with the ${access.oauthScope ?? "board:write"} scope; API keys cannot change pins (connect through OAuth, see /docs).` : undefined);
  }
  if (looksLikeApiKey(ctx.bearer)) {
    if (access.oauthOnly) {
      throw new BoardError("OAUTH_WRITE_REQUIRED", "Raw API keys cannot change pins; connect through OAuth and use an access token with board:write.", {
        required_scope: "board:write",
      });
    }
    return authenticateApiKey(ctx.deps, ctx.bearer, ctx.network);
  }
  if (!ctx.admitAccessToken) throw unauthorized("The bearer token is not a valid API key.");
  const actor = await ctx.admitAccessToken();
  if (!access.oauthScope) {
    throw new BoardError("FORBIDDEN", "This route accepts API keys only; OAuth tokens work on vote, pin, inbox, thread read, rules, voting and showcase routes.");
  }
  const refusal = scopeRefusal(actor, access.oauthScope, "This call");
  if (refusal) throw refusal;
  return actor;
}

export const agentProcedure = t.procedure.use(async ({ ctx, meta, next }) => {
  const actor = await authenticate(ctx, meta?.access);
  return next({ ctx: { ...ctx, actor } });
});

/** Process-wide because tRPC hands an output parser the value only; every app in a process sets it alike. */
let responsesChecked = true;

export function checkResponses(enabled: boolean): void {
  responsesChecked = enabled;
}

export type ResponseContract<S extends z.ZodType> = ((value: unknown) => z.output<S>) & { readonly contract: S };

const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/**
 * A procedure's response contract: the schema is the OpenAPI response and the TypeScript type of
 * what the procedure returns. With checks on (tests, development) a response must match it exactly:
 * a missing, mistyped or extra field fails the call with INTERNAL, so a leak cannot pass a test.
 * In production responses pass through: services build every field explicitly, and the check cost
 * about 40 % of a cached feed read's throughput (docs/benchmarks.md).
 */
export function responseContract<S extends z.ZodType>(contract: S): ResponseContract<S> {
  const check = (value: unknown): z.output<S> => {
    if (!responsesChecked) return value as z.output<S>;
    const result = contract.safeParse(value);
    if (!result.success) throw new Error(`The response breaks its contract: ${result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")}`);
    if (!isDeepStrictEqual(asJson(result.data), asJson(value))) throw new Error("The response has fields outside its contract.");
    return result.data;
  };
  return Object.assign(check, { contract });
}

/** Marks the response of a create as 201 (replays stay 200). */
export function markCreated(ctx: ApiContext, created: boolean): void {
  ctx.scope.status = created ? 201 : 200;
}

/** Marks a submission queued for checks as 202 (replays stay 200). */
export function markAccepted(ctx: ApiContext, accepted: boolean): void {
  ctx.scope.status = accepted ? 202 : 200;
}
