// Invisible formatting characters (bidirectional controls, zero-width characters, the soft
// hyphen, the byte-order mark, the line separator) make a name read differently from what it
// holds. The bank refuses them (lib/bank-api/rules.ts); every free-text field a person types into
// the dashboard for another to read refuses them too, through its route: a 400 naming the field,
// and nothing changed.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { UserRow } from "../../lib/auth/users.ts";
import { invoke, openRouteWorld, type RouteWorld, testUser } from "../helpers/routes.ts";

const mod = {
  users: () => import("../../app/api/admin/users/route.ts"),
  user: () => import("../../app/api/admin/users/[id]/route.ts"),
  beneficiaries: () => import("../../app/api/beneficiaries/route.ts"),
  beneficiary: () => import("../../app/api/beneficiaries/[id]/route.ts"),
  wires: () => import("../../app/api/wires/route.ts"),
  draft: () => import("../../app/api/drafts/[id]/route.ts"),
  reject: () => import("../../app/api/drafts/[id]/reject/route.ts"),
  webhooks: () => import("../../app/api/webhooks/route.ts"),
  rules: () => import("../../app/api/alerts/route.ts"),
  rule: () => import("../../app/api/alerts/[accountNumber]/route.ts"),
  transfers: () => import("../../app/api/transfers/route.ts"),
  createSen: () => import("../../app/api/accounts/sen/route.ts"),
};

/**
 * Each hidden character, in the middle of a value and at its start (where trimming could hide it):
 * bidirectional controls, zero-width characters, the soft hyphen, the byte-order mark, the line
 * separator; the Hangul fillers, the braille blank, the combining grapheme joiner, a variation
 * selector, a combining overlay, the no-break and ideographic spaces.
 */
const HIDDEN = [
  "\u202e",
  "\u2066",
  "\u200b",
  "\u200d",
  "\u00ad",
  "\ufeff",
  "\u2028",
  "\u3164",
  "\uffa0",
  "\u115f",
  "\u2800",
  "\u034f",
  "\ufe0f",
  "\u0338",
  "\u00a0",
  "\u3000",
];
const hiddenValues = HIDDEN.flatMap((ch) => [`Acme${ch}Supplies`, `${ch}Acme`]);

let world: RouteWorld;
let admin: UserRow;
let preparer: UserRow;
let approver: UserRow;
let victim: UserRow;
let dda: string;
let sen1: string;
let sen2: string;
let beneficiaryId: string;
let draftId: string;

const templateFields = {
  beneficiary_name: "Acme Supplies Inc",
  beneficiary_account_number: "987654321",
  beneficiary_address1: "1 Main Street",
  receiving_bank_routing_id: "021000021",
};
const wireForm = (over: Record<string, unknown> = {}) => ({
  idempotencyKey: randomUUID(),
  originator_account_number: dda,
  amount: "1,250.50",
  ...templateFields,
  receiving_bank_name: "Receiving Bank NA",
  beneficiary_bank_type: "",
  beneficiary_bank_routing_id: "",
  ...over,
});

beforeAll(async () => {
  world = await openRouteWorld("hidden-text", { customer: "Hidden Text Checks LLC" });
  const c = world.customer;
  dda = await c.account("DDA", 100_000);
  sen1 = await c.account("SEN", 100_000);
  sen2 = await c.account("SEN", 10);
  admin = await testUser(world.db, "admin", "admin@hidden.example");
  preparer = await testUser(world.db, "preparer", "preparer@hidden.example");
  approver = await testUser(world.db, "approver", "approver@hidden.example");
  victim = await testUser(world.db, "viewer", "viewer@hidden.example", "Plain Name");
  const saved = await invoke(mod.beneficiaries, "POST", "/api/beneficiaries", {
    as: preparer,
    body: { label: "Acme", fields: templateFields },
  });
  expect(saved.status).toBe(200);
  beneficiaryId = saved.json.beneficiary.id;
  const draft = await invoke(mod.wires, "POST", "/api/wires", { as: preparer, body: wireForm() });
  expect(draft.status).toBe(200);
  draftId = draft.json.draft.id;
}, 180_000);

afterAll(async () => {
  await world?.close();
});

interface Field {
  /** What the person types into, as the form names it. */
  name: string;
  /** The field the 400 names. */
  field: string;
  send: (value: string) => ReturnType<typeof invoke>;
  /** What must not change. */
  state: () => Promise<unknown>;
}

const dbRows = (sql: string, params: unknown[] = []) => world.db.query(sql, params);

