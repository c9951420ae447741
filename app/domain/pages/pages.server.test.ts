import { desc, eq } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { auditEvents, pageRevisions, pages, user } from "~/db/schema";
import type { Actor } from "~/domain/accounts/actor";
import type { StoryDocument } from "~/domain/articles/story-document.schema";
import { refuse } from "~/lib/forms";
import { setUpArticleFixture } from "../../../tests/setup/article-fixture";
import { refusal } from "../../../tests/setup/refusal";
import { PAGE_FIELDS, PAGE_LIVE_STAYS_LIVE, PAGE_SLUG_TAKEN, pageSlugReserved, type PageFieldName } from "./pages.schema";
import {
  comparePageRevision,
  createImportedPage,
  findPublicPage,
  getPageForEdit,
  isReservedSlug,
  listAdminPages,
  listFooterPages,
  listPageRevisions,
  listSitemapPages,
  pagePath,
  savePageFromForm,
  unpublishPage,
} from "./pages.server";

const fx = setUpArticleFixture("pages");

const doc = (...paragraphs: string[]): StoryDocument =>
  ({ type: "doc", content: paragraphs.map((text) => ({ type: "paragraph", content: [{ type: "text", text }] })) }) as StoryDocument;

async function editor(name = "ed"): Promise<Actor> {
  const id = `user-${name}`;
  await fx.t.db.insert(user).values({ id, name, email: `${name}@example.com`, emailVerified: true }).onConflictDoNothing();
  return { id, name, role: "editor" };
}

/** The page form as a browser posts it (the editor's document and its text), read as the routes read it. */
function form(values: Partial<Record<PageFieldName, string>> & { body?: StoryDocument }) {
  const { body = doc("Our standards."), ...rest } = values;
  const fd = new FormData();
  const all = { intent: "draft", title: "Ethics Policy", slug: "ethics", contentDoc: JSON.stringify(body), content: "ignored", showInFooter: "", footerPosition: "", ...rest };
  for (const [k, v] of Object.entries(all)) fd.append(k, v);
  const out = {} as Record<PageFieldName, string>;
  for (const name of PAGE_FIELDS) out[name] = String(fd.get(name) ?? "");
  return out;
}

const save = async (values: Parameters<typeof form>[0], options: { id?: string; actor?: Actor } = {}) =>
  savePageFromForm(fx.t.db, fx.storage, form(values), { actor: options.actor ?? (await editor()), id: options.id });

/** What a route answers for a refused save: status and the refusal's fields. */
async function answer(call: Promise<unknown>) {
  const error = await refusal(call);
  const refused = refuse(error);
  return { status: refused.init?.status, fieldErrors: refused.data.fieldErrors, error: refused.data.error };
}

const countPages = async (slug: string) => (await fx.t.db.select().from(pages).where(eq(pages.slug, slug))).length;

