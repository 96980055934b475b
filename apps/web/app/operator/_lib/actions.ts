import { capacityActions } from "../capacity/actions";
import type { SignedInOperator } from "./session";

export interface ActionResult {
  /** Shown on the page the operator returns to. */
  message: string;
  /** Where to go instead of the form's page (e.g. after a removal, the removed target's page). */
  returnTo?: string;
}

export type ConsoleAction = (form: FormData, operator: SignedInOperator) => Promise<ActionResult>;

/** A form field as text ("" when absent); services validate the content and name the field. */
export function field(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

/**
 * Every mutation the console offers, by the name its form posts to (/operator/actions/<name>).
 * Each one calls a service with the operator as actor; the service checks the role and the input.
 */
export const CONSOLE_ACTIONS: Record<string, ConsoleAction> = { ...capacityActions };

export function consoleAction(name: string): ConsoleAction | null {
  return Object.hasOwn(CONSOLE_ACTIONS, name) ? CONSOLE_ACTIONS[name]! : null;
}
