import pg from "pg";
import pino from "pino";
import { beforeAll, describe, expect, it } from "vitest";
import { and, asc, eq } from "drizzle-orm";
import { articlePendingVersions, articleRevisions, articles, auditEvents, categories, user } from "~/db/schema";
import { moveArticleToCategory } from "~/domain/articles/article-bulk.server";
import { createPreviewLinks, previewKeyOf } from "~/domain/articles/preview-links.server";
import { loader as sharedPreviewLoader } from "~/routes/preview/shared-preview";
import { actorOf, type Actor } from "~/domain/accounts/actor";
import { testCommentSpam } from "~/domain/comments/test-comment-spam.server";
import { CHANGE_CHANNEL } from "~/lib/change-feed.server";
import { loader as articlePageLoader } from "~/routes/site/article";
import { articleForm, fixtureCategoryId, saveArticle, setUpArticleFixture, submitArticle, TEST_TIME_ZONE } from "../../tests/setup/article-fixture";
import { refusal } from "../../tests/setup/refusal";
import { autosaveArticleFromForm, getArticleForEdit, unpublishArticle } from "~/domain/articles/article-admin.server";
import { listRevisions } from "~/domain/articles/article-revisions.server";
import { getArticleBySlug, getArticleForPreview } from "~/domain/articles/articles.server";
import { LIVE_STAYS_LIVE, PUBLISH_BLOCKERS, SAVE_FOR_LATER_PUBLISHED_ONLY, SCHEDULE_NEEDS_FUTURE, STAYS_PUBLIC } from "~/domain/articles/articles.schema";
import { listFeedItems } from "~/domain/articles/feeds.server";
import { getPendingVersion, withPendingVersion } from "~/domain/articles/pending-versions.server";

const log = pino({ level: process.env.TEST_LOG ?? "silent" });
const fx = setUpArticleFixture("pending");
let editor: Actor;

beforeAll(async () => {
  await fx.t.db.insert(user).values({ id: "editor-1", name: "Ed Itor", email: "editor@example.com" });
  editor = actorOf({ id: "editor-1", name: "Ed Itor", email: "editor@example.com" });
});

const save = (values: Record<string, string>, id?: string) => saveArticle(fx, values, { id, actor: editor });
const submit = (values: Record<string, string>, id?: string) => submitArticle(fx, values, { id, actor: editor });
const autosave = (values: Record<string, string>, id: string) =>
  autosaveArticleFromForm(fx.t.db, fx.storage, articleForm({ categoryId: "", authorName: "Desk Writer", ...values }), {
    id,
    timeZone: TEST_TIME_ZONE,
    actor: editor,
  });

/** The stored row of the story (what readers' queries read). */
const storedRow = async (id: string) => (await fx.t.db.select().from(articles).where(eq(articles.id, id)))[0]!;
const pageTitle = async (slug: string) => {
  const args = { params: { slug }, request: new Request(`http://localhost/article/${slug}`), context: { db: fx.t.db, log, commentSpam: testCommentSpam } };
  const { data } = await articlePageLoader(args as unknown as Parameters<typeof articlePageLoader>[0]);
  return data.article.title;
};
const feedTitles = async () => (await listFeedItems(fx.t.db, { kind: "site" })).map((item) => item.title);
const revisionsOf = (id: string) => fx.t.db.select().from(articleRevisions).where(eq(articleRevisions.articleId, id)).orderBy(asc(articleRevisions.createdAt));

