// E-wire summaries (GET /v2/account/wiresummary) as the dashboard shows them: by account, day and
// direction, or the one summary of a history item (its UniqueId).
import "server-only";
import { toCents } from "../accounts/views.ts";
import { BUSINESS_ERRORS } from "../bank-api/errors.ts";
import type { EwireSummary } from "../bank-api/wiresummary.ts";
import type { BankClient } from "../bank-client/client.ts";
import { BankCallError, unwrap } from "../bank-client/errors.ts";
import type {
  WireSummariesQuery,
  WireSummariesResponse,
  WireSummary,
} from "../dashboard-api/incoming-wires.ts";

export function toWireSummary(s: EwireSummary, accountNumber: string): WireSummary {
  return {
    accountNumber,
    transactionNumber: s.TransactionNumber_1,
    amountCents: toCents(s.Amount_12, `e-wire ${s.TransactionNumber_1} Amount_12`),
    direction: s.SourceIndicator_21,
    fedwireType: s.FedWireType_17,
    fedwireSubType: s.FedwireSubType_18,
    reference: s.ReferenceForBeneficiary_22,
    sendingBankId: s.SendingBankId_25,
    sendingBankName: s.SendingBankName_26,
    originatorId: s.OriginatorId_43,
    originatorName: s.Name_44,
    beneficiaryId: s.BeneficiaryId_70,
    beneficiaryName: s.Name_71,
    info: [
      s.OriginatorToBeneficiaryInfoLine1_96,
      s.OriginatorToBeneficiaryInfoLine2_97,
      s.OriginatorToBeneficiaryInfoLine3_98,
      s.OriginatorToBeneficiaryInfoLine4_99,
    ].filter((l) => l.trim() !== ""),
    imad: `${s.ImadCycleDate_117}${s.ImadLtermId_121}${s.Imsn_120}`,
    status: s.Status,
    uniqueId: s.UniqueId,
  };
}

export async function readWireSummaries(
  bank: BankClient,
  q: WireSummariesQuery,
): Promise<WireSummariesResponse> {
  if (!q.uniqueId && q.accountNumber === "all") {
    // Every account's summaries of the day, so the page opens on whatever moved.
    const list = unwrap(await bank.call("accountList")).ResponseData.flatMap((d) =>
      d.CUSTACCT.map((a) => a.ACTNBR),
    );
    const each = await Promise.all(
      list.map(async (accountNumber) =>
        unwrap(
          await bank.call("wireSummary", {
            query: { accountNumber, date: q.date, sourceIndicator: q.direction },
          }),
        ).EwireSummaries.map((s) => toWireSummary(s, accountNumber)),
      ),
    );
    return { summaries: each.flat(), notice: null };
  }
  const r = await bank.call("wireSummary", {
    query: q.uniqueId
      ? { uniqueId: q.uniqueId }
      : { accountNumber: q.accountNumber, date: q.date, sourceIndicator: q.direction },
  });
  if (!r.ok) {
    // A unique id with no summary yet is an answer, not a failure: summaries appear at settlement.
    if (
      q.uniqueId &&
      r.error.kind === "rejected" &&
      r.error.message.includes(BUSINESS_ERRORS.TRANSACTION_NOT_FOUND.text)
    )
      return {
        summaries: [],
        notice: "The bank has no e-wire summary for this item yet: summaries appear when a wire settles.",
      };
    throw new BankCallError(r.error);
  }
  return {
    summaries: r.data.EwireSummaries.map((s) => toWireSummary(s, q.accountNumber ?? "")),
    notice: null,
  };
}
