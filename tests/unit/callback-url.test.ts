// Sign-in's destination after success: only a path on the dashboard's own origin, judged as a
// browser parses the address (WHATWG URL), whatever shape the address is given in.
import { describe, expect, it } from "vitest";
import { DEFAULT_DESTINATION, sameOriginPath } from "../../lib/auth/callback-url.ts";

const ORIGIN = "http://127.0.0.1:3000";

// What the sign-in page receives after the query string is decoded, and the encoded forms too
// (a destination handed on without decoding).
const LEADS_AWAY = [
  "/\t/evil.example/",
  "/%09/evil.example/",
  "/\t\\evil.example",
  "/%09%5cevil.example",
  "/\n/evil.example",
  "/\r\n/evil.example",
  "/\\evil.example",
  "\\\\evil.example",
  "\\/evil.example",
  "//evil.example",
  "///evil.example",
  " //evil.example",
  "\t//evil.example",
  "/.//evil.example",
  "https://evil.example/accounts",
  "http://127.0.0.1:3001/accounts",
  "https://127.0.0.1:3000/accounts",
  "http://127.0.0.1:3000@evil.example/",
  "https:evil.example",
  "javascript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "http://[::1",
];

describe("sign-in's destination", () => {
  it.each(LEADS_AWAY)("never leaves the dashboard's origin for %j", (raw) => {
    const out = sameOriginPath(raw, ORIGIN);
    expect(new URL(out, ORIGIN).origin).toBe(ORIGIN);
    // What a browser makes of the answer, were it used as a link.
    expect(out.startsWith("/")).toBe(true);
    expect(out.startsWith("//")).toBe(false);
  });

  it("goes to the accounts page instead of an address elsewhere", () => {
    for (const raw of ["/\t/evil.example/", "//evil.example", "https://evil.example/", "/\\evil.example"])
      expect(sameOriginPath(raw, ORIGIN)).toBe(DEFAULT_DESTINATION);
    expect(sameOriginPath("", ORIGIN)).toBe(DEFAULT_DESTINATION);
    expect(sameOriginPath(undefined, ORIGIN)).toBe(DEFAULT_DESTINATION);
  });

  it("keeps a path on the dashboard with its query and fragment", () => {
    expect(sameOriginPath("/payments?account=1234567890#list", ORIGIN)).toBe(
      "/payments?account=1234567890#list",
    );
    expect(sameOriginPath("/accounts/1234567890", ORIGIN)).toBe("/accounts/1234567890");
    expect(sameOriginPath("http://127.0.0.1:3000/drafts", ORIGIN)).toBe("/drafts");
  });
});