describe("Save for later (a published story's pending version)", () => {
  it("keeps the changes apart: the live story, its page, the feed and the caches are untouched; Preview shows them", async () => {
    const live = await save({ title: "Old headline", slug: "pending-live" });
    const before = await storedRow(live.id);
    const client = new pg.Client({ connectionString: fx.t.url });
    await client.connect();
    const heard: string[] = [];
    try {
      client.on("notification", (m) => heard.push(m.payload ?? ""));
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
      const saved = await save({ title: "New headline", slug: "pending-live", content: "New body", intent: "save-for-later" }, live.id);
      expect(saved).toMatchObject({ id: live.id, status: "published" });
      // No write to the story's row: nothing announced, so no page cache is cleared.
      await fx.t.db.execute(`select pg_notify('${CHANGE_CHANNEL}', 'marker')`);
      await expect.poll(() => heard, { timeout: 5000 }).toContain("marker");
      expect(heard.filter((p) => p.includes('"articles"'))).toEqual([]);
    } finally {
      await client.end();
    }
    expect(await storedRow(live.id)).toEqual(before);
    expect(await pageTitle("pending-live")).toBe("Old headline");
    expect((await getArticleBySlug(fx.t.db, "pending-live"))!.content).toBe("Body text");
    expect(await feedTitles()).toContain("Old headline");
    expect(await feedTitles()).not.toContain("New headline");

    const pending = await getPendingVersion(fx.t.db, live.id);
    expect(pending).toMatchObject({ savedByName: "Ed Itor (editor@example.com)", fields: { title: "New headline", content: "New body" } });
    // The back office's preview (and the shared link's) shows the pending version.
    const preview = await withPendingVersion(fx.t.db, (await getArticleForPreview(fx.t.db, live.id))!);
    expect(preview.article).toMatchObject({ title: "New headline", content: "New body", category: { name: "Desk" } });
    expect(preview.pending).not.toBeNull();
    // History records it as a pending revision.
    expect((await listRevisions(fx.t.db, live.id))[0]).toMatchObject({ title: "New headline", pending: true, status: "published" });
  });

  it("Update Article publishes the form (the pending version) and drops the pending row in the same save", async () => {
    const live = await save({ title: "Before update", slug: "pending-update" });
    await save({ title: "After update", slug: "pending-update", intent: "save-for-later" }, live.id);
    const updated = await save({ title: "After update", slug: "pending-update", intent: "publish" }, live.id);
    expect(updated.status).toBe("published");
    expect(await pageTitle("pending-update")).toBe("After update");
    expect(await getPendingVersion(fx.t.db, live.id)).toBeNull();
  });

  it("Discard changes drops it and leaves the story as readers see it; with none, it is refused", async () => {
    const live = await save({ title: "Kept headline", slug: "pending-discard" });
    await save({ title: "Dropped headline", slug: "pending-discard", intent: "save-for-later" }, live.id);
    await save({ title: "", slug: "", content: "", intent: "discard-pending" }, live.id);
    expect(await getPendingVersion(fx.t.db, live.id)).toBeNull();
    expect((await getArticleForEdit(fx.t.db, live.id))!.title).toBe("Kept headline");
    expect((await refusal(save({ intent: "discard-pending" }, live.id))).code).toBe("not_found");
    // The audit trail says who threw away whose changes (once: the refused second try records nothing).
    const trail = await fx.t.db.select().from(auditEvents).where(and(eq(auditEvents.objectId, live.id), eq(auditEvents.kind, "article.discard_changes")));
    expect(trail).toHaveLength(1);
    expect(trail[0]).toMatchObject({ actorId: "editor-1", objectLabel: "Kept headline", details: { savedBy: "Ed Itor (editor@example.com)" } });
  });

  it("a bulk move to another category moves the changes saved for later too, so Update Article does not move it back", async () => {
    const live = await save({ title: "Moved story", slug: "pending-moved" });
    await save({ title: "Moved story, revised", slug: "pending-moved", intent: "save-for-later" }, live.id);
    const [elsewhere] = await fx.t.db.insert(categories).values({ name: "Elsewhere", slug: "pending-elsewhere" }).returning({ id: categories.id });
    await moveArticleToCategory(fx.t.db, live.id, elsewhere!.id, editor);
    expect((await getPendingVersion(fx.t.db, live.id))!.fields).toMatchObject({ title: "Moved story, revised", categoryId: elsewhere!.id });
    // The form reopens with the pending fields; Update Article posts them.
    const reopened = (await getPendingVersion(fx.t.db, live.id))!.fields;
    await save({ title: reopened.title, slug: "pending-moved", categoryId: reopened.categoryId!, intent: "publish" }, live.id);
    expect((await storedRow(live.id)).categoryId).toBe(elsewhere!.id);
  });

  it("a preview link made for a draft never shows what is saved for later after publication; one made for the changes does", async () => {
    const previewLinks = createPreviewLinks("a-session-secret-of-at-least-thirty-two-characters", (id) => previewKeyOf(fx.t.db, id));
    const open = async (path: string) => {
      const token = path.replace("/preview/", "");
      const args = { params: { token }, context: { db: fx.t.db, previewLinks }, request: new Request(`http://localhost${path}`) };
      try {
        const { data } = (await sharedPreviewLoader(args as unknown as Parameters<typeof sharedPreviewLoader>[0])) as unknown as { data: { article: { title: string } } };
        return data.article.title;
      } catch (thrown) {
        if (thrown instanceof Response) return `${thrown.status} ${thrown.headers.get("Location")}`;
        throw thrown;
      }
    };
    const draft = await save({ title: "Draft first", slug: "pending-shared", intent: "draft" });
    const draftLink = await previewLinks.create(draft.id, new Date(), "draft");
    expect(await open(draftLink.path)).toBe("Draft first");
    await save({ title: "Draft first", slug: "pending-shared", intent: "publish" }, draft.id);
    await save({ title: "An unchecked correction", slug: "pending-shared", intent: "save-for-later" }, draft.id);
    expect(await open(draftLink.path)).toBe("302 /article/pending-shared");
    expect(await open((await previewLinks.create(draft.id, new Date(), "changes")).path)).toBe("An unchecked correction");
  });

  it("Unpublish drops it too: the draft is edited as itself, not as changes meant for the live story", async () => {
    const live = await save({ title: "Taken down", slug: "pending-unpublished" });
    await save({ title: "Never shown", slug: "pending-unpublished", intent: "save-for-later" }, live.id);
    await unpublishArticle(fx.t.db, live.id, editor);
    expect(await getPendingVersion(fx.t.db, live.id)).toBeNull();
    expect((await getArticleForEdit(fx.t.db, live.id))!.title).toBe("Taken down");
  });

  it("is refused for a draft (409) and runs the save's checks (a taken slug saves nothing)", async () => {
    const draft = await save({ title: "A draft", slug: "pending-draft", intent: "draft" });
    expect(await refusal(save({ title: "Later", slug: "pending-draft", intent: "save-for-later" }, draft.id))).toMatchObject({
      status: 409,
      message: SAVE_FOR_LATER_PUBLISHED_ONLY,
    });
    const live = await save({ title: "Live one", slug: "pending-checked" });
    expect((await refusal(save({ title: "Taken", slug: "pending-draft", intent: "save-for-later" }, live.id))).code).toBe("slug_taken");
    expect(await getPendingVersion(fx.t.db, live.id)).toBeNull();
    expect(await getPendingVersion(fx.t.db, draft.id)).toBeNull();
  });

  it("an autosave of a published story writes its pending version, coalesced into one revision, never the live story", async () => {
    const categoryId = await fixtureCategoryId(fx);
    const live = await save({ title: "Autosaved live", slug: "pending-autosave" });
    const before = await storedRow(live.id);
    await autosave({ title: "Typing one", slug: "pending-autosave", categoryId }, live.id);
    await autosave({ title: "Typing two", slug: "pending-autosave", categoryId }, live.id);
    expect(await storedRow(live.id)).toEqual(before);
    expect((await getPendingVersion(fx.t.db, live.id))!.fields.title).toBe("Typing two");
    const rows = await revisionsOf(live.id);
    expect(rows.map((r) => [r.title, r.pending, r.autosave])).toEqual([
      ["Autosaved live", false, false],
      ["Typing two", true, true],
    ]);
    // An explicit Save for later soon after joins the same revision, no longer marked as an autosave.
    await save({ title: "Typing three", slug: "pending-autosave", intent: "save-for-later" }, live.id);
    expect((await revisionsOf(live.id)).map((r) => [r.title, r.pending, r.autosave])).toEqual([
      ["Autosaved live", false, false],
      ["Typing three", true, false],
    ]);
    expect(await pageTitle("pending-autosave")).toBe("Autosaved live");
  });
});

