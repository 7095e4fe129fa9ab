// The embargo on votes that move money after an invitation or a reset: a pure rule of two instants.
import { describe, expect, it } from "vitest";
import { CREDENTIAL_EMBARGO_MS, credentialEmbargoUntil } from "../../lib/auth/credential-embargo.ts";

const NOW = new Date("2026-03-04T15:00:00Z");

describe("credentialEmbargoUntil", () => {
  it("is null for a user whose credentials never changed", () => {
    expect(credentialEmbargoUntil(null, NOW)).toBeNull();
    expect(credentialEmbargoUntil(undefined, NOW)).toBeNull();
  });

  it("lasts 24 hours from the event, to the millisecond", () => {
    const at = new Date(NOW.getTime() - 60_000);
    expect(credentialEmbargoUntil(at, NOW)?.toISOString()).toBe(
      new Date(at.getTime() + CREDENTIAL_EMBARGO_MS).toISOString(),
    );
    const edge = new Date(NOW.getTime() - CREDENTIAL_EMBARGO_MS);
    expect(credentialEmbargoUntil(edge, NOW)).toBeNull();
    expect(credentialEmbargoUntil(new Date(edge.getTime() + 1), NOW)?.getTime()).toBe(NOW.getTime() + 1);
  });

  it("reads the stored forms of an instant alike, and fails closed on an unreadable one", () => {
    const at = "2026-03-04T10:00:00.000Z";
    expect(credentialEmbargoUntil(at, NOW)?.toISOString()).toBe("2026-03-05T10:00:00.000Z");
    expect(credentialEmbargoUntil(Date.parse(at), NOW.getTime())?.toISOString()).toBe(
      "2026-03-05T10:00:00.000Z",
    );
    expect(credentialEmbargoUntil("not a time", NOW)?.getTime()).toBe(NOW.getTime() + CREDENTIAL_EMBARGO_MS);
  });
});
