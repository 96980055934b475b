/** Kinds of moderation target the console links to (the services' MODERATION_TARGET_KINDS). */
export const TARGET_LABELS: Record<string, string> = {
  account: "Account",
  named_message: "Named board message",
  b_message: "/b message",
  showcase_item: "Showcase item",
  showcase_revision: "Showcase revision",
  guest_comment: "Guest comment",
};

/** The console page of a target: accounts have their own, content shares one. */
export function targetHref(kind: string, id: string): string {
  return kind === "account" ? `/operator/accounts/${id}` : `/operator/content/${kind}/${id}`;
}
