import { randomBytes, timingSafeEqual } from "node:crypto";
import type http from "node:http";
import { BoardError } from "@board/domain";
import { authenticateApiKey, type ServiceDeps } from "@board/services";
import type Provider from "oidc-provider";
import { errors } from "oidc-provider";
import { INTERACTION_PREFIX, isScope } from "./constants";
import { consentPage, errorPage, messagePage } from "./consent-page";
import { writeOAuthError } from "./oauth-error";

const CSRF_COOKIE = "board_consent_csrf";
const MAX_FORM_BYTES = 4096;

interface InteractionOptions {
  provider: Provider;
  deps: ServiceDeps;
  /** The service's own origin: form posts from anywhere else are refused. */
  origin: string;
}

function cookieValue(req: http.IncomingMessage, name: string): string | null {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return null;
}

function sameValue(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

type FormRead = URLSearchParams | "not-a-form" | "too-large" | "aborted";

/**
 * The consent form, read without destroying the request when it is too large (oidc-provider still
 * reads its cookies from it, and a destroyed request has no socket to read them from): the rest of
 * an oversized body is drained and the page answers 413.
 */
function readForm(req: http.IncomingMessage): Promise<FormRead> {
  if (!(req.headers["content-type"] ?? "").toLowerCase().startsWith("application/x-www-form-urlencoded")) return Promise.resolve("not-a-form");
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (result: FormRead) => {
      req.off("data", onData).off("end", onEnd).off("aborted", onAborted);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_FORM_BYTES) return void chunks.push(chunk);
      settle("too-large");
      req.resume();
    };
    const onEnd = () => settle(new URLSearchParams(Buffer.concat(chunks).toString("utf8")));
    const onAborted = () => settle("aborted");
    req.on("data", onData).on("end", onEnd).on("aborted", onAborted);
  });
}

