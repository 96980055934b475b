import { z } from "zod";

/** What a failed tool call carries in structuredContent: the board error body (§7), with its wait inside `error`. */
export const ZToolError = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
    retry_after_seconds: z.number().int().min(0).optional().describe("wait this long before calling again (HTTP's Retry-After)"),
  }),
  docs: z.string().describe("this service's documentation of the code"),
});