const FIELDS: Field[] = [
  {
    name: "a new user's name",
    field: "name",
    send: (v) =>
      invoke(mod.users, "POST", "/api/admin/users", {
        as: admin,
        body: { email: `new-${randomUUID().slice(0, 8)}@hidden.example`, name: v, role: "viewer" },
      }),
    state: () => dbRows("SELECT email, name FROM users ORDER BY email"),
  },
  {
    name: "a user's name, changed",
    field: "name",
    send: (v) =>
      invoke(mod.user, "PATCH", `/api/admin/users/${victim.id}`, {
        as: admin,
        params: { id: victim.id },
        body: { name: v },
      }),
    state: () => dbRows("SELECT name FROM users WHERE id = $1", [victim.id]),
  },
  {
    name: "a saved beneficiary's label",
    field: "label",
    send: (v) =>
      invoke(mod.beneficiaries, "POST", "/api/beneficiaries", {
        as: preparer,
        body: { label: v, fields: templateFields },
      }),
    state: () => dbRows("SELECT label, fields FROM beneficiaries ORDER BY label"),
  },
  {
    name: "a saved beneficiary's label, changed",
    field: "label",
    send: (v) =>
      invoke(mod.beneficiary, "PUT", `/api/beneficiaries/${beneficiaryId}`, {
        as: preparer,
        params: { id: beneficiaryId },
        body: { label: v, fields: templateFields },
      }),
    state: () => dbRows("SELECT label, fields FROM beneficiaries ORDER BY label"),
  },
  {
    name: "a saved beneficiary's name",
    field: "fields.beneficiary_name",
    send: (v) =>
      invoke(mod.beneficiaries, "POST", "/api/beneficiaries", {
        as: preparer,
        body: { label: "Another", fields: { ...templateFields, beneficiary_name: v } },
      }),
    state: () => dbRows("SELECT label, fields FROM beneficiaries ORDER BY label"),
  },
  {
    name: "a draft's reject reason",
    field: "reason",
    send: (v) =>
      invoke(mod.reject, "POST", `/api/drafts/${draftId}/reject`, {
        as: approver,
        params: { id: draftId },
        body: { version: 1, reason: v },
      }),
    state: () => dbRows("SELECT * FROM payment_drafts WHERE id = $1", [draftId]),
  },
  {
    name: "a wire's beneficiary name",
    field: "beneficiary_name",
    send: (v) =>
      invoke(mod.wires, "POST", "/api/wires", { as: preparer, body: wireForm({ beneficiary_name: v }) }),
    state: () => dbRows("SELECT id FROM payment_drafts ORDER BY id"),
  },
  {
    name: "a wire's beneficiary account number",
    field: "beneficiary_account_number",
    send: (v) =>
      invoke(mod.wires, "POST", "/api/wires", {
        as: preparer,
        body: wireForm({ beneficiary_account_number: v.replace("Acme", "1234").replace("Supplies", "5678") }),
      }),
    state: () => dbRows("SELECT id FROM payment_drafts ORDER BY id"),
  },
  {
    name: "a wire's note to the beneficiary",
    field: "originator_to_beneficiary_info",
    send: (v) =>
      invoke(mod.wires, "POST", "/api/wires", {
        as: preparer,
        body: wireForm({ originator_to_beneficiary_info: v }),
      }),
    state: () => dbRows("SELECT id FROM payment_drafts ORDER BY id"),
  },
  {
    name: "a wire draft's beneficiary name, changed",
    field: "wire.beneficiary_name",
    send: (v) =>
      invoke(mod.draft, "PUT", `/api/drafts/${draftId}`, {
        as: preparer,
        params: { id: draftId },
        body: { version: 1, wire: wireForm({ beneficiary_name: v }) },
      }),
    state: () => dbRows("SELECT * FROM payment_drafts WHERE id = $1", [draftId]),
  },
  {
    name: "a webhook's description",
    field: "description",
    send: (v) =>
      invoke(mod.webhooks, "POST", "/api/webhooks", {
        as: preparer,
        body: { accountNumber: dda, description: v, url: "https://erp.example/hook", emails: "" },
      }),
    state: async () => (await invoke(mod.webhooks, "GET", "/api/webhooks", { as: preparer })).json,
  },
  {
    name: "a balance alert's e-mail addresses",
    field: "emails",
    send: (v) =>
      invoke(mod.rule, "PUT", `/api/alerts/${dda}`, {
        as: preparer,
        params: { accountNumber: dda },
        body: { below: "5.00", above: "", notifyUsers: true, emails: `ops@example.com, ${v}@example.com` },
      }),
    state: async () => (await invoke(mod.rules, "GET", "/api/alerts", { as: preparer })).json,
  },
  {
    name: "a SEN transfer's description",
    field: "AccountFromDescription2",
    send: (v) =>
      invoke(mod.transfers, "POST", "/api/transfers", {
        as: preparer,
        body: {
          idempotencyKey: randomUUID(),
          AccountNumberFrom: sen1,
          AccountNumberTo: sen2,
          Amount: "1.00",
          AccountFromDescription2: v,
        },
      }),
    state: () => dbRows("SELECT id FROM payment_drafts ORDER BY id"),
  },
  {
    name: "a new SEN account's title line",
    field: "AltTitleLine1",
    send: (v) =>
      invoke(mod.createSen, "POST", "/api/accounts/sen", {
        as: preparer,
        body: {
          ExpectedBalance: "1000",
          ExpectedIncomingAmtMonth: "1000",
          ExpectedOutgoingAmtMonth: "1000",
          AltTitleLine1: v,
        },
      }),
    state: () => dbRows("SELECT count(*) AS n FROM audit_log"),
  },
];

