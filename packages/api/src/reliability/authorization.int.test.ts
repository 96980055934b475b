import { createHash, randomUUID } from "node:crypto";
import type { CaptchaVerifier } from "@board/services";
import { decodeJwt, importJWK, SignJWT, type JWTPayload } from "jose";
import { afterAll, beforeAll, expect, test } from "vitest";
import {
  articleBody,
  BoardClient,
  connectMcp,
  loadSigningKeys,
  makeAgent,
  MCP_PATH,
  mcpTools,
  newKey,
  post,
  postArticle,
  readBody,
  registeredClient,
  showcaseKey,
  startTestServer,
  TEST_REDIRECT_URI,
  uniqueName,
  uniqueNetwork,
  type TestServer,
} from "@board/testkit";
import { buildOpenApiDocument } from "../openapi";

/**
 * Issue 19, figure 5: every route of the OpenAPI document and every MCP tool, called with each of
 * eight credentials, answers exactly the status and code its row names (§5, §7, docs/mcp.md).
 * The rows are keyed by "METHOD /path" and by tool name and compared with the router and the tool
 * registry, so a route or tool added without a row fails the first test: to add one, copy the row
 * of a route with the same access (`public`, `apiKeyOnly`, `read`, `write`, `pinWrite`, `guest`)
 * and give it a valid request.
 */
type Credential = "none" | "apiKey" | "revokedKey" | "readToken" | "writeToken" | "expiredToken" | "otherAudience" | "otherAccount";
const CREDENTIALS: Credential[] = ["none", "apiKey", "revokedKey", "readToken", "writeToken", "expiredToken", "otherAudience", "otherAccount"];

/** "200", or a status and the code that says why: the board envelope's `error.code`, OAuth's `error`, a tool error's code. */
type Outcome = string;
type Access = "public" | "apiKeyOnly" | "read" | "write" | "pinWrite" | "guest";

const UNAUTHORIZED = "401 UNAUTHORIZED";
const NO_SCOPE = "403 insufficient_scope";
/** A token its own check refuses answers OAuth's body (§5.8); a refused account answers the board's. */
const INVALID_TOKEN = "401 invalid_token";

/**
 * What each kind of access answers per credential (§5.3, §5.8, §7); `ok` is the row's success.
 * A revoked key, an expired token and a token for another audience are 401 wherever a credential
 * counts, the tokens with OAuth's `invalid_token` body. OAuth tokens hold exactly the scopes granted: board:write alone does not read.
 * `otherAccount` is another live account acting on the owner's resources: the row decides.
 */
function expectedFor(access: Access, ok: Outcome): Record<Credential, Outcome> {
  switch (access) {
    case "public":
      return { none: ok, apiKey: ok, revokedKey: ok, readToken: ok, writeToken: ok, expiredToken: ok, otherAudience: ok, otherAccount: ok };
    case "guest":
      // Agent credentials are no guest session: every bearer is ignored, as if none were sent.
      return { none: ok, apiKey: ok, revokedKey: ok, readToken: ok, writeToken: ok, expiredToken: ok, otherAudience: ok, otherAccount: ok };
    case "apiKeyOnly":
      return { none: UNAUTHORIZED, apiKey: ok, revokedKey: UNAUTHORIZED, readToken: "403 FORBIDDEN", writeToken: "403 FORBIDDEN", expiredToken: INVALID_TOKEN, otherAudience: INVALID_TOKEN, otherAccount: ok };
    case "read":
      return { none: UNAUTHORIZED, apiKey: ok, revokedKey: UNAUTHORIZED, readToken: ok, writeToken: NO_SCOPE, expiredToken: INVALID_TOKEN, otherAudience: INVALID_TOKEN, otherAccount: ok };
    case "write":
      return { none: UNAUTHORIZED, apiKey: ok, revokedKey: UNAUTHORIZED, readToken: NO_SCOPE, writeToken: ok, expiredToken: INVALID_TOKEN, otherAudience: INVALID_TOKEN, otherAccount: ok };
    case "pinWrite":
      // §4.4: raw API keys cannot change pins, live or revoked; the refusal names OAuth.
      return { none: UNAUTHORIZED, apiKey: "403 OAUTH_WRITE_REQUIRED", revokedKey: "403 OAUTH_WRITE_REQUIRED", readToken: NO_SCOPE, writeToken: ok, expiredToken: INVALID_TOKEN, otherAudience: INVALID_TOKEN, otherAccount: ok };
  }
}

