import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isSealed, open, seal } from "../../lib/auth/secret-box.ts";

describe("secret box", () => {
  const saved = { ...process.env };
  beforeEach(() => {
    process.env.NEXTAUTH_SECRET = "test-nextauth-secret-0123456789abcdef";
    delete process.env.DASHBOARD_SECRETS_KEY;
  });
  afterEach(() => {
    process.env = { ...saved };
  });

  it("seals so that the plain text does not appear, and opens it again", () => {
    const plain = "JBSWY3DPEHPK3PXP";
    const a = seal(plain, "totp");
    const b = seal(plain, "totp");
    expect(isSealed(a)).toBe(true);
    expect(a).not.toContain(plain);
    expect(a).not.toBe(b); // a fresh IV each time
    expect(open(a, "totp")).toBe(plain);
    expect(open(b, "totp")).toBe(plain);
  });

  it("refuses a value altered by one bit, sealed for another purpose, or under another key", () => {
    const sealed = seal("JBSWY3DPEHPK3PXP", "totp");
    const raw = Buffer.from(sealed.slice(5), "base64url");
    raw[14] ^= 1;
    expect(() => open(`enc1:${raw.toString("base64url")}`, "totp")).toThrow();
    expect(() => open(sealed, "other")).toThrow();
    process.env.DASHBOARD_SECRETS_KEY = "a-different-key";
    expect(() => open(sealed, "totp")).toThrow();
  });

  it("reads a value stored before sealing as it is", () => {
    expect(open("JBSWY3DPEHPK3PXP", "totp")).toBe("JBSWY3DPEHPK3PXP");
  });
});
