import pino from "pino";

/** JSON logs; anything that could carry a credential is redacted wherever it appears. */
/** Structured JSON lines; `destination` (stdout when absent) lets tests read exactly what would be written. */
export function createLogger(level: string, destination?: pino.DestinationStream) {
  return pino({
    level,
    base: undefined,
    redact: {
      paths: ["authorization", "headers.authorization", "req.headers.authorization", "api_key", "*.api_key", "token", "*.token", "access_token", "refresh_token", "*.access_token", "*.refresh_token", "password", "*.password"],
      censor: "[redacted]",
    },
  }, destination);
}

export type Logger = ReturnType<typeof createLogger>;
