import { describe, expect, test } from "vitest";
import { fromTimeZone, toDateTimeInput } from "./dates";

describe("fromTimeZone", () => {
  test("reads a datetime-local value on the site's wall clock", () => {
    expect(fromTimeZone("2026-11-23T09:30", "America/New_York")?.toISOString()).toBe("2026-11-23T14:30:00.000Z");
    expect(fromTimeZone("2026-07-01T09:30", "America/New_York")?.toISOString()).toBe("2026-07-01T13:30:00.000Z");
    expect(fromTimeZone("2026-07-01T09:30", "Asia/Kolkata")?.toISOString()).toBe("2026-07-01T04:00:00.000Z");
    expect(fromTimeZone("2026-07-01T09:30:15", "UTC")?.toISOString()).toBe("2026-07-01T09:30:15.000Z");
  });

  test("a daylight-saving gap takes the reading after the jump", () => {
    // 2026-03-08 02:30 does not exist in New York (clocks go from 02:00 to 03:00).
    expect(fromTimeZone("2026-03-08T02:30", "America/New_York")?.toISOString()).toBe("2026-03-08T07:30:00.000Z");
  });

  test("a reading the clock shows twice (the autumn change) is the first of the two", () => {
    expect(fromTimeZone("2026-11-01T01:30", "America/New_York")?.toISOString()).toBe("2026-11-01T05:30:00.000Z");
  });

  test("anything that is not a real date and time is null", () => {
    for (const value of ["", "tomorrow", "2026-02-30T10:00", "2026-13-01T10:00", "2026-01-01T24:00", "2026-01-01 10:00", "2026-01-01T10:60"]) {
      expect(fromTimeZone(value, "America/New_York")).toBeNull();
    }
  });

  test("toDateTimeInput writes what fromTimeZone reads", () => {
    const instant = new Date("2026-11-23T14:30:00.000Z");
    expect(toDateTimeInput(instant, "America/New_York")).toBe("2026-11-23T09:30");
    expect(fromTimeZone(toDateTimeInput(instant, "Europe/London"), "Europe/London")?.toISOString()).toBe(instant.toISOString());
  });
});
