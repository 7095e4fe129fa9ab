// The settings form's values, built from the contract's limits (lib/dashboard-api/settings.ts):
// amounts as typed ("1,234.50") to integer cents through the one reader of typed dollars
// (lib/form-rules/typed-dollars.ts), minutes as typed, each mistake worded as a sentence. Written with zod's
// tree-shakable build: the settings page carries it in its first load.
import * as z from "zod/mini";
import { DIGEST_MINUTES, SETTING_MAX_CENTS } from "../dashboard-api/settings.ts";
import { readTypedDollars, typedDollarsMessage } from "./typed-dollars.ts";

/** A dollar amount typed by a person, to cents: more than zero, at most two decimals, within max. */
export function dollarsInput(opts: { maxCents?: number } = {}) {
  return z.pipe(
    z.string(),
    z.transform((raw: string, ctx) => {
      const r = readTypedDollars(raw, { positive: true, maxCents: opts.maxCents });
      if (r.ok) return r.cents;
      ctx.issues.push({
        code: "custom",
        message: typedDollarsMessage(r, "sentence", opts.maxCents),
        input: raw,
      });
      return z.NEVER;
    }),
  );
}

/** The administrator's settings form: each field read from what a person typed, within the contract's bounds. */
export const settingsForm = z.object({
  senReleaseThresholdCents: dollarsInput({ maxCents: SETTING_MAX_CENTS }),
  incomingWireDualApprovalCents: dollarsInput({ maxCents: SETTING_MAX_CENTS }),
  releaseDualApprovalCents: dollarsInput({ maxCents: SETTING_MAX_CENTS }),
  approvalDigestAfterMinutes: z.pipe(
    z.string().check(
      z.refine(
        (s) => {
          if (!/^\s*\d{1,6}\s*$/.test(s)) return false;
          const n = Number(s);
          return n >= DIGEST_MINUTES.min && n <= DIGEST_MINUTES.max;
        },
        `Enter whole minutes, from ${DIGEST_MINUTES.min} to ${DIGEST_MINUTES.max.toLocaleString("en-US")} (a week)`,
      ),
    ),
    z.transform((s) => Number(s.trim())),
  ),
});
