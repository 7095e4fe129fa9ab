// Payee names that read alike: Unicode's confusable skeleton (UTS #39), case, spacing and invisible
// characters, and nothing more. Distinct digits name distinct payees.
import { describe, expect, it } from "vitest";
import { confusableSkeleton, readsAlike } from "../../lib/bank-api/lookalike.ts";

describe("names that read alike", () => {
  it("tells apart names that differ by a digit, or by a digit and a letter it does not read as", () => {
    for (const [a, b] of [
      ["Race 6", "Race 8"],
      ["Store 6", "Store 8"],
      ["Store 3", "Store 5"],
      ["Store 6", "Store b"],
      ["Store 8", "Store B"],
      ["Unit 5", "Unit S"],
      ["Plot 9", "Plot g"],
      ["Dock 3", "Dock E"],
      ["Warehouse 12", "Warehouse 21"],
      ["Globex", "Globe"],
    ]) {
      expect(readsAlike(a, b), `${a} / ${b}`).toBe(false);
      expect(readsAlike(b, a), `${b} / ${a}`).toBe(false);
    }
  });

  it("reads as one the names that differ only by a confusable, case, spacing, punctuation or an invisible filler", () => {
    for (const [a, b] of [
      ["Globex Corp", "Gl\u043ebex Corp"], // Cyrillic o
      ["Acme", "\u0410cme"], // Cyrillic A
      ["Acme", "\u0430cme"], // Cyrillic a, lower case
      ["Omega", "\u039fmega"], // Greek capital omicron
      ["Globex Corp", "G1obex Corp."], // one for l, a full stop
      ["Omega", "0mega"], // zero for O (UTS #39 folds them)
      ["omega", "0mega"],
      ["Illinois", "1llinois"],
      ["Initech", "\u0399nitech"], // Greek capital iota
      ["modern", "rnodern"], // rn reads as m
      ["Store 6", "Store \u0431"], // Cyrillic be reads as 6
      ["ACME", "\uff21\uff23\uff2d\uff25"], // full-width letters
      ["Globex Corp", "GLOBEX  corp"],
      ["Globex Corp", "Globex\u3164Corp"], // Hangul filler
      ["Globex Corp", "Globex\u2800Corp"], // braille blank
      ["Globex Corp", "Glo\u034fbex\ufe0f Corp"], // grapheme joiner, variation selector
      ["Globex Corp", "Globex\u00a0Corp"],
    ]) {
      expect(readsAlike(a, b), `${a} / ${b}`).toBe(true);
      expect(readsAlike(b, a), `${b} / ${a}`).toBe(true);
    }
  });

  it("keeps UTS #39's own skeleton: digits other than 0 and 1 are themselves", () => {
    expect(confusableSkeleton("0123456789")).toBe("Ol23456789");
    expect(confusableSkeleton("m")).toBe("rn");
  });

  it("reads an empty or wholly invisible name as no name", () => {
    expect(readsAlike("", "")).toBe(false);
    expect(readsAlike("\u3164", "\u2800")).toBe(false);
  });
});
