import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { articles, auditEvents, user } from "~/db/schema";
import type { Actor } from "~/domain/accounts/actor";
import type { Role } from "~/domain/accounts/roles";
import { articleForm, saveArticle, setUpArticleFixture, TEST_TIME_ZONE } from "../../../tests/setup/article-fixture";
import { autosaveArticleFromForm } from "./article-admin.server";
import { refusal } from "../../../tests/setup/refusal";
import { listReviewQueue, NOT_A_DRAFT, NOT_QUEUED, NOTE_REQUIRED, sendBack, submitForReview } from "./review.server";

const fx = setUpArticleFixture("review");

async function account(name: string, role: Role): Promise<Actor> {
  const id = `user-${name}`;
  await fx.t.db.insert(user).values({ id, name, email: `${name}@example.com`, emailVerified: true }).onConflictDoNothing();
  return { id, name: `${name} (${name}@example.com)`, role };
}
const stored = async (id: string) => (await fx.t.db.select().from(articles).where(eq(articles.id, id)))[0]!;
const kindsFor = async (id: string) => (await fx.t.db.select({ kind: auditEvents.kind }).from(auditEvents).where(eq(auditEvents.objectId, id))).map((r) => r.kind);

describe("the review queue", () => {
  it("an author submits their draft (intent submit), an editor sends it back with a note, the author resubmits, the editor publishes and the queue empties", async () => {
    const ann = await account("ann", "author");
    const ed = await account("ed", "editor");
    const draft = await saveArticle(fx, { title: "Ann's scoop", slug: "ann-scoop", intent: "submit" }, { actor: ann });
    expect(draft.status).toBe("draft");
    expect((await stored(draft.id)).reviewRequestedById).toBe(ann.id);
    expect((await listReviewQueue(fx.t.db)).map((q) => [q.title, q.submittedBy])).toEqual([["Ann's scoop", "ann (ann@example.com)"]]);

    // A note is required; an author cannot decide the queue.
    expect((await refusal(sendBack(fx.t.db, draft.id, ed, "  "))).message).toBe(NOTE_REQUIRED);
    expect((await refusal(sendBack(fx.t.db, draft.id, ann, "Looks good to me"))).status).toBe(403);

    await sendBack(fx.t.db, draft.id, ed, "Add a second source, please.");
    const sentBack = await stored(draft.id);
    expect([sentBack.reviewRequestedAt, sentBack.reviewNote, sentBack.reviewNoteByName]).toEqual([null, "Add a second source, please.", ed.name]);
    expect(await listReviewQueue(fx.t.db)).toEqual([]);
    expect((await refusal(sendBack(fx.t.db, draft.id, ed, "Again"))).message).toBe(NOT_QUEUED);

    await submitForReview(fx.t.db, draft.id, ann);
    expect((await stored(draft.id)).reviewNote).toBeNull();
    const published = await saveArticle(fx, { title: "Ann's scoop", slug: "ann-scoop", intent: "publish" }, { id: draft.id, actor: ed });
    expect(published.status).toBe("published");
    expect((await stored(draft.id)).reviewRequestedAt).toBeNull();
    expect(await listReviewQueue(fx.t.db)).toEqual([]);
    expect(await kindsFor(draft.id)).toEqual(expect.arrayContaining(["article.submit", "article.send_back"]));
    // Published: no longer a draft to submit.
    expect((await refusal(submitForReview(fx.t.db, draft.id, ed))).message).toBe(NOT_A_DRAFT);
  });

  it("an author cannot submit another writer's draft (403, nothing changes)", async () => {
    const ann = await account("ann", "author");
    const bob = await account("bob", "author");
    const bobs = await saveArticle(fx, { title: "Bob's piece", slug: "bob-piece", intent: "draft" }, { actor: bob });
    const before = await stored(bobs.id);
    expect((await refusal(submitForReview(fx.t.db, bobs.id, ann))).status).toBe(403);
    expect(await stored(bobs.id)).toEqual(before);
  });
});

describe("what an author may not set (issue 28, item 8)", () => {
  it("an author cannot back-date a draft: a crafted Publish at is ignored on save, on submit and by the autosave; an editor's planned time stays", async () => {
    const ann = await account("ann", "author");
    const ed = await account("ed", "editor");
    const draft = await saveArticle(fx, { title: "Back-dated", slug: "back-dated", intent: "draft", publishAt: "2020-01-01T09:00" }, { actor: ann });
    expect((await stored(draft.id)).publishedAt).toBeNull();
    await saveArticle(fx, { title: "Back-dated", slug: "back-dated", intent: "submit", publishAt: "2020-01-01T09:00" }, { id: draft.id, actor: ann });
    expect((await stored(draft.id)).publishedAt).toBeNull();
    await autosaveArticleFromForm(fx.t.db, fx.storage, articleForm({ title: "Back-dated", slug: "back-dated", categoryId: "", authorName: "Ann", publishAt: "2020-01-01T09:00" }), {
      id: draft.id,
      timeZone: TEST_TIME_ZONE,
      actor: ann,
    });
    expect((await stored(draft.id)).publishedAt).toBeNull();
    // An editor plans a time on the draft; the author's next save keeps it, and cannot move it.
    await saveArticle(fx, { title: "Back-dated", slug: "back-dated", intent: "draft", publishAt: "2099-05-01T09:00" }, { id: draft.id, actor: ed });
    const planned = (await stored(draft.id)).publishedAt;
    expect(planned).not.toBeNull();
    await saveArticle(fx, { title: "Back-dated, again", slug: "back-dated", intent: "draft", publishAt: "2020-01-01T09:00" }, { id: draft.id, actor: ann });
    expect(await stored(draft.id)).toMatchObject({ title: "Back-dated, again", publishedAt: planned });
  });

  it("an author cannot take over another story's old address (that story's link would break); an editor can", async () => {
    const ann = await account("ann", "author");
    const ed = await account("ed", "editor");
    const live = await saveArticle(fx, { title: "Harbour", slug: "harbour", intent: "publish" }, { actor: ed });
    await saveArticle(fx, { title: "Harbour", slug: "harbour-renamed", intent: "publish" }, { id: live.id, actor: ed });
    const attempt = await refusal(saveArticle(fx, { title: "Mine", slug: "harbour", intent: "draft", takeOverSlug: "on" }, { actor: ann }));
    expect(attempt.code).toBe("slug_redirects");
    const taken = await saveArticle(fx, { title: "Ed's", slug: "harbour", intent: "draft", takeOverSlug: "on" }, { actor: ed });
    expect((await stored(taken.id)).slug).toBe("harbour");
  });
});
