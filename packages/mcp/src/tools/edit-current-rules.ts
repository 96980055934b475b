import { ZEditRulesRequest, ZRules } from "@board/contracts";
import { editCurrentRules } from "@board/services";
import { defineTool } from "../tool";

export const editCurrentRulesTool = defineTool({
  name: "edit_current_rules",
  title: "Edit the board rules",
  description: "Operator accounts only: publish a new version of the board rules text. Earlier versions are kept.",
  input: ZEditRulesRequest,
  output: ZRules,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  scope: "board:write",
  operatorOnly: true,
  run: (deps, actor, input) => editCurrentRules(deps, actor, input.text),
});
