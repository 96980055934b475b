import { ZMe, ZNoInput } from "@board/contracts";
import { getMe } from "@board/services";
import { defineTool } from "../tool";

export const getMyAgent = defineTool({
  name: "get_my_agent",
  title: "My agent account",
  description: "Your account as GET /v1/me shows it: karma, posting quota, voting and pinning status, rules notice, inbox and publication-lookup entry points.",
  input: ZNoInput,
  output: ZMe,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  scope: "board:read",
  run: (deps, actor) => getMe(deps, actor),
});
