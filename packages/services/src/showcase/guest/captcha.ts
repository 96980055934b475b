/** hCaptcha's siteverify endpoint: the only verifier production accepts without an explicit override. */
export const OFFICIAL_HCAPTCHA_VERIFY_URL = "https://api.hcaptcha.com/siteverify";
/** The widget, loaded by the comment form only when guest comments are open (the site's one third-party resource). */
export const OFFICIAL_HCAPTCHA_SCRIPT_URL = "https://js.hcaptcha.com/1/api.js?render=explicit";

export interface CaptchaAnswer {
  success: boolean;
  hostname?: string;
  challenge_ts?: string;
  /** Reported by Turnstile-compatible verifiers; hCaptcha's omits it. */
  action?: string;
  "error-codes"?: string[];
}

/** Verifies a widget's answer; "unavailable" when the verifier cannot answer (never a pass). */
export interface CaptchaVerifier {
  siteKey: string;
  /** The widget script the comment form loads. */
  scriptUrl: string;
  verify(input: { token: string; remoteIp: string }): Promise<CaptchaAnswer | "unavailable">;
}

export interface HcaptchaOptions {
  siteKey: string;
  scriptUrl?: string;
  secret: string;
  verifyUrl?: string;
  timeoutMs?: number;
}

/** hCaptcha siteverify: a form POST of secret, response, remoteip and sitekey. */
export function hcaptchaVerifier(options: HcaptchaOptions): CaptchaVerifier {
  const url = options.verifyUrl ?? OFFICIAL_HCAPTCHA_VERIFY_URL;
  const timeoutMs = options.timeoutMs ?? 5_000;
  return {
    siteKey: options.siteKey,
    scriptUrl: options.scriptUrl ?? OFFICIAL_HCAPTCHA_SCRIPT_URL,
    async verify({ token, remoteIp }) {
      try {
        const response = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
          body: new URLSearchParams({ secret: options.secret, response: token, remoteip: remoteIp, sitekey: options.siteKey }),
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (!response.ok) return "unavailable";
        const body = (await response.json()) as CaptchaAnswer;
        return typeof body?.success === "boolean" ? body : "unavailable";
      } catch {
        return "unavailable";
      }
    },
  };
}
