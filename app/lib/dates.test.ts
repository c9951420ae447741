import { describe, expect, it } from "vitest";
import { formatPublishDate, fromDateTimeLocal, toDateTimeLocal } from "./dates";

describe("fromDateTimeLocal", () => {
  it("reads a datetime-local value on the site's wall clock", () => {
    // New York is UTC-5 in winter, UTC-4 in summer.
    expect(fromDateTimeLocal("2026-11-23T14:30", "America/New_York")?.toISOString()).toBe("2026-11-23T19:30:00.000Z");
    expect(fromDateTimeLocal("2026-07-01T09:05:10", "America/New_York")?.toISOString()).toBe("2026-07-01T13:05:10.000Z");
    expect(fromDateTimeLocal("2026-07-01T09:05", "UTC")?.toISOString()).toBe("2026-07-01T09:05:00.000Z");
    expect(fromDateTimeLocal("2026-07-01T09:05", "Asia/Tokyo")?.toISOString()).toBe("2026-07-01T00:05:00.000Z");
  });

  it("refuses what is not a date and time", () => {
    for (const bad of ["", "tomorrow", "2026-02-30T10:00", "2026-11-23 14:30", "2026-11-23T25:00", "2026-13-01T10:00", "23/11/2026 14:30"]) {
      expect(fromDateTimeLocal(bad, "America/New_York"), bad).toBeNull();
    }
  });

  it("round-trips with toDateTimeLocal and formats for people", () => {
    const at = new Date("2026-11-23T19:30:00Z");
    expect(toDateTimeLocal(at, "America/New_York")).toBe("2026-11-23T14:30");
    expect(fromDateTimeLocal(toDateTimeLocal(at, "America/New_York"), "America/New_York")?.getTime()).toBe(at.getTime());
    expect(formatPublishDate(at, "America/New_York")).toBe("Nov 23, 2026 at 2:30 PM");
  });
});
