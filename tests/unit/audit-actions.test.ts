// The audit page names every action the dashboard records in words: the action names are read
// from the code that appends entries, so a new action without words fails here.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { auditActionWords, auditResultTone, auditResultWords } from "../../lib/format/audit-actions.ts";

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** Every action name written as a literal where entries are appended ("area.verb"). */
function literalActions(): Set<string> {
  const found = new Set<string>();
  for (const file of [...sources("lib"), ...sources("app")]) {
    const text = fs.readFileSync(file, "utf8");
    if (!/appendAudit|settleUserChange|checkProof|audit\(/.test(text)) continue;
    const calls =
      /(?:audit\((?:db, actor, )?|settleUserChange\([^"]*|checkProof\([^"]*)"([a-z_]+\.[a-z_.]+)"/g;
    for (const m of text.matchAll(calls)) found.add(m[1]);
    // `action: ...` lines, with every name on them (a choice between two names).
    for (const line of text.split("\n").filter((l) => /\baction: /.test(l)))
      for (const m of line.matchAll(/"([a-z_]+\.[a-z_.]+)"/g)) found.add(m[1]);
  }
  return found;
}

// Names built from parts: draft.<step>.<kind>, incoming_wire.<decision>[.settled].
const BUILT = [
  ...["create", "update", "reject", "release", "approve"].flatMap((step) => [
    `draft.${step}.wire`,
    `draft.${step}.sen`,
  ]),
  ...["approve", "cancel", "return"].flatMap((d) => [`incoming_wire.${d}`, `incoming_wire.${d}.settled`]),
];

describe("audit action words", () => {
  it("has words for every action the dashboard records", () => {
    const literal = literalActions();
    // The scan finds the actions it should (a broken pattern would find none).
    for (const known of [
      "auth.sign_in",
      "transfer.sen",
      "incoming_wire.vote",
      "user.unlock",
      "alert_rule.create",
    ])
      expect(literal, known).toContain(known);
    const missing = [...literal, ...BUILT].filter((a) => auditActionWords(a) === a);
    expect(missing).toEqual([]);
  });

  it("reads the built names, and shows an unknown name as it is", () => {
    expect(auditActionWords("incoming_wire.return")).toBe("Incoming wire returned");
    expect(auditActionWords("incoming_wire.approve.settled")).toBe(
      "Incoming wire approval settled at the bank",
    );
    expect(auditActionWords("draft.release.sen")).toBe("SEN transfer draft released");
    expect(auditActionWords("draft.update.wire")).toBe("Wire draft corrected");
    for (const unknown of ["something.new", "draft.fly.wire", "incoming_wire.approve.later", "a.b.c.d"])
      expect(auditActionWords(unknown)).toBe(unknown);
  });

  it("gives each result a tone that repeats its words", () => {
    expect(auditResultTone("ok")).toBe("success");
    expect(auditResultTone("Complete")).toBe("success");
    expect(auditResultTone("awaiting_second_approval")).toBe("warning");
    expect(auditResultTone("queued")).toBe("warning");
    for (const r of [
      "refused: wrong code",
      "rejected by bank",
      "denied",
      "failed",
      "bank unavailable",
      "locked",
    ])
      expect(auditResultTone(r), r).toBe("danger");
    expect(auditResultTone("Canceled")).toBe("neutral");
    expect(auditResultWords("awaiting_second_approval")).toBe("awaiting second approval");
  });
});
