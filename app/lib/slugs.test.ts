import { describe, expect, test } from "vitest";
import { isSlug, slugify, slugSchema } from "./slugs";

describe("slugify", () => {
  test('"Hello, World!" becomes "hello-world"', () => {
    expect(slugify("Hello, World!")).toBe("hello-world");
  });

  test("leading and trailing hyphens are trimmed", () => {
    expect(slugify("  --Breaking News--  ")).toBe("breaking-news");
    expect(slugify("!!!Sports???")).toBe("sports");
  });

  test("a long title gives a slug of at most 200 characters that the slug rule accepts", () => {
    const title = "A very long headline about the council budget vote ".repeat(6);
    const slug = slugify(title);
    expect(slug.length).toBeLessThanOrEqual(200);
    expect(slug.endsWith("-")).toBe(false);
    expect(slugSchema.safeParse(slug).success).toBe(true);
    expect(isSlug(slug)).toBe(true);
    expect(slugify(`${"a".repeat(199)} b`)).toBe("a".repeat(199));
  });

  test("a run of other characters collapses into one hyphen", () => {
    expect(slugify("World   --  News & Views")).toBe("world-news-views");
    expect(slugify("a___b...c")).toBe("a-b-c");
  });

  test("digits are kept and letters are lowercased", () => {
    expect(slugify("Top 10 Tech Picks of 2025")).toBe("top-10-tech-picks-of-2025");
  });

  test("text with no letters or digits gives an empty slug", () => {
    expect(slugify("?!  --")).toBe("");
  });
});
