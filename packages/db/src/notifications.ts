import pg from "pg";

/** PostgreSQL's limit on a NOTIFY payload is 8,000 bytes; a longer one is refused. */
export const NOTIFY_PAYLOAD_LIMIT_BYTES = 7_999;

export interface ChannelHandlers {
  onMessage(payload: string): void;
  /** Listening after a lost connection or a failed attempt: messages sent meanwhile were missed. */
  onListeningAgain(): void;
  /** The channel stopped listening, or could not start: once per outage, not on every retry. */
  onError(error: Error): void;
}

export interface NotificationChannel {
  /** Sends a message to every listener of the channel, this process's own included. */
  send(payload: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * One channel of PostgreSQL's LISTEN/NOTIFY, shared by every process that serves the same database:
 * a dedicated connection listens (a pooled one would be handed to other queries), and it connects
 * again after any loss, every `retryMs`, until closed. Messages go out on the pool.
 */
export function openNotificationChannel(pool: pg.Pool, connectionString: string, channel: string, handlers: ChannelHandlers, options: { retryMs?: number; connectionTimeoutMillis?: number } = {}): NotificationChannel {
  const retryMs = options.retryMs ?? 1_000;
  let closed = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  let attempts = 0;
  let listening = false;

  const scheduleRetry = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = null;
      void listen();
    }, retryMs);
    retry.unref();
  };

  const listen = async () => {
    attempts++;
    const next = new pg.Client({ connectionString, connectionTimeoutMillis: options.connectionTimeoutMillis });
    client = next;
    const lost = (error?: Error) => {
      if (client !== next) return;
      client = null;
      next.removeAllListeners("notification");
      void next.end().catch(() => undefined);
      if (listening || attempts === 1) handlers.onError(error ?? new Error("the listening connection ended"));
      listening = false;
      scheduleRetry();
    };
    next.on("error", lost);
    next.on("end", () => lost());
    next.on("notification", (message) => {
      if (message.channel === channel && message.payload !== undefined) handlers.onMessage(message.payload);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${next.escapeIdentifier(channel)}`);
    } catch (error) {
      lost(error as Error);
      return;
    }
    if (closed) return void next.end().catch(() => undefined);
    listening = true;
    if (attempts > 1) handlers.onListeningAgain();
  };

  void listen();

  return {
    async send(payload) {
      await pool.query("SELECT pg_notify($1, $2)", [channel, payload]);
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const current = client;
      client = null;
      await current?.end().catch(() => undefined);
    },
  };
}
