// Secrets the dashboard must read back (TOTP seeds) are stored encrypted: AES-256-GCM under a key
// derived (HKDF-SHA-256) from DASHBOARD_SECRETS_KEY, or from NEXTAUTH_SECRET when that is unset.
// A copy of the database alone then gives no one a user's second factor. Stored form:
// `enc1:` + base64url(12-byte IV, ciphertext, 16-byte tag); the purpose is bound as associated
// data, so a value sealed for one purpose cannot be opened as another. Values without the prefix
// are read as they are (written before encryption existed) and sealed on their next write.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { config } from "../config.ts";

const PREFIX = "enc1:";

let cached: { base: string; key: Buffer } | null = null;

function key(): Buffer {
  const base = config().secretsKey;
  if (!base) throw new Error("DASHBOARD_SECRETS_KEY or NEXTAUTH_SECRET must be set");
  if (cached?.base !== base)
    cached = {
      base,
      key: Buffer.from(hkdfSync("sha256", base, "treasury-dashboard", "stored secrets v1", 32)),
    };
  return cached.key;
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

export function seal(plain: string, purpose: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  cipher.setAAD(Buffer.from(purpose));
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return PREFIX + Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64url");
}

/** The plain value; throws when the value was altered or sealed under another key or purpose. */
export function open(stored: string, purpose: string): string {
  if (!isSealed(stored)) return stored;
  const raw = Buffer.from(stored.slice(PREFIX.length), "base64url");
  if (raw.length < 12 + 16) throw new Error("sealed value is too short");
  const decipher = createDecipheriv("aes-256-gcm", key(), raw.subarray(0, 12));
  decipher.setAAD(Buffer.from(purpose));
  decipher.setAuthTag(raw.subarray(raw.length - 16));
  return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString(
    "utf8",
  );
}