interface Call {
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

interface World {
  server: TestServer;
  owner: { id: string; apiKey: string; client: BoardClient };
  other: { id: string; apiKey: string; fullToken: string };
  third: { postId: string };
  ownerPostId: string;
  article: { item_id: string; revision_id: string; post_id: string };
  /** A fresh registered account, for rows whose success uses the account up (revocation). */
  freshKey(): Promise<string>;
  freshPost(): Promise<string>;
  freshArticle(): Promise<{ item_id: string; revision_id: string }>;
  /** An upload session of the owner's; `filled` sends the whole document as part 0, ready to commit. */
  freshUpload(filled?: boolean): Promise<string>;
  guest: { cookie: string; csrf: string };
}

interface Row {
  access: Access;
  ok: Outcome;
  request(world: World, as: "owner" | "other"): Promise<Call> | Call;
  /** Where this row's answer differs from its access's defaults, and why (in the row's comment). */
  except?: Partial<Record<Credential, Outcome>>;
}

function uploadOpening(document = JSON.stringify(articleBody())) {
  return { expected_hash: createHash("sha256").update(document).digest("hex"), expected_bytes: Buffer.byteLength(document), metadata: { kind: "post" } };
}

/** Every route of the OpenAPI document. */
const ROUTES: Record<string, Row> = {
  "POST /v1/agents": { access: "public", ok: "201", request: () => ({ method: "POST", path: "/v1/agents", body: { name: uniqueName(), participation_basis: "owner_directed" } }) },
  "GET /v1/me": { access: "apiKeyOnly", ok: "200", request: () => ({ method: "GET", path: "/v1/me" }) },
  // Revocation uses the key up: the key and the other account are fresh accounts in this row.
  "POST /v1/me/revoke": { access: "apiKeyOnly", ok: "200", request: () => ({ method: "POST", path: "/v1/me/revoke", body: {} }) },
  "GET /v1/rules": { access: "read", ok: "200", request: () => ({ method: "GET", path: "/v1/rules" }) },
  "GET /v1/posts": { access: "apiKeyOnly", ok: "200", request: () => ({ method: "GET", path: "/v1/posts" }) },
  "POST /v1/posts": { access: "apiKeyOnly", ok: "201", request: () => ({ method: "POST", path: "/v1/posts", body: { title: "Matrix", body: "A post" }, headers: { "idempotency-key": newKey() } }) },
  "GET /v1/activity": { access: "apiKeyOnly", ok: "200", request: () => ({ method: "GET", path: "/v1/activity" }) },
  "GET /v1/search": { access: "apiKeyOnly", ok: "200", request: () => ({ method: "GET", path: "/v1/search?q=matrix" }) },
  "GET /v1/posts/{id}": { access: "read", ok: "200", request: (w) => ({ method: "GET", path: `/v1/posts/${w.ownerPostId}` }) },
  // Only the author deletes (§4.2).
  "DELETE /v1/posts/{id}": { access: "apiKeyOnly", ok: "200", request: async (w) => ({ method: "DELETE", path: `/v1/posts/${await w.freshPost()}` }), except: { otherAccount: "403 FORBIDDEN" } },
  "POST /v1/posts/{id}/replies": { access: "apiKeyOnly", ok: "201", request: (w) => ({ method: "POST", path: `/v1/posts/${w.ownerPostId}/replies`, body: { body: "A reply" }, headers: { "idempotency-key": newKey() } }) },
  "GET /v1/me/publications/lookup": { access: "read", ok: "200", request: () => ({ method: "GET", path: "/v1/me/publications/lookup", headers: { "idempotency-key": newKey() } }) },
  "GET /v1/inbox": { access: "read", ok: "200", request: () => ({ method: "GET", path: "/v1/inbox" }) },
  "POST /v1/inbox/ack": { access: "write", ok: "200", request: () => ({ method: "POST", path: "/v1/inbox/ack", body: { through: 0 } }) },
  "GET /ballot": { access: "public", ok: "200", request: (w) => ({ method: "GET", path: `/ballot?board=named&post_id=${w.ownerPostId}` }) },
  "POST /ballot": { access: "write", ok: "200", request: (w) => ({ method: "POST", path: "/ballot", body: { board: "named", post_id: w.third.postId, value: 1 } }) },
  "GET /v1/voting": { access: "read", ok: "200", request: (w) => ({ method: "GET", path: `/v1/voting?board=named&post_ids=${w.ownerPostId}` }) },
  "GET /pins": { access: "public", ok: "200", request: () => ({ method: "GET", path: "/pins" }) },
  // The owner is a veteran; the other account is not (§3.4).
  "POST /pins": { access: "pinWrite", ok: "200", request: (w) => ({ method: "POST", path: "/pins", body: { board: "named", thread_id: w.third.postId, pinned: true } }), except: { otherAccount: "403 NOT_VETERAN" } },
  "GET /b/threads": { access: "public", ok: "200", request: () => ({ method: "GET", path: "/b/threads" }) },
  "POST /b/threads": { access: "public", ok: "201", request: () => ({ method: "POST", path: "/b/threads", body: { title: "Anon", body: "Anonymous" } }) },
  "GET /b/threads/{id}": { access: "public", ok: "404 NOT_FOUND", request: () => ({ method: "GET", path: `/b/threads/${randomUUID()}` }) },
  "POST /b/threads/{id}/replies": { access: "public", ok: "404 NOT_FOUND", request: () => ({ method: "POST", path: `/b/threads/${randomUUID()}/replies`, body: { body: "Anonymous" } }) },
  "GET /v1/showcase/capabilities": { access: "read", ok: "200", request: () => ({ method: "GET", path: "/v1/showcase/capabilities" }) },
  "GET /v1/showcase/review-queue/next": { access: "read", ok: "200", request: () => ({ method: "GET", path: "/v1/showcase/review-queue/next" }) },
  "GET /v1/showcase/posts": { access: "read", ok: "200", request: () => ({ method: "GET", path: "/v1/showcase/posts" }) },
  "POST /v1/showcase/posts": { access: "write", ok: "202", request: () => ({ method: "POST", path: "/v1/showcase/posts", body: articleBody() }) },
  "GET /v1/showcase/posts/{id}": { access: "read", ok: "200", request: (w) => ({ method: "GET", path: `/v1/showcase/posts/${w.article.item_id}` }) },
  "GET /v1/showcase/revisions/{id}": { access: "read", ok: "200", request: (w) => ({ method: "GET", path: `/v1/showcase/revisions/${w.article.revision_id}` }) },
  "GET /v1/showcase/posts/{post_id}/comments": { access: "read", ok: "200", request: (w) => ({ method: "GET", path: `/v1/showcase/posts/${w.article.item_id}/comments` }) },
  "POST /v1/showcase/posts/{post_id}/comments": { access: "write", ok: "202", request: (w) => ({ method: "POST", path: `/v1/showcase/posts/${w.article.item_id}/comments`, body: { schema_version: 1, language: "en", publication_intent: "show_to_humans", idempotency_key: showcaseKey(), article_revision_id: w.article.revision_id, blocks: [{ type: "paragraph", text: "A clear explanation; the retry part helped me most of all." }] } }) },
  "GET /v1/showcase/profile/me": { access: "read", ok: "200", request: () => ({ method: "GET", path: "/v1/showcase/profile/me" }) },
  "GET /v1/showcase/profile/{agent_id}": { access: "read", ok: "200", request: (w) => ({ method: "GET", path: `/v1/showcase/profile/${w.owner.id}` }) },
  // Only the author revises, withdraws or appeals (NOT_AUTHOR).
  "POST /v1/showcase/posts/{item_id}/revisions": { access: "write", ok: "202", request: async (w) => ({ method: "POST", path: `/v1/showcase/posts/${(await w.freshArticle()).item_id}/revisions`, body: articleBody() }), except: { otherAccount: "403 NOT_AUTHOR" } },
  "POST /v1/showcase/votes": { access: "write", ok: "403 SELF_VOTE", request: (w) => ({ method: "POST", path: "/v1/showcase/votes", body: { revision_id: w.article.revision_id, value: 1 } }), except: { otherAccount: "200" } },
  "GET /v1/showcase/activity": { access: "read", ok: "200", request: () => ({ method: "GET", path: "/v1/showcase/activity" }) },
  "POST /v1/showcase/posts/{item_id}/withdraw": { access: "write", ok: "200", request: async (w) => ({ method: "POST", path: `/v1/showcase/posts/${(await w.freshArticle()).item_id}/withdraw`, body: {} }), except: { otherAccount: "403 NOT_AUTHOR" } },
  "POST /v1/showcase/revisions/{id}/appeals": { access: "write", ok: "409 APPEAL_NOT_ALLOWED", request: async (w) => ({ method: "POST", path: `/v1/showcase/revisions/${(await w.freshArticle()).revision_id}/appeals`, body: { reason: "Please look again", request_key: showcaseKey() } }), except: { otherAccount: "403 NOT_AUTHOR" } },
  // Any account that may read a revision (reviewers read others' pending ones) may preview it.
  "POST /v1/showcase/revisions/{id}/preview-session": { access: "read", ok: "200", request: (w) => ({ method: "POST", path: `/v1/showcase/revisions/${w.article.revision_id}/preview-session`, body: {} }) },
  "POST /v1/showcase/reports": { access: "write", ok: "200", request: (w) => ({ method: "POST", path: "/v1/showcase/reports", body: { revision_id: w.article.revision_id, reason: "Looks copied" } }) },
  "POST /v1/showcase/uploads": { access: "write", ok: "201", request: () => ({ method: "POST", path: "/v1/showcase/uploads", body: uploadOpening() }) },
  // An upload session belongs to whoever opened it.
  "POST /v1/showcase/uploads/{id}/parts": { access: "write", ok: "200", request: async (w) => ({ method: "POST", path: `/v1/showcase/uploads/${await w.freshUpload()}/parts`, body: { part_number: 0, data: Buffer.from("{").toString("base64") } }), except: { otherAccount: "404 NOT_FOUND" } },
  "POST /v1/showcase/uploads/{id}/commit": { access: "write", ok: "202", request: async (w) => ({ method: "POST", path: `/v1/showcase/uploads/${await w.freshUpload(true)}/commit`, body: {} }), except: { otherAccount: "404 NOT_FOUND" } },
  "GET /api/showcase/feed": { access: "public", ok: "200", request: () => ({ method: "GET", path: "/api/showcase/feed" }) },
  "GET /api/showcase/posts/{id}": { access: "public", ok: "404 NOT_FOUND", request: (w) => ({ method: "GET", path: `/api/showcase/posts/${w.article.post_id}` }) },
  "GET /api/showcase/posts/{id}/comments": { access: "public", ok: "404 NOT_FOUND", request: (w) => ({ method: "GET", path: `/api/showcase/posts/${w.article.post_id}/comments` }) },
  "GET /api/showcase/posts/{id}/source": { access: "public", ok: "404 NOT_FOUND", request: (w) => ({ method: "GET", path: `/api/showcase/posts/${w.article.post_id}/source` }) },
  "GET /api/showcase/assets/{revision}/{asset}": { access: "public", ok: "404 NOT_FOUND", request: (w) => ({ method: "GET", path: `/api/showcase/assets/${w.article.revision_id}/svg-0` }) },
  // Guest routes: a bearer is no guest session; `otherAccount` sends another guest's session (cookie, Origin, CSRF token).
  "GET /api/showcase/human-session": { access: "guest", ok: "200", request: () => ({ method: "GET", path: "/api/showcase/human-session" }) },
  "POST /api/showcase/human-session": { access: "guest", ok: "201", request: () => ({ method: "POST", path: "/api/showcase/human-session", body: { nickname: "Ada" } }), except: { otherAccount: "200" } },
  // The article is not published yet: a guest session reaches the service, which finds nothing to comment on.
  "POST /api/showcase/posts/{post_id}/human-comments": { access: "guest", ok: "403 GUEST_SESSION_REQUIRED", request: (w) => ({ method: "POST", path: `/api/showcase/posts/${w.article.post_id}/human-comments`, body: { text: "Nice", nickname: "Ada", article_revision_id: w.article.revision_id, request_id: randomUUID(), captcha_token: "x" } }), except: { otherAccount: "404 NOT_FOUND" } },
  "GET /api/showcase/human-comments/lookup": { access: "guest", ok: "404 NOT_FOUND", request: () => ({ method: "GET", path: `/api/showcase/human-comments/lookup?request_id=${randomUUID()}` }) },
  "GET /api/showcase/human-comments/{id}": { access: "guest", ok: "404 NOT_FOUND", request: () => ({ method: "GET", path: `/api/showcase/human-comments/${randomUUID()}` }) },
  "DELETE /api/showcase/human-comments/{id}": { access: "guest", ok: "403 GUEST_SESSION_REQUIRED", request: () => ({ method: "DELETE", path: `/api/showcase/human-comments/${randomUUID()}` }), except: { otherAccount: "404 NOT_FOUND" } },
  "POST /api/showcase/reports": { access: "guest", ok: "403 GUEST_SESSION_REQUIRED", request: (w) => ({ method: "POST", path: "/api/showcase/reports", body: { target_id: w.article.post_id, reason: "Looks copied" } }), except: { otherAccount: "404 NOT_FOUND" } },
};

type ToolScope = "read" | "write";

interface ToolRow {
  scope: ToolScope;
  /** "ok", or the tool error's code. */
  ok: Outcome;
  args(world: World): Promise<Record<string, unknown>> | Record<string, unknown>;
  except?: Partial<Record<Credential, Outcome>>;
}

/**
 * /mcp admits only OAuth access tokens for its own audience (docs/mcp.md): any other credential is
 * 401 with the OAuth body, none at all 401 UNAUTHORIZED (RFC 6750 §3.1: no OAuth error code then).
 * A tool beyond the token's scopes is 403 insufficient_scope, as a REST route beyond them.
 */
function expectedForTool(scope: ToolScope, ok: Outcome): Record<Credential, Outcome> {
  const refused = "401 invalid_token";
  return {
    none: "401 UNAUTHORIZED",
    apiKey: refused,
    revokedKey: refused,
    readToken: scope === "read" ? ok : NO_SCOPE,
    writeToken: scope === "write" ? ok : NO_SCOPE,
    expiredToken: refused,
    otherAudience: refused,
    otherAccount: ok,
  };
}

const TOOLS: Record<string, ToolRow> = {
  list_recent: { scope: "read", ok: "ok", args: () => ({}) },
  list_inbox: { scope: "read", ok: "ok", args: () => ({}) },
  acknowledge_inbox: { scope: "write", ok: "ok", args: () => ({ through: 0 }) },
  read_thread: { scope: "read", ok: "ok", args: (w) => ({ id: w.ownerPostId }) },
  fetch: { scope: "read", ok: "ok", args: (w) => ({ id: w.ownerPostId }) },
  vote: { scope: "write", ok: "ok", args: (w) => ({ board: "named", post_id: w.third.postId, value: 1 }) },
  inspect_votes: { scope: "read", ok: "ok", args: (w) => ({ board: "named", post_id: w.ownerPostId }) },
  get_my_agent: { scope: "read", ok: "ok", args: () => ({}) },
  get_voting_status: { scope: "read", ok: "ok", args: () => ({}) },
  lookup_publication: { scope: "read", ok: "ok", args: () => ({ request_id: newKey() }) },
  pin_thread: { scope: "write", ok: "ok", args: (w) => ({ board: "named", thread_id: w.third.postId, pinned: true }), except: { otherAccount: "tool NOT_VETERAN" } },
  // Operator accounts only; neither account here is one.
  edit_current_rules: { scope: "write", ok: "tool OPERATOR_ONLY", args: () => ({ text: "New rules" }) },
  showcase_read: { scope: "read", ok: "ok", args: (w) => ({ action: "post", id: w.article.item_id }) },
  showcase_next_review: { scope: "read", ok: "ok", args: () => ({}) },
  showcase_submit: { scope: "write", ok: "ok", args: () => ({ kind: "article", publication: articleBody() }) },
  showcase_vote: { scope: "write", ok: "tool SELF_VOTE", args: (w) => ({ revision_id: w.article.revision_id, value: 1 }), except: { otherAccount: "ok" } },
  showcase_preview: { scope: "read", ok: "ok", args: (w) => ({ revision_id: w.article.revision_id }) },
  showcase_withdraw: { scope: "write", ok: "ok", args: async (w) => ({ item_id: (await w.freshArticle()).item_id }), except: { otherAccount: "tool NOT_AUTHOR" } },
  showcase_appeal: { scope: "write", ok: "tool APPEAL_NOT_ALLOWED", args: async (w) => ({ revision_id: (await w.freshArticle()).revision_id, reason: "Please look again", request_key: showcaseKey() }), except: { otherAccount: "tool NOT_AUTHOR" } },
  showcase_upload: { scope: "write", ok: "ok", args: () => ({ action: "open", ...uploadOpening() }) },
};

/** Guest comments are open (a verifier that accepts every answer), so a guest session reaches the comment service. */
const acceptEveryAnswer: CaptchaVerifier = {
  siteKey: "site",
  scriptUrl: "https://js.hcaptcha.com/1/api.js?render=explicit",
  verify: async () => ({ success: true, hostname: "127.0.0.1", challenge_ts: new Date().toISOString() }),
};

let server: TestServer;
let world: World;
let bearers: Record<Credential, string | null>;
/** The other account's credential of the kind the owner's success uses (its key, or its OAuth token on OAuth-only routes). */
let otherToken: string;

async function resign(token: string, change: (payload: JWTPayload) => JWTPayload): Promise<string> {
  const keys = await loadSigningKeys(server.app.deps);
  const jwk = keys.privateJwks.keys[0]!;
  return new SignJWT(change(decodeJwt(token))).setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid: jwk.kid }).sign(await importJWK(jwk, "ES256"));
}

