import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { articles, comments, DEFAULT_AUTHOR_NAME } from "~/db/schema";
import { createCategory } from "~/domain/categories/category-admin.server";
import { AppError } from "~/lib/app-error";
import { refuse } from "~/lib/forms";
import { createLocalStorage, type Storage } from "~/lib/storage.server";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import {
  articleFormValues,
  createArticle,
  deleteArticle,
  getArticleForEdit,
  saveArticleFromForm,
  updateArticle,
} from "./article-admin.server";
import { listAdminArticles } from "./article-list.server";
import { ARTICLE_SLUG_TAKEN, FEATURED_IMAGE_ALT_REQUIRED, type ArticleInput } from "./articles.schema";
import { refusal } from "../../../tests/setup/refusal";

let t: TestDatabase;
let storage: Storage;
let mediaRoot: string;
/** The category of the form saves below that publish (publishing needs one, decision 0033). */
let deskId: string;

beforeAll(async () => {
  t = await createTestDatabase();
  deskId = (await createCategory(t.db, { name: "Desk", slug: "desk" })).id;
  mediaRoot = await fs.mkdtemp(path.join(os.tmpdir(), "frontpage-article-admin-"));
  storage = createLocalStorage(mediaRoot);
  await fs.mkdir(path.join(mediaRoot, "images"), { recursive: true });
  await fs.mkdir(path.join(mediaRoot, "videos"), { recursive: true });
  await fs.writeFile(path.join(mediaRoot, "images", "1700000000000-abc123.png"), "png");
  await fs.writeFile(path.join(mediaRoot, "videos", "1700000000000-def456.mp4"), "mp4");
});

afterAll(async () => {
  await fs.rm(mediaRoot, { recursive: true, force: true });
});

const input = (over: Partial<ArticleInput> = {}): ArticleInput => ({
  title: "A headline",
  slug: "a-headline",
  categoryId: null,
  authorName: null,
  excerpt: null,
  content: "Body text",
  contentDoc: null,
  featuredImage: null,
  featuredImageAlt: null,
  featuredImageCaption: null,
  featuredImageCredit: null,
  videoUrl: null,
  ...over,
});

function form(values: Record<string, string>) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(values)) fd.append(k, v);
  return fd;
}


describe("creating an article", () => {
  it("stores the fields and gives an empty author the default byline", async () => {
    const category = await createCategory(t.db, { name: "Tech", slug: "tech-create" });
    const created = await createArticle(
      t.db,
      storage,
      input({
        slug: "stored-fields",
        categoryId: category.id,
        excerpt: "Short",
        featuredImage: "/media/images/1700000000000-abc123.png",
        featuredImageAlt: "A harbour at dusk",
        featuredImageCaption: "The harbour at dusk.",
        featuredImageCredit: "Jane Doe",
        videoUrl: "/media/videos/1700000000000-def456.mp4",
      }),
    );
    const stored = await getArticleForEdit(t.db, created.id);
    expect(stored).toMatchObject({
      slug: "stored-fields",
      categoryId: category.id,
      authorName: DEFAULT_AUTHOR_NAME,
      excerpt: "Short",
      featuredImage: "/media/images/1700000000000-abc123.png",
      featuredImageAlt: "A harbour at dusk",
      featuredImageCaption: "The harbour at dusk.",
      featuredImageCredit: "Jane Doe",
      videoUrl: "/media/videos/1700000000000-def456.mp4",
    });
  });

  it("a slug already taken is refused with a clear message and nothing is saved", async () => {
    await createArticle(t.db, storage, input({ slug: "taken-slug", title: "First" }));
    const error = await refusal(createArticle(t.db, storage, input({ slug: "taken-slug", title: "Second" })));
    expect(error.code).toBe("slug_taken");
    expect(error.field).toBe("slug");
    expect(error.message).toBe(ARTICLE_SLUG_TAKEN);
    const rows = await t.db.select().from(articles).where(eq(articles.slug, "taken-slug"));
    expect(rows.map((r) => r.title)).toEqual(["First"]);
  });

  it("two creates racing for one slug: one wins, the other gets the slug message, not a database error", async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => createArticle(t.db, storage, input({ slug: "race-slug", title: `Racer ${i}` }))),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results.filter((r): r is PromiseRejectedResult => r.status === "rejected")) {
      expect(r.reason).toBeInstanceOf(AppError);
      expect((r.reason as AppError).message).toBe(ARTICLE_SLUG_TAKEN);
    }
  });

  it("an image that is not a file of our media store is refused", async () => {
    for (const url of [
      "https://evil.example/x.png",
      "/media/images/missing-file.png",
      "/media/videos/1700000000000-def456.mp4",
      "javascript:alert(1)",
      "/media/images/..%2F..%2Fetc%2Fpasswd",
    ]) {
      const error = await refusal(
        createArticle(t.db, storage, input({ slug: `bad-media-${Math.random().toString(36).slice(2)}`, featuredImage: url, featuredImageAlt: "Alt" })),
      );
      expect(error.code).toBe("invalid_media");
      expect(error.field).toBe("featuredImage");
    }
  });

  it("an unknown category is refused", async () => {
    const error = await refusal(
      createArticle(t.db, storage, input({ slug: "no-such-category", categoryId: "00000000-0000-4000-8000-000000000000" })),
    );
    expect(error.code).toBe("unknown_category");
  });
});