describe("pages at /{slug}", () => {
  it("a slug the site's routes or files use is refused beside the slug field with a 400, and nothing is saved", async () => {
    // metrics, build, public and wp-admin too (issue 39): answered before routing, or kept from pages.
    for (const slug of ["about", "admin", "search", "media", "healthz", "sitemaps", "rss", "metrics", "build", "public", "wp-admin"]) {
      const refused = await answer(save({ title: "Taken", slug }));
      expect(refused.status, slug).toBe(400);
      expect(refused.fieldErrors.slug, slug).toBe(pageSlugReserved(slug));
      expect(await countPages(slug)).toBe(0);
    }
  });

  it("a slug another page has is refused beside the slug field", async () => {
    await save({ title: "Masthead", slug: "masthead" });
    const refused = await answer(save({ title: "Another masthead", slug: "masthead" }));
    expect(refused).toMatchObject({ status: 400, fieldErrors: { slug: PAGE_SLUG_TAKEN } });
    expect(await countPages("masthead")).toBe(1);
  });

  it("a draft is not public; publishing puts it at its address, in the footer and in the sitemap; unpublishing takes it off", async () => {
    const saved = await save({ title: "Corrections Policy", slug: "corrections-policy", showInFooter: "on", footerPosition: "2", body: doc("We correct errors.", "Promptly.") });
    expect(saved).toMatchObject({ status: "draft", previousStatus: null });
    expect(await findPublicPage(fx.t.db, "corrections-policy")).toBeNull();
    expect((await listFooterPages(fx.t.db)).map((p) => p.slug)).not.toContain("corrections-policy");
    expect((await listSitemapPages(fx.t.db)).map((p) => p.slug)).not.toContain("corrections-policy");

    const published = await save({ intent: "publish", title: "Corrections Policy", slug: "corrections-policy", showInFooter: "on", footerPosition: "2", body: doc("We correct errors.", "Promptly.") }, { id: saved.id });
    expect(published).toMatchObject({ status: "published", previousStatus: "draft" });
    const page = await findPublicPage(fx.t.db, "corrections-policy");
    // The plain text is derived on the server from the document, never taken from the browser.
    expect(page).toMatchObject({ title: "Corrections Policy", content: "We correct errors.\n\nPromptly." });
    expect(page!.publishedAt).toBeInstanceOf(Date);
    expect(await listFooterPages(fx.t.db)).toContainEqual({ title: "Corrections Policy", slug: "corrections-policy" });
    expect((await listSitemapPages(fx.t.db)).map((p) => p.slug)).toContain("corrections-policy");
    expect(pagePath("corrections-policy")).toBe("/corrections-policy");

    // A live page is not taken off by Save draft: Unpublish does that.
    expect(await answer(save({ intent: "draft", title: "Corrections Policy", slug: "corrections-policy" }, { id: saved.id }))).toMatchObject({
      status: 409,
      error: PAGE_LIVE_STAYS_LIVE,
    });
    await unpublishPage(fx.t.db, saved.id, await editor());
    expect(await findPublicPage(fx.t.db, "corrections-policy")).toBeNull();
    expect((await listFooterPages(fx.t.db)).map((p) => p.slug)).not.toContain("corrections-policy");
    expect((await refusal(unpublishPage(fx.t.db, saved.id, await editor()))).status).toBe(409);
    const kinds = await fx.t.db.select({ kind: auditEvents.kind }).from(auditEvents).where(eq(auditEvents.objectId, saved.id)).orderBy(desc(auditEvents.id));
    expect(kinds.map((k) => k.kind)).toEqual(["page.unpublish", "page.publish", "page.create"]);
  });

  it("the footer lists published pages by position, then title", async () => {
    await save({ intent: "publish", title: "Zeta", slug: "zeta-page", showInFooter: "on", footerPosition: "1" });
    await save({ intent: "publish", title: "Alpha", slug: "alpha-page", showInFooter: "on", footerPosition: "1" });
    await save({ intent: "publish", title: "First", slug: "first-page", showInFooter: "on", footerPosition: "0" });
    await save({ intent: "publish", title: "Not listed", slug: "not-listed", footerPosition: "0" });
    const slugs = (await listFooterPages(fx.t.db)).map((p) => p.slug);
    expect(slugs.filter((s) => ["zeta-page", "alpha-page", "first-page", "not-listed"].includes(s))).toEqual(["first-page", "alpha-page", "zeta-page"]);
    expect((await answer(save({ title: "Bad position", slug: "bad-position", footerPosition: "-1" }))).fieldErrors.footerPosition).toBeTruthy();
  });

  it("every save is a revision; a chosen one compares with the current page and, saved again, restores it as a new revision", async () => {
    const first = await save({ title: "Masthead v1", slug: "about-us-team", body: doc("Editor: Ann.") });
    await save({ title: "Masthead v2", slug: "about-us-team", body: doc("Editor: Bob.") }, { id: first.id });
    const revisions = await listPageRevisions(fx.t.db, first.id);
    expect(revisions.map((r) => r.title)).toEqual(["Masthead v2", "Masthead v1"]);
    const comparison = await comparePageRevision(fx.t.db, first.id, revisions[1]!.id);
    expect(comparison.revision.fields).toMatchObject({ title: "Masthead v1", slug: "about-us-team", content: "Editor: Ann." });
    expect(comparison.changes.title.changed).toBe(true);
    expect(comparison.changes.body.changed).toBe(true);
    // "Restore this version" fills the form with those fields; the save stores them.
    const fields = comparison.revision.fields;
    await save({ title: fields.title, slug: fields.slug, body: fields.contentDoc as StoryDocument }, { id: first.id });
    expect(await getPageForEdit(fx.t.db, first.id)).toMatchObject({ title: "Masthead v1", content: "Editor: Ann." });
    expect((await listPageRevisions(fx.t.db, first.id)).map((r) => r.title)).toEqual(["Masthead v1", "Masthead v2", "Masthead v1"]);
    expect((await refusal(comparePageRevision(fx.t.db, first.id, "00000000-0000-4000-8000-000000000000"))).status).toBe(404);
  });

  it("an image on the page must be our own media, as in articles", async () => {
    const body = { type: "doc", content: [{ type: "storyImage", attrs: { src: "https://elsewhere.example/x.jpg", alt: "x", caption: "", credit: "" } }, { type: "paragraph", content: [{ type: "text", text: "Hi" }] }] } as StoryDocument;
    const refused = await answer(save({ title: "With image", slug: "with-image", body }));
    expect(refused.status).toBe(400);
    expect(refused.fieldErrors.contentDoc).toBeTruthy();
    expect(await countPages("with-image")).toBe(0);
  });

  it("an author may not write pages (403), whatever the screen shows", async () => {
    const author: Actor = { ...(await editor("writer")), role: "author" };
    expect((await refusal(save({ title: "Mine", slug: "mine" }, { actor: author }))).status).toBe(403);
    expect(await countPages("mine")).toBe(0);
  });

  it("a change to a published page sends a change notice (cached pages and footers are dropped); a draft's save sends none", async () => {
    const listener = new pg.Client({ connectionString: fx.t.url });
    await listener.connect();
    const heard: string[] = [];
    listener.on("notification", (n) => heard.push(n.payload ?? ""));
    await listener.query("listen frontpage_changes");
    try {
      const draft = await save({ title: "Quiet draft", slug: "quiet-draft" });
      await save({ title: "Quiet draft 2", slug: "quiet-draft" }, { id: draft.id });
      await listener.query("select 1");
      expect(heard.filter((p) => p.includes('"pages"'))).toEqual([]);
      await save({ intent: "publish", title: "Loud", slug: "quiet-draft" }, { id: draft.id });
      await listener.query("select 1");
      await new Promise((r) => setTimeout(r, 50));
      expect(heard.filter((p) => p.includes('"pages"')).length).toBeGreaterThan(0);
    } finally {
      await listener.end();
    }
  });
});