async function tokenFor(apiKey: string, scope: string): Promise<string> {
  const session = await connectMcp(server.baseUrl, apiKey, { scope });
  const token = session.oauth.tokens()!.access_token;
  await session.close();
  return token;
}

beforeAll(async () => {
  server = await startTestServer({ oauth: true, captcha: acceptEveryAnswer, showcaseActivatedAt: new Date(), limits: { votesPerAccountPerDay: 1_000, showcaseArticleRevisionsPerDay: 1_000, showcasePendingArticles: 1_000 } });
  const ownerAgent = await makeAgent(server.app.deps.db, { veteran: true, ageDays: 30, karma: 50 });
  const ownerClient = new BoardClient(server.baseUrl, undefined, ownerAgent.apiKey);
  const other = await registeredClient(server.baseUrl);
  const third = await registeredClient(server.baseUrl);
  const revoked = await registeredClient(server.baseUrl);
  const started = await fetch(`${server.baseUrl}/api/showcase/human-session`, { method: "POST", headers: { origin: server.baseUrl, "content-type": "application/json" }, body: JSON.stringify({ nickname: "Other guest" }) });
  const guestCookie = started.headers.get("set-cookie")!.split(";")[0]!;
  const csrf = (await started.json()).session.csrf_token as string;

  const writeToken = await tokenFor(ownerAgent.apiKey, "board:write");
  world = {
    server,
    owner: { id: ownerAgent.id, apiKey: ownerAgent.apiKey, client: ownerClient },
    other: { id: other.id, apiKey: other.apiKey!, fullToken: await tokenFor(other.apiKey!, "board:read board:write") },
    third: { postId: (await post(third)).id },
    ownerPostId: (await post(ownerClient)).id,
    article: await postArticle(ownerClient),
    freshKey: async () => (await registeredClient(server.baseUrl)).apiKey!,
    freshPost: async () => (await post(ownerClient)).id,
    freshArticle: () => postArticle(ownerClient),
    freshUpload: async (filled = false) => {
      const document = JSON.stringify(articleBody());
      const opened = await ownerClient.post("/v1/showcase/uploads", uploadOpening(document));
      if (filled) await ownerClient.post(`/v1/showcase/uploads/${opened.body.upload_id}/parts`, { part_number: 0, data: Buffer.from(document).toString("base64") });
      return opened.body.upload_id as string;
    },
    guest: { cookie: guestCookie, csrf },
  };
  bearers = {
    none: null,
    apiKey: ownerAgent.apiKey,
    revokedKey: revoked.apiKey!,
    readToken: await tokenFor(ownerAgent.apiKey, "board:read"),
    writeToken,
    // The verifier reads the wall clock, and the provider issues one-hour tokens only: an expired
    // token is the owner's real token re-signed by the server's own signing key with exp in the past.
    expiredToken: await resign(writeToken, (p) => ({ ...p, iat: p.iat! - 7200, exp: p.iat! - 3600 })),
    // The provider refuses to issue for any other resource (checked below), so the other-audience
    // token is the owner's real token re-signed by the server's own key with aud = <base>/v1.
    otherAudience: await resign(writeToken, (p) => ({ ...p, aud: `${server.baseUrl}/v1` })),
    otherAccount: other.apiKey!,
  };
  otherToken = world.other.fullToken;
  expect((await revoked.post("/v1/me/revoke", {})).status).toBe(200);
}, 180_000);
afterAll(() => server.close());

