// Password hashing: argon2id with the library's defaults (OWASP-level memory and time cost).
import argon2 from "argon2";

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id });
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

// Verified against when the e-mail is unknown, so a wrong address takes as long as a wrong password.
let decoy: Promise<string> | null = null;
export async function verifyDecoy(password: string): Promise<void> {
  decoy ??= hashPassword("decoy-password-never-valid");
  await verifyPassword(await decoy, password);
}

export { PASSWORD_MIN_LENGTH } from "./password-rules.ts";
