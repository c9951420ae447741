import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { articleNewsletters, auditEvents, newsletters, newsletterSends, subscribers, subscriptions, user, websiteSettings } from "~/db/schema";
import type { Actor } from "~/domain/accounts/actor";
import { DEFAULT_SETTINGS } from "~/domain/settings/settings.schema";
import { saveArticle, setUpArticleFixture } from "../../../tests/setup/article-fixture";
import { refusal } from "../../../tests/setup/refusal";
import { storyNewsletterChoices } from "./newsletter-admin.server";
import { NEWSLETTER_NOT_SENDABLE, sendPublishedStory, storyAlreadySent, STORY_NOT_PUBLIC } from "./published-story-send.server";
import { newTokenKey } from "./subscriber-tokens.server";

// Issue 39: a story that is public already is sent by e-mail from its edit page, to a newsletter it has
// not gone to, once (decision 0043's rule), by a role that may publish.

const fx = setUpArticleFixture("published-story-send");
const editor: Actor = { id: "user-editor", name: "Ed Itor", role: "editor" };
const author: Actor = { id: null, name: "Au Thor", role: "author" };

let serial = 0;
async function storiesNewsletter(values: Partial<typeof newsletters.$inferInsert> = {}) {
  const n = ++serial;
  const [row] = await fx.t.db
    .insert(newsletters)
    .values({ name: `Letter ${n}`, slug: `letter-${n}-${Date.now().toString(36)}`, ...values })
    .returning();
  return row!;
}

async function withSubscribers(newsletterId: string, count: number) {
  for (let i = 0; i < count; i++) {
    const [row] = await fx.t.db
      .insert(subscribers)
      .values({ email: `reader-${newsletterId.slice(0, 8)}-${i}@example.org`, status: "active", tokenKey: newTokenKey(), consentSource: "/newsletter", consentAt: new Date() })
      .returning();
    await fx.t.db.insert(subscriptions).values({ subscriberId: row!.id, newsletterId });
  }
}

const sendsOf = (articleId: string, newsletterId: string) =>
  fx.t.db.select().from(newsletterSends).where(and(eq(newsletterSends.articleId, articleId), eq(newsletterSends.newsletterId, newsletterId)));

const jobsOf = async (sendId: string) =>
  (await fx.t.db.execute<{ n: number }>(sql`select count(*)::int as n from graphile_worker.jobs where key = ${`newsletter-send:${sendId}`}`)).rows[0]!.n;

beforeAll(async () => {
  await fx.t.db.insert(user).values({ id: "user-editor", name: "Ed Itor", email: "editor@example.org", emailVerified: true });
});

/** Sending the story to the newsletter again is refused (409, "already sent"), and it still has its one send. */
async function expectRefusedAsSent(articleId: string, letter: { id: string; name: string }) {
  const again = await refusal(sendPublishedStory(fx.t.db, editor, { articleId, newsletterId: letter.id }));
  expect([again.status, again.message]).toEqual([409, storyAlreadySent(letter.name)]);
  expect(await sendsOf(articleId, letter.id)).toHaveLength(1);
}