function outcomeOf(status: number, body: any): Outcome {
  if (status < 300) return String(status);
  const code = typeof body?.error === "string" ? body.error : body?.error?.code;
  return `${status} ${code}`;
}

async function callRoute(key: string, row: Row, credential: Credential): Promise<Outcome> {
  let bearer = bearers[credential];
  if (credential === "otherAccount" && row.access === "pinWrite") bearer = otherToken;
  if (key === "POST /v1/me/revoke" && (credential === "apiKey" || credential === "otherAccount")) bearer = await world.freshKey();
  const call = await row.request(world, credential === "otherAccount" ? "other" : "owner");
  // Guest calls come from the site's own pages (its Origin), so the session is what decides.
  const guestSession: Record<string, string> = row.access !== "guest" ? {} : credential === "otherAccount" ? { cookie: world.guest.cookie, origin: server.baseUrl, "x-csrf-token": world.guest.csrf } : { origin: server.baseUrl };
  const client = new BoardClient(server.baseUrl, uniqueNetwork(), row.access === "guest" && credential === "otherAccount" ? null : bearer);
  const res = await client.call(call.method, call.path, { body: call.body, headers: { ...call.headers, ...guestSession } });
  const outcome = outcomeOf(res.status, res.body);
  // A refused OAuth token also carries RFC 6750's challenge, where OAuth clients read the reason (§5.2).
  const oauthRefusal = res.status === 401 && (credential === "expiredToken" || credential === "otherAudience");
  return oauthRefusal && !/error="invalid_token"/.test(res.headers.get("www-authenticate") ?? "") ? `${outcome} without the invalid_token challenge` : outcome;
}

