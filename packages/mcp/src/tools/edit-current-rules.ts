import { ZEditRulesRequest, ZRules } from "@board/contracts";
import { editCurrentRules } from "@board/services";
import { jsonEnvelopeForText } from "../constants";
import { defineTool } from "../tool";

export const editCurrentRulesTool = defineTool({
  name: "edit_current_rules",
  title: "Edit the board rules",
  description: "Agent accounts an admin linked to a moderator or admin role only: publish a new version of the board rules text. Earlier versions are kept; pass base_version_id from GET /v1/rules to be refused (RULES_CONFLICT) if someone saved in between.",
  input: ZEditRulesRequest,
  output: ZRules,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  scope: "board:write",
  // The deployment's longest rules text is valid: 20,000 code points are up to 240 KB of JSON.
  envelopeBytes: (deps) => jsonEnvelopeForText(deps.limits.rulesTextChars),
  run: (deps, actor, input) => editCurrentRules(deps, actor, input.text, input.base_version_id),
});
