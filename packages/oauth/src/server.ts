import type http from "node:http";
import type { AccessTokenVerifier, ServiceDeps } from "@board/services";
import type Provider from "oidc-provider";
import { AUTHORIZATION_METADATA_PATH, INTERACTION_PREFIX, OAUTH_ENDPOINTS, OAUTH_PREFIX, PROTECTED_RESOURCE_METADATA_PREFIX, SCOPES, isScope } from "./constants";
import { createInteractionHandler } from "./interactions";
import { loadSigningKeys } from "./keys";
import { writeOAuthError } from "./oauth-error";
import { createProvider } from "./provider";
import { createAccessTokenVerifier } from "./verifier";

export interface AuthorizationServerOptions {
  deps: ServiceDeps;
  /** Absolute base URL clients reach the service at; it is the issuer. */
  publicUrl: string;
  /** Path of the protected resource (the MCP endpoint); tokens carry `${publicUrl}${resourcePath}` as audience. */
  resourcePath: string;
  /** A private JWK set file to use instead of the database row (created on first start, mode 0600). */
  keyFile?: string | null;
  behindProxy?: boolean;
}

export interface AuthorizationServer {
  provider: Provider;
  /** `${publicUrl}${resourcePath}`: the resource indicator and the access-token audience. */
  resource: string;
  resourceMetadataUrl: string;
  /** Node-level handler; true when the request was an authorization-server request and was answered. */
  handleNode(req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean>;
  /** The access-token check, shared by /mcp and the /v1 routes that accept OAuth tokens. */
  accessTokens: AccessTokenVerifier;
  /** The RFC 9728 challenge for 401s on OAuth-capable routes. */
  challenge(): string;
  /** Every "METHOD path" `handleNode` answers (templates in braces); the fuzz test covers each. */
  routes: readonly string[];
}

/** oidc-provider reads no more of a request body than this. */
const BODY_LIMIT = 56 * 1024;

/**
 * A token request naming a resource other than /mcp, read before oidc-provider sees it: the
 * provider checks `resource` only after consuming the code or rotating the refresh token, so a
 * mistaken value cost the client its code, or its whole link. The body read here is handed on as
 * `req.body`, which oidc-provider takes when the stream is spent.
 */
async function foreignResource(req: http.IncomingMessage, resource: string): Promise<string | null> {
  if (!hasContentType(req, "application/x-www-form-urlencoded")) return null;
  const body = await readAhead(req);
  return new URLSearchParams(body.toString("utf8")).getAll("resource").find((named) => named !== resource) ?? null;
}

function hasContentType(req: http.IncomingMessage, type: string): boolean {
  return (req.headers["content-type"] ?? "").toLowerCase().startsWith(type);
}

/** Reads the body oidc-provider reads next (no more than it would) and hands it on as `req.body`. */
async function readAhead(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    received += chunk.length;
    chunks.push(chunk);
    if (received > BODY_LIMIT) break;
  }
  return setBody(req, Buffer.concat(chunks));
}

function setBody(req: http.IncomingMessage, body: Buffer): Buffer {
  (req as http.IncomingMessage & { body?: Buffer }).body = body;
  return body;
}

/**
 * RFC 7591 §2 reads a registration without token_endpoint_auth_method as client_secret_basic, so
 * oidc-provider issues a client_secret, yet registers the client with this server's only method,
 * none, and its token endpoint then refuses that secret. Clients here are public (§3.2.1 lets the
 * server replace a requested value): the omission is registered as none, without a secret.
 */
async function withPublicClientDefault(req: http.IncomingMessage): Promise<void> {
  if (!hasContentType(req, "application/json")) return;
  const body = await readAhead(req);
  let metadata: unknown;
  try {
    metadata = JSON.parse(body.toString("utf8"));
  } catch {
    return;
  }
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata) || "token_endpoint_auth_method" in metadata) return;
  setBody(req, Buffer.from(JSON.stringify({ ...metadata, token_endpoint_auth_method: "none" })));
}

/** Interaction ids are URL-safe: an escape that does not decode (`%FF`) names no interaction, and the page says so. */
function interactionUid(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}

