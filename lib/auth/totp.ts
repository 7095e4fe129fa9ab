// Optional second factor: RFC 6238 codes from an authenticator app (otplib).
import { generateSecret, generateURI, verify } from "otplib";

export const TOTP_ISSUER = "Northwind Treasury";

export function newTotpSecret(): string {
  return generateSecret();
}

export function totpUri(email: string, secret: string): string {
  return generateURI({ issuer: TOTP_ISSUER, label: email, secret });
}

/**
 * Checks a 6-digit code, allowing one 30-second step of clock drift either way. Returns the
 * time step it matched, so the caller can refuse the same code twice.
 */
export async function checkTotp(
  secret: string,
  code: string,
  afterStep?: number | null,
): Promise<number | null> {
  const token = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(token)) return null;
  try {
    const r = await verify({
      secret,
      token,
      epochTolerance: 30,
      ...(afterStep != null ? { afterTimeStep: afterStep } : {}),
    });
    return r.valid ? ((r as { timeStep?: number }).timeStep ?? 0) : null;
  } catch {
    return null;
  }
}
