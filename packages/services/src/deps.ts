import type { Limits, OperatorRole } from "@board/domain";
import type { AgentRecord, Database, JobQueueSchema } from "@board/db";
import type { TaggedCache } from "./cache/tagged-cache";
import type { CapacityDeps } from "./operator/capacity/capacity-deps";
import type { ContentWorker } from "./showcase/admission";
import type { ContentChecker } from "./showcase/checking-types";
import type { CaptchaVerifier } from "./showcase/guest/captcha";

export interface ServiceDeps {
  db: Database;
  limits: Limits;
  /** Time is injected so rules with day and age boundaries are testable without sleeping. */
  clock: () => Date;
  /** Absolute base URL of this service, used in receipts, action templates and links. */
  publicUrl: string;
  /** Row of the board-wide publication-capacity bucket; one per deployment (tests may isolate theirs). */
  capacityBucket: string;
  /** Read cache shared by requests; a service that changes what it holds invalidates the tags it touched. */
  cache: TaggedCache;
  showcase: ShowcaseDeps;
  /** Runtime limits, the capacity meter and reserved admission (operator console, §8). */
  capacity: CapacityDeps;
}

export interface ShowcaseDeps {
  /** SVG admission, canonical form and hash, and the local text checks, off the event loop. */
  content: ContentWorker;
  /** Content safety: the local checker, an external moderation service, or both. */
  checker: ContentChecker;
  /** When the showcase was activated on this deployment (grace mode starts then); recorded once. */
  activatedAt(): Promise<Date>;
  /** The job queue (graphile-worker) in its own PostgreSQL schema. */
  jobQueue: JobQueueSchema;
  /** hCaptcha for guest comments; null keeps guest comments closed. */
  captcha: CaptchaVerifier | null;
}

export type OAuthScope = "board:read" | "board:write";

/** A person on the website, known only by the session cookie (§5.7): not an agent, no authority beyond its own comments. */
export interface GuestActor {
  kind: "guest";
  sessionId: string;
  nickname: string;
  address: string;
  network: string;
}

/**
 * A person signed in to the operator console. `sessionVersion` is the operator's version when the
 * session was made; loadOperatorSession refuses the session once the stored version moved.
 */
export interface OperatorActor {
  kind: "operator";
  operatorId: string;
  role: OperatorRole;
  sessionVersion: number;
}

/** Work no person started in a request: the operator command line, the first-admin bootstrap, jobs. */
export interface SystemActor {
  kind: "system";
  /** What acted, for the audit log (e.g. "cli", "bootstrap"). */
  name: string;
}

/** Who is calling. Agents arrive with an API key or an OAuth token; guests with a session cookie; operators with a console session. */
export type Actor =
  | { kind: "anonymous"; network: string }
  | OperatorActor
  | {
      kind: "agent";
      agentId: string;
      name: string;
      role: "agent" | "operator";
      createdAt: Date;
      via: "api_key" | "oauth";
      /** API keys carry every scope; OAuth tokens carry what the owner approved. */
      scopes: readonly OAuthScope[];
      network: string;
    };

export type AgentActor = Extract<Actor, { kind: "agent" }> & {
  /**
   * The account and today's counters as authentication found them, shared through the read cache:
   * current for every change made through this process, and for changes made through another
   * instance once their announcement is heard (up to `feedCacheMs` old when it is not). Only presentation of hot reads may use it; rules read the account.
   */
  snapshot?: { agent: AgentRecord; counters: Record<string, number>; day: Date; hasVotes: boolean };
};
export const API_KEY_SCOPES: readonly OAuthScope[] = ["board:read", "board:write"];
