// The characters a payee change alters, paired from the right, as the approver's dialog marks them.
import { describe, expect, it } from "vitest";
import { differingCharacters } from "../../components/send-money/payee-change.tsx";

describe("differingCharacters", () => {
  it("marks every changed digit of a number that keeps its last four", () => {
    expect(differingCharacters("100000003333", "666666663333")).toEqual([
      ...Array(8).fill(true),
      ...Array(4).fill(false),
    ]);
  });
  it("marks the extra leading characters of a longer new value, and nothing of an equal one", () => {
    expect(differingCharacters("3333", "993333")).toEqual([true, true, false, false, false, false]);
    expect(differingCharacters("021000021", "021000021")).toEqual(Array(9).fill(false));
  });
});