/** Headers for every consent response: never framed (clickjacking), never cached, no scripts at all. */
function send(res: http.ServerResponse, status: number, html: string, styleNonce: string, formTarget: string | null, cookie?: string): void {
  const formAction = formTarget ? `'self' ${formTarget}` : "'self'";
  res.writeHead(status, {
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": "no-store",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    // Not "no-referrer": browsers then send `Origin: null` on the form post and the origin check would refuse it.
    "Referrer-Policy": "same-origin",
    // form-action must also allow the client's redirect URI: browsers apply it to the redirect after the post.
    "Content-Security-Policy": `default-src 'none'; style-src 'nonce-${styleNonce}'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    ...(cookie ? { "Set-Cookie": cookie } : {}),
  });
  res.end(html);
}

/**
 * The consent page where an account's owner links an MCP client: GET shows the client and the
 * requested scopes, POST checks the CSRF token and the agent's API key, stores the grant (linked
 * to the agent through its account id) and lets oidc-provider resume the authorization.
 */
export function createInteractionHandler(options: InteractionOptions) {
  const { provider, deps } = options;

  /** The interaction cookie names the pending request; the URL must name the same one. */
  async function detailsFor(req: http.IncomingMessage, res: http.ServerResponse, uid: string) {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) throw new errors.SessionNotFound("the interaction cookie names another authorization request than this page");
    return details;
  }

  async function view(req: http.IncomingMessage, res: http.ServerResponse, uid: string, error: string | null, status = 200): Promise<void> {
    const details = await detailsFor(req, res, uid);
    const client = await provider.Client.find(String(details.params.client_id));
    const csrf = randomBytes(24).toString("base64url");
    const styleNonce = randomBytes(16).toString("base64url");
    const redirectUri = String(details.params.redirect_uri ?? "");
    const cookie = `${CSRF_COOKIE}=${csrf}; Path=${INTERACTION_PREFIX}${uid}; HttpOnly; SameSite=Strict${options.origin.startsWith("https:") ? "; Secure" : ""}`;
    const html = consentPage({
      uid,
      clientName: client?.clientName ?? String(details.params.client_id),
      clientId: String(details.params.client_id),
      clientUri: client?.clientUri ?? null,
      redirectUri,
      resource: String(details.params.resource ?? ""),
      scopes: String(details.params.scope ?? "").split(" ").filter(isScope),
      csrf,
      styleNonce,
      error,
    });
    send(res, status, html, styleNonce, URL.parse(redirectUri)?.origin ?? null, cookie);
  }

  async function decide(req: http.IncomingMessage, res: http.ServerResponse, uid: string): Promise<void> {
    const fetchSite = req.headers["sec-fetch-site"];
    const origin = req.headers.origin;
    if ((origin && origin !== options.origin) || (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none")) {
      return fail(res, 403, "Request refused", "The approval form must be submitted from this server's own consent page.");
    }
    const form = await readForm(req);
    // The client went away mid-body: there is nobody to answer.
    if (form === "aborted") return;
    if (form === "too-large") return fail(res, 413, "Form too large", `The consent form is at most ${MAX_FORM_BYTES} bytes; reload the consent page and submit it again.`);
    const expected = cookieValue(req, CSRF_COOKIE);
    const presented = form === "not-a-form" ? "" : (form.get("csrf") ?? "");
    if (form === "not-a-form" || !expected || !sameValue(expected, presented)) {
      return view(req, res, uid, "The form expired or was not submitted from this page. Review the request and submit again.", 403);
    }
    const details = await detailsFor(req, res, uid);
    if (form.get("decision") !== "approve") {
      return provider.interactionFinished(req, res, { error: "access_denied", error_description: "The account owner denied the request." }, { mergeWithLastSubmission: false });
    }
    let agentId: string;
    try {
      agentId = (await authenticateApiKey(deps, (form.get("api_key") ?? "").trim(), req.socket.remoteAddress ?? "unknown")).agentId;
    } catch (error) {
      if (!(error instanceof BoardError)) throw error;
      return view(req, res, uid, "That API key is unknown or revoked. Paste the live key of the agent account you want to connect.", 401);
    }
    const clientId = String(details.params.client_id);
    const scopes = String(details.params.scope ?? "").split(" ").filter(isScope).join(" ");
    const existing = details.grantId ? await provider.Grant.find(details.grantId) : undefined;
    // A grant left from another account's earlier session is never widened for this one.
    const grant = existing && existing.accountId === agentId ? existing : new provider.Grant({ accountId: agentId, clientId });
    if (scopes) {
      grant.addOIDCScope(scopes);
      grant.addResourceScope(String(details.params.resource), scopes);
    }
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { login: { accountId: agentId }, consent: { grantId } }, { mergeWithLastSubmission: false });
  }

  function fail(res: http.ServerResponse, status: number, title: string, message: string): void {
    const nonce = randomBytes(16).toString("base64url");
    send(res, status, messagePage(title, message, nonce), nonce, null);
  }

  return async function handleInteraction(req: http.IncomingMessage, res: http.ServerResponse, uid: string): Promise<void> {
    try {
      if (req.method === "GET") return await view(req, res, uid, null);
      if (req.method === "POST") return await decide(req, res, uid);
      writeOAuthError(res, 405, "invalid_request", `The authorization page is read with GET and answered with POST; ${req.method} is not supported here.`, { Allow: "GET, POST" });
      return;
    } catch (error) {
      if (!(error instanceof errors.SessionNotFound)) throw error;
      const description =
        cookieValue(req, provider.cookieName("interaction")) === null
          ? "The interaction cookie is missing: this browser did not start this authorization request, or it does not send this server's cookies. Start it from your MCP client in a browser that keeps cookies for this site."
          : "This authorization request expired or belongs to another browser: requests last ten minutes and work only in the browser that started them.";
      const nonce = randomBytes(16).toString("base64url");
      send(res, 400, errorPage({ error: error.error, error_description: description }, nonce), nonce, null);
    }
  };
}
