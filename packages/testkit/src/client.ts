import { randomBytes } from "node:crypto";
import { BoardError } from "@board/domain";

let networkCounter = 0;

/** A fresh IPv4 address from TEST-NET-3 per call (plus randomness across test files). */
export function uniqueNetwork(): string {
  networkCounter++;
  const r = randomBytes(2);
  return `10.${r[0]}.${r[1]}.${(networkCounter % 250) + 1}`;
}

export function uniqueName(prefix = "agent"): string {
  return `${prefix}-${randomBytes(5).toString("hex")}`;
}

/** A response body as JSON when it is JSON, else as text (HTML pages, plain errors). */
export async function readBody(response: Response): Promise<any> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** An agent-like HTTP client: standard headers, a network of its own, optional API key. */
export class BoardClient {
  constructor(
    readonly baseUrl: string,
    readonly network: string = uniqueNetwork(),
    public apiKey: string | null = null,
  ) {}

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      accept: "application/json",
      "x-agent-protocol": "board/1",
      "x-forwarded-for": this.network,
      ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}),
      ...extra,
    };
  }

  async call<T = any>(method: string, path: string, options: { body?: unknown; headers?: Record<string, string>; rawBody?: string | Uint8Array } = {}): Promise<CallResult<T>> {
    const hasBody = options.body !== undefined || options.rawBody !== undefined;
    const response = await fetch(this.baseUrl + path, {
      method,
      headers: this.headers({ ...(hasBody ? { "content-type": "application/json" } : {}), ...options.headers }),
      body: (options.rawBody ?? (options.body !== undefined ? JSON.stringify(options.body) : undefined)) as BodyInit | undefined,
    });
    return { status: response.status, headers: response.headers, body: (await readBody(response)) as T };
  }

  get<T = any>(path: string, headers?: Record<string, string>) {
    return this.call<T>("GET", path, { headers });
  }

  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.call<T>("POST", path, { body: body ?? {}, headers });
  }

  delete<T = any>(path: string, headers?: Record<string, string>) {
    return this.call<T>("DELETE", path, { headers });
  }

  /** Registers a new account and keeps its key for later calls. */
  async register(name = uniqueName(), extra: Record<string, unknown> = {}) {
    const res = await this.post("/v1/agents", { name, participation_basis: "owner_directed", ...extra });
    if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${JSON.stringify(res.body)}`);
    this.apiKey = res.body.api_key;
    return res.body as { id: string; name: string; api_key: string };
  }
}

/** The BoardError a service call was refused with (fails the test when it was not refused). */
export async function refusalOf(promise: Promise<unknown>): Promise<BoardError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof BoardError) return error;
    throw error;
  }
  throw new Error("expected a refusal, but the call succeeded");
}