describe("only Unpublish takes a story off the site", () => {
  it("a crafted Save Draft (or Submit) of a published or scheduled story is refused with 409 and changes nothing", async () => {
    const live = await save({ title: "Stays live", slug: "crafted-live" });
    const scheduled = await save({ title: "Stays scheduled", slug: "crafted-later", publishAt: "2099-01-01T08:00" });
    for (const story of [live, scheduled]) {
      const before = await storedRow(story.id);
      for (const intent of ["draft", "submit"]) {
        const answer = await submit({ title: "Sneaky", slug: story.slug, intent }, story.id);
        expect(answer).toMatchObject({ ok: false, status: 409, failure: { error: STAYS_PUBLIC } });
      }
      expect(await storedRow(story.id)).toEqual(before);
    }
    expect(await pageTitle("crafted-live")).toBe("Stays live");
  });

  it("a live story cannot be scheduled for later (a crafted Schedule, or a stale tab's future Publish at): 409, unchanged", async () => {
    const live = await save({ title: "Live now", slug: "crafted-reschedule" });
    const before = await storedRow(live.id);
    for (const intent of ["schedule", "publish"]) {
      const answer = await submit({ title: "Gone till 2099", slug: live.slug, intent, publishAt: "2099-01-01T08:00" }, live.id);
      expect(answer).toMatchObject({ ok: false, status: 409, failure: { error: LIVE_STAYS_LIVE, fieldErrors: { publishAt: LIVE_STAYS_LIVE } } });
    }
    expect(await storedRow(live.id)).toEqual(before);
    expect(await pageTitle("crafted-reschedule")).toBe("Live now");
  });
});