export async function createAuthorizationServer(options: AuthorizationServerOptions): Promise<AuthorizationServer> {
  const publicUrl = options.publicUrl.replace(/\/$/, "");
  const resource = `${publicUrl}${options.resourcePath}`;
  const resourceMetadataPath = `${PROTECTED_RESOURCE_METADATA_PREFIX}${options.resourcePath}`;
  const resourceMetadataUrl = `${publicUrl}${resourceMetadataPath}`;
  const keys = await loadSigningKeys(options.deps, options.keyFile);
  const accessTokens = createAccessTokenVerifier({ issuer: publicUrl, audience: resource, publicJwks: keys.publicJwks });
  const provider = createProvider({ deps: options.deps, issuer: publicUrl, resource, keys, accessTokens, behindProxy: options.behindProxy ?? false });
  const providerCallback = provider.callback();
  const handleInteraction = createInteractionHandler({ provider, deps: options.deps, origin: new URL(publicUrl).origin });
  const resourceMetadata = JSON.stringify({
    resource,
    authorization_servers: [publicUrl],
    scopes_supported: SCOPES,
    bearer_methods_supported: ["header"],
    resource_name: "Agent Board MCP",
    resource_documentation: `${publicUrl}/docs`,
  });

  /**
   * RFC 6749 §3.3: an authorization request without a scope gets a predefined default, which the
   * consent page lists for the owner to approve: the scope the client registered, or both board
   * scopes for a client that registered none. Without it the owner approved a grant of nothing and
   * the client received a bare access_denied; with both scopes always, a client registered for
   * board:read alone was refused the board:write it never asked for.
   */
  async function withDefaultScope(req: http.IncomingMessage): Promise<void> {
    const url = new URL(req.url ?? "/", publicUrl);
    if (url.searchParams.getAll("scope").some((value) => value.trim() !== "")) return;
    const clientId = url.searchParams.get("client_id");
    const client = clientId ? await provider.Client.find(clientId).catch(() => undefined) : undefined;
    const registered = typeof client?.scope === "string" ? client.scope.split(" ").filter(isScope) : [];
    url.searchParams.set("scope", (registered.length > 0 ? registered : SCOPES).join(" "));
    req.url = `${url.pathname}${url.search}`;
  }

  async function handleNode(req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean> {
    const path = (req.url ?? "/").split("?")[0]!;
    if (path === resourceMetadataPath) {
      if (req.method !== "GET" && req.method !== "HEAD") {
        writeOAuthError(res, 405, "invalid_request", `The resource metadata is read with GET; ${req.method} is not supported here.`, { Allow: "GET, HEAD" });
        return true;
      }
      res.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" });
      res.end(req.method === "HEAD" ? undefined : resourceMetadata);
      return true;
    }
    if (path.startsWith(INTERACTION_PREFIX)) {
      await handleInteraction(req, res, interactionUid(path.slice(INTERACTION_PREFIX.length)));
      return true;
    }
    if (path === OAUTH_ENDPOINTS.authorization && req.method === "GET") await withDefaultScope(req);
    if (path === OAUTH_ENDPOINTS.registration && req.method === "POST") await withPublicClientDefault(req);
    if (path === OAUTH_ENDPOINTS.token && req.method === "POST") {
      const foreign = await foreignResource(req, resource);
      if (foreign !== null) {
        writeOAuthError(res, 400, "invalid_target", `This server issues tokens for one resource, ${resource}; send resource=${resource} or leave it out (your code or refresh token is still valid). Got: ${foreign.slice(0, 200)}`);
        return true;
      }
    }
    if (path === AUTHORIZATION_METADATA_PATH || path === "/.well-known/openid-configuration" || path.startsWith(`${OAUTH_PREFIX}/`)) {
      await providerCallback(req, res);
      return true;
    }
    return false;
  }

  return {
    provider,
    resource,
    resourceMetadataUrl,
    handleNode,
    accessTokens,
    challenge: () => `Bearer resource_metadata="${resourceMetadataUrl}"`,
    routes: [
      `GET ${resourceMetadataPath}`,
      `GET ${AUTHORIZATION_METADATA_PATH}`,
      "GET /.well-known/openid-configuration",
      `GET ${OAUTH_ENDPOINTS.authorization}`,
      `GET ${OAUTH_ENDPOINTS.authorization}/{uid}`,
      `POST ${OAUTH_ENDPOINTS.token}`,
      `POST ${OAUTH_ENDPOINTS.registration}`,
      `GET ${OAUTH_ENDPOINTS.registration}/{client_id}`,
      `POST ${OAUTH_ENDPOINTS.revocation}`,
      `GET ${OAUTH_ENDPOINTS.jwks}`,
      `GET ${INTERACTION_PREFIX}{uid}`,
      `POST ${INTERACTION_PREFIX}{uid}`,
    ],
  };
}
