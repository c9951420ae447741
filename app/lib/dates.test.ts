import { describe, expect, it, test } from "vitest";
import { formatArticleDate, formatCardDate, formatCommentDate, formatPublishDate, fromDateTimeLocal, inTimeZone, toDateTimeLocal } from "./dates";

describe("fromDateTimeLocal", () => {
  test("reads a datetime-local value on the site's wall clock", () => {
    expect(fromDateTimeLocal("2026-11-23T09:30", "America/New_York")?.toISOString()).toBe("2026-11-23T14:30:00.000Z");
    expect(fromDateTimeLocal("2026-07-01T09:30", "America/New_York")?.toISOString()).toBe("2026-07-01T13:30:00.000Z");
    expect(fromDateTimeLocal("2026-07-01T09:30", "Asia/Kolkata")?.toISOString()).toBe("2026-07-01T04:00:00.000Z");
    expect(fromDateTimeLocal("2026-07-01T09:30:15", "UTC")?.toISOString()).toBe("2026-07-01T09:30:15.000Z");
  });

  test("a daylight-saving gap takes the reading after the jump", () => {
    // 2026-03-08 02:30 does not exist in New York (clocks go from 02:00 to 03:00).
    expect(fromDateTimeLocal("2026-03-08T02:30", "America/New_York")?.toISOString()).toBe("2026-03-08T07:30:00.000Z");
  });

  test("a reading the clock shows twice (the autumn change) is the first of the two", () => {
    expect(fromDateTimeLocal("2026-11-01T01:30", "America/New_York")?.toISOString()).toBe("2026-11-01T05:30:00.000Z");
  });

  test("anything that is not a real date and time is null", () => {
    for (const value of ["", "tomorrow", "2026-02-30T10:00", "2026-13-01T10:00", "2026-01-01T24:00", "2026-01-01 10:00", "2026-01-01T10:60"]) {
      expect(fromDateTimeLocal(value, "America/New_York")).toBeNull();
    }
  });

  test("toDateTimeLocal writes what fromDateTimeLocal reads", () => {
    const instant = new Date("2026-11-23T14:30:00.000Z");
    expect(toDateTimeLocal(instant, "America/New_York")).toBe("2026-11-23T09:30");
    expect(fromDateTimeLocal(toDateTimeLocal(instant, "Europe/London"), "Europe/London")?.toISOString()).toBe(instant.toISOString());
  });
});

describe("fromDateTimeLocal, as the article form uses it", () => {
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

describe("the spec's date formats agree with date-fns' patterns (which reader pages no longer load)", () => {
  test("every month, both halves of the day, midnight and noon, in the site's zone", async () => {
    const { format } = await import("date-fns");
    const zone = "America/New_York";
    for (let month = 0; month < 12; month++) {
      for (const [hour, minute] of [
        [0, 5],
        [9, 30],
        [12, 0],
        [23, 59],
      ]) {
        const instant = fromDateTimeLocal(`2026-${String(month + 1).padStart(2, "0")}-0${(month % 9) + 1}T${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`, zone)!;
        const wall = inTimeZone(instant, zone);
        expect(formatCardDate(instant, zone)).toBe(format(wall, "MMM d, yyyy"));
        expect(formatArticleDate(instant, zone)).toBe(format(wall, "MMMM d, yyyy"));
        expect(formatCommentDate(instant, zone)).toBe(format(wall, "MMM d, yyyy 'at' h:mm a"));
        expect(toDateTimeLocal(instant, zone)).toBe(format(wall, "yyyy-MM-dd'T'HH:mm"));
      }
    }
  });
});
