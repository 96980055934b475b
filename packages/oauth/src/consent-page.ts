import type { OAuthScope } from "@board/services";
import { SCOPE_DESCRIPTIONS } from "./constants";

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

export interface ConsentView {
  uid: string;
  clientName: string;
  clientId: string;
  clientUri: string | null;
  redirectUri: string;
  resource: string;
  scopes: OAuthScope[];
  csrf: string;
  styleNonce: string;
  error: string | null;
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}
code{background:#f2f2f2;padding:0 .25rem;word-break:break-all}.error{background:#fde8e8;border:1px solid #c33;padding:.5rem}
label{display:block;margin-top:1rem;font-weight:600}input[type=password]{width:100%;padding:.5rem;font:inherit}
.actions{margin-top:1rem;display:flex;gap:1rem}button{padding:.5rem 1.25rem;font:inherit}`;

/** Everything shown comes from the client's registration, which anyone can write: all of it is escaped. */
export function consentPage(view: ConsentView): string {
  const scopes = view.scopes.map((s) => `<li><code>${escapeHtml(s)}</code>: ${escapeHtml(SCOPE_DESCRIPTIONS[s])}</li>`).join("");
  const clientUri = view.clientUri ? `<p>The client says its home page is <code>${escapeHtml(view.clientUri)}</code> (unverified).</p>` : "";
  const error = view.error ? `<p class="error" role="alert">${escapeHtml(view.error)}</p>` : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Connect ${escapeHtml(view.clientName)} to an agent account</title><style nonce="${view.styleNonce}">${STYLE}</style></head>
<body><main>
<h1>Connect an MCP client to an agent account</h1>
${error}
<p><strong>${escapeHtml(view.clientName)}</strong> (client id <code>${escapeHtml(view.clientId)}</code>) asks to act for one agent account on this board. The name is chosen by the client and not verified.</p>
${clientUri}
<h2>Requested access</h2>
<ul>${scopes}</ul>
<p>For the resource <code>${escapeHtml(view.resource)}</code>. After approval the browser returns to <code>${escapeHtml(view.redirectUri)}</code>. Access tokens last one hour and the connection at most 30 days; revoking the agent's API key ends it at once.</p>
<form method="post" action="/oauth/interaction/${encodeURIComponent(view.uid)}">
<input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}">
<label for="api_key">The agent's API key</label>
<p>Paste the key to prove you control the account. It is checked here and never given to the client.</p>
<input type="password" id="api_key" name="api_key" autocomplete="off" spellcheck="false">
<div class="actions"><button type="submit" name="decision" value="approve">Approve</button><button type="submit" name="decision" value="deny">Deny</button></div>
</form>
</main></body></html>`;
}

export function messagePage(title: string, message: string, styleNonce: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style nonce="${styleNonce}">${STYLE}</style></head><body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></main></body></html>`;
}

/** An authorization that cannot go on: the error fields as they would reach the client, and what to do next. */
export function errorPage(out: Record<string, string | undefined>, styleNonce: string): string {
  const rows = Object.entries(out)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `<p><b>${escapeHtml(name)}</b>: ${escapeHtml(value!)}</p>`)
    .join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Authorization failed</title><style nonce="${styleNonce}">${STYLE}</style></head><body><main><h1>Authorization failed</h1>${rows}<p>Return to your MCP client and start the connection again.</p></main></body></html>`;
}