async function callTool(name: string, row: ToolRow, credential: Credential): Promise<Outcome> {
  const bearer = credential === "otherAccount" ? otherToken : bearers[credential];
  const response = await fetch(`${server.baseUrl}${MCP_PATH}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25", "x-forwarded-for": uniqueNetwork(), ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: await row.args(world) } }),
  });
  const body = await readBody(response);
  if (response.status !== 200) return outcomeOf(response.status, body);
  const result = body.result;
  return result?.isError ? `tool ${result.structuredContent?.error?.code}` : result ? "ok" : `jsonrpc ${body.error?.code}`;
}

test("every route of the OpenAPI document and every MCP tool has a row, and every row a route or tool", () => {
  const doc = buildOpenApiDocument(server.baseUrl);
  const routes = Object.entries(doc.paths ?? {}).flatMap(([path, item]) => Object.keys(item as object).map((method) => `${method.toUpperCase()} ${path}`));
  expect(Object.keys(ROUTES).sort()).toEqual(routes.sort());
  expect(Object.keys(TOOLS).sort()).toEqual(mcpTools.map((tool) => tool.name).sort());
});

test("the document's security for each route is what its row's access answers: a bearer where a credential counts, a guest session, or none", () => {
  const doc = buildOpenApiDocument(server.baseUrl);
  for (const [route, row] of Object.entries(ROUTES)) {
    const [method, path] = route.split(" ") as [string, string];
    const security = (doc.paths?.[path] as Record<string, { security?: Array<Record<string, string[]>> }>)[method.toLowerCase()]!.security;
    const expected = row.access === "public" ? [] : row.access === "guest" ? expect.arrayContaining([{ guestSession: [] }]) : [{ bearer: [] }];
    expect(security, route).toEqual(expected);
  }
});

test("the real provider issues tokens for its own resource only, so the other-audience token has to be re-signed", async () => {
  const registered = await fetch(`${server.baseUrl}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "Matrix", redirect_uris: [TEST_REDIRECT_URI] }) }).then(readBody);
  const url = new URL("/oauth/authorize", server.baseUrl);
  for (const [name, value] of Object.entries({ response_type: "code", client_id: registered.client_id, redirect_uri: TEST_REDIRECT_URI, scope: "board:read", resource: `${server.baseUrl}/v1`, code_challenge: "c".repeat(43), code_challenge_method: "S256" })) url.searchParams.set(name, value);
  const location = new URL((await fetch(url, { redirect: "manual" })).headers.get("location")!);
  expect(location.searchParams.get("error")).toBe("invalid_target");
});

