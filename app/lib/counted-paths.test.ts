import { describe, expect, test } from "vitest";
import { isCountedPath } from "./path-classes";

describe("which paths count as site traffic", () => {
  test("reader pages count, with their query strings", () => {
    for (const path of ["/", "/article/a-story", "/category/news?page=2", "/about", "/administration-news", "/no-such-page"]) {
      expect(isCountedPath(path), path).toBe(true);
    }
  });

  test("the back office's screens do not, however they are spelled", () => {
    for (const path of ["/admin", "/admin/", "/admin/articles", "/admin?tab=month", "/ADMIN/media", "/admin/articles/edit/1"]) {
      expect(isCountedPath(path), path).toBe(false);
    }
  });
});
