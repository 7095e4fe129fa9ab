// From the Scheduled page's forms to a series: the bank request each occurrence sends, built as a
// manual SEN transfer or wire builds it, and the bank's business date the series counts from.
import "server-only";
import { hasPermission, type Role } from "../auth/permissions.ts";
import type { Schedule } from "../calendar/recurrence.ts";
import type { SenTransferValues } from "../dashboard-api/transfers.ts";
import type { WireDraftValues } from "../dashboard-api/wires.ts";
import type { DashboardDb } from "../db/client.ts";
import { checkBeneficiaryFillsWire } from "../payments/beneficiary-wire-check.ts";
import { senTransferBody } from "../payments/sen.ts";
import { wireBody } from "../payments/wires.ts";
import { forbidden } from "../route-kit/errors.ts";
import { bankToday, businessToday } from "../route-kit/params.ts";
import type { NewSeries } from "./series.ts";

export type ScheduleForm =
  | { kind: "sen"; name: string; schedule: Schedule; transfer: SenTransferValues }
  | { kind: "wire"; name: string; schedule: Schedule; wire: WireDraftValues };

/**
 * The series a form describes, for someone of `role`: a wire series only for a role that may
 * prepare wires, and a wire filled from a saved beneficiary must carry its approved details.
 */
export async function seriesFromForm(db: DashboardDb, f: ScheduleForm, role: Role): Promise<NewSeries> {
  if (f.kind === "wire" && !hasPermission(role, "wires.create"))
    throw forbidden("Your role does not allow preparing wires.");
  if (f.kind === "sen") {
    const request = senTransferBody(f.transfer);
    return {
      id: f.transfer.idempotencyKey.toLowerCase(),
      kind: "sen",
      name: f.name,
      fromAccount: request.AccountNumberFrom as string,
      amountCents: f.transfer.Amount,
      counterparty: request.AccountNumberTo as string,
      request,
      schedule: f.schedule,
    };
  }
  // The form sends an empty beneficiaryId for a wire typed by hand (or no longer as saved).
  const beneficiaryId = f.wire.beneficiaryId ? f.wire.beneficiaryId.toLowerCase() : null;
  if (beneficiaryId) await checkBeneficiaryFillsWire(db, beneficiaryId, f.wire);
  return {
    id: f.wire.idempotencyKey.toLowerCase(),
    kind: "wire",
    name: f.name,
    fromAccount: f.wire.originator_account_number.trim(),
    amountCents: f.wire.amount,
    counterparty: f.wire.beneficiary_name.trim(),
    beneficiaryId,
    request: wireBody(f.wire),
    schedule: f.schedule,
  };
}

/**
 * The business date a schedule counts from: the bank's, its clock heard afresh (the sandbox may
 * have moved it since the last answer), else as last heard.
 */
export async function scheduleToday(): Promise<string> {
  return (await bankToday({ fresh: true })) ?? businessToday();
}
