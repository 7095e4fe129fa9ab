import { describe, expect, it } from "vitest";
import { formatDuration } from "../../lib/format/durations.ts";

describe("formatDuration", () => {
  it("says exactly what a setting is, to the second", () => {
    expect(formatDuration(40)).toBe("40 seconds");
    expect(formatDuration(1)).toBe("1 second");
    expect(formatDuration(60)).toBe("1 minute");
    expect(formatDuration(90)).toBe("1 minute 30 seconds");
    expect(formatDuration(900)).toBe("15 minutes");
    expect(formatDuration(3600 + 300)).toBe("1 hour 5 minutes");
    expect(formatDuration(0)).toBe("0 seconds");
  });
});
