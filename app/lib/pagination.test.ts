import { describe, expect, test } from "vitest";
import { pageFromUrl, pageCountOrRedirect } from "./pagination";

function redirectOf(run: () => void): string | null {
  try {
    run();
    return null;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.headers.get("Location");
    throw thrown;
  }
}

describe("admin list pages", () => {
  test("a page within the list stays, and the number of pages is given", () => {
    expect(redirectOf(() => pageCountOrRedirect("http://x/admin/articles?page=2", 2, 51, 50))).toBeNull();
    expect(redirectOf(() => pageCountOrRedirect("http://x/admin/articles", 1, 0, 50))).toBeNull();
    expect(pageCountOrRedirect("http://x/admin/articles?page=2", 2, 51, 50)).toBe(2);
    expect(pageCountOrRedirect("http://x/admin/articles", 1, 0, 50)).toBe(1);
  });

  test("a page past the last one goes to the last page (page 1 without the parameter)", () => {
    expect(redirectOf(() => pageCountOrRedirect("http://x/admin/articles?page=2", 2, 50, 50))).toBe("/admin/articles");
    expect(redirectOf(() => pageCountOrRedirect("http://x/admin/comments?page=99", 99, 120, 50))).toBe("/admin/comments?page=3");
  });

  test("?page= is read as a whole number from 1", () => {
    expect(pageFromUrl("http://x/a?page=3")).toBe(3);
    expect(pageFromUrl("http://x/a?page=0")).toBe(1);
    expect(pageFromUrl("http://x/a?page=-2")).toBe(1);
    expect(pageFromUrl("http://x/a")).toBe(1);
  });
});
