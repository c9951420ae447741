import { asc, desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { articleRevisions, articles, articleTags, auditEvents, tags, user } from "~/db/schema";
import type { Actor } from "~/domain/accounts/actor";
import type { Role } from "~/domain/accounts/roles";
import { getArticleForEdit } from "~/domain/articles/article-admin.server";
import { listTagArticles } from "~/domain/articles/articles.server";
import { listFeedItems } from "~/domain/articles/feeds.server";
import { searchArticles } from "~/domain/articles/search.server";
import { saveArticle, setUpArticleFixture, submitArticle } from "../../../tests/setup/article-fixture";
import { refusal } from "../../../tests/setup/refusal";
import {
  createTag,
  deleteTag,
  findPublicTag,
  getArticleTagNames,
  listAdminTags,
  listPublicTagsForSitemap,
  mergeTags,
  MERGE_INTO_ITSELF,
  renameTag,
} from "./tags.server";
import { TAG_NAME_NO_COMMA, TOO_MANY_TAGS } from "./tags.schema";

const fx = setUpArticleFixture("tags");

async function account(name: string, role: Role): Promise<Actor> {
  const id = `user-${name}`;
  await fx.t.db.insert(user).values({ id, name, email: `${name}@example.com`, emailVerified: true }).onConflictDoNothing();
  return { id, name, role };
}

const tagOf = async (slug: string) => (await fx.t.db.select().from(tags).where(eq(tags.slug, slug)))[0];
const countOf = (rows: { slug: string; articleCount: number }[], slug: string) => rows.find((r) => r.slug === slug)?.articleCount;

describe("tags on a story", () => {
  it("are created by name on save, in order, reusing a tag whose address exists", async () => {
    await createTag(fx.t.db, "Climate Change");
    const saved = await saveArticle(fx, { title: "Floods", slug: "floods", intent: "publish", tags: "climate-change, Weather ,  Local   News" });
    expect(await getArticleTagNames(fx.t.db, saved.id)).toEqual(["Climate Change", "Weather", "Local News"]);
    expect((await fx.t.db.select().from(tags).where(eq(tags.slug, "climate-change"))).length).toBe(1);
    expect(await tagOf("local-news")).toMatchObject({ name: "Local News" });
    // The edit form reads them back.
    expect((await getArticleForEdit(fx.t.db, saved.id))!.tags).toEqual(["Climate Change", "Weather", "Local News"]);
  });

  it("are replaced by a later save, kept by a caller that names none, and recorded in History and the audit trail", async () => {
    const saved = await saveArticle(fx, { title: "Storms", slug: "storms", intent: "publish", tags: "Weather" });
    await saveArticle(fx, { title: "Storms", slug: "storms", intent: "publish", tags: "Storm Season, Weather" }, { id: saved.id });
    expect(await getArticleTagNames(fx.t.db, saved.id)).toEqual(["Storm Season", "Weather"]);
    const [revision] = await fx.t.db
      .select({ tagNames: articleRevisions.tagNames })
      .from(articleRevisions)
      .where(eq(articleRevisions.articleId, saved.id))
      .orderBy(desc(articleRevisions.createdAt), desc(articleRevisions.id))
      .limit(1);
    expect(revision!.tagNames).toEqual(["Storm Season", "Weather"]);
    const [audit] = await fx.t.db
      .select({ details: auditEvents.details })
      .from(auditEvents)
      .where(eq(auditEvents.objectId, saved.id))
      .orderBy(desc(auditEvents.id))
      .limit(1);
    expect(audit!.details).toMatchObject({ tags: ["Storm Season", "Weather"], tagsBefore: ["Weather"] });
    // A save that clears the field clears the tags.
    await saveArticle(fx, { title: "Storms", slug: "storms", intent: "publish", tags: "" }, { id: saved.id });
    expect(await getArticleTagNames(fx.t.db, saved.id)).toEqual([]);
  });

  it("bad tag names are refused beside the field with a 400, and nothing is saved", async () => {
    const tooMany = Array.from({ length: 21 }, (_, i) => `t${i}`).join(",");
    const many = await submitArticle(fx, { title: "Many", slug: "many", intent: "draft", tags: tooMany });
    expect(many).toMatchObject({ ok: false, status: 400 });
    expect(JSON.stringify(many)).toContain(TOO_MANY_TAGS);
    const symbols = await submitArticle(fx, { title: "Symbols", slug: "symbols", intent: "draft", tags: "!!!" });
    expect(symbols).toMatchObject({ ok: false, status: 400 });
    expect((await fx.t.db.select().from(articles).where(eq(articles.slug, "symbols"))).length).toBe(0);
    expect((await refusal(createTag(fx.t.db, "a, b"))).message).toBe(TAG_NAME_NO_COMMA);
  });

  it("an author tags their own draft (creating tags), but not someone else's story", async () => {
    const ann = await account("ann", "author");
    const bob = await account("bob", "author");
    const draft = await saveArticle(fx, { title: "Ann's draft", slug: "ann-tagged", intent: "draft", tags: "Ann Topic" }, { actor: ann });
    expect(await getArticleTagNames(fx.t.db, draft.id)).toEqual(["Ann Topic"]);
    const error = await refusal(saveArticle(fx, { title: "Ann's draft", slug: "ann-tagged", intent: "draft", tags: "Bob Topic" }, { id: draft.id, actor: bob }));
    expect(error.status).toBe(403);
    expect(await getArticleTagNames(fx.t.db, draft.id)).toEqual(["Ann Topic"]);
    expect(await tagOf("bob-topic")).toBeUndefined();
  });
});

describe("the tags screen's changes", () => {
  it("lists every tag with its story count", async () => {
    await saveArticle(fx, { title: "Counted one", slug: "counted-one", intent: "publish", tags: "Counted" });
    await saveArticle(fx, { title: "Counted two", slug: "counted-two", intent: "draft", tags: "Counted" });
    await createTag(fx.t.db, "Unused");
    const rows = await listAdminTags(fx.t.db);
    expect(countOf(rows, "counted")).toBe(2);
    expect(countOf(rows, "unused")).toBe(0);
  });

  it("a rename changes the name and address, and the old address redirects", async () => {
    await saveArticle(fx, { title: "Renamed story", slug: "renamed-story", intent: "publish", tags: "Old Name" });
    const tag = (await tagOf("old-name"))!;
    const renamed = await renameTag(fx.t.db, tag.id, "  New   Name ");
    expect(renamed).toMatchObject({ name: "New Name", slug: "new-name" });
    expect(await findPublicTag(fx.t.db, "old-name")).toEqual({ redirect: "new-name" });
    expect(await findPublicTag(fx.t.db, "new-name")).toMatchObject({ tag: { name: "New Name" } });
    // Another tag's address is refused, saying to merge.
    await createTag(fx.t.db, "Taken");
    const taken = await refusal(renameTag(fx.t.db, tag.id, "TAKEN"));
    expect(taken).toMatchObject({ code: "slug_taken", field: "name", status: 400 });
  });

  it("a merge moves the stories (once each), deletes the merged tag and redirects its address", async () => {
    const both = await saveArticle(fx, { title: "Both", slug: "both", intent: "publish", tags: "Elections, Vote 2026" });
    const one = await saveArticle(fx, { title: "One", slug: "one", intent: "publish", tags: "Vote 2026, Politics" });
    const from = (await tagOf("vote-2026"))!;
    const into = (await tagOf("elections"))!;
    await mergeTags(fx.t.db, from.id, into.id);
    expect(await getArticleTagNames(fx.t.db, both.id)).toEqual(["Elections"]);
    expect(await getArticleTagNames(fx.t.db, one.id)).toEqual(["Elections", "Politics"]);
    expect(await tagOf("vote-2026")).toBeUndefined();
    expect(await findPublicTag(fx.t.db, "vote-2026")).toEqual({ redirect: "elections" });
    expect(countOf(await listAdminTags(fx.t.db), "elections")).toBe(2);
    // A later merge of the target takes the older address along (one hop).
    const later = (await createTag(fx.t.db, "Democracy")).id;
    await mergeTags(fx.t.db, into.id, later);
    expect(await findPublicTag(fx.t.db, "vote-2026")).toEqual({ redirect: "democracy" });
    expect((await refusal(mergeTags(fx.t.db, later, later))).message).toBe(MERGE_INTO_ITSELF);
  });

  it("a delete takes the tag off its stories; unknown ids are not found", async () => {
    const story = await saveArticle(fx, { title: "Doomed tag", slug: "doomed-tag", intent: "publish", tags: "Doomed, Kept" });
    await deleteTag(fx.t.db, (await tagOf("doomed"))!.id);
    expect(await getArticleTagNames(fx.t.db, story.id)).toEqual(["Kept"]);
    expect(await findPublicTag(fx.t.db, "doomed")).toBeNull();
    expect((await refusal(deleteTag(fx.t.db, "00000000-0000-4000-8000-000000000000"))).code).toBe("not_found");
    expect((await refusal(renameTag(fx.t.db, "nonsense", "X"))).code).toBe("not_found");
  });
});

describe("readers", () => {
  it("see a tag only while a public story carries it, in the page lookup and in the sitemap", async () => {
    await saveArticle(fx, { title: "Secret plan", slug: "secret-plan", intent: "draft", tags: "Secret Merger" });
    expect(await findPublicTag(fx.t.db, "secret-merger")).toBeNull();
    expect((await listPublicTagsForSitemap(fx.t.db)).some((t) => t.slug === "secret-merger")).toBe(false);
    expect((await listPublicTagsForSitemap(fx.t.db)).some((t) => t.slug === "weather")).toBe(true);
    const rows = await fx.t.db.select().from(articleTags).orderBy(asc(articleTags.position));
    expect(rows.length).toBeGreaterThan(0);
  });

  it("find a tag's public stories on its page and in its feed, and find stories by their tags' names in search", async () => {
    const shown = await saveArticle(fx, { title: "Keepers of the light", slug: "keepers", intent: "publish", tags: "Lighthouses" });
    await saveArticle(fx, { title: "Unfinished", slug: "unfinished-light", intent: "draft", tags: "Lighthouses" });
    const tag = (await tagOf("lighthouses"))!;
    const page = await listTagArticles(fx.t.db, tag.id, { offset: 0, limit: 24 });
    expect(page.total).toBe(1);
    expect(page.articles.map((a) => a.id)).toEqual([shown.id]);
    expect((await listFeedItems(fx.t.db, { kind: "tag", tagId: tag.id })).map((i) => i.slug)).toEqual(["keepers"]);
    // "Lighthouses" is in no word of the story, only in its tag.
    const found = await searchArticles(fx.t.db, "lighthouse", { plan: { common: false, since: null } });
    expect(found.results.map((r) => r.slug)).toEqual(["keepers"]);
    const planned = await searchArticles(fx.t.db, "lighthouse");
    expect(planned.results.map((r) => r.slug)).toEqual(["keepers"]);
  });
});
