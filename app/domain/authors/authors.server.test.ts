import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { asc, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { articleRevisions, articles, user } from "~/db/schema";
import { getArticleForEdit, unpublishArticle } from "~/domain/articles/article-admin.server";
import { getArticleBySlug } from "~/domain/articles/articles.server";
import { compareRevision } from "~/domain/articles/article-revisions.server";
import { parseForm } from "~/lib/forms";
import { saveArticle, setUpArticleFixture, submitArticle } from "../../../tests/setup/article-fixture";
import { ACCOUNT_TAKEN, AUTHOR_SLUG_TAKEN, UNKNOWN_ACCOUNT, authorInputSchema, deleteAuthorWarning, UNKNOWN_AUTHOR, type AuthorFieldName } from "./authors.schema";
import { joinNames } from "./byline";
import {
  AUTHOR_PHOTO_INVALID,
  createAuthor,
  deleteAuthor,
  getAuthorForUser,
  getAuthorBySlug,
  listAdminAuthors,
  listAuthorArticles,
  updateAuthor,
} from "./authors.server";
import { refusal } from "../../../tests/setup/refusal";
import { listSitemapAuthors } from "~/domain/articles/feeds.server";

const fx = setUpArticleFixture("authors");
const PHOTO = "/media/images/1700000000000-face01.png";

beforeAll(async () => {
  await fs.mkdir(path.join(fx.mediaRoot, "images"), { recursive: true });
  await fs.writeFile(path.join(fx.mediaRoot, "images", "1700000000000-face01.png"), "png");
});

const form = (over: Partial<Record<AuthorFieldName, string>> = {}): Record<AuthorFieldName, string> => ({
  name: "Ada Lovelace",
  slug: "ada-lovelace",
  roleTitle: "",
  bio: "",
  photoUrl: "",
  websiteUrl: "",
  xUrl: "",
  linkedinUrl: "",
  userId: "",
  ...over,
});
const parse = (over: Partial<Record<AuthorFieldName, string>> = {}) => parseForm(authorInputSchema, form(over), { required: ["name", "slug"] });


describe("author input", () => {
  it("accepts http and https links only, with a message on the field", async () => {
    expect(parse({ websiteUrl: "https://ada.example/", xUrl: "http://x.com/ada" }).websiteUrl).toBe("https://ada.example/");
    for (const bad of ["javascript:alert(1)", "ftp://ada.example", "ada.example", "/relative", "data:text/html,x"]) {
      const error = await refusal(() => parse({ linkedinUrl: bad }));
      expect(error.code).toBe("invalid_input");
      expect(error.fieldErrors?.linkedinUrl).toMatch(/http:\/\/ or https:\/\//);
    }
  });

  it("needs a name and a slug, and keeps the bio to 2000 characters", async () => {
    expect((await refusal(() => parse({ name: " " }))).code).toBe("missing_fields");
    expect((await refusal(() => parse({ slug: "Not a slug" }))).fieldErrors?.slug).toBeTruthy();
    expect((await refusal(() => parse({ bio: "x".repeat(2001) }))).fieldErrors?.bio).toMatch(/2000/);
    expect(parse({ bio: "  ", roleTitle: "" })).toMatchObject({ bio: null, roleTitle: null });
  });

  it("joins names as a byline says them, and the delete confirm says what happens", () => {
    expect(joinNames(["A"])).toBe("A");
    expect(joinNames(["A", "B"])).toBe("A and B");
    expect(joinNames(["A", "B", "C"])).toBe("A, B and C");
    expect(deleteAuthorWarning("Ada", 2)).toMatch(/removed from the byline of 2 articles/);
  });
});

describe("author records", () => {
  it("creates, refuses a taken slug and a foreign photo, updates and lists", async () => {
    const ada = await createAuthor(fx.t.db, fx.storage, parse({ photoUrl: PHOTO, bio: "Wrote the first program." }));
    const taken = await refusal(createAuthor(fx.t.db, fx.storage, parse({ name: "Another Ada" })));
    expect(taken).toMatchObject({ code: "slug_taken", message: AUTHOR_SLUG_TAKEN, field: "slug" });
    for (const photo of ["https://evil.example/x.png", "/media/images/1700000000000-missing.png", "/media/videos/1700000000000-face01.mp4"]) {
      const error = await refusal(createAuthor(fx.t.db, fx.storage, parse({ slug: "ada-2", photoUrl: photo })));
      expect(error).toMatchObject({ code: "invalid_media", message: AUTHOR_PHOTO_INVALID, field: "photoUrl" });
    }
    await updateAuthor(fx.t.db, fx.storage, ada.id, parse({ roleTitle: "Analyst", photoUrl: PHOTO }));
    expect(await getAuthorBySlug(fx.t.db, "ada-lovelace")).toMatchObject({ name: "Ada Lovelace", roleTitle: "Analyst", photoUrl: PHOTO });
    expect((await listAdminAuthors(fx.t.db)).find((a) => a.id === ada.id)).toMatchObject({ articleCount: 0 });
    expect((await refusal(updateAuthor(fx.t.db, fx.storage, "00000000-0000-4000-8000-000000000000", parse()))).status).toBe(404);
    expect(await getAuthorBySlug(fx.t.db, "no-such-author")).toBeNull();
    await deleteAuthor(fx.t.db, ada.id);
  });

  it("ties an author to one account at most, and only to an existing one", async () => {
    await fx.t.db.insert(user).values({ id: "account-1", name: "Writer One", email: "one@example.com" });
    const one = await createAuthor(fx.t.db, fx.storage, parse({ name: "Writer One", slug: "writer-one", userId: "account-1" }));
    expect(await getAuthorForUser(fx.t.db, "account-1")).toMatchObject({ id: one.id });
    const taken = await refusal(createAuthor(fx.t.db, fx.storage, parse({ name: "Writer Two", slug: "writer-two", userId: "account-1" })));
    expect(taken).toMatchObject({ message: ACCOUNT_TAKEN, field: "userId", status: 409 });
    const unknown = await refusal(createAuthor(fx.t.db, fx.storage, parse({ name: "Writer Two", slug: "writer-two", userId: "nobody" })));
    expect(unknown).toMatchObject({ message: UNKNOWN_ACCOUNT, field: "userId", status: 400 });
    // Keeping its own account on update is fine.
    await updateAuthor(fx.t.db, fx.storage, one.id, parse({ name: "Writer One", slug: "writer-one", userId: "account-1", roleTitle: "Reporter" }));
    await deleteAuthor(fx.t.db, one.id);
  });

  it("saves an article's authors in order, validates the ids, and lists only public articles on the author page", async () => {
    const a = await createAuthor(fx.t.db, fx.storage, parse({ name: "Byline A", slug: "byline-a" }));
    const b = await createAuthor(fx.t.db, fx.storage, parse({ name: "Byline B", slug: "byline-b" }));
    const saved = await saveArticle(fx, { title: "Two writers", slug: "two-writers", authorIds: `${b.id},${a.id}` });
    expect((await getArticleForEdit(fx.t.db, saved.id))?.authorIds).toEqual([b.id, a.id]);
    expect((await getArticleBySlug(fx.t.db, "two-writers"))?.authors.map((x) => x.name)).toEqual(["Byline B", "Byline A"]);
    // Re-ordered on update.
    await saveArticle(fx, { title: "Two writers", slug: "two-writers", authorIds: `${a.id},${b.id}` }, { id: saved.id });
    expect((await getArticleForEdit(fx.t.db, saved.id))?.authorIds).toEqual([a.id, b.id]);
    // Each revision keeps the authors as saved; the older one restores the older order.
    const revisions = await fx.t.db
      .select({ id: articleRevisions.id, authorIds: articleRevisions.authorIds })
      .from(articleRevisions)
      .where(eq(articleRevisions.articleId, saved.id))
      .orderBy(asc(articleRevisions.createdAt));
    expect(revisions.map((r) => r.authorIds)).toEqual([
      [b.id, a.id],
      [a.id, b.id],
    ]);
    const compared = await compareRevision(fx.t.db, saved.id, revisions[0]!.id, "UTC");
    expect(compared.revision.fields.authorIds).toEqual([b.id, a.id]);
    expect(compared.otherChanges).toContain("Authors");

    const unknown = await submitArticle(fx, { title: "Ghost", slug: "ghost", authorIds: "00000000-0000-4000-8000-000000000000" });
    expect(unknown).toMatchObject({ ok: false, status: 400, failure: { fieldErrors: { authorIds: UNKNOWN_AUTHOR } } });
    expect(await submitArticle(fx, { title: "Ghost", slug: "ghost", authorIds: "drop table" })).toMatchObject({ ok: false, status: 400 });
    expect((await fx.t.db.select().from(articles).where(eq(articles.slug, "ghost"))).length).toBe(0);

    const draft = await saveArticle(fx, { title: "A draft", slug: "a-draft", intent: "draft", authorIds: a.id });
    const gone = await saveArticle(fx, { title: "Unpublished", slug: "unpublished", authorIds: a.id });
    await unpublishArticle(fx.t.db, gone.id);
    const page = await listAuthorArticles(fx.t.db, a.id, 1, 24);
    expect(page.total).toBe(1);
    expect(page.articles.map((x) => x.slug)).toEqual(["two-writers"]);
    expect(page.articles[0]!.authors.map((x) => x.slug)).toEqual(["byline-a", "byline-b"]);
    expect(draft.status).toBe("draft");
    expect((await listSitemapAuthors(fx.t.db)).map((x) => x.slug)).toEqual(expect.arrayContaining(["byline-a", "byline-b"]));

    // Deleting B: A stays on the shared article; an article that had only B keeps "Byline B" as its text.
    const onlyB = await saveArticle(fx, { title: "Only B", slug: "only-b", authorIds: b.id });
    await deleteAuthor(fx.t.db, b.id);
    expect((await getArticleForEdit(fx.t.db, saved.id))?.authorIds).toEqual([a.id]);
    const orphan = await getArticleForEdit(fx.t.db, onlyB.id);
    expect(orphan).toMatchObject({ authorIds: [], authorName: "Byline B" });
    expect((await getArticleForEdit(fx.t.db, saved.id))?.authorName).not.toBe("Byline B");
    expect((await refusal(deleteAuthor(fx.t.db, b.id))).code).toBe("not_found");
  });
});

describe("migration 0009", () => {
  it("turns every distinct byline into an author linked to its articles", async () => {
    const serverUrl = inject("postgresUrl");
    const name = `mig_authors_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: Object.assign(new URL(serverUrl), { pathname: "/postgres" }).href });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), "frontpage-migrations-"));
    const pool = new pg.Pool({ connectionString: Object.assign(new URL(serverUrl), { pathname: `/${name}` }).href });
    pool.on("error", () => {});
    try {
      const source = path.resolve(import.meta.dirname, "../../../drizzle");
      await fs.cp(source, folder, { recursive: true });
      const journalPath = path.join(folder, "meta", "_journal.json");
      const journal = JSON.parse(await fs.readFile(journalPath, "utf8")) as { entries: { tag: string }[] };
      journal.entries = journal.entries.filter((e) => e.tag < "0009");
      await fs.writeFile(journalPath, JSON.stringify(journal));
      await migrate(drizzle(pool), { migrationsFolder: folder });
      await pool.query(`insert into articles (title, slug, content, author_name) values
        ('One', 'one', 'Body', 'Jane Doe'), ('Two', 'two', 'Body', 'Jane Doe'), ('Three', 'three', 'Body', 'jane doe'),
        ('Four', 'four', 'Body', 'Ünïcode ★'), ('Five', 'five', 'Body', '★★'), ('Six', 'six', 'Body', 'Frontpage Newsroom')`);

      await migrate(drizzle(pool), { migrationsFolder: source });
      const { rows: made } = await pool.query<{ name: string; slug: string }>("select name, slug from authors order by slug");
      expect(made).toEqual([
        { name: "★★", slug: "author" },
        { name: "Frontpage Newsroom", slug: "frontpage-newsroom" },
        { name: "Jane Doe", slug: "jane-doe" },
        { name: "jane doe", slug: "jane-doe-2" },
        { name: "Ünïcode ★", slug: "n-code" },
      ]);
      const { rows: links } = await pool.query<{ slug: string; author: string; position: number }>(
        `select a.slug, au.slug as author, aa.position from article_authors aa
         join articles a on a.id = aa.article_id join authors au on au.id = aa.author_id order by a.slug`,
      );
      expect(links).toEqual([
        { slug: "five", author: "author", position: 0 },
        { slug: "four", author: "n-code", position: 0 },
        { slug: "one", author: "jane-doe", position: 0 },
        { slug: "six", author: "frontpage-newsroom", position: 0 },
        { slug: "three", author: "jane-doe-2", position: 0 },
        { slug: "two", author: "jane-doe", position: 0 },
      ]);
      // Author and byline changes are announced like other content (the page caches clear; bylines
      // name their stories since migration 0016).
      const { rows: triggers } = await pool.query<{ tgname: string }>(
        "select tgname from pg_trigger where tgname like 'authors_notify_%' or tgname like 'article_authors_notify_%' order by tgname",
      );
      expect(triggers.map((t) => t.tgname)).toEqual(["article_authors_notify_delete", "article_authors_notify_insert", "article_authors_notify_update", "authors_notify_change"]);
    } finally {
      await pool.end();
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
      await fs.rm(folder, { recursive: true, force: true });
    }
  });
});

describe("the authors' listing (migration 0021)", () => {
  /** author_listing as it stands, and as the bylines of the published stories say it should. */
  async function listing() {
    const kept = await fx.t.pool.query<{ row: string }>(
      `select author_id || ' ' || article_id || ' ' || published_at as row from author_listing order by 1`,
    );
    const truth = await fx.t.pool.query<{ row: string }>(
      `select aa.author_id || ' ' || a.id || ' ' || a.published_at as row from article_authors aa join articles a on a.id = aa.article_id
       where a.status = 'published' order by 1`,
    );
    return { kept: kept.rows.map((r) => r.row), truth: truth.rows.map((r) => r.row) };
  }
  const inStep = async () => {
    const { kept, truth } = await listing();
    expect(kept).toEqual(truth);
    return kept;
  };

  it("follows publishing, scheduling, bylines and deletions, and the author page reads it", async () => {
    const a = await createAuthor(fx.t.db, fx.storage, parse({ name: "Listing A", slug: "listing-a" }));
    const b = await createAuthor(fx.t.db, fx.storage, parse({ name: "Listing B", slug: "listing-b" }));
    const one = await saveArticle(fx, { title: "Listing one", slug: "listing-one", authorIds: a.id });
    const two = await saveArticle(fx, { title: "Listing two", slug: "listing-two", authorIds: `${a.id},${b.id}` });
    const draft = await saveArticle(fx, { title: "Listing draft", slug: "listing-draft", intent: "draft", authorIds: a.id });
    const rows = await inStep();
    expect(rows.filter((r) => r.startsWith(a.id))).toHaveLength(2);

    // A story scheduled for later is listed, and kept off the page until its time.
    await fx.t.pool.query(`update articles set published_at = now() + interval '1 day' where id = $1`, [one.id]);
    await inStep();
    expect((await listAuthorArticles(fx.t.db, a.id, 1, 24)).articles.map((x) => x.slug)).toEqual(["listing-two"]);
    await fx.t.pool.query(`update articles set published_at = now() - interval '1 hour' where id = $1`, [one.id]);
    await fx.t.pool.query(`update articles set status = 'published', published_at = now() - interval '2 hours' where id = $1`, [draft.id]);
    await inStep();
    expect((await listAuthorArticles(fx.t.db, a.id, 1, 24)).articles.map((x) => x.slug)).toEqual(["listing-two", "listing-one", "listing-draft"]);
    expect((await listAuthorArticles(fx.t.db, a.id, 2, 2)).articles.map((x) => x.slug)).toEqual(["listing-draft"]);

    // Bylines changed, a story unpublished, a story and an author deleted; a view count changes nothing.
    await fx.t.pool.query(`delete from article_authors where article_id = $1 and author_id = $2`, [two.id, a.id]);
    await fx.t.pool.query(`update article_authors set author_id = $1 where article_id = $2`, [b.id, one.id]);
    await inStep();
    await unpublishArticle(fx.t.db, draft.id);
    await fx.t.pool.query(`update articles set views = views + 5 where id = $1`, [two.id]);
    await inStep();
    expect((await listAuthorArticles(fx.t.db, b.id, 1, 24)).articles.map((x) => x.slug)).toEqual(["listing-two", "listing-one"]);
    await fx.t.pool.query(`delete from articles where id = $1`, [two.id]);
    await inStep();
    await deleteAuthor(fx.t.db, b.id);
    expect((await inStep()).some((r) => r.startsWith(b.id))).toBe(false);
    expect((await listAuthorArticles(fx.t.db, a.id, 1, 24)).articles).toEqual([]);
  });
});
