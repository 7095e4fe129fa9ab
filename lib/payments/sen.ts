// SEN transfers from the dashboard: at once when the approval policy needs no approver, else a draft.
// The form session's key is the bank's Idempotency-Key (and the draft's id), so a double click,
// a network retry or a reload after submit moves money once. When the bank does not answer, the
// source account's history is searched for the key before anyone is told the money did not move.
import "server-only";
import { toCents } from "../accounts/views.ts";
import { policySetNow, senSentToday, withSenDailyTotals } from "../approvals/facts.ts";
import { evaluate } from "../approvals/policy.ts";
import { type Actor, appendAudit, appendAuditOnce, auditActor } from "../audit/log.ts";
import { centsToDollars } from "../bank-api/money.ts";
import { SEN_TRANSFER_FIELDS } from "../bank-api/rules.ts";
import type { BankClient } from "../bank-client/client.ts";
import { BankCallError } from "../bank-client/errors.ts";
import { config } from "../config.ts";
import type { SenTransferResponse, SenTransferValues } from "../dashboard-api/transfers.ts";
import { withoutBlanks } from "../dashboard-api/wires.ts";
import type { DashboardDb } from "../db/client.ts";
import { RouteError } from "../route-kit/errors.ts";
import { businessToday } from "../route-kit/params.ts";
import { createDraft } from "./drafts.ts";

/** The transfersen body the bank is sent: wire names, dollars, empty lines left out. */
export function senTransferBody(v: SenTransferValues): Record<string, unknown> {
  const { idempotencyKey: _key, Amount, ...rest } = v;
  return withoutBlanks({
    ...rest,
    AccountNumberFrom: v.AccountNumberFrom.trim(),
    AccountNumberTo: v.AccountNumberTo.trim(),
    Amount: centsToDollars(Amount),
  });
}

/** Form fields by the lower-case wire name the bank may use in its field errors. */
const FORM_FIELDS = new Map(Object.keys(SEN_TRANSFER_FIELDS).map((f) => [f.toLowerCase(), f]));

function onFormFields(e: BankCallError): BankCallError {
  const fields = e.error.fields?.map((f) => ({
    ...f,
    field: FORM_FIELDS.get(f.field.toLowerCase()) ?? f.field,
  }));
  return new BankCallError({ ...e.error, fields });
}

async function availableOf(bank: BankClient, accountNumber: string): Promise<number | null> {
  const r = await bank.call("balance", { query: { accountNumber } });
  const rec = r.ok ? r.data.ResponseData[0] : undefined;
  return rec ? toCents(rec.AVAILBAL, "AVAILBAL") : null;
}

/** Looks for the key in today's history of the source account: true found, false absent, null unknown. */
async function movedUnderKey(bank: BankClient, accountNumber: string, key: string): Promise<boolean | null> {
  const today = businessToday();
  const r = await bank.call("history", {
    query: { accountNumber, beginDate: today, endDate: today, displayOrder: "D" },
  });
  if (!r.ok) return null;
  const txs = r.data.ResponseData.flatMap((d) => d.TRANSACTION);
  if (txs.some((t) => t.IDEMPOTENCYKEY === key)) return true;
  // A capped answer may hide it: that is not proof of absence.
  return r.data.ResponseData.some((d) => d.MOREDATA.toUpperCase() === "Y") ? null : false;
}

export async function sendSenTransfer(
  db: DashboardDb,
  bank: BankClient,
  actor: Actor,
  v: SenTransferValues,
): Promise<SenTransferResponse> {
  const key = v.idempotencyKey.toLowerCase();
  const body = senTransferBody(v);
  const from = body.AccountNumberFrom as string;
  const to = body.AccountNumberTo as string;
  // The approval policy decides whether it goes at once: its amount, and what this preparer and
  // this account already sent alone today (the daily totals), read and sent under their locks so
  // that transfers landing together are counted one after another.
  return withSenDailyTotals(db, { preparerId: actor.id, account: from }, async () => {
    const today = await senSentToday(db, {
      preparerId: actor.id,
      account: from,
      timeZone: config().timeZone,
    });
    const needs = evaluate(
      {
        rail: "sen",
        amountCents: v.Amount,
        sourceAccount: from,
        preparerId: actor.id,
        todayByPreparerCents: today.byPreparerCents,
        todayByAccountCents: today.byAccountCents,
      },
      await policySetNow(db),
      Date.now(),
    );
    if (needs.approvers > 0) {
      const draft = await createDraft(db, actor, {
        id: key,
        kind: "sen",
        fromAccount: from,
        amountCents: v.Amount,
        counterparty: to,
        request: body,
      });
      return { outcome: "draft", draft };
    }

    // The transfer is audited as done once per key: an answer to the same form sent again (its
    // connection dropped, or a second instance answered) is audited as a repeat.
    const audit = async (result: string, detail: Record<string, unknown>) => {
      const entry = {
        ...auditActor(actor, actor.ip),
        action: "transfer.sen",
        target: key,
        result,
        detail: { from, to, amountCents: v.Amount, ...detail },
      };
      if (result !== "ok") return appendAudit(db, entry);
      if (!(await appendAuditOnce(db, entry)))
        await appendAudit(db, { ...entry, action: "transfer.sen.repeat" });
    };

    const completed = (messages: string[], fromAvailableCents: number | null, foundByLookup: boolean) =>
      ({
        outcome: "completed",
        idempotencyKey: key,
        amountCents: v.Amount,
        from,
        to,
        messages,
        fromAvailableCents,
        foundByLookup,
      }) as const;
    const r = await bank.call("transferSen", { body: body as never, idempotencyKey: key });
    if (r.ok) {
      const messages = r.data.MESSAGE.map((m) => m.MESSAGETEXT);
      const [, fromAvailableCents] = await Promise.all([
        audit("ok", { bankAnswer: { MESSAGE: r.data.MESSAGE } }),
        availableOf(bank, from),
      ]);
      return completed(messages, fromAvailableCents, false);
    }
    if (r.error.kind === "rejected") {
      await audit("rejected by bank", {
        bankAnswer: { error: r.error.message, fields: r.error.fields ?? [] },
      });
      throw onFormFields(new BankCallError(r.error));
    }
    const moved = await movedUnderKey(bank, from, key);
    await audit(moved ? "ok" : "bank unavailable", {
      bankAnswer: { error: r.error.message },
      foundByLookup: moved,
    });
    if (moved) return completed([], await availableOf(bank, from), true);
    throw new RouteError(
      503,
      "bank_unavailable",
      moved === false
        ? "The bank did not answer, and the transfer is not in the account's history: no money has moved. Submit again when ready; it cannot move money twice."
        : "The bank did not answer, so it is not yet known whether the money moved. Submit again: the bank acts once for this transfer, or confirms it already did.",
    );
  });
}
