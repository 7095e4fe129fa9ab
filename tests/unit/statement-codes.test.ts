// What a statement calls a returned wire and an adjustment (lib/statements/codes.ts): the BAI2
// detail type code on the side of its direction (credits 100-399, debits 400-699) and the ISO
// 20022 bank transaction code that names it a return or an adjustment, not a new payment.
import { describe, expect, it } from "vitest";
import { TRAN_CODES } from "../../lib/bank-api/history.ts";
import { entryCodes } from "../../lib/statements/codes.ts";

const side = (bai: string) => {
  const n = Number(bai);
  if (n >= 100 && n <= 399) return "credit";
  if (n >= 400 && n <= 699) return "debit";
  return "neither";
};

describe("statement entry codes", () => {
  it("a returned outgoing wire is a credit: BAI2 196, money transfer adjustment; camt PMNT/ICDT/RRTN", () => {
    const c = entryCodes(TRAN_CODES.WIRE_OUT, "credit");
    expect(c).toEqual({ bai: "196", domain: "PMNT", family: "ICDT", subFamily: "RRTN" });
    expect(side(c.bai)).toBe("credit");
    // Not the wire's own debit code read backwards.
    expect(c.bai).not.toBe(entryCodes(TRAN_CODES.WIRE_OUT, "debit").bai);
  });

  it("an adjustment taking back an incoming wire is a debit: BAI2 496; camt PMNT/RCDT/ADJT", () => {
    const c = entryCodes(TRAN_CODES.WIRE_IN, "debit");
    expect(c).toEqual({ bai: "496", domain: "PMNT", family: "RCDT", subFamily: "ADJT" });
    expect(side(c.bai)).toBe("debit");
  });

  it("every code, known or not, falls on the side of its direction", () => {
    for (const tran of [...Object.values(TRAN_CODES), "4120", "0000"])
      for (const direction of ["credit", "debit"] as const)
        expect([tran, direction, side(entryCodes(tran, direction).bai)]).toEqual([
          tran,
          direction,
          direction,
        ]);
  });
});
