// Where sign-in may send the browser afterwards: a path on the dashboard's own origin, judged as
// the browser will read it. The browser parses a URL by the WHATWG rules (tabs and newlines
// dropped, a backslash read as a slash, leading spaces trimmed), so "/\t/evil.example/" or
// "/\\evil.example" look like paths yet lead to another host. The address is resolved with
// `new URL` against the origin, and only a same-origin result is followed.

/** Where a refused or missing destination leads instead. */
export const DEFAULT_DESTINATION = "/accounts";

/**
 * The destination as a path on `origin` (path, query and fragment), or `fallback` when `raw` is
 * empty, unparseable or leads to any other origin.
 */
export function sameOriginPath(
  raw: string | null | undefined,
  origin: string,
  fallback = DEFAULT_DESTINATION,
): string {
  if (!raw) return fallback;
  let base: URL;
  let url: URL;
  try {
    base = new URL(origin);
    url = new URL(raw, base);
  } catch {
    return fallback;
  }
  if (url.origin !== base.origin) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // A same-origin address whose path reads as another host once written alone ("/.//host"
  // becomes "//host"): refused too, since the path is what the browser is given.
  try {
    if (new URL(path, base).origin !== base.origin) return fallback;
  } catch {
    return fallback;
  }
  return path;
}
