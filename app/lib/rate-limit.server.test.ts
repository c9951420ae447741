import { describe, expect, test } from "vitest";
import { createTestDatabase } from "../../tests/setup/test-database";
import { takeAllowance, tryAgainIn, type LimitRule } from "./rate-limit.server";

const { db } = await createTestDatabase();
const rule: LimitRule = { bucket: "test", max: 3, windowMs: 60_000, refusal: "Slow down." };

describe("takeAllowance", () => {
  test("a burst of 20 parallel requests from one key lets exactly `max` through", async () => {
    const now = new Date();
    const answers = await Promise.all(Array.from({ length: 20 }, () => takeAllowance(db, rule, "burst", now)));
    expect(answers.filter((a) => !a.limited)).toHaveLength(3);
    expect(answers.find((a) => a.limited)).toMatchObject({ limited: true, message: "Slow down. Try again in 1 minute." });
  });

  test("keys and buckets are counted apart, and the window frees the key again", async () => {
    const now = new Date();
    for (let i = 0; i < 3; i++) expect((await takeAllowance(db, rule, "a", now)).limited).toBe(false);
    expect((await takeAllowance(db, rule, "a", now)).limited).toBe(true);
    expect((await takeAllowance(db, rule, "b", now)).limited).toBe(false);
    expect((await takeAllowance(db, { ...rule, bucket: "other" }, "a", now)).limited).toBe(false);
    expect((await takeAllowance(db, rule, "a", new Date(now.getTime() + 60_001))).limited).toBe(false);
  });

  test("the wait is said in whole minutes, never less than one", () => {
    expect(tryAgainIn(5)).toBe("Try again in 1 minute.");
    expect(tryAgainIn(3600)).toBe("Try again in 60 minutes.");
  });
});
