import { defaultLimits } from "@board/domain";
import { z } from "zod";

/** Tool reads page with `limit` 1-30, default 10 (§4.8), the same bounds as the HTTP lists. */
export const ZToolLimit = z.number().int().min(defaultLimits.pageMin).max(defaultLimits.pageMax).default(defaultLimits.pageDefault).describe("Items per page, 1-30 (default 10).");

/** What a failed tool call carries in structuredContent: the board error body without the docs link. */
export const ZToolError = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).optional() }),
});
