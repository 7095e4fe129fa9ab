// The payee control through the dashboard's route handlers, invoked as Next invokes them (a signed
// session cookie) against the real bank and a real dashboard database: a new saved beneficiary and
// a change to its account or bank details wait for a second person; the author can never approve
// their own; a wire cannot be drafted from a beneficiary with something waiting; the approved
// change fills a wire; its release answer (and the drafts list the release dialog reads) says what
// changed, when, who changed it and who approved it. The approver's view of a change marks each
// character that differs between the whole old and new values.
import { randomUUID } from "node:crypto";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { PayeeFieldDiff } from "../../components/send-money/payee-change.tsx";
import { readAudit } from "../../lib/audit/log.ts";
import type { UserRow } from "../../lib/auth/users.ts";
import { setBankClient } from "../../lib/bank-client/index.ts";
import type { DashboardDb } from "../../lib/db/client.ts";
import { sandboxCustomer, startTestBank, type TestBank } from "../helpers/bank.ts";
import { invoke, openTestDashboardDb, type TestDashboardDb, testUser } from "../helpers/routes.ts";

process.env.NEXTAUTH_SECRET = "test-nextauth-secret-0123456789abcdef";
process.env.NEXTAUTH_URL = "http://127.0.0.1:3999";

let bank: TestBank;
let dashboard: TestDashboardDb;
let db: DashboardDb;
let preparer: UserRow;
let approver: UserRow;
let approver2: UserRow;
let dda: string;

const mod = {
  wires: () => import("../../app/api/wires/route.ts"),
  drafts: () => import("../../app/api/drafts/route.ts"),
  draft: () => import("../../app/api/drafts/[id]/route.ts"),
  release: () => import("../../app/api/drafts/[id]/release/route.ts"),
  beneficiaries: () => import("../../app/api/beneficiaries/route.ts"),
  beneficiary: () => import("../../app/api/beneficiaries/[id]/route.ts"),
  approve: () => import("../../app/api/beneficiaries/[id]/approve/route.ts"),
  reject: () => import("../../app/api/beneficiaries/[id]/reject/route.ts"),
};

const payee = (over: Record<string, string> = {}) => ({
  beneficiary_name: "Initech Payments LLC",
  beneficiary_account_number: "40001234",
  beneficiary_address1: "4120 Freidrich Lane",
  receiving_bank_routing_id: "021000021",
  receiving_bank_name: "Receiving Bank NA",
  ...over,
});

const wireFrom = (fields: Record<string, string>, over: Record<string, unknown> = {}) => ({
  idempotencyKey: randomUUID(),
  originator_account_number: dda,
  amount: "310.25",
  ...fields,
  ...over,
});

type Who = UserRow;

const save = (as: Who, label: string, fields: Record<string, string>) =>
  invoke(mod.beneficiaries, "POST", "/api/beneficiaries", { as, body: { label, fields } });
const change = (as: Who, id: string, label: string, fields: Record<string, string>) =>
  invoke(mod.beneficiary, "PUT", "/x", { as, params: { id }, body: { label, fields } });
const decide = (as: Who, verb: "approve" | "reject", id: string, changeId: string) =>
  invoke(verb === "approve" ? mod.approve : mod.reject, "POST", "/x", {
    as,
    params: { id },
    body: { changeId },
  });
const listed = async (as: Who, id: string) =>
  (await invoke(mod.beneficiaries, "GET", "/api/beneficiaries", { as })).json.beneficiaries.find(
    (b: { id: string }) => b.id === id,
  );
const draftWire = (as: Who, body: Record<string, unknown>) =>
  invoke(mod.wires, "POST", "/api/wires", { as, body });

beforeAll(async () => {
  bank = await startTestBank();
  dashboard = await openTestDashboardDb("payee-changes");
  db = dashboard.db;
  const c = await sandboxCustomer(bank, "Initech Treasury LLC");
  dda = await c.account("DDA", 250_000);
  process.env.BANK_API_URL = bank.url;
  process.env.BANK_SUBSCRIPTION_KEY = c.subscriptionKey;
  setBankClient(undefined);
  preparer = await testUser(db, "preparer", "preparer@payee.example", "Payee preparer");
  approver = await testUser(db, "approver", "approver@payee.example", "Payee approver");
  approver2 = await testUser(db, "approver", "approver2@payee.example", "Second approver");
}, 180_000);

afterAll(async () => {
  setBankClient(undefined);
  await dashboard?.close();
  await bank?.close();
});

