import { describe, expect, test } from "vitest";
import { parseArticleInput, type ArticleFieldName } from "./articles.schema";

const values = (over: Partial<Record<ArticleFieldName, string>> = {}): Record<ArticleFieldName, string> => ({
  title: "Title",
  slug: "title",
  categoryId: "",
  authorName: "",
  excerpt: "",
  content: "Content",
  featuredImage: "",
  videoUrl: "",
  ...over,
});

describe("parseArticleInput", () => {
  test("blank optional fields become null and text is trimmed", () => {
    const result = parseArticleInput(values({ title: "  Spaced  ", authorName: "   " }));
    expect(result).toEqual({
      ok: true,
      input: {
        title: "Spaced",
        slug: "title",
        categoryId: null,
        authorName: null,
        excerpt: null,
        content: "Content",
        featuredImage: null,
        videoUrl: null,
      },
    });
  });

  test("a blank title, slug or content asks for the missing fields", () => {
    for (const field of ["title", "slug", "content"] as const) {
      const result = parseArticleInput(values({ [field]: "  " }));
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.missingFields).toBe(true);
        expect(result.fieldErrors[field]).toBeTruthy();
      }
    }
  });

  test("a malformed slug or category id is refused beside its field, not as missing fields", () => {
    const result = parseArticleInput(values({ slug: "Not A Slug", categoryId: "drop table" }));
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.missingFields).toBe(false);
      expect(Object.keys(result.fieldErrors).sort()).toEqual(["categoryId", "slug"]);
    }
  });
});
