import { webContext } from "@board/app/web-context";
import { sameMac, signOutcome } from "./session";

/** Where a console form returns: a console page of this site, never anywhere else. */
const CONSOLE_PATH = /^\/operator(\/[A-Za-z0-9._~%/-]*)?$/;

export type OutcomeKind = "done" | "refused";
export interface Outcome {
  kind: OutcomeKind;
  message: string;
}

export function consoleReturnPath(raw: string | null): string {
  const value = raw ?? "";
  const [path = "", query = ""] = value.split("?", 2);
  if (!CONSOLE_PATH.test(path) || path.includes("//")) return "/operator";
  const kept = new URLSearchParams(query);
  for (const name of ["outcome", "message", "sig"]) kept.delete(name);
  const rest = kept.toString();
  return rest ? `${path}?${rest}` : path;
}

/**
 * The page a form returns to shows what happened (a no-JavaScript form has nowhere else to show
 * it). The message is signed, so a link cannot put words in the console's mouth.
 */
export async function outcomeLocation(returnTo: string, outcome: Outcome): Promise<string> {
  const sig = signOutcome(await webContext().operator.sessionSecret(), `${outcome.kind}:${outcome.message}`);
  const query = new URLSearchParams({ outcome: outcome.kind, message: outcome.message, sig });
  return `${returnTo}${returnTo.includes("?") ? "&" : "?"}${query}`;
}

export async function readOutcome(params: Record<string, string | string[] | undefined>): Promise<Outcome | null> {
  const { outcome, message, sig } = params;
  if ((outcome !== "done" && outcome !== "refused") || typeof message !== "string" || typeof sig !== "string") return null;
  const expected = signOutcome(await webContext().operator.sessionSecret(), `${outcome}:${message}`);
  return sameMac(expected, sig) ? { kind: outcome, message } : null;
}
