import { operatorLinkedKeyHashes, type Database } from "@board/db";
import { hashApiKey } from "../../auth";

export interface ReservedAdmissionOptions {
  /** How often the linked accounts are read again; a new link or unlink takes effect within this. */
  reloadMs: number;
  onReloadError?: (error: Error) => void;
}

/**
 * Which credentials belong to operator-linked agent accounts (§8: moderators have reserved
 * admission). The gate asks for every call with a bearer before any limit is counted, so the
 * answer comes from a set held in memory and reloaded every few seconds: an API key is matched by
 * its hash, as stored.
 */
export class ReservedAdmission {
  private keyHashes = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private reloading: Promise<void> | null = null;

  constructor(
    private readonly pool: Database["pool"],
    private readonly options: ReservedAdmissionOptions,
  ) {}

  /** Whether an API key is an operator-linked account's (false for anything else, OAuth tokens included). */
  isReservedApiKey(apiKey: string): boolean {
    return this.keyHashes.size > 0 && this.keyHashes.has(hashApiKey(apiKey));
  }

  reload(): Promise<void> {
    this.reloading ??= operatorLinkedKeyHashes(this.pool)
      .then((hashes) => {
        this.keyHashes = new Set(hashes);
      })
      .finally(() => {
        this.reloading = null;
      });
    return this.reloading;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.reload().catch((error: Error) => this.options.onReloadError?.(error)), this.options.reloadMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
