import { asc, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { articleRevisions, articles, user } from "~/db/schema";
import { articleForm, saveArticle, setUpArticleFixture, TEST_TIME_ZONE } from "../../../tests/setup/article-fixture";
import { autosaveArticleFromForm, AUTOSAVE_DRAFTS_ONLY, unpublishArticle } from "./article-admin.server";
import { REVISIONS_KEPT } from "./article-revisions.schema";
import { actorOf, type Actor } from "~/domain/accounts/actor";
import { compareRevision, listRevisions } from "./article-revisions.server";
import { refusal } from "../../../tests/setup/refusal";

const TZ = TEST_TIME_ZONE;
const fx = setUpArticleFixture("revisions");
let editor: Actor;
let other: Actor;

beforeAll(async () => {
  await fx.t.db.insert(user).values([
    { id: "editor-1", name: "Ed Itor", email: "editor@example.com" },
    { id: "editor-2", name: "other@example.com", email: "other@example.com" },
  ]);
  editor = actorOf({ id: "editor-1", name: "Ed Itor", email: "editor@example.com" });
  other = actorOf({ id: "editor-2", name: "other@example.com", email: "other@example.com" });
});

const save = (over: Record<string, string>, id?: string, actor: Actor = editor) => saveArticle(fx, over, { id, actor });

async function autosave(over: Record<string, string>, id: string, actor: Actor = editor) {
  return autosaveArticleFromForm(fx.t.db, fx.storage, articleForm(over), { id, timeZone: TZ, actor });
}

const revisionsOf = (articleId: string) =>
  fx.t.db.select().from(articleRevisions).where(eq(articleRevisions.articleId, articleId)).orderBy(asc(articleRevisions.createdAt));


describe("revisions", () => {
  it("names who saved: the account's name and e-mail, or the e-mail alone", () => {
    expect(editor).toEqual({ id: "editor-1", name: "Ed Itor (editor@example.com)" });
    expect(other).toEqual({ id: "editor-2", name: "other@example.com" });
  });

  it("every save (create, update, draft, unpublish) stores a revision with all the fields, who and when", async () => {
    const created = await save({ title: "First title", slug: "rev-every-save", excerpt: "An excerpt", authorName: "Reporter", intent: "draft" });
    await save({ title: "Second title", slug: "rev-every-save", content: "Second body", authorName: "", intent: "draft" }, created.id, other);
    await save({ title: "Third title", slug: "rev-every-save", intent: "draft", publishAt: "2030-01-02T09:30" }, created.id);
    await save({ title: "Fourth title", slug: "rev-every-save" }, created.id);
    await unpublishArticle(fx.t.db, created.id, other);

    const rows = await revisionsOf(created.id);
    expect(rows.map((r) => [r.title, r.status, r.savedByName, r.autosave])).toEqual([
      ["First title", "draft", "Ed Itor (editor@example.com)", false],
      ["Second title", "draft", "other@example.com", false],
      ["Third title", "draft", "Ed Itor (editor@example.com)", false],
      ["Fourth title", "published", "Ed Itor (editor@example.com)", false],
      ["Fourth title", "draft", "other@example.com", false],
    ]);
    const [first, second, third, fourth] = rows;
    expect(first).toMatchObject({ slug: "rev-every-save", excerpt: "An excerpt", authorName: "Reporter", content: "Body text", savedById: "editor-1" });
    expect(first!.publishedAt).toBeNull();
    expect(second).toMatchObject({ content: "Second body", savedById: "editor-2", excerpt: null, authorName: "Frontpage Newsroom" });
    // The draft keeps its planned time (09:30 in New York is 14:30 UTC in January).
    expect(third!.publishedAt?.toISOString()).toBe("2030-01-02T14:30:00.000Z");
    expect(fourth!.publishedAt).toBeInstanceOf(Date);

    const listed = await listRevisions(fx.t.db, created.id);
    expect(listed.map((r) => r.title)).toEqual(["Fourth title", "Fourth title", "Third title", "Second title", "First title"]);
    expect(listed[0]).toMatchObject({ savedByName: "other@example.com", status: "draft", autosave: false });
    expect(Date.parse(listed[0]!.savedAt)).not.toBeNaN();
  });

  it("a refused save writes no revision (nor anything else)", async () => {
    const created = await save({ title: "Kept", slug: "rev-refused" });
    await save({ title: "Taken", slug: "rev-taken" });
    expect((await refusal(save({ title: "Changed", slug: "rev-taken" }, created.id))).code).toBe("slug_taken");
    expect((await refusal(save({ title: "", slug: "rev-refused" }, created.id))).code).toBe("missing_fields");
    expect((await refusal(save({ title: "Bad time", slug: "rev-refused", publishAt: "tomorrow" }, created.id))).code).toBe("invalid_input");
    expect((await refusal(save({ title: "New", slug: "rev-taken" }))).code).toBe("slug_taken");
    expect((await revisionsOf(created.id)).map((r) => r.title)).toEqual(["Kept"]);
    const [row] = await fx.t.db.select({ title: articles.title }).from(articles).where(eq(articles.id, created.id));
    expect(row!.title).toBe("Kept");
  });

  it("a save whose revision cannot be written saves nothing: the article and its revision share one transaction", async () => {
    const created = await save({ title: "Before", slug: "rev-atomic" });
    // A revision naming an account that does not exist breaks its foreign key inside the transaction.
    const ghost: Actor = { id: "no-such-account", name: "Ghost" };
    expect((await refusal(save({ title: "After", slug: "rev-atomic" }, created.id, ghost))).code).toBe("forbidden");
    expect((await refusal(save({ title: "Ghost article", slug: "rev-atomic-ghost" }, undefined, ghost))).code).toBe("forbidden");
    expect(await fx.t.db.select().from(articles).where(eq(articles.slug, "rev-atomic-ghost"))).toEqual([]);
    const [row] = await fx.t.db.select({ title: articles.title }).from(articles).where(eq(articles.id, created.id));
    expect(row!.title).toBe("Before");
    expect((await revisionsOf(created.id)).map((r) => r.title)).toEqual(["Before"]);
  });

  it(`keeps the newest ${REVISIONS_KEPT} revisions of an article and deletes older ones in the same save`, async () => {
    const created = await save({ title: "Save 1", slug: "rev-retention" });
    for (let i = 2; i <= REVISIONS_KEPT + 5; i++) await save({ title: `Save ${i}`, slug: "rev-retention" }, created.id);
    const rows = await revisionsOf(created.id);
    expect(rows).toHaveLength(REVISIONS_KEPT);
    expect(rows[0]!.title).toBe("Save 6");
    expect(rows.at(-1)!.title).toBe(`Save ${REVISIONS_KEPT + 5}`);
    expect(await listRevisions(fx.t.db, created.id)).toHaveLength(REVISIONS_KEPT);
  });

  it("revisions go with their article", async () => {
    const created = await save({ title: "Doomed", slug: "rev-cascade" });
    await fx.t.db.delete(articles).where(eq(articles.id, created.id));
    expect(await revisionsOf(created.id)).toEqual([]);
    expect((await refusal(listRevisions(fx.t.db, created.id))).code).toBe("not_found");
  });
});

describe("autosave", () => {
  it("saves a draft and coalesces its autosaves into one revision per person within 10 minutes", async () => {
    const draft = await save({ title: "Draft 0", slug: "auto-draft", intent: "draft" });
    for (let i = 1; i <= 5; i++) await autosave({ title: `Draft ${i}`, slug: "auto-draft" }, draft.id);
    let rows = await revisionsOf(draft.id);
    expect(rows.map((r) => [r.title, r.autosave])).toEqual([
      ["Draft 0", false],
      ["Draft 5", true],
    ]);
    const [stored] = await fx.t.db.select({ title: articles.title, status: articles.status }).from(articles).where(eq(articles.id, draft.id));
    expect(stored).toEqual({ title: "Draft 5", status: "draft" });

    // Another person's autosave starts its own revision.
    await autosave({ title: "Draft 6", slug: "auto-draft" }, draft.id, other);
    // A save by hand is always its own revision; an autosave after it starts a new one.
    await save({ title: "Draft 7", slug: "auto-draft", intent: "draft" }, draft.id);
    await autosave({ title: "Draft 8", slug: "auto-draft" }, draft.id);
    // An autosave revision older than 10 minutes is not changed any more.
    await fx.t.db.update(articleRevisions).set({ createdAt: sql`now() - interval '11 minutes'` }).where(eq(articleRevisions.title, "Draft 8"));
    await autosave({ title: "Draft 9", slug: "auto-draft" }, draft.id);
    await autosave({ title: "Draft 10", slug: "auto-draft" }, draft.id);
    rows = await revisionsOf(draft.id);
    // In time order: "Draft 8" was moved 11 minutes back; "Draft 5" holds the time of its latest autosave.
    expect(rows.map((r) => [r.title, r.autosave, r.savedById])).toEqual([
      ["Draft 8", true, "editor-1"],
      ["Draft 0", false, "editor-1"],
      ["Draft 5", true, "editor-1"],
      ["Draft 6", true, "editor-2"],
      ["Draft 7", false, "editor-1"],
      ["Draft 10", true, "editor-1"],
    ]);
  });

  it("keeps the article a draft with its planned time, and never publishes", async () => {
    const draft = await save({ title: "Planned", slug: "auto-planned", intent: "draft" });
    // Even a form whose button says publish is saved as a draft by an autosave.
    const saved = await autosave({ title: "Planned still", slug: "auto-planned", intent: "publish", publishAt: "2020-01-01T08:00" }, draft.id);
    expect(saved.status).toBe("draft");
    const [stored] = await fx.t.db.select().from(articles).where(eq(articles.id, draft.id));
    expect(stored).toMatchObject({ status: "draft", title: "Planned still" });
    expect(stored!.publishedAt?.toISOString()).toBe("2020-01-01T13:00:00.000Z");
  });

  it("is refused for a scheduled article, and saves nothing then (a published one's goes to its pending version)", async () => {
    const scheduled = await save({ title: "Later", slug: "auto-later", publishAt: "2099-01-01T08:00" });
    const error = await refusal(autosave({ title: "Sneaky", slug: scheduled.slug }, scheduled.id));
    expect(error).toMatchObject({ code: "invalid_input", status: 409, message: AUTOSAVE_DRAFTS_ONLY });
    expect((await revisionsOf(scheduled.id)).map((r) => r.title)).not.toContain("Sneaky");
    const [stored] = await fx.t.db.select({ title: articles.title }).from(articles).where(eq(articles.id, scheduled.id));
    expect(stored!.title).toBe("Later");
  });

  it("runs the same validation: refused input saves nothing and adds no revision", async () => {
    const draft = await save({ title: "Valid", slug: "auto-valid", intent: "draft" });
    await save({ title: "Other", slug: "auto-other" });
    expect((await refusal(autosave({ title: "", slug: "auto-valid" }, draft.id))).code).toBe("missing_fields");
    expect((await refusal(autosave({ title: "Taken", slug: "auto-other" }, draft.id))).code).toBe("slug_taken");
    expect((await refusal(autosave({ title: "Foreign", slug: "auto-valid", featuredImage: "https://evil.example/x.png", featuredImageAlt: "A picture" }, draft.id))).code).toBe(
      "invalid_media",
    );
    expect((await refusal(autosave({ title: "Gone", slug: "x" }, "00000000-0000-4000-8000-000000000000"))).code).toBe("not_found");
    expect((await revisionsOf(draft.id)).map((r) => r.title)).toEqual(["Valid"]);
  });
});

describe("comparing and restoring", () => {
  it("names changed tags and hands the revision's tags to the form (issue 29)", async () => {
    const created = await save({ title: "Tagged", slug: "cmp-tagged", tags: "Floods, Weather" });
    await save({ title: "Tagged", slug: "cmp-tagged", tags: "Weather" }, created.id);
    const [oldest] = (await listRevisions(fx.t.db, created.id)).toReversed();
    const comparison = await compareRevision(fx.t.db, created.id, oldest!.id, TZ);
    expect(comparison.otherChanges).toContain("Tags");
    expect(comparison.revision.fields.tags).toEqual(["Floods", "Weather"]);
  });

  it("compares a revision with the current version and restoring it by saving stores it again as a new revision", async () => {
    const created = await save({ title: "Original title", slug: "cmp-original", excerpt: "Old excerpt", content: "The quick brown fox." });
    await save({ title: "New title", slug: "cmp-new", excerpt: "Old excerpt", content: "The slow brown fox jumps." }, created.id);
    const [oldest, newest] = (await listRevisions(fx.t.db, created.id)).toReversed();

    const same = await compareRevision(fx.t.db, created.id, newest!.id, TZ);
    expect(same.changes).toEqual({ title: { changed: false }, excerpt: { changed: false }, body: { changed: false } });
    expect(same.otherChanges).toEqual([]);

    const comparison = await compareRevision(fx.t.db, created.id, oldest!.id, TZ);
    expect(comparison.revision.fields).toMatchObject({ title: "Original title", slug: "cmp-original", excerpt: "Old excerpt", content: "The quick brown fox." });
    expect(comparison.revision.fields.publishAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    expect(comparison.changes.excerpt).toEqual({ changed: false });
    const body = comparison.changes.body;
    expect(body.changed && body.parts).toEqual(
      expect.arrayContaining([
        { value: "slow", side: "current" },
        { value: "quick", side: "revision" },
        expect.objectContaining({ side: "current", value: expect.stringContaining("jumps") }),
      ]),
    );
    expect(comparison.otherChanges).toEqual(["Slug"]);
    // Another article's revision, or an unknown one, is not found.
    const stranger = await save({ title: "Stranger", slug: "cmp-stranger" });
    expect((await refusal(compareRevision(fx.t.db, stranger.id, oldest!.id, TZ))).code).toBe("not_found");
    expect((await refusal(compareRevision(fx.t.db, created.id, "nope", TZ))).code).toBe("not_found");

    // Restore: the form is filled from the revision's fields, then saved with Update Article.
    const f = comparison.revision.fields;
    await save(
      {
        title: f.title,
        slug: f.slug,
        excerpt: f.excerpt ?? "",
        content: f.content,
        contentDoc: f.contentDoc ? JSON.stringify(f.contentDoc) : "",
        authorName: f.authorName,
        categoryId: f.categoryId ?? "",
        publishAt: f.publishAt,
      },
      created.id,
    );
    const [stored] = await fx.t.db.select().from(articles).where(eq(articles.id, created.id));
    expect(stored).toMatchObject({ title: "Original title", slug: "cmp-original", content: "The quick brown fox.", status: "published" });
    const titles = (await listRevisions(fx.t.db, created.id)).map((r) => r.title);
    expect(titles).toEqual(["Original title", "New title", "Original title"]);
  });
});
