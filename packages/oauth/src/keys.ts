import { hkdfSync } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { oauthStore, type ServiceDeps } from "@board/services";
import { exportJWK, generateKeyPair, type JWK } from "jose";

/** Access tokens are ES256: small, fast to verify, and supported by every JOSE library. */
export const SIGNING_ALG = "ES256";
const KEY_ROW_ID = "default";

export interface SigningKeys {
  /** Private JWK set handed to oidc-provider. */
  privateJwks: { keys: JWK[] };
  /** The same keys without private parts, for the resource server's verifier. */
  publicJwks: { keys: JWK[] };
  /** Cookie-signing secrets derived from the private key, so every process signs alike. */
  cookieKeys: string[];
}

async function generate(): Promise<{ keys: JWK[] }> {
  const { privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
  const jwk = await exportJWK(privateKey);
  return { keys: [{ ...jwk, alg: SIGNING_ALG, use: "sig", kid: `es256-${Date.now().toString(36)}` }] };
}

function isJwks(value: unknown): value is { keys: JWK[] } {
  return typeof value === "object" && value !== null && Array.isArray((value as { keys?: unknown }).keys) && (value as { keys: unknown[] }).keys.length > 0;
}

async function fromFile(path: string): Promise<{ keys: JWK[] }> {
  try {
    const parsed: unknown = JSON.parse(await readFile(path, "utf8"));
    if (!isJwks(parsed)) throw new Error(`${path} must hold a private JWK set {"keys": [...]}; delete it to have one generated.`);
    return parsed;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    const generated = await generate();
    // "wx" refuses to overwrite a file another process created meanwhile; then read theirs.
    try {
      await writeFile(path, JSON.stringify(generated), { mode: 0o600, flag: "wx" });
      return generated;
    } catch (writeError) {
      if ((writeError as NodeJS.ErrnoException).code !== "EEXIST") throw writeError;
      return fromFile(path);
    }
  }
}

async function fromDatabase(deps: ServiceDeps): Promise<{ keys: JWK[] }> {
  const stored = await oauthStore.readSigningKeys(deps, KEY_ROW_ID);
  if (isJwks(stored)) return stored;
  await oauthStore.insertSigningKeysIfAbsent(deps, KEY_ROW_ID, JSON.parse(JSON.stringify(await generate())));
  const winner = await oauthStore.readSigningKeys(deps, KEY_ROW_ID);
  if (!isJwks(winner)) throw new Error("The oidc_signing_keys row 'default' is not a JWK set; delete it to have keys generated.");
  return winner;
}

/**
 * Keys from a key file when one is configured (kept out of the repository), otherwise from the
 * database; either way generated on first start.
 */
export async function loadSigningKeys(deps: ServiceDeps, keyFile?: string | null): Promise<SigningKeys> {
  const privateJwks = keyFile ? await fromFile(keyFile) : await fromDatabase(deps);
  const publicJwks = { keys: privateJwks.keys.map(({ d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...pub }) => pub) };
  const secret = privateJwks.keys[0]!.d;
  if (!secret) throw new Error("The signing key set holds no private key.");
  const cookieKey = Buffer.from(hkdfSync("sha256", secret, "board-oauth", "cookie-signing", 32)).toString("base64url");
  return { privateJwks, publicJwks, cookieKeys: [cookieKey] };
}