describe("sending a public story from its edit page", () => {
  it("goes once: the send and its job are made, the choice is kept, and a second attempt is refused with nothing more sent", async () => {
    const letter = await storiesNewsletter();
    await withSubscribers(letter.id, 3);
    const story = await saveArticle(fx, { title: "Already out", slug: "already-out", intent: "publish" });
    expect(await sendsOf(story.id, letter.id)).toHaveLength(0);
    // The edit page's dialog says how many will receive it.
    const offered = (await storyNewsletterChoices(fx.t.db, story.id)).find((n) => n.id === letter.id)!;
    expect(offered).toMatchObject({ send: null, subscribers: 3 });

    const answer = await sendPublishedStory(fx.t.db, editor, { articleId: story.id, newsletterId: letter.id });
    expect(answer).toMatchObject({ newsletterName: letter.name, subscribers: 3 });
    const [send] = await sendsOf(story.id, letter.id);
    expect(send).toMatchObject({ kind: "story", status: "queued", subject: "Already out" });
    expect(await jobsOf(send!.id)).toBe(1);
    const chosen = await fx.t.db.select().from(articleNewsletters).where(eq(articleNewsletters.articleId, story.id));
    expect(chosen.map((c) => c.newsletterId)).toEqual([letter.id]);
    const [logged] = await fx.t.db.select().from(auditEvents).where(and(eq(auditEvents.kind, "newsletter.send"), eq(auditEvents.objectId, send!.id)));
    expect(logged!.actorName).toBe("Ed Itor (editor@example.org)");
    expect((await storyNewsletterChoices(fx.t.db, story.id)).find((n) => n.id === letter.id)!.send).toMatchObject({ status: "queued" });

    await expectRefusedAsSent(story.id, letter);
  });

  it("two editors at once: one send, the other refused", async () => {
    const letter = await storiesNewsletter();
    const story = await saveArticle(fx, { title: "Raced", slug: "raced", intent: "publish" });
    const both = await Promise.allSettled([0, 1].map(() => sendPublishedStory(fx.t.db, editor, { articleId: story.id, newsletterId: letter.id })));
    expect(both.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(await sendsOf(story.id, letter.id)).toHaveLength(1);
  });

  it("a story published with the newsletter chosen was sent then: sending it now is refused", async () => {
    const letter = await storiesNewsletter();
    const draft = await saveArticle(fx, { title: "Sent at publication", slug: "sent-at-publication", intent: "draft" });
    await fx.t.db.insert(articleNewsletters).values({ articleId: draft.id, newsletterId: letter.id });
    await saveArticle(fx, { title: "Sent at publication", slug: "sent-at-publication", intent: "publish" }, { id: draft.id });
    expect(await sendsOf(draft.id, letter.id)).toHaveLength(1);
    await expectRefusedAsSent(draft.id, letter);
  });

  it("is refused for an author (403), for a story not public, and for a digest or an archived newsletter: nothing is sent", async () => {
    const letter = await storiesNewsletter();
    const story = await saveArticle(fx, { title: "Public one", slug: "public-one", intent: "publish" });
    const forbidden = await refusal(sendPublishedStory(fx.t.db, author, { articleId: story.id, newsletterId: letter.id }));
    expect(forbidden.status).toBe(403);

    const draft = await saveArticle(fx, { title: "Still a draft", slug: "still-a-draft", intent: "draft" });
    const notPublic = await refusal(sendPublishedStory(fx.t.db, editor, { articleId: draft.id, newsletterId: letter.id }));
    expect([notPublic.status, notPublic.message]).toEqual([409, STORY_NOT_PUBLIC]);

    const digest = await storiesNewsletter({ kind: "digest", digestFrequency: "daily", digestTime: "07:00" });
    const archived = await storiesNewsletter({ archivedAt: new Date() });
    for (const other of [digest, archived]) {
      const refused = await refusal(sendPublishedStory(fx.t.db, editor, { articleId: story.id, newsletterId: other.id }));
      expect([refused.status, refused.message]).toEqual([409, NEWSLETTER_NOT_SENDABLE]);
    }
    const gone = await refusal(sendPublishedStory(fx.t.db, editor, { articleId: "6f1c8f0e-8a4b-4c1e-9d51-3f3c1b2a7e10", newsletterId: letter.id }));
    expect(gone.status).toBe(404);
    const made = await fx.t.db.select().from(newsletterSends).where(sql`${newsletterSends.articleId} in (${story.id}, ${draft.id})`);
    expect(made).toHaveLength(0);
  });

  it("says when the footer has no postal address (a warning: the send goes)", async () => {
    const letter = await storiesNewsletter();
    await fx.t.db.insert(websiteSettings).values({ ...DEFAULT_SETTINGS, id: 1, postalAddress: "" }).onConflictDoUpdate({ target: websiteSettings.id, set: { postalAddress: "" } });
    const story = await saveArticle(fx, { title: "No address", slug: "no-address", intent: "publish" });
    expect(await sendPublishedStory(fx.t.db, editor, { articleId: story.id, newsletterId: letter.id })).toMatchObject({ postalAddressMissing: true });
    expect(await sendsOf(story.id, letter.id)).toHaveLength(1);
    await fx.t.db.update(websiteSettings).set({ postalAddress: "1 Press Row, Springfield" }).where(eq(websiteSettings.id, 1));
    const other = await storiesNewsletter();
    expect(await sendPublishedStory(fx.t.db, editor, { articleId: story.id, newsletterId: other.id })).toMatchObject({ postalAddressMissing: false });
  });
});
