import { describe, expect, it } from "vitest";
import { newTokenKey, subscriberIdOf, subscriberToken, tokenHolds } from "./subscriber-tokens.server";

const SECRET = "a-session-secret-of-at-least-32-characters!";
const subscriber = { id: "6f1c8f0e-8a4b-4c1e-9d51-3f3c1b2a7e10", tokenKey: newTokenKey() };

describe("subscriber links", () => {
  it("a token holds for its subscriber and purpose only", () => {
    const token = subscriberToken(SECRET, "unsubscribe", subscriber);
    expect(subscriberIdOf(token)).toBe(subscriber.id);
    expect(tokenHolds(SECRET, "unsubscribe", token, subscriber)).toBe(true);
    expect(tokenHolds(SECRET, "preferences", token, subscriber)).toBe(false);
    expect(tokenHolds("another-secret-of-at-least-32-characters!!", "unsubscribe", token, subscriber)).toBe(false);
  });

  it("an edited or forged token reads as nothing, and a new token key voids the old links", () => {
    const token = subscriberToken(SECRET, "confirm", subscriber);
    const edited = `${token.slice(0, -2)}${token.endsWith("A") ? "B" : "A"}A`;
    expect(tokenHolds(SECRET, "confirm", edited, subscriber)).toBe(false);
    expect(tokenHolds(SECRET, "confirm", `${subscriber.id}.`, subscriber)).toBe(false);
    expect(subscriberIdOf("not-a-token")).toBeNull();
    expect(subscriberIdOf(`${subscriber.id}.sig.extra`)).toBeNull();
    expect(tokenHolds(SECRET, "confirm", token, { ...subscriber, tokenKey: newTokenKey() })).toBe(false);
  });
});
