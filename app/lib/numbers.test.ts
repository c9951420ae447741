import { describe, expect, it } from "vitest";
import { formatCount } from "./numbers";

describe("formatCount", () => {
  it("groups digits exactly as Intl's en-US format does", () => {
    const intl = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0, roundingMode: "trunc" } as Intl.NumberFormatOptions);
    for (const value of [0, 7, 42, 999, 1_000, 12_345, 999_999, 1_000_000, 123_456_789, 9_007_199_254_740_991, -1, -1_234, 500.9]) {
      expect(formatCount(value), String(value)).toBe(intl.format(value));
    }
  });
});
