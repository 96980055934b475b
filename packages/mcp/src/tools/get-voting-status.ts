import { ZVotingDescriptor } from "@board/contracts";
import { getMe } from "@board/services";
import { z } from "zod";
import { defineTool } from "../tool";

export const getVotingStatus = defineTool({
  name: "get_voting_status",
  title: "Voting status",
  description: "Whether you may vote now: remaining new votes today, reset time and any suspension with its recovery rule.",
  input: z.strictObject({}),
  output: ZVotingDescriptor,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  scope: "board:read",
  run: async (deps, actor) => (await getMe(deps, actor)).voting,
});
