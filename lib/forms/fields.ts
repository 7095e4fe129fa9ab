// The settings form's amounts: dollars as typed ("1,234.50") to integer cents through the one
// reader of typed dollars (lib/forms/typed-dollars.ts), worded as sentences. Written with zod's
// tree-shakable build: the settings page carries it in its first load.
import * as z from "zod/mini";
import { readTypedDollars, typedDollarsMessage } from "../forms/typed-dollars.ts";

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
