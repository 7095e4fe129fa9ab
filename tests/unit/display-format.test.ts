import { describe, expect, it } from "vitest";
import { addDays, daysBetween, isIsoDay } from "../../lib/bank-api/dates.ts";
import { formatDay } from "../../lib/format/dates.ts";
import {
  formatDollarNumber,
  formatShare,
  formatSignedUsd,
  maskAccountNumber,
} from "../../lib/format/money.ts";

describe("display formats", () => {
  it("shows business days without shifting them by the browser's time zone", () => {
    expect(formatDay("2026-11-01")).toBe("Nov 1, 2026");
    expect(formatDay("")).toBe("—");
    expect(formatDay("not a date")).toBe("not a date");
  });

  it("does calendar arithmetic on YYYY-MM-DD days", () => {
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(addDays("2024-12-31", 1)).toBe("2025-01-01");
    expect(daysBetween("2026-10-24", "2026-11-22")).toBe(29);
    expect(isIsoDay("2026-02-29")).toBe(false);
    expect(isIsoDay("2024-02-29")).toBe(true);
  });

  it("formats money exactly and says which way it moved", () => {
    expect(formatSignedUsd(125_050, "debit")).toBe("−$1,250.50");
    expect(formatSignedUsd(5, "credit")).toBe("+$0.05");
    expect(formatDollarNumber(1234.5)).toBe("$1,234.50");
    expect(formatDollarNumber(0.1 + 0.2)).toBe(String(0.1 + 0.2));
    expect(formatShare(1, 3)).toBe("33.3%");
    expect(formatShare(5, 0)).toBe("0.0%");
    expect(maskAccountNumber("1234567890")).toBe("••••7890");
  });
});
