import { describe, expect, it } from "vitest";
import { formatCount, formatQuantity } from "./numbers";

describe("formatCount", () => {
  it("groups digits exactly as Intl's en-US format does", () => {
    const intl = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0, roundingMode: "trunc" } as Intl.NumberFormatOptions);
    for (const value of [0, 7, 42, 999, 1_000, 12_345, 999_999, 1_000_000, 123_456_789, 9_007_199_254_740_991, -1, -1_234, 500.9]) {
      expect(formatCount(value), String(value)).toBe(intl.format(value));
    }
  });
});

describe("formatQuantity", () => {
  it("writes the singular for exactly one and the plural for every other count", () => {
    expect(formatQuantity(1, "view")).toBe("1 view");
    expect(formatQuantity(0, "view")).toBe("0 views");
    expect(formatQuantity(2, "view")).toBe("2 views");
    expect(formatQuantity(-1, "point")).toBe("-1 points");
  });

  it("groups the digits like every other count", () => {
    expect(formatQuantity(2993, "view")).toBe("2,993 views");
    expect(formatQuantity(1_000_000, "comment")).toBe("1,000,000 comments");
  });

  it("takes an irregular plural", () => {
    expect(formatQuantity(1, "entry", "entries")).toBe("1 entry");
    expect(formatQuantity(3, "entry", "entries")).toBe("3 entries");
  });
});
