// GUIDs arrive in every spelling a platform writes them: upper or lower case, in braces or
// parentheses, with or without hyphens. They are one value, so they are compared in one form.

const HEX = "[0-9a-fA-F]";
const BARE = `(?:${HEX}{8}-${HEX}{4}-${HEX}{4}-${HEX}{4}-${HEX}{12}|${HEX}{32})`;

/**
 * Every spelling the bank accepts, as a JSON Schema pattern (no flags, so the letter cases are
 * spelled out): hyphens all present or all absent, optionally in braces or parentheses.
 */
export const GUID_PATTERN = `^(?:${BARE}|\\{${BARE}\\}|\\(${BARE}\\))$`;
const GUID = new RegExp(GUID_PATTERN);

/**
 * The canonical form of a GUID (lower case, hyphenated: `0d2b0c9e-1111-4a2b-9c1d-aaaaaaaaaaaa`),
 * or null when the text is not a GUID. Surrounding blanks are tolerated.
 */
export function canonicalGuid(text: string): string | null {
  const t = text.trim();
  if (!GUID.test(t)) return null;
  const hex = t.replace(/[^0-9a-fA-F]/g, "").toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
