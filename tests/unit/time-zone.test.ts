import { describe, expect, it } from "vitest";
import { formatInstant, timeZoneLabel, todayIsoDay } from "../../lib/format/dates.ts";

describe("times in the business time zone", () => {
  it("shows an instant in the given zone and names the zone, whatever the machine's own", () => {
    expect(formatInstant("2026-11-23T18:05:09Z", "America/New_York")).toBe("Nov 23, 2026, 01:05:09 PM EST");
    expect(formatInstant("2026-07-01T12:00:00Z", "America/New_York")).toBe("Jul 1, 2026, 08:00:00 AM EDT");
    expect(formatInstant("2026-11-23T18:05:09Z", "UTC")).toBe("Nov 23, 2026, 06:05:09 PM UTC");
  });

  it("takes the business day of the zone as today", () => {
    // 03:00 UTC is still the evening before in New York.
    expect(todayIsoDay(new Date("2026-11-24T03:00:00Z"), "America/New_York")).toBe("2026-11-23");
    expect(todayIsoDay(new Date("2026-11-24T03:00:00Z"), "UTC")).toBe("2026-11-24");
  });

  it("labels a zone in words", () => {
    expect(timeZoneLabel("America/New_York")).toBe("New York time");
    expect(timeZoneLabel("UTC")).toBe("UTC");
  });
});
