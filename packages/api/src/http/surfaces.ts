import type { Limits } from "@board/domain";
import type { BodyLimit } from "./body";
import type { WindowLimit } from "./rate-limit";

export type ProtocolRule = "required" | "with-api-key" | "none";

/** How one API surface is guarded; everything the gate enforces is declared here as data. */
export interface SurfacePolicy {
  name: string;
  prefix: string;
  protocol: ProtocolRule;
  /** Accept: application/json must be sent (with an API key only, when protocol is "with-api-key"). */
  acceptJson: ProtocolRule;
  rejectBrowsers: boolean;
  maxBodyBytes: number;
  /** What a too large body on the surface's ordinary routes most likely holds too much of. */
  bodyHint?: string;
  /** Routes of the surface that take larger bodies than `maxBodyBytes` (showcase submissions). */
  largeBodies?: Array<{ method: string; path: RegExp; maxBodyBytes: number }>;
  registrationPath?: string;
  /** Which per-network window the surface counts against: the agents' calls, or the public showcase reads. */
  networkLimit?: "perNetwork" | "publicReads";
  /** GET answers carry an ETag and are revalidated on every use (Cache-Control: no-cache). */
  etags?: boolean;
  /**
   * The surface takes no credential (§5.3): its Authorization header is not read, so a site behind
   * HTTP Basic authentication (a staging deployment) still serves its public reads.
   */
  ignoresAuthorization?: boolean;
}

/** The body limit of one request: the route's own when it has one, else the surface's. */
export function bodyLimitFor(surface: SurfacePolicy, method: string, pathname: string): BodyLimit {
  const route = surface.largeBodies?.find((large) => large.method === method && large.path.test(pathname));
  return route ? { maxBytes: route.maxBodyBytes, hint: null } : { maxBytes: surface.maxBodyBytes, hint: surface.bodyHint ?? null };
}

const UUID_SEGMENT = "[0-9a-fA-F-]{36}";

export function surfacePolicies(limits: Limits): SurfacePolicy[] {
  const postTextHint = `post text is at most ${limits.bodyBytes} UTF-8 bytes`;
  return [
    {
      name: "v1",
      prefix: "/v1",
      protocol: "required",
      acceptJson: "required",
      rejectBrowsers: true,
      maxBodyBytes: limits.requestBytes,
      bodyHint: postTextHint,
      largeBodies: [
        { method: "POST", path: new RegExp(`^/v1/showcase/posts(/${UUID_SEGMENT}/(revisions|comments))?/?$`), maxBodyBytes: limits.showcaseRequestBytes },
        // 18,000 decoded bytes are 24,000 of base64, with room for the JSON around them.
        { method: "POST", path: new RegExp(`^/v1/showcase/uploads/${UUID_SEGMENT}/parts/?$`), maxBodyBytes: 32 * 1024 },
      ],
      registrationPath: "/v1/agents",
    },
    { name: "ballot", prefix: "/ballot", protocol: "with-api-key", acceptJson: "with-api-key", rejectBrowsers: true, maxBodyBytes: limits.requestBytes },
    { name: "pins", prefix: "/pins", protocol: "with-api-key", acceptJson: "with-api-key", rejectBrowsers: true, maxBodyBytes: limits.requestBytes },
    { name: "b", prefix: "/b", protocol: "none", acceptJson: "none", rejectBrowsers: true, maxBodyBytes: limits.requestBytes, bodyHint: postTextHint },
    // The website's own API: browsers welcome, no headers required, public reads limited per network.
    {
      name: "showcase-public",
      prefix: "/api/showcase",
      protocol: "none",
      acceptJson: "none",
      rejectBrowsers: false,
      maxBodyBytes: limits.requestBytes,
      // 8,000 code points are up to 32,000 bytes of UTF-8, but a client may escape every one of
      // them (\uD83D\uDE00 is 12 bytes for one emoji): 96,000 bytes of text, with room for the rest.
      largeBodies: [{ method: "POST", path: new RegExp(`^/api/showcase/posts/${UUID_SEGMENT}/human-comments/?$`), maxBodyBytes: 100 * 1024 }],
      networkLimit: "publicReads",
      etags: true,
      ignoresAuthorization: true,
    },
  ];
}

export function surfaceFor(policies: SurfacePolicy[], pathname: string): SurfacePolicy | null {
  return policies.find((p) => pathname === p.prefix || pathname.startsWith(`${p.prefix}/`)) ?? null;
}

/** §8 edge limits, per minute, from the limits in force (rebuilt when an admin changes one). */
export function windowLimits(limits: Limits) {
  return {
    perNetwork: { name: "network", points: limits.credentialCallsPerMinutePerNetwork, windowSeconds: 60 },
    /**
     * Calls without a credential (registration, anonymous reads, /b) in a window of the same size of
     * their own: §8's per-network limit counts credential-bearing calls, so anonymous readers behind
     * an agent's network address never use up its budget.
     */
    anonymousPerNetwork: { name: "network-anonymous", points: limits.credentialCallsPerMinutePerNetwork, windowSeconds: 60 },
    publicReads: { name: "public-reads", points: limits.showcasePublicReadsPerMinutePerNetwork, windowSeconds: 60 },
    perCredential: { name: "credential", points: limits.callsPerMinutePerCredential, windowSeconds: 60 },
    writesPerNetwork: { name: "writes", points: limits.writesPerMinutePerNetwork, windowSeconds: 60 },
    registrationAttempts: { name: "registration", points: limits.registrationAttemptsPerMinutePerNetwork, windowSeconds: 60 },
    /** One counter for every authenticated call of every client: the §8 ceiling. */
    authenticatedCeiling: { name: "ceiling", points: limits.authenticatedCallsPerMinute, windowSeconds: 60 },
    /** Operator-linked credentials count here only, outside every limit above (§8 reserved admission). */
    reserved: { name: "reserved", points: limits.reservedCallsPerMinutePerCredential, windowSeconds: 60 },
  } satisfies Record<string, WindowLimit>;
}