describe("hidden characters in the dashboard's free text", () => {
  it.each(FIELDS.map((f) => [f.name, f] as const))(
    "%s: 400 naming the field, nothing changed",
    async (_, f) => {
      for (const value of hiddenValues) {
        const before = await f.state();
        const audited = await dbRows("SELECT count(*) AS n FROM audit_log");
        const r = await f.send(value);
        expect(r.status, JSON.stringify(value)).toBe(400);
        expect(r.json.error.fields, JSON.stringify(value)).toContainEqual(
          expect.objectContaining({ field: f.field, message: expect.stringMatching(/invisible/) }),
        );
        expect(await f.state()).toEqual(before);
        expect(await dbRows("SELECT count(*) AS n FROM audit_log")).toEqual(audited);
      }
    },
  );

  it("takes the same fields without hidden characters (the checks refuse only what they name)", async () => {
    const r = await invoke(mod.user, "PATCH", `/api/admin/users/${victim.id}`, {
      as: admin,
      params: { id: victim.id },
      body: { name: "Zoë O'Brien-Łukasz 王" },
    });
    expect(r.status).toBe(200);
    const reason = await invoke(mod.reject, "POST", `/api/drafts/${draftId}/reject`, {
      as: approver,
      params: { id: draftId },
      body: { version: 1, reason: "Wrong account:\nplease check with the supplier." },
    });
    expect(reason.status).toBe(200);
  });
});

describe("payees that read alike", () => {
  it("refuses a new payee whose name or label reads the same as a saved one, naming the field", async () => {
    const first = await invoke(mod.beneficiaries, "POST", "/api/beneficiaries", {
      as: preparer,
      body: { label: "Globex Corp", fields: { ...templateFields, beneficiary_name: "Globex Corp" } },
    });
    expect(first.status).toBe(200);
    const count = async () => (await dbRows("SELECT count(*)::int AS n FROM beneficiaries"))[0];
    const before = await count();
    // A filler between the words: refused as hidden text.
    const filler = await invoke(mod.beneficiaries, "POST", "/api/beneficiaries", {
      as: preparer,
      body: { label: "Globex\u3164Corp", fields: { ...templateFields, beneficiary_name: "Globex Payments" } },
    });
    expect(filler.status).toBe(400);
    expect(filler.json.error.fields).toContainEqual(expect.objectContaining({ field: "label" }));
    // Spacing, case, a Cyrillic letter, a digit for a letter: each reads the same.
    for (const [label, name, field] of [
      ["GLOBEX  corp", "Other Name One", "label"],
      ["Gl\u043ebex Corp", "Other Name Two", "label"],
      ["Payee Three", "G1obex Corp.", "fields.beneficiary_name"],
    ] as const) {
      const r = await invoke(mod.beneficiaries, "POST", "/api/beneficiaries", {
        as: preparer,
        body: { label, fields: { ...templateFields, beneficiary_name: name } },
      });
      expect(r.status, label).toBe(409);
      expect(r.json.error.fields, label).toContainEqual(
        expect.objectContaining({
          field,
          message: expect.stringMatching(/reads the same as the saved beneficiary "Globex Corp"/),
        }),
      );
    }
    expect(await count()).toEqual(before);
    // A different payee is welcome.
    const other = await invoke(mod.beneficiaries, "POST", "/api/beneficiaries", {
      as: preparer,
      body: { label: "Initech", fields: { ...templateFields, beneficiary_name: "Initech LLC" } },
    });
    expect(other.status).toBe(200);
  });
});