describe("the form's action", () => {
  /** What the article routes answer: the saved article, or the refusal with its status. */
  async function answerOf(formData: FormData) {
    const values = articleFormValues(formData);
    try {
      return { ok: true as const, article: await saveArticleFromForm(t.db, storage, values, { timeZone: "America/New_York" }) };
    } catch (error) {
      const answer = refuse(error, values);
      return { ok: false as const, status: answer.init?.status, failure: answer.data };
    }
  }

  it("blank title, slug or content is a 400 with the missing-fields notice and saves nothing", async () => {
    const before = (await listAdminArticles(t.db, 1, 1000)).total;
    const result = await answerOf(form({ title: " ", slug: "", content: "" }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.status).toBe(400);
    expect(result.failure.code).toBe("missing_fields");
    expect(Object.keys(result.failure.fieldErrors).sort()).toEqual(["content", "slug", "title"]);
    expect((await listAdminArticles(t.db, 1, 1000)).total).toBe(before);
  });

  it("a slug taken by another article comes back as a 400 beside the slug field", async () => {
    await createArticle(t.db, storage, input({ slug: "form-taken" }));
    const result = await answerOf(form({ title: "T", slug: "form-taken", content: "C", categoryId: deskId, authorName: "Desk Writer" }));
    expect(result).toMatchObject({ ok: false, status: 400, failure: { fieldErrors: { slug: ARTICLE_SLUG_TAKEN } } });
  });
});

describe("updating an article", () => {
  it("keeps its own slug, refuses another article's slug, and reports an unknown id", async () => {
    const a = await createArticle(t.db, storage, input({ slug: "update-a" }));
    await createArticle(t.db, storage, input({ slug: "update-b" }));
    await updateArticle(t.db, storage, a.id, input({ slug: "update-a", title: "Renamed" }));
    expect((await getArticleForEdit(t.db, a.id))?.title).toBe("Renamed");
    expect((await refusal(updateArticle(t.db, storage, a.id, input({ slug: "update-b" })))).code).toBe("slug_taken");
    expect((await refusal(updateArticle(t.db, storage, "00000000-0000-4000-8000-000000000000", input({ slug: "x" })))).code).toBe(
      "not_found",
    );
  });

  it("an unknown or malformed id loads nothing", async () => {
    expect(await getArticleForEdit(t.db, "not-a-uuid")).toBeNull();
    expect(await getArticleForEdit(t.db, "00000000-0000-4000-8000-000000000000")).toBeNull();
  });
});

describe("deleting an article", () => {
  it("removes the article and its comments and replies with it", async () => {
    const a = await createArticle(t.db, storage, input({ slug: "delete-me" }));
    const [top] = await t.db
      .insert(comments)
      .values({ articleId: a.id, authorName: "R", authorEmail: "r@example.com", content: "Hi" })
      .returning();
    await t.db.insert(comments).values({ articleId: a.id, parentCommentId: top!.id, authorName: "S", authorEmail: "s@example.com", content: "Re" });
    await deleteArticle(t.db, a.id);
    expect(await getArticleForEdit(t.db, a.id)).toBeNull();
    expect(await t.db.select().from(comments).where(eq(comments.articleId, a.id))).toEqual([]);
    expect((await refusal(deleteArticle(t.db, a.id))).code).toBe("not_found");
  });
});

describe("the admin list", () => {
  it("is newest first with the category name, a video flag and a total", async () => {
    const category = await createCategory(t.db, { name: "Listing", slug: "listing" });
    await createArticle(t.db, storage, input({ slug: "list-old", categoryId: category.id }));
    await createArticle(t.db, storage, input({ slug: "list-new", videoUrl: "/media/videos/1700000000000-def456.mp4" }));
    const { rows, total } = await listAdminArticles(t.db, 1, 2);
    expect(rows.map((r) => r.slug)).toEqual(["list-new", "list-old"]);
    expect(rows[0]).toMatchObject({ hasVideo: true, categoryName: null });
    expect(rows[1]).toMatchObject({ hasVideo: false, categoryName: "Listing" });
    expect(total).toBeGreaterThan(2);
  });
});

describe("a story from the editor", () => {
  const OWN_IMAGE = "/media/images/1700000000000-abc123.png";
  const story = (...content: unknown[]) => JSON.stringify({ type: "doc", content });
  const paragraph = (text: string, marks?: unknown[]) => ({ type: "paragraph", content: [{ type: "text", text, ...(marks ? { marks } : {}) }] });
  const image = (src: string) => ({ type: "storyImage", attrs: { src, alt: "Lanterns on the quay", caption: "Friday night", credit: "Ana Photo" } });
  const storedCount = async () => (await listAdminArticles(t.db, 1, 1000)).total;

  async function save(values: Record<string, string>, id?: string) {
    const formValues = articleFormValues(form({ title: "Story", categoryId: deskId, authorName: "Desk Writer", excerpt: "", featuredImage: "", videoUrl: "", ...values }));
    try {
      return { ok: true as const, article: await saveArticleFromForm(t.db, storage, formValues, { id, timeZone: "America/New_York" }) };
    } catch (error) {
      const answer = refuse(error, formValues);
      return { ok: false as const, status: answer.init?.status, failure: answer.data };
    }
  }

  it("stores the document and the plain text derived from it on the server", async () => {
    const contentDoc = story({ type: "heading", attrs: { level: 2 }, content: [{ type: "text", text: "Sub" }] }, paragraph("Body words"), image(OWN_IMAGE), {
      type: "embed",
      attrs: { url: "https://youtu.be/dQw4w9WgXcQ" },
    });
    const result = await save({ slug: "story-doc", content: "text the browser claimed", contentDoc });
    expect(result.ok).toBe(true);
    const [row] = await t.db.select({ content: articles.content, contentDoc: articles.contentDoc }).from(articles).where(eq(articles.slug, "story-doc"));
    expect(row!.content).toBe("Sub\n\nBody words\n\nFriday night");
    expect(row!.contentDoc).toMatchObject({ type: "doc", content: [{ type: "heading" }, { type: "paragraph" }, { type: "storyImage" }, { type: "embed", attrs: { url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ" } }] });
    expect((await getArticleForEdit(t.db, result.ok ? result.article.id : ""))?.contentDoc).toEqual(row!.contentDoc);
  });

  it("a plain-text save keeps content_doc null (the legacy rendering)", async () => {
    const result = await save({ slug: "story-plain", content: "Line one\nLine two", contentDoc: "" });
    expect(result.ok).toBe(true);
    const [row] = await t.db.select({ content: articles.content, contentDoc: articles.contentDoc }).from(articles).where(eq(articles.slug, "story-plain"));
    expect(row).toEqual({ content: "Line one\nLine two", contentDoc: null });
  });

  it("refuses bad documents with a 400 and a clear message, and saves nothing", async () => {
    const before = await storedCount();
    const cases: [string, RegExp][] = [
      [story({ type: "script", content: [{ type: "text", text: "alert(1)" }] }), /does not allow \(“script”\)/],
      [story(paragraph("click", [{ type: "link", attrs: { href: "javascript:alert(1)" } }])), /Links must start with http:\/\/, https:\/\/ or mailto:/],
      [story(image("data:image/png;base64,AAAA")), /media library or an https address/],
      [story(image("/media/images/1700000000000-missing.png")), /must come from this site's Media Library/],
      // Another host's image (issue 28): the reader page's CSP would block it, and feeds would load it from a stranger.
      [story(image("https://images.example.org/photo.jpg")), /must come from this site's Media Library: upload it or choose it there \(not https:\/\/images\.example\.org\/photo\.jpg\)/],
      [story({ type: "embed", attrs: { url: "https://vimeo.com/123" } }), /Only YouTube videos and X posts/],
      ["{broken", /could not be read/],
    ];
    for (const [contentDoc, message] of cases) {
      const result = await save({ slug: `story-bad-${cases.findIndex((c) => c[0] === contentDoc)}`, content: "x", contentDoc });
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect(result.status).toBe(400);
      expect(result.failure.error).toMatch(message);
      expect(result.failure.fieldErrors.contentDoc).toMatch(message);
    }
    expect(await storedCount()).toBe(before);
  });

  it("an update with a bad document leaves the stored story as it was", async () => {
    const created = await save({ slug: "story-update", content: "x", contentDoc: story(paragraph("First version")) });
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    const refused = await save({ slug: "story-update", content: "x", contentDoc: story(paragraph("Second", [{ type: "link", attrs: { href: "javascript:alert(1)" } }])) }, created.article.id);
    expect(refused).toMatchObject({ ok: false, status: 400 });
    const stored = await getArticleForEdit(t.db, created.article.id);
    expect(stored?.content).toBe("First version");
    expect(stored?.contentDoc).toEqual({ type: "doc", content: [paragraph("First version")] });
  });
});

describe("the featured image's alt text, caption and credit", () => {
  const IMAGE = "/media/images/1700000000000-abc123.png";
  const storedCount = async () => (await listAdminArticles(t.db, 1, 1000)).total;

  async function save(values: Record<string, string>, id?: string) {
    const formValues = articleFormValues(
      form({ title: "Figure", categoryId: deskId, authorName: "Desk Writer", excerpt: "", content: "Body", contentDoc: "", videoUrl: "", ...values }),
    );
    try {
      return { ok: true as const, article: await saveArticleFromForm(t.db, storage, formValues, { id, timeZone: "America/New_York" }) };
    } catch (error) {
      const answer = refuse(error, formValues);
      return { ok: false as const, status: answer.init?.status, failure: answer.data };
    }
  }

  it("an image without alt text is refused with 400 on the alt field, for a draft too, and nothing is saved", async () => {
    const before = await storedCount();
    for (const [intent, alt] of [["publish", ""], ["draft", "   "]] as const) {
      const result = await save({ slug: `figure-no-alt-${intent}`, featuredImage: IMAGE, featuredImageAlt: alt, intent });
      expect(result).toMatchObject({ ok: false, status: 400 });
      if (result.ok) continue;
      expect(result.failure).toMatchObject({ code: "invalid_input", error: FEATURED_IMAGE_ALT_REQUIRED, fieldErrors: { featuredImageAlt: FEATURED_IMAGE_ALT_REQUIRED } });
    }
    expect(await storedCount()).toBe(before);
  });

  it("the service refuses it too, whoever calls it", async () => {
    const error = await refusal(createArticle(t.db, storage, input({ slug: "figure-service", featuredImage: IMAGE })));
    expect(error).toMatchObject({ code: "invalid_input", status: 400, field: "featuredImageAlt", message: FEATURED_IMAGE_ALT_REQUIRED });
  });

  it("texts over their limits are refused with clear messages", async () => {
    const cases = [
      ["featuredImageAlt", "a".repeat(251), "Alt text must be at most 250 characters"],
      ["featuredImageCaption", "c".repeat(501), "Caption must be at most 500 characters"],
      ["featuredImageCredit", "r".repeat(201), "Credit must be at most 200 characters"],
    ] as const;
    for (const [field, value, message] of cases) {
      const result = await save({ slug: `figure-long-${field}`, featuredImage: IMAGE, featuredImageAlt: "Alt", [field]: value });
      expect(result).toMatchObject({ ok: false, status: 400 });
      if (!result.ok) expect(result.failure.fieldErrors[field]).toBe(message);
    }
    const atLimits = await save({
      slug: "figure-at-limits",
      featuredImage: IMAGE,
      featuredImageAlt: "a".repeat(250),
      featuredImageCaption: "c".repeat(500),
      featuredImageCredit: "r".repeat(200),
    });
    expect(atLimits.ok).toBe(true);
  });

  it("stores alt, caption and credit trimmed; without an image they are dropped", async () => {
    const saved = await save({
      slug: "figure-stored",
      featuredImage: IMAGE,
      featuredImageAlt: "  Lanterns on the quay ",
      featuredImageCaption: "Friday night",
      featuredImageCredit: "",
    });
    expect(saved.ok).toBe(true);
    if (!saved.ok) return;
    expect(await getArticleForEdit(t.db, saved.article.id)).toMatchObject({
      featuredImageAlt: "Lanterns on the quay",
      featuredImageCaption: "Friday night",
      featuredImageCredit: null,
    });
    const removed = await save({ slug: "figure-stored", featuredImage: "", featuredImageAlt: "Lanterns", featuredImageCaption: "Friday night" }, saved.article.id);
    expect(removed.ok).toBe(true);
    expect(await getArticleForEdit(t.db, saved.article.id)).toMatchObject({
      featuredImage: null,
      featuredImageAlt: null,
      featuredImageCaption: null,
      featuredImageCredit: null,
    });
  });

  it("an older article with an image and no alt text keeps it until it is edited; the edit asks for alt text", async () => {
    const [old] = await t.db
      .insert(articles)
      .values({ title: "Old", slug: "figure-legacy", content: "Body", featuredImage: IMAGE })
      .returning({ id: articles.id });
    expect((await getArticleForEdit(t.db, old!.id))?.featuredImageAlt).toBeNull();
    const refused = await save({ title: "Old, edited", slug: "figure-legacy", featuredImage: IMAGE, featuredImageAlt: "" }, old!.id);
    expect(refused).toMatchObject({ ok: false, status: 400, failure: { fieldErrors: { featuredImageAlt: FEATURED_IMAGE_ALT_REQUIRED } } });
    expect((await getArticleForEdit(t.db, old!.id))?.title).toBe("Old");
    const accepted = await save({ title: "Old, edited", slug: "figure-legacy", featuredImage: IMAGE, featuredImageAlt: "A quay at night" }, old!.id);
    expect(accepted.ok).toBe(true);
  });
});
