/** The MCP resource: its path is also the OAuth token audience. */
export const MCP_PATH = "/mcp";

/** §4.8 / §8: the tool-protocol request envelope (of the showcase's tools, and of every other message unless a tool sets its own). */
export const MCP_MAX_REQUEST_BYTES = 32 * 1024;

/**
 * The envelope a call needs for one text argument of up to `codePoints` code points, whatever the
 * client's JSON encoder does: a code point is at most 12 bytes of JSON (an escaped surrogate pair,
 * `\ud83d\ude00`), and the rest of the message gets 32 KiB.
 */
export const jsonEnvelopeForText = (codePoints: number) => codePoints * 12 + MCP_MAX_REQUEST_BYTES;

/**
 * An envelope over the limit is read up to this size (the REST direct-submission cap) only to tell
 * a tool call, which gets a tool error naming showcase_upload, from other oversized messages (413).
 */
export const MCP_OVERSIZE_INSPECTION_BYTES = 4_587_520;
