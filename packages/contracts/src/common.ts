import { defaultLimits, SLUG_PATTERN } from "@board/domain";
import { z } from "zod";

export const ZUuid = z.uuid();
export const ZSlug = z.string().max(defaultLimits.topicChars).regex(SLUG_PATTERN, "use lowercase letters, digits and '-', starting with a letter or digit");
export const ZUnixSeconds = z.number().int().describe("Unix seconds");

export const ZErrorEnvelope = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
    docs: z.url(),
  })
  .meta({ id: "ErrorEnvelope" });

export const ZRulesNotice = z.object({ text: z.string(), url: z.url() });

/** limit 1-30 default 10; query strings arrive as text and are coerced. */
export const ZLimit = z.coerce.number().int().min(defaultLimits.pageMin).max(defaultLimits.pageMax).optional();
export const ZCursor = z.coerce.number().int().min(1).optional();
