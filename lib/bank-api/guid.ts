// GUIDs arrive in every spelling a platform writes them: upper or lower case, in braces or
// parentheses, with or without hyphens. They are one value, so they are compared in one form.

const GUID =
  /^(?:\{([0-9a-f]{8})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{12})\}|\(([0-9a-f]{8})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{12})\)|([0-9a-f]{8})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{12}))$/i;

const HYPHENATED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The canonical form of a GUID (lower case, hyphenated: `0d2b0c9e-1111-4a2b-9c1d-aaaaaaaaaaaa`),
 * or null when the text is not a GUID. Hyphens are all present or all absent.
 */
export function canonicalGuid(text: string): string | null {
  const t = text.trim();
  // The usual spelling, hyphenated without braces, is the canonical form in lower case.
  if (HYPHENATED.test(t)) return t.toLowerCase();
  const m = GUID.exec(t);
  if (!m) return null;
  const hyphens = (t.match(/-/g) ?? []).length;
  if (hyphens !== 0 && hyphens !== 4) return null;
  const parts = m.slice(1).filter((p) => p !== undefined);
  return parts.join("-").toLowerCase();
}
