// What a ledger entry is called in each statement format: the BAI2 detail type code and the
// ISO 20022 bank transaction code, chosen from the bank's transaction code and the direction.
import { TRAN_CODES } from "../bank-api/history.ts";

/** The bank as statements name it: its ABA routing number and name (as it signs its Fedwire messages). */
export const STATEMENT_BANK = { aba: "091999997", name: "TREASURY BANK NA" } as const;

export interface EntryCodes {
  /** BAI2 detail type code: credits 100-399, debits 400-699. */
  bai: string;
  /** ISO 20022 domain, family and sub-family (ExternalBankTransaction*Code). */
  domain: string;
  family: string;
  subFamily: string;
}

const ACH_DEBIT = "4120";

export function entryCodes(tranCode: string, direction: "credit" | "debit"): EntryCodes {
  const credit = direction === "credit";
  switch (tranCode) {
    case TRAN_CODES.SEN_API:
    case TRAN_CODES.SEN_PORTAL:
      // A SEN transfer is a book transfer between two accounts of this bank.
      return credit
        ? { bai: "206", domain: "PMNT", family: "RCDT", subFamily: "BOOK" }
        : { bai: "506", domain: "PMNT", family: "ICDT", subFamily: "BOOK" };
    case TRAN_CODES.WIRE_IN:
      // An incoming wire's credit; a debit under its code adjusts one.
      return credit
        ? { bai: "195", domain: "PMNT", family: "RCDT", subFamily: "DMCT" }
        : { bai: "496", domain: "PMNT", family: "RCDT", subFamily: "ADJT" };
    case TRAN_CODES.WIRE_OUT:
      // An outgoing wire's debit; a credit under its code is its return or an adjustment.
      return credit
        ? { bai: "196", domain: "PMNT", family: "ICDT", subFamily: "RRTN" }
        : { bai: "495", domain: "PMNT", family: "ICDT", subFamily: "DMCT" };
    case TRAN_CODES.DEPOSIT:
      return credit
        ? { bai: "301", domain: "PMNT", family: "CNTR", subFamily: "CDPT" }
        : { bai: "699", domain: "PMNT", family: "MDOP", subFamily: "OTHR" };
    case ACH_DEBIT:
      return credit
        ? { bai: "142", domain: "PMNT", family: "RCDT", subFamily: "ESCT" }
        : { bai: "451", domain: "PMNT", family: "RDDT", subFamily: "ESDD" };
    default:
      return credit
        ? { bai: "399", domain: "PMNT", family: "MCOP", subFamily: "OTHR" }
        : { bai: "699", domain: "PMNT", family: "MDOP", subFamily: "OTHR" };
  }
}
