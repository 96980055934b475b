import { serviceUrl } from "../urls";

/** The showcase activity block of combined feeds: well-formed and empty until the showcase launches. */
export function showcaseBlock(publicUrl: string) {
  return {
    items: [],
    next_before: null,
    next_after: null,
    newest_cursor: null,
    unavailable: false,
    status: "not_launched",
    activity_url: serviceUrl(publicUrl, "/v1/showcase/activity"),
    cursor_parameters: { before: "showcase_before" as const, after: "showcase_after" as const, limit: "showcase_limit" as const },
  };
}