describe("what blocks publishing (the publish panel's list, enforced on the server)", () => {
  it("no category, no byline or a past Schedule time is refused beside its field and saves nothing", async () => {
    expect(await submit({ title: "No section", slug: "block-category", categoryId: "" })).toMatchObject({
      ok: false,
      status: 400,
      failure: { fieldErrors: { categoryId: PUBLISH_BLOCKERS.categoryId } },
    });
    expect(await submit({ title: "No byline", slug: "block-byline", authorName: "", authorIds: "" })).toMatchObject({
      ok: false,
      status: 400,
      failure: { fieldErrors: { authorIds: PUBLISH_BLOCKERS.byline } },
    });
    expect(await submit({ title: "Past", slug: "block-past", intent: "schedule", publishAt: "2020-01-01T08:00" })).toMatchObject({
      ok: false,
      status: 400,
      failure: { fieldErrors: { publishAt: SCHEDULE_NEEDS_FUTURE } },
    });
    expect(await submit({ title: "No time", slug: "block-no-time", intent: "schedule", publishAt: "" })).toMatchObject({ ok: false, status: 400 });
    const stored = await fx.t.db.select({ slug: articles.slug }).from(articles);
    expect(stored.map((r) => r.slug)).not.toEqual(expect.arrayContaining(["block-category"]));
    expect(stored.some((r) => r.slug.startsWith("block-"))).toBe(false);
    // A draft may lack them: it is not public.
    expect(await submit({ title: "Draft ok", slug: "block-draft", categoryId: "", authorName: "", intent: "draft" })).toMatchObject({ ok: true });
  });

  it("Schedule with a future time schedules; Publish now publishes at once", async () => {
    const scheduled = await save({ title: "Scheduled", slug: "panel-schedule", intent: "schedule", publishAt: "2099-03-01T09:00" });
    expect(scheduled.status).toBe("scheduled");
    const draft = await save({ title: "Now", slug: "panel-now", intent: "draft" });
    const now = await save({ title: "Now", slug: "panel-now", intent: "publish", publishAt: "" }, draft.id);
    expect(now.status).toBe("published");
    expect(await pageTitle("panel-now")).toBe("Now");
  });

  it("a pending row goes with its story", async () => {
    const live = await save({ title: "Deleted later", slug: "pending-cascade" });
    await save({ title: "Pending", slug: "pending-cascade", intent: "save-for-later" }, live.id);
    await fx.t.db.delete(articles).where(eq(articles.id, live.id));
    expect(await fx.t.db.select().from(articlePendingVersions).where(eq(articlePendingVersions.articleId, live.id))).toEqual([]);
  });
});
