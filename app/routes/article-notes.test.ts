import { testCommentSpam } from "~/domain/comments/test-comment-spam.server";
import { eq } from "drizzle-orm";
import pg from "pg";
import pino from "pino";
import { beforeAll, describe, expect, it } from "vitest";
import { articleCorrections, articles, user } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { CHANGE_CHANNEL } from "~/lib/change-feed.server";
import { refuse } from "~/lib/forms";
import { action as editAction } from "~/routes/admin/article-edit";
import { loader as articlePageLoader } from "~/routes/site/article";
import { saveArticle, setUpArticleFixture } from "../../tests/setup/article-fixture";
import { getArticleForEdit } from "~/domain/articles/article-admin.server";
import { getArticleBySlug } from "~/domain/articles/articles.server";
import { addArticleNote, deleteArticleNote, listArticleNotesForAdmin } from "~/domain/articles/corrections.server";

const log = pino({ level: process.env.TEST_LOG ?? "silent" });
const fx = setUpArticleFixture("notes");
const editor = { id: "editor-1", name: "editor@example.com" };

beforeAll(async () => {
  await fx.t.db.insert(user).values({ id: editor.id, name: "Editor", email: editor.name });
});

const save = (values: Record<string, string>, id?: string) => saveArticle(fx, { intent: "publish", ...values }, { id });

/** What the edit page's action answers for a note's values: the note, or the refusal and its status. */
async function note(articleId: string, values: Partial<Record<"kind" | "text", string>>) {
  const submitted = { kind: "correction", text: "", ...values };
  try {
    return { ok: true as const, note: await addArticleNote(fx.t.db, editor, articleId, submitted) };
  } catch (error) {
    const answer = refuse(error, submitted);
    return { ok: false as const, status: answer.init?.status, failure: answer.data };
  }
}

const notesOf = (articleId: string) => fx.t.db.select().from(articleCorrections).where(eq(articleCorrections.articleId, articleId));
const modifiedAtOf = async (id: string) => (await getArticleForEdit(fx.t.db, id))!.modifiedAt;