describe("the importer's entry (createImportedPage)", () => {
  it("inserts the page and its first revision in the caller's transaction, at a free slug that no route uses", async () => {
    await save({ title: "Ethics", slug: "ethics-imported" });
    const made = await fx.t.db.transaction(async (tx) => [
      await createImportedPage(tx, { title: "Ethics", slug: "ethics-imported", doc: doc("Imported."), status: "published", publishedAt: new Date("2020-01-02T00:00:00Z"), createdAt: new Date("2019-12-31T00:00:00Z") }),
      await createImportedPage(tx, { title: "Ethics again", slug: "ethics-imported", doc: doc("Again."), status: "draft", publishedAt: null, createdAt: null }),
      await createImportedPage(tx, { title: "About", slug: "about", doc: doc("About us."), status: "published", publishedAt: null, createdAt: null }),
      await createImportedPage(tx, { title: "Weird!!", slug: "!!!", doc: doc("Odd."), status: "draft", publishedAt: null, createdAt: null }),
    ]);
    expect(made.map((m) => m.slug)).toEqual(["ethics-imported-2", "ethics-imported-3", "about-2", "weird"]);
    const imported = await findPublicPage(fx.t.db, "ethics-imported-2");
    expect(imported).toMatchObject({ content: "Imported.", publishedAt: new Date("2020-01-02T00:00:00Z") });
    expect(await findPublicPage(fx.t.db, "about-2")).not.toBeNull();
    const [revision] = await fx.t.db.select().from(pageRevisions).where(eq(pageRevisions.pageId, made[0]!.id));
    expect(revision).toMatchObject({ title: "Ethics", savedByName: "Import" });
    expect(isReservedSlug("about")).toBe(true);
    expect(isReservedSlug("about-2")).toBe(false);
  });

  it("a failed import transaction leaves no page behind", async () => {
    await fx.t.db
      .transaction(async (tx) => {
        await createImportedPage(tx, { title: "Rolled back", slug: "rolled-back", doc: doc("x"), status: "draft", publishedAt: null, createdAt: null });
        throw new Error("the rest of the import failed");
      })
      .catch(() => {});
    expect(await countPages("rolled-back")).toBe(0);
    expect((await listAdminPages(fx.t.db)).map((p) => p.slug)).not.toContain("rolled-back");
  });

  it("a document the editor's schema refuses is refused by name", async () => {
    const bad = { type: "doc", content: [{ type: "script", content: [] }] } as unknown as StoryDocument;
    const error = await refusal(fx.t.db.transaction((tx) => createImportedPage(tx, { title: "Bad", slug: "bad", doc: bad, status: "draft", publishedAt: null, createdAt: null })));
    expect(error.message).toContain("“Bad”");
  });
});
