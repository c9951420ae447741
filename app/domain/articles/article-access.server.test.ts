import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { articleAuthors, articles, authors, user } from "~/db/schema";
import type { Actor } from "~/domain/accounts/actor";
import type { Role } from "~/domain/accounts/roles";
import { articleForm, saveArticle, setUpArticleFixture, TEST_TIME_ZONE } from "../../../tests/setup/article-fixture";
import { refusal } from "../../../tests/setup/refusal";
import { MAY_NOT_PUBLISH, NOT_YOURS } from "./article-access.server";
import { autosaveArticleFromForm, deleteArticle, unpublishArticle } from "./article-admin.server";

// The object-level rules of decision 0017, at the services: an author writes and keeps their own
// drafts and nothing else; every refusal is 403 and leaves the article exactly as it was.

const fx = setUpArticleFixture("article-access");

async function account(name: string, role: Role): Promise<Actor> {
  const id = `user-${name}`;
  await fx.t.db.insert(user).values({ id, name, email: `${name}@example.com`, emailVerified: true }).onConflictDoNothing();
  return { id, name, role };
}

const stored = async (id: string) => (await fx.t.db.select().from(articles).where(eq(articles.id, id)))[0]!;

describe("an author", () => {
  it("saves and autosaves their own drafts, and is refused publishing, scheduling and unpublishing (403, nothing changes)", async () => {
    const ann = await account("ann", "author");
    const draft = await saveArticle(fx, { title: "Ann's draft", slug: "ann-draft", intent: "draft" }, { actor: ann });
    expect(draft.status).toBe("draft");
    expect((await stored(draft.id)).createdById).toBe(ann.id);
    await saveArticle(fx, { title: "Ann's draft, edited", slug: "ann-draft", intent: "draft" }, { id: draft.id, actor: ann });
    await autosaveArticleFromForm(fx.t.db, fx.storage, articleForm({ title: "Ann's draft, typed", slug: "ann-draft" }), {
      id: draft.id,
      timeZone: TEST_TIME_ZONE,
      actor: ann,
    });
    const before = await stored(draft.id);
    expect(before.title).toBe("Ann's draft, typed");

    const attempts: Record<string, string>[] = [
      { title: "Published by Ann", slug: "ann-draft", intent: "publish" },
      { title: "Scheduled by Ann", slug: "ann-draft", intent: "publish", publishAt: "2031-01-01T09:00" },
    ];
    for (const values of attempts) {
      const error = await refusal(saveArticle(fx, values, { id: draft.id, actor: ann }));
      expect([error.code, error.status, error.message]).toEqual(["forbidden", 403, MAY_NOT_PUBLISH]);
    }
    const created = await refusal(saveArticle(fx, { title: "New and public", slug: "ann-public", intent: "publish" }, { actor: ann }));
    expect(created.status).toBe(403);
    expect(await fx.t.db.select().from(articles).where(eq(articles.slug, "ann-public"))).toEqual([]);
    expect(await stored(draft.id)).toEqual(before);
  });

  it("cannot open, save, autosave, unpublish or delete another writer's article, nor their own once it is published", async () => {
    const ann = await account("ann", "author");
    const bob = await account("bob", "author");
    const editor = await account("eddie", "editor");
    const bobs = await saveArticle(fx, { title: "Bob's draft", slug: "bob-draft", intent: "draft" }, { actor: bob });
    const annsPublished = await saveArticle(fx, { title: "Ann's story", slug: "ann-story", intent: "draft" }, { actor: ann });
    await saveArticle(fx, { title: "Ann's story", slug: "ann-story", intent: "publish" }, { id: annsPublished.id, actor: editor });
    const bobBefore = await stored(bobs.id);
    const annBefore = await stored(annsPublished.id);

    for (const id of [bobs.id, annsPublished.id]) {
      const attempts = [
        () => saveArticle(fx, { title: "Taken over", slug: "taken-over", intent: "draft" }, { id, actor: ann }),
        () => autosaveArticleFromForm(fx.t.db, fx.storage, articleForm({ title: "Taken over", slug: "taken-over" }), { id, timeZone: TEST_TIME_ZONE, actor: ann }),
        () => unpublishArticle(fx.t.db, id, ann),
        () => deleteArticle(fx.t.db, id, ann),
      ];
      for (const attempt of attempts) expect((await refusal(attempt)).status).toBe(403);
    }
    expect((await refusal(saveArticle(fx, { title: "x", slug: "bob-draft", intent: "draft" }, { id: bobs.id, actor: ann }))).message).toBe(NOT_YOURS);
    expect(await stored(bobs.id)).toEqual(bobBefore);
    expect(await stored(annsPublished.id)).toEqual(annBefore);
  });

  it("may work on a draft whose byline names them (an editor started it for them), and delete their own draft", async () => {
    const cat = await account("cat", "author");
    const editor = await account("eddie", "editor");
    const [catAuthor] = await fx.t.db.insert(authors).values({ name: "Cat", slug: "cat", userId: cat.id }).returning();
    const draft = await saveArticle(fx, { title: "For Cat", slug: "for-cat", intent: "draft", authorIds: catAuthor!.id }, { actor: editor });
    expect(await fx.t.db.select().from(articleAuthors).where(eq(articleAuthors.articleId, draft.id))).toHaveLength(1);
    await saveArticle(fx, { title: "For Cat, by Cat", slug: "for-cat", intent: "draft", authorIds: catAuthor!.id }, { id: draft.id, actor: cat });
    expect((await stored(draft.id)).title).toBe("For Cat, by Cat");
    await deleteArticle(fx.t.db, draft.id, cat);
    expect(await fx.t.db.select().from(articles).where(eq(articles.id, draft.id))).toEqual([]);
  });
});

describe("an editor", () => {
  it("edits, publishes, unpublishes and deletes anyone's article", async () => {
    const dan = await account("dan", "author");
    const editor = await account("eddie", "editor");
    const draft = await saveArticle(fx, { title: "Dan's draft", slug: "dan-draft", intent: "draft" }, { actor: dan });
    const published = await saveArticle(fx, { title: "Dan's story", slug: "dan-draft", intent: "publish" }, { id: draft.id, actor: editor });
    expect(published.status).toBe("published");
    expect((await unpublishArticle(fx.t.db, draft.id, editor)).status).toBe("draft");
    await deleteArticle(fx.t.db, draft.id, editor);
    expect(await fx.t.db.select().from(articles).where(eq(articles.id, draft.id))).toEqual([]);
  });
});
