import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { articles, auditEvents, user } from "~/db/schema";
import type { Actor } from "~/domain/accounts/actor";
import type { Role } from "~/domain/accounts/roles";
import { saveArticle, setUpArticleFixture } from "../../../tests/setup/article-fixture";
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
