import { describe, expect, test } from "vitest";
import { justPostedOf, justPostedPath } from "./comments.schema";

describe("where a comment posted without JavaScript takes its reader", () => {
  const id = "3f0e4a52-9b1c-4d2e-8f6a-0b1c2d3e4f5a";

  test("to their comment on the article, or to the form when it awaits moderation", () => {
    expect(justPostedPath("bridge-reopens", { id })).toBe(`/article/bridge-reopens?comment=${id}#comment-${id}`);
    expect(justPostedPath("bridge-reopens", { held: true })).toBe("/article/bridge-reopens?comment=held#leave-a-comment");
  });

  test("?comment= is read back as a comment id or held; anything else is nothing", () => {
    expect(justPostedOf(id)).toEqual({ id });
    expect(justPostedOf(id.toUpperCase())).toEqual({ id });
    expect(justPostedOf("held")).toEqual({ held: true });
    for (const value of [null, "", "posted", "1", `${id}x`, "<script>"]) expect(justPostedOf(value), String(value)).toBeNull();
  });
});