describe("correction and update notes", () => {
  it("are added to a published article, listed newest first, and show the article as updated", async () => {
    const article = await save({ title: "Noted", slug: "noted", publishAt: "2026-01-02T10:00" });
    expect(await modifiedAtOf(article.id)).toBeNull();
    const first = await note(article.id, { kind: "correction", text: "An earlier version misspelled the mayor's name." });
    expect(first.ok).toBe(true);
    const second = await note(article.id, { kind: "update", text: "  The council voted on Tuesday.  " });
    expect(second).toMatchObject({ ok: true, note: { kind: "update", text: "The council voted on Tuesday." } });
    const listed = (await getArticleBySlug(fx.t.db, "noted"))!.corrections;
    expect(listed.map((n) => n.kind)).toEqual(["update", "correction"]);
    expect((await listArticleNotesForAdmin(fx.t.db, article.id))[0]).toMatchObject({ createdByName: "editor@example.com" });
    expect((await notesOf(article.id))[0]).toMatchObject({ createdById: "editor-1" });
    // A correction is a substantial change: modified_at is the note's time.
    const modified = await modifiedAtOf(article.id);
    expect(modified?.toISOString()).toBe(new Date(listed[0]!.createdAt).toISOString());
    const shown = await getArticleBySlug(fx.t.db, "noted");
    expect(shown?.modifiedAt?.getTime()).toBeGreaterThan(shown!.publishedAt.getTime());
  });

  it("reach the article page's loader data: modifiedAt and corrections[] (newest first)", async () => {
    const article = await save({ title: "Page", slug: "page-notes", publishAt: "2026-01-02T10:00" });
    await note(article.id, { kind: "correction", text: "<script>alert(1)</script> stays text" });
    const args = { params: { slug: "page-notes" }, request: new Request("http://localhost/article/page-notes"), context: { db: fx.t.db, log, commentSpam: testCommentSpam } };
    const { data } = await articlePageLoader(args as unknown as Parameters<typeof articlePageLoader>[0]);
    expect(data.article.modifiedAt).toBeInstanceOf(Date);
    expect(data.article.corrections).toMatchObject([{ kind: "correction", text: "<script>alert(1)</script> stays text" }]);
  });

  it("are refused with a clear error, and nothing is written: blank or too long text, unknown kind, a draft, an unknown article", async () => {
    const article = await save({ title: "Refusals", slug: "refusals" });
    expect(await note(article.id, { text: "   " })).toMatchObject({
      ok: false,
      status: 400,
      failure: { code: "missing_fields", error: "Write the note's text.", fieldErrors: { text: "Write the note's text." } },
    });
    expect(await note(article.id, { text: "x".repeat(1001) })).toMatchObject({
      ok: false,
      status: 400,
      failure: { code: "invalid_input", fieldErrors: { text: "The note must be at most 1000 characters." } },
    });
    expect(await note(article.id, { kind: "retraction", text: "No" })).toMatchObject({
      ok: false,
      status: 400,
      failure: { code: "invalid_input", fieldErrors: { kind: "Choose Correction or Update." } },
    });
    const draft = await save({ title: "Draft", slug: "refusals-draft", intent: "draft" });
    expect(await note(draft.id, { text: "Too early" })).toMatchObject({
      ok: false,
      status: 400,
      failure: { code: "invalid_input", error: "Corrections and updates can only be added to a published article." },
    });
    expect(await note("00000000-0000-4000-8000-000000000000", { text: "Nobody" })).toMatchObject({ ok: false, status: 404 });
    expect(await note("not-a-uuid", { text: "Nobody" })).toMatchObject({ ok: false, status: 404 });
    expect(await notesOf(article.id)).toEqual([]);
    expect(await notesOf(draft.id)).toEqual([]);
    expect(await modifiedAtOf(article.id)).toBeNull();
    expect(await modifiedAtOf(draft.id)).toBeNull();
  });

  it("are deleted one by one; an unknown note, or another article's, is not found", async () => {
    const article = await save({ title: "Delete", slug: "delete-notes" });
    const other = await save({ title: "Other", slug: "delete-notes-other" });
    const added = await note(article.id, { text: "To go" });
    if (!added.ok) throw new Error("not added");
    await expect(deleteArticleNote(fx.t.db, other.id, added.note.id)).rejects.toMatchObject({ code: "not_found" });
    await deleteArticleNote(fx.t.db, article.id, added.note.id);
    expect(await notesOf(article.id)).toEqual([]);
    await expect(deleteArticleNote(fx.t.db, article.id, added.note.id)).rejects.toBeInstanceOf(AppError);
    await expect(deleteArticleNote(fx.t.db, article.id, "nope")).rejects.toMatchObject({ code: "not_found", status: 404 });
  });

  it("adding and deleting a note announce a change on the change channel (every page cache clears)", async () => {
    const article = await save({ title: "Cache", slug: "notes-cache" });
    const client = new pg.Client({ connectionString: fx.t.url });
    await client.connect();
    try {
      const heard: string[] = [];
      client.on("notification", (m) => heard.push(m.payload ?? ""));
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
      const added = await note(article.id, { text: "Cached?" });
      await expect.poll(() => heard.some((p) => p.includes('"article_corrections"') && p.includes("INSERT")), { timeout: 5000 }).toBe(true);
      heard.length = 0;
      if (added.ok) await deleteArticleNote(fx.t.db, article.id, added.note.id);
      await expect.poll(() => heard.some((p) => p.includes('"article_corrections"') && p.includes("DELETE")), { timeout: 5000 }).toBe(true);
    } finally {
      await client.end();
    }
  });

  it("the edit page's note intents are refused without an admin session (401), before anything is read", async () => {
    const article = await save({ title: "Guarded", slug: "guarded-notes" });
    const request = new Request(`http://localhost/admin/articles/edit/${article.id}`, {
      method: "POST",
      body: new URLSearchParams({ intent: "add-note", kind: "correction", text: "Sneaky" }),
    });
    const args = { request, params: { id: article.id }, context: { db: fx.t.db, log } } as unknown as Parameters<typeof editAction>[0];
    await expect(editAction(args)).rejects.toMatchObject({ init: { status: 401 } });
    expect(await notesOf(article.id)).toEqual([]);
  });
});

describe("Show as updated", () => {
  it("a save with it ticked sets modified_at to now; a save without it leaves it as it was", async () => {
    const article = await save({ title: "Updated", slug: "show-updated", publishAt: "2026-01-02T10:00" });
    expect(await modifiedAtOf(article.id)).toBeNull();
    await save({ title: "Updated, minor", slug: "show-updated" }, article.id);
    expect(await modifiedAtOf(article.id)).toBeNull();
    const before = Date.now();
    await save({ title: "Updated, major", slug: "show-updated", showAsUpdated: "on" }, article.id);
    const modified = await modifiedAtOf(article.id);
    expect(Math.abs(modified!.getTime() - before)).toBeLessThan(60_000);
    await save({ title: "Updated, typo", slug: "show-updated" }, article.id);
    expect((await modifiedAtOf(article.id))?.toISOString()).toBe(modified!.toISOString());
    const [row] = await fx.t.db.select({ publishedAt: articles.publishedAt }).from(articles).where(eq(articles.id, article.id));
    expect(row!.publishedAt!.toISOString()).toBe("2026-01-02T15:00:00.000Z");
  });
});
