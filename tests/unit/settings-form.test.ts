// The settings form and the settings contract agree: whatever an administrator may type, the form
// accepts exactly what the route would accept, so the form never lets through a value the server
// refuses, nor refuses one it would take. A bound changed in one place moves the other.
import { describe, expect, it } from "vitest";
import { DashboardSettings, DIGEST_MINUTES, SETTING_MAX_CENTS } from "../../lib/dashboard-api/settings.ts";
import { settingsForm } from "../../lib/form-rules/settings-form.ts";

const VALID = {
  senReleaseThresholdCents: "250,000.00",
  incomingWireDualApprovalCents: "1,000,000",
  releaseDualApprovalCents: "1000000.00",
  approvalDigestAfterMinutes: "60",
};
const dollars = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;

describe("the settings form", () => {
  const cents = [0, 1, 100, SETTING_MAX_CENTS - 1, SETTING_MAX_CENTS, SETTING_MAX_CENTS + 1];
  it.each(cents)("takes a limit of %i cents exactly when the contract does", (c) => {
    for (const key of [
      "senReleaseThresholdCents",
      "incomingWireDualApprovalCents",
      "releaseDualApprovalCents",
    ]) {
      const typed = { ...VALID, [key]: dollars(c) };
      const form = settingsForm.safeParse(typed);
      const contract = DashboardSettings.safeParse({ ...settingsForm.parse(VALID), [key]: c });
      expect(form.success, `${key} = ${typed[key as keyof typeof VALID]}`).toBe(contract.success);
      if (form.success) expect(form.data[key as keyof typeof form.data]).toBe(c);
    }
  });

  const minutes = [0, DIGEST_MINUTES.min, 59, DIGEST_MINUTES.max, DIGEST_MINUTES.max + 1, 100_000];
  it.each(minutes)("takes a digest wait of %i minutes exactly when the contract does", (m) => {
    const form = settingsForm.safeParse({ ...VALID, approvalDigestAfterMinutes: ` ${m} ` });
    const contract = DashboardSettings.safeParse({
      ...settingsForm.parse(VALID),
      approvalDigestAfterMinutes: m,
    });
    expect(form.success).toBe(contract.success);
    if (form.success) expect(form.data.approvalDigestAfterMinutes).toBe(m);
  });

  it("refuses what is not whole minutes, and says the bounds in words", () => {
    for (const typed of ["1.5", "-5", "ten", ""]) {
      const r = settingsForm.safeParse({ ...VALID, approvalDigestAfterMinutes: typed });
      expect(r.success).toBe(false);
      expect(r.error?.issues[0].message).toBe("Enter whole minutes, from 1 to 10,080 (a week)");
    }
  });
});
