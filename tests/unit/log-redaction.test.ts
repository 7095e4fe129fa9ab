// No secret reaches a log line, whichever way it is handed to the logger: by a field named as a
// secret (at any depth), inside a header or body object, or by its shape inside any text.
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, createLogRoot, REDACT_PATHS, redact } from "../../lib/server/log.ts";
import { inScope, parseTraceparent, scopeFor } from "../../lib/server/trace.ts";

const JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlc2lnbmF0dXJl";

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  const root = createLogRoot(stream as never);
  return { lines, log: createLogger("test", { quiet: false, root }) };
}

describe("log redaction", () => {
  it("censors secret-named fields at any depth and secret-shaped values in any text", () => {
    expect(
      redact({
        authorization: `Bearer ${JWT}`,
        nested: { headers: { "Ocp-Apim-Subscription-Key": "k", cookie: "next-auth.session-token=x" } },
        body: { password: "hunter2", newPassword: "x", webhookSecret: "whsec_abcdefghijkl" },
        message: `failed with ${JWT} and sk_live_abcdefghijkl and postgres://u:pw@db/x`,
      }),
    ).toEqual({
      authorization: "[redacted]",
      nested: { headers: { "Ocp-Apim-Subscription-Key": "[redacted]", cookie: "[redacted]" } },
      body: { password: "[redacted]", newPassword: "[redacted]", webhookSecret: "[redacted]" },
      message: "failed with [redacted-jwt] and sk_[redacted] and postgres://u:[redacted]@db/x",
    });
  });

  it("writes JSON lines with no secret, through pino's redact paths as well", () => {
    const { lines, log } = capture();
    log.info(`token ${JWT} refused`, {
      headers: { authorization: JWT, "x-sandbox-key": "sbx_abcdefghijklmnop" },
      err: new Error(`upstream said whsec_abcdefghijklmnop`),
      status: 401,
    });
    expect(lines).toHaveLength(1);
    const text = JSON.stringify(lines[0]);
    expect(text).not.toContain(JWT);
    expect(text).not.toMatch(/sbx_abcdefghijklmnop|whsec_abcdefghijklmnop/);
    expect(lines[0]).toMatchObject({
      level: "info",
      name: "test",
      status: 401,
      msg: "token [redacted-jwt] refused",
    });
    for (const f of ["authorization", "cookie", "password", "webhookSecret", "token", "subscriptionKey"]) {
      expect(REDACT_PATHS).toContain(f);
      expect(REDACT_PATHS).toContain(`headers.${f}`);
      expect(REDACT_PATHS).toContain(`body.${f}`);
    }
  });

  it("puts the request id and trace id on every line written inside a request", () => {
    const { lines, log } = capture();
    const scope = scopeFor("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "req-1");
    inScope(scope, () => {
      log.info("one");
      log.warn("two");
    });
    log.info("outside");
    expect(lines.map((l) => [l.msg, l.requestId, l.traceId])).toEqual([
      ["one", "req-1", "0af7651916cd43dd8448eb211c80319c"],
      ["two", "req-1", "0af7651916cd43dd8448eb211c80319c"],
      ["outside", undefined, undefined],
    ]);
  });

  it("continues only a valid traceparent", () => {
    expect(parseTraceparent("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")).toEqual({
      traceId: "0af7651916cd43dd8448eb211c80319c",
      parentId: "b7ad6b7169203331",
    });
    for (const bad of [
      "",
      "junk",
      "00-00000000000000000000000000000000-b7ad6b7169203331-01",
      "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",
      "00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01",
      "00-0af7651916cd43dd8448eb211c80319-b7ad6b7169203331-01",
    ])
      expect(parseTraceparent(bad), bad).toBeNull();
    expect(scopeFor("junk").traceId).toMatch(/^[0-9a-f]{32}$/);
  });
});