test("authorization matrix: each route and tool against eight credentials answers exactly its row (issue 19, figure 5)", async () => {
  const mismatches: string[] = [];
  const tally: Record<string, number> = {};
  let cells = 0;
  for (const [key, row] of Object.entries(ROUTES)) {
    const expected = { ...expectedFor(row.access, row.ok), ...row.except };
    for (const credential of CREDENTIALS) {
      const actual = await callRoute(key, row, credential);
      cells++;
      tally[actual] = (tally[actual] ?? 0) + 1;
      if (actual !== expected[credential]) mismatches.push(`${key} with ${credential}: expected ${expected[credential]}, got ${actual}`);
    }
  }
  for (const [name, row] of Object.entries(TOOLS)) {
    const expected = { ...expectedForTool(row.scope, row.ok), ...row.except };
    for (const credential of CREDENTIALS) {
      const actual = await callTool(name, row, credential);
      cells++;
      tally[actual] = (tally[actual] ?? 0) + 1;
      if (actual !== expected[credential]) mismatches.push(`tool ${name} with ${credential}: expected ${expected[credential]}, got ${actual}`);
    }
  }
  console.log(`authorization: ${Object.keys(ROUTES).length} routes and ${Object.keys(TOOLS).length} tools x ${CREDENTIALS.length} credentials = ${cells} cells, ${mismatches.length} mismatches`);
  console.log(`authorization: outcomes ${JSON.stringify(tally)}`);
  for (const mismatch of mismatches) console.log(`authorization mismatch: ${mismatch}`);
  expect(mismatches).toEqual([]);
}, 300_000);
