// International account numbers and bank codes read the way a person checks them: an account
// number that looks like an IBAN is checked by ISO 13616 (its country's length and the mod-97
// check digits), and an IBAN's or a BIC's country is named. Plain data and arithmetic, no zod:
// the browser's forms and the dashboard's contract both use it.

/** IBAN length by country, from the SWIFT IBAN registry. */
// biome-ignore format: the registry's table, kept dense
const IBAN_LENGTHS: Record<string, number> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BI: 27, BR: 29, BY: 28,
  CH: 21, CR: 22, CY: 28, CZ: 24, DE: 22, DJ: 27, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18,
  FK: 18, FO: 18, FR: 27, GB: 22, GE: 22, GI: 23, GL: 18, GR: 27, GT: 28, HR: 21, HU: 28, IE: 22,
  IL: 23, IQ: 23, IS: 26, IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28, LC: 32, LI: 21, LT: 20, LU: 20,
  LV: 21, LY: 25, MC: 27, MD: 24, ME: 22, MK: 19, MN: 20, MR: 27, MT: 31, MU: 30, NI: 28, NL: 18,
  NO: 15, OM: 23, PK: 24, PL: 28, PS: 29, PT: 25, QA: 29, RO: 24, RS: 22, RU: 33, SA: 24, SC: 31,
  SD: 18, SE: 24, SI: 19, SK: 24, SM: 27, SO: 23, ST: 25, SV: 28, TL: 23, TN: 24, TR: 26, UA: 29,
  VA: 22, VG: 24, XK: 20, YE: 30,
};

/** Spaces people type between groups of four are not part of the number. */
export const compactIban = (s: string) => s.replace(/\s+/g, "").toUpperCase();

/** Two letters, two digits, then letters and digits: the shape of an IBAN (ISO 13616). */
export function looksLikeIban(s: string): boolean {
  return /^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(compactIban(s));
}

/** ISO 7064 mod 97-10 over the rearranged IBAN: 1 for a valid one. */
function ibanRemainder(iban: string): number {
  const moved = iban.slice(4) + iban.slice(0, 4);
  let r = 0;
  for (const ch of moved) {
    const v = ch >= "A" ? ch.charCodeAt(0) - 55 : Number(ch);
    r = (v > 9 ? r * 100 + v : r * 10 + v) % 97;
  }
  return r;
}

export const IBAN_CHECK_MESSAGE = "must be a valid IBAN: its check digits do not match (ISO 13616)";

/** What is wrong with an account number that looks like an IBAN, or null (not an IBAN, or valid). */
export function ibanProblem(s: string | undefined): string | null {
  if (!s || !looksLikeIban(s)) return null;
  const iban = compactIban(s);
  const country = iban.slice(0, 2);
  const length = IBAN_LENGTHS[country];
  if (length === undefined) return `must be a valid IBAN: ${country} is not a country that uses IBANs`;
  if (iban.length !== length)
    return `must be a valid IBAN: a ${countryName(country)} IBAN has ${length} characters, not ${iban.length}`;
  return ibanRemainder(iban) === 1 ? null : IBAN_CHECK_MESSAGE;
}

/** "Germany" for DE; the code itself where the runtime knows no name. */
export function countryName(code: string): string {
  try {
    const name = new Intl.DisplayNames(["en"], { type: "region" }).of(code.toUpperCase());
    return name && name !== "Unknown Region" ? name : code.toUpperCase();
  } catch {
    return code.toUpperCase();
  }
}

/** The country an IBAN or a BIC names (letters 1-2 of an IBAN, 5-6 of a BIC), as "Germany (DE)". */
export function ibanCountry(s: string): string | null {
  if (!looksLikeIban(s)) return null;
  const code = compactIban(s).slice(0, 2);
  return IBAN_LENGTHS[code] ? `${countryName(code)} (${code})` : null;
}

export function bicCountry(bic: string): string | null {
  const b = bic.trim().toUpperCase();
  if (!/^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(b)) return null;
  const code = b.slice(4, 6);
  const name = countryName(code);
  return name === code ? null : `${name} (${code})`;
}

/** The account-number fields of a wire checked as IBANs when they look like one. */
export const IBAN_FIELDS = ["beneficiary_account_number", "intermediary_bank_account_number"] as const;