describe("payee control", () => {
  it("a new beneficiary fills no wire until a second person approves it; its author cannot approve it", async () => {
    const made = await save(approver, "Initech", payee());
    expect(made.status).toBe(200);
    const b = made.json.beneficiary;
    expect(b.status).toBe("new");
    expect(b.pendingChange).toMatchObject({
      kind: "create",
      status: "pending",
      changedBy: { email: approver.email },
    });

    const early = await draftWire(preparer, wireFrom(payee(), { beneficiaryId: b.id }));
    expect(early.status).toBe(409);
    expect(early.json.error.message).toMatch(/new beneficiary waiting for approval/);
    expect(early.json.error.fields[0].field).toBe("beneficiaryId");

    const own = await decide(approver, "approve", b.id, b.pendingChange.id);
    expect(own.status).toBe(403);
    expect(own.json.error.message).toMatch(/You made this change; another approver must approve it/);
    const preparerTries = await decide(preparer, "approve", b.id, b.pendingChange.id);
    expect(preparerTries.status).toBe(403);
    expect((await listed(preparer, b.id)).status).toBe("new");

    const ok = await decide(approver2, "approve", b.id, b.pendingChange.id);
    expect(ok.status).toBe(200);
    expect(ok.json.beneficiary).toMatchObject({ status: "approved", pendingChange: null });
    expect(ok.json.change).toMatchObject({ status: "approved", decidedBy: { email: approver2.email } });
    const twice = await decide(approver2, "approve", b.id, b.pendingChange.id);
    expect(twice.status).toBe(409);

    const wire = await draftWire(preparer, wireFrom(payee(), { beneficiaryId: b.id }));
    expect(wire.status).toBe(200);

    const audit = (await readAudit(db)).filter((e) => e.target === b.id);
    expect(audit.map((e) => `${e.action}:${e.result}:${e.actorEmail}`)).toEqual(
      expect.arrayContaining([
        `beneficiary.create:awaiting_approval:${approver.email}`,
        `beneficiary.approve:denied:${approver.email}`,
        `beneficiary.approve:ok:${approver2.email}`,
      ]),
    );
  });

  it("a changed account waits for approval, shown masked and whole with who changed it; no wire uses it meanwhile; the author cannot approve it", async () => {
    const made = await save(preparer, "Umbrella", payee({ beneficiary_account_number: "55501234" }));
    const id = made.json.beneficiary.id;
    expect((await decide(approver, "approve", id, made.json.beneficiary.pendingChange.id)).status).toBe(200);

    // The author here holds beneficiaries.approve too: still not enough alone.
    const changed = await change(
      approver,
      id,
      "Umbrella",
      payee({
        beneficiary_account_number: "99907777",
        receiving_bank_routing_id: "026009593",
        receiving_bank_name: "Bank of America NA",
      }),
    );
    expect(changed.status).toBe(200);
    const b = changed.json.beneficiary;
    expect(b.status).toBe("changed");
    // The approved details stay in place until a second person agrees.
    expect(b.fields.beneficiary_account_number).toBe("55501234");
    expect(b.pendingChange).toMatchObject({
      kind: "change",
      status: "pending",
      changedBy: { email: approver.email },
      fields: [
        { field: "beneficiary_account_number", before: "••••1234", after: "••••7777" },
        { field: "receiving_bank_routing_id", before: "••••0021", after: "••••9593" },
        { field: "receiving_bank_name", before: "Receiving Bank NA", after: "Bank of America NA" },
      ],
    });
    // Where the change is decided, the whole old and new values are beside the masks.
    expect(b.pendingChange.fields[0]).toMatchObject({ beforeFull: "55501234", afterFull: "99907777" });
    expect(b.pendingChange.fields[1]).toMatchObject({ beforeFull: "021000021", afterFull: "026009593" });
    expect(b.pendingChange.fields[2]).toMatchObject({
      beforeFull: "Receiving Bank NA",
      afterFull: "Bank of America NA",
    });
    // What the approver's dialog shows of this answer: each whole value, its differing characters
    // marked (paired from the right), so a new bank cannot pass behind a familiar last four.
    const shown = renderToStaticMarkup(createElement(PayeeFieldDiff, { change: b.pendingChange }));
    const marked = (label: string) => {
      const span = shown.match(new RegExp(`data-field="${label}">(.*?)<span class="sr-only">`))?.[1] ?? "";
      return [...span.matchAll(/<(mark|span)[^>]*>(.)<\/\1>/g)]
        .map(([, tag, ch]) => (tag === "mark" ? `[${ch}]` : ch))
        .join("");
    };
    expect(marked("Old Account number")).toBe("[5][5][5]0[1][2][3][4]");
    expect(marked("New Account number")).toBe("[9][9][9]0[7][7][7][7]");
    expect(marked("Old Receiving bank ABA routing number")).toBe("02[1]00[0][0][2][1]");
    expect(marked("New Receiving bank ABA routing number")).toBe("02[6]00[9][5][9][3]");
    expect(marked("Old Receiving bank name")).toBe("[R][e][c][e][i][v][i][n][g][ ][B][a][n][k] NA");
    expect(marked("New Receiving bank name")).toBe("[B][a][n][k][ ][o][f][ ][A][m][e][r][i][c][a] NA");
    // The audit log keeps them masked.
    expect(JSON.stringify(await readAudit(db, 20))).not.toContain("99907777");
    expect(await listed(preparer, id)).toMatchObject({ status: "changed" });

    // Neither the old details nor the new ones fill a wire while the change waits.
    for (const details of [
      payee({ beneficiary_account_number: "55501234" }),
      payee({
        beneficiary_account_number: "99907777",
        receiving_bank_routing_id: "026009593",
        receiving_bank_name: "Bank of America NA",
      }),
    ]) {
      const refused = await draftWire(preparer, wireFrom(details, { beneficiaryId: id }));
      expect(refused.status).toBe(409);
      expect(refused.json.error.message).toMatch(
        /“Umbrella” has a change waiting for approval \(by approver@payee\.example\)/,
      );
    }
    // Nor can it be changed again before the second person decides.
    const again = await change(preparer, id, "Umbrella", payee({ beneficiary_account_number: "12121212" }));
    expect(again.status).toBe(409);

    const own = await decide(approver, "approve", id, b.pendingChange.id);
    expect(own.status).toBe(403);
    const ownReject = await decide(approver, "reject", id, b.pendingChange.id);
    expect(ownReject.status).toBe(403);
    expect((await listed(preparer, id)).status).toBe("changed");
  });

  it("a label, name or address change applies alone; a rejected change keeps the approved details", async () => {
    const made = await save(preparer, "Hooli", payee({ beneficiary_account_number: "31313131" }));
    const id = made.json.beneficiary.id;
    await decide(approver, "approve", id, made.json.beneficiary.pendingChange.id);

    const renamed = await change(
      preparer,
      id,
      "Hooli XYZ",
      payee({ beneficiary_account_number: "31313131", beneficiary_name: "Hooli XYZ Inc" }),
    );
    expect(renamed.status).toBe(200);
    expect(renamed.json.beneficiary).toMatchObject({
      label: "Hooli XYZ",
      status: "approved",
      fields: { beneficiary_name: "Hooli XYZ Inc" },
    });

    const moved = await change(preparer, id, "Hooli XYZ", payee({ beneficiary_account_number: "66666666" }));
    const changeId = moved.json.beneficiary.pendingChange.id;
    const rejected = await decide(approver, "reject", id, changeId);
    expect(rejected.status).toBe(200);
    expect(rejected.json.beneficiary).toMatchObject({
      status: "approved",
      fields: { beneficiary_account_number: "31313131" },
    });
    const wire = await draftWire(
      preparer,
      wireFrom(payee({ beneficiary_account_number: "31313131" }), { beneficiaryId: id }),
    );
    expect(wire.status).toBe(200);
    const audit = (await readAudit(db)).filter((e) => e.target === id);
    expect(audit.find((e) => e.action === "beneficiary.reject")).toMatchObject({
      result: "rejected",
      actorEmail: approver.email,
      detail: { changeId, changedBy: preparer.email },
    });
  });

  it("an approved change fills a wire; the release answer and the drafts list carry what changed, when, who changed it and who approved it", async () => {
    const made = await save(preparer, "Vandelay", payee({ beneficiary_account_number: "70001111" }));
    const id = made.json.beneficiary.id;
    await decide(approver2, "approve", id, made.json.beneficiary.pendingChange.id);
    const changed = await change(
      preparer,
      id,
      "Vandelay",
      payee({
        beneficiary_account_number: "70002222",
        beneficiary_bank_type: "SWIFT",
        beneficiary_bank_routing_id: "DEUTDEFF500",
      }),
    );
    const changeId = changed.json.beneficiary.pendingChange.id;
    // A stale id (not the change reviewed) decides nothing.
    expect((await decide(approver, "approve", id, randomUUID())).status).toBe(404);
    const ok = await decide(approver, "approve", id, changeId);
    expect(ok.status).toBe(200);
    const newDetails = payee({
      beneficiary_account_number: "70002222",
      beneficiary_bank_type: "SWIFT",
      beneficiary_bank_routing_id: "DEUTDEFF500",
    });
    expect(ok.json.beneficiary).toMatchObject({ status: "approved", fields: newDetails });

    // The old details no longer match the saved beneficiary.
    const stale = await draftWire(
      preparer,
      wireFrom(payee({ beneficiary_account_number: "70001111" }), { beneficiaryId: id }),
    );
    expect(stale.status).toBe(400);
    expect(stale.json.error.fields[0]).toMatchObject({ field: "beneficiaryId" });
    expect(stale.json.error.fields[0].message).toMatch(/does not match the approved details of “Vandelay”/);

    const made2 = await draftWire(preparer, wireFrom(newDetails, { beneficiaryId: id }));
    expect(made2.status).toBe(200);
    const draftId = made2.json.draft.id;

    const listedDrafts = await invoke(mod.drafts, "GET", "/api/drafts", { as: approver2 });
    const shown = listedDrafts.json.drafts.find((d: { id: string }) => d.id === draftId);
    expect(shown.beneficiaryId).toBe(id);
    const recent = {
      id: changeId,
      kind: "change",
      status: "approved",
      label: "Vandelay",
      changedBy: { email: preparer.email },
      decidedBy: { email: approver.email },
      fields: [
        { field: "beneficiary_account_number", before: "••••1111", after: "••••2222" },
        { field: "beneficiary_bank_type", before: "", after: "SWIFT" },
        { field: "beneficiary_bank_routing_id", before: "", after: "••••F500" },
      ],
    };
    // Newest first: the change, then the beneficiary's approval as new.
    expect(shown.payeeChanges.map((c: { kind: string }) => c.kind)).toEqual(["change", "create"]);
    expect(shown.payeeChanges[0]).toMatchObject(recent);
    expect(Date.parse(shown.payeeChanges[0].changedAt)).toBeLessThanOrEqual(
      Date.parse(shown.payeeChanges[0].decidedAt),
    );

    const one = await invoke(mod.draft, "GET", "/x", { as: approver2, params: { id: draftId } });
    expect(one.json.draft.payeeChanges[0]).toMatchObject(recent);

    const released = await invoke(mod.release, "POST", "/x", {
      as: approver2,
      params: { id: draftId },
      body: { version: 1 },
    });
    expect(released.status).toBe(200);
    expect(released.json.draft.status).toBe("released");
    expect(released.json.draft.paymentId).toMatch(/\S/);
    expect(released.json.draft.payeeChanges[0]).toMatchObject(recent);
  });

  it("a wire filled from no saved beneficiary carries no payee change; a wrong id is a 400 naming beneficiaryId", async () => {
    const plain = await draftWire(preparer, wireFrom(payee({ beneficiary_account_number: "80808080" })));
    expect(plain.status).toBe(200);
    const one = await invoke(mod.draft, "GET", "/x", { as: approver, params: { id: plain.json.draft.id } });
    expect(one.json.draft).toMatchObject({ beneficiaryId: null, payeeChanges: [] });
    for (const beneficiaryId of [randomUUID(), "not-an-id"]) {
      const r = await draftWire(preparer, wireFrom(payee(), { beneficiaryId }));
      expect(r.status).toBe(400);
      expect(r.json.error.fields[0].field).toBe("beneficiaryId");
    }
  });
});

describe("what the approver of a payee change sees", () => {
  it("the whole old and new account number, not two masks that read alike", async () => {
    const fields = payee({
      beneficiary_name: "Hooli Treasury Inc",
      beneficiary_account_number: "100000003333",
    });
    const made = await save(preparer, "Hooli blind check", fields);
    expect(made.status).toBe(200);
    const id = made.json.beneficiary.id as string;
    expect((await decide(approver, "approve", id, made.json.beneficiary.pendingChange.id)).status).toBe(200);
    const changed = await change(preparer, id, "Hooli blind check", {
      ...fields,
      beneficiary_account_number: "666666663333",
    });
    expect(changed.status).toBe(200);
    const account = (await listed(approver, id)).pendingChange.fields.find(
      (f: { field: string }) => f.field === "beneficiary_account_number",
    );
    // Masked, the two read the same; the approver is shown both whole.
    expect(account.before).toBe(account.after);
    expect(account).toMatchObject({ beforeFull: "100000003333", afterFull: "666666663333" });
  });
});
