import { describe, expect, test } from "vitest";
import { AppError } from "~/lib/app-error";
import { parseForm } from "~/lib/forms";
import {
  articleFormSchema,
  articleInputSchema,
  PUBLISH_AT_INVALID,
  PUBLISH_BLOCKERS,
  publishBlockers,
  REQUIRED_ARTICLE_FIELDS,
  type ArticleFieldName,
} from "./articles.schema";

/** The article form's parse, as its action runs it, answered as a result. */
function parseArticleInput(values: Record<ArticleFieldName, string>) {
  try {
    return { ok: true as const, input: parseForm(articleInputSchema, values, { required: REQUIRED_ARTICLE_FIELDS }) };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { ok: false as const, missingFields: error.code === "missing_fields", fieldErrors: error.fieldErrors ?? {} };
  }
}

const values = (over: Partial<Record<ArticleFieldName, string>> = {}): Record<ArticleFieldName, string> => ({
  title: "Title",
  slug: "title",
  categoryId: "",
  authorName: "",
  authorIds: "",
  tags: "",
  access: "",
  accessTierId: "",
  excerpt: "",
  content: "Content",
  contentDoc: "",
  featuredImage: "",
  featuredImageAlt: "",
  featuredImageCaption: "",
  featuredImageCredit: "",
  videoUrl: "",
  seoTitle: "",
  seoDescription: "",
  socialImage: "",
  publishAt: "",
  intent: "",
  showAsUpdated: "",
  takeOverSlug: "",
  ...over,
});

describe("parseArticleInput", () => {
  test("the SEO title and description are refused past 70 and 160 characters, beside their fields", () => {
    expect(parseArticleInput(values({ seoTitle: "t".repeat(70), seoDescription: "d".repeat(160) }))).toMatchObject({
      ok: true,
      input: { seoTitle: "t".repeat(70), seoDescription: "d".repeat(160) },
    });
    const refused = parseArticleInput(values({ seoTitle: "t".repeat(71), seoDescription: "d".repeat(161) }));
    expect(refused).toMatchObject({
      ok: false,
      fieldErrors: { seoTitle: "SEO title must be at most 70 characters", seoDescription: "SEO description must be at most 160 characters" },
    });
  });

  test("blank optional fields become null and text is trimmed", () => {
    const result = parseArticleInput(values({ title: "  Spaced  ", authorName: "   " }));
    expect(result).toEqual({
      ok: true,
      input: {
        title: "Spaced",
        slug: "title",
        categoryId: null,
        authorName: null,
        authorIds: [],
        tags: [],
        excerpt: null,
        content: "Content",
        contentDoc: "",
        featuredImage: null,
        featuredImageAlt: null,
        featuredImageCaption: null,
        featuredImageCredit: null,
        videoUrl: null,
        // The search and social overrides left blank (issue 41): derived from the story.
        seoTitle: null,
        seoDescription: null,
        socialImage: null,
        // Access left blank (issue 40): the save keeps the story's own (a new story is public).
        access: undefined,
        accessTierId: null,
      },
    });
  });

  test("Access is Public, Members or Paid, and a Paid story's tier an id (blank: any paid tier)", () => {
    expect(parseArticleInput(values({ access: "paid", accessTierId: "" }))).toMatchObject({ ok: true, input: { access: "paid", accessTierId: null } });
    expect(parseArticleInput(values({ access: "everyone" }))).toMatchObject({ ok: false, fieldErrors: { access: "Choose who may read the story: Public, Members or Paid." } });
    expect(parseArticleInput(values({ access: "paid", accessTierId: "gold" }))).toMatchObject({ ok: false, fieldErrors: { accessTierId: expect.stringContaining("tier") } });
  });

  test("tags are names separated by commas: trimmed, blanks dropped, one per address; bad ones refused", () => {
    const result = parseArticleInput(values({ tags: " Floods ,, climate change, Climate-Change ,Local  News" }));
    expect(result).toMatchObject({ ok: true, input: { tags: ["Floods", "climate change", "Local News"] } });
    expect(parseArticleInput(values({ tags: "ok, ???" }))).toMatchObject({ ok: false });
    expect(parseArticleInput(values({ tags: Array.from({ length: 21 }, (_, i) => `t${i}`).join(",") }))).toMatchObject({ ok: false });
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

describe("the publishing fields", () => {
  const parse = (over: Partial<Record<ArticleFieldName, string>>) => articleFormSchema.safeParse(values(over));

  test("no button named publishes; Save Draft is a draft; anything else is refused", () => {
    expect(parse({}).data?.intent).toBe("publish");
    expect(parse({ intent: "publish" }).data?.intent).toBe("publish");
    expect(parse({ intent: "draft" }).data?.intent).toBe("draft");
    expect(parse({ intent: "delete" }).success).toBe(false);
  });

  test("Publish at is empty or a datetime-local value that is a real date", () => {
    expect(parse({ publishAt: "" }).success).toBe(true);
    expect(parse({ publishAt: "2030-01-02T03:04" }).data?.publishAt).toBe("2030-01-02T03:04");
    for (const bad of ["soon", "2030-02-30T10:00", "01/02/2030 03:04", "2030-01-02"]) {
      const result = parse({ publishAt: bad });
      expect(result.success, bad).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(PUBLISH_AT_INVALID);
    }
  });
});

describe("what blocks publishing", () => {
  const ready = { title: "Title", slug: "title", content: "Body", categoryId: "c", authorName: "Desk", authorIds: "" };

  test("a story with its text, a category and a byline has no blocker", () => {
    expect(publishBlockers(ready)).toEqual([]);
    // An author chosen is a byline without an author name.
    expect(publishBlockers({ ...ready, authorName: "", authorIds: "a1,a2" })).toEqual([]);
    expect(publishBlockers({ ...ready, authorName: null, authorIds: ["a1"] })).toEqual([]);
  });

  test("each missing piece is named beside its field, the alt text before the category", () => {
    expect(publishBlockers({ ...ready, categoryId: "" })).toEqual([{ field: "categoryId", message: PUBLISH_BLOCKERS.categoryId }]);
    expect(publishBlockers({ ...ready, authorName: "  ", authorIds: " , " })).toEqual([{ field: "authorIds", message: PUBLISH_BLOCKERS.byline }]);
    expect(publishBlockers({ ...ready, categoryId: null, featuredImage: "/media/images/x.png", featuredImageAlt: " " }).map((b) => b.field)).toEqual([
      "featuredImageAlt",
      "categoryId",
    ]);
    expect(publishBlockers({}).map((b) => b.field)).toEqual(["title", "slug", "content", "categoryId", "authorIds"]);
  });
});
