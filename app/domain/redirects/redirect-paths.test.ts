import { describe, expect, test } from "vitest";
import { normalizeRedirectPath, normalizeRedirectTarget, redirectKeysOf } from "./redirect-paths";

describe("normalizeRedirectPath", () => {
  test("keeps a plain path and drops its trailing slash", () => {
    expect(normalizeRedirectPath("/2019/05/some-story/")).toBe("/2019/05/some-story");
    expect(normalizeRedirectPath("  /feed/ ")).toBe("/feed");
    expect(normalizeRedirectPath("/")).toBe("/");
  });

  test("keeps the query, its parameters sorted, so /?p=123 can be matched and order does not matter", () => {
    expect(normalizeRedirectPath("/?p=123")).toBe("/?p=123");
    expect(normalizeRedirectPath("/x?b=2&a=1")).toBe(normalizeRedirectPath("/x?a=1&b=2"));
    expect(normalizeRedirectPath("/x/?a=1&b=2")).toBe("/x?a=1&b=2");
  });

  test("drops the fragment and takes the path and query of a full URL of the old site", () => {
    expect(normalizeRedirectPath("/a#top")).toBe("/a");
    expect(normalizeRedirectPath("https://old.example.com/2019/05/x/?page_id=7#c")).toBe("/2019/05/x?page_id=7");
  });

  test("makes percent-encoding canonical: one spelling for one address", () => {
    expect(normalizeRedirectPath("/caf%c3%a9")).toBe("/caf%C3%A9");
    expect(normalizeRedirectPath("/café")).toBe("/caf%C3%A9");
    expect(normalizeRedirectPath("/%7Euser/a%2Fb")).toBe("/~user/a%2Fb");
    expect(normalizeRedirectPath("/my story")).toBe("/my%20story");
  });

  test("refuses what is no path of a site", () => {
    for (const bad of ["", "   ", "about", "//evil.example/x", "/bad%E0%A4%A", "/a\u0000b", "ftp://x/y", `/${"a".repeat(2048)}`]) {
      expect(normalizeRedirectPath(bad), bad).toBeNull();
    }
  });
});

describe("normalizeRedirectTarget", () => {
  test("takes a local path with its query and fragment, or an absolute http(s) URL", () => {
    expect(normalizeRedirectTarget("/article/x")).toBe("/article/x");
    expect(normalizeRedirectTarget("/about?a=1#ethics")).toBe("/about?a=1#ethics");
    expect(normalizeRedirectTarget("/café")).toBe("/caf%C3%A9");
    expect(normalizeRedirectTarget("https://example.org/x")).toBe("https://example.org/x");
  });

  test("refuses other schemes, protocol-relative and relative addresses", () => {
    for (const bad of ["", "javascript:alert(1)", "//evil.example", "/\\evil.example", "article/x", "mailto:a@b.c"]) {
      expect(normalizeRedirectTarget(bad), bad).toBeNull();
    }
  });
});

describe("redirectKeysOf: what a request matches", () => {
  test("its path and query first, then its path alone, a trailing slash never counting", () => {
    expect(redirectKeysOf("/a/b/?y=2&x=1")).toEqual(["/a/b?x=1&y=2", "/a/b"]);
    expect(redirectKeysOf("/a/b")).toEqual(["/a/b"]);
    expect(redirectKeysOf("/a/b/")).toEqual(["/a/b"]);
    expect(redirectKeysOf("/?p=123")).toEqual(["/?p=123", "/"]);
  });

  test("a request spelled another way finds the stored spelling", () => {
    expect(redirectKeysOf("/caf%c3%a9/")).toContain(normalizeRedirectPath("/café/"));
  });

  test("a malformed path matches nothing", () => {
    expect(redirectKeysOf("/bad%E0%A4%A")).toEqual([]);
  });
});
