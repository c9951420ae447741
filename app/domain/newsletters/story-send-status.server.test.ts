import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { newsletters, newsletterSends, subscribers, subscriptions, user } from "~/db/schema";
import type { Actor } from "~/domain/accounts/actor";
import { saveArticleFromForm } from "~/domain/articles/article-admin.server";
import { storySendText } from "~/domain/articles/story-live.schema";
import { articleForm, fixtureCategoryId, saveArticle, setUpArticleFixture, TEST_TIME_ZONE } from "../../../tests/setup/article-fixture";
import { storySendStatus } from "./story-send-status.server";
import { newTokenKey } from "./subscriber-tokens.server";

// Issue 41: "Your story is live" says which newsletter the story goes out to, and to how many.

const fx = setUpArticleFixture("story-send-status");
const editor: Actor = { id: "user-editor", name: "Ed Itor", role: "editor" };

beforeAll(async () => {
  await fx.t.db.insert(user).values({ id: "user-editor", name: "Ed Itor", email: "editor@example.org", emailVerified: true });
});

async function letterWith(name: string, active: number, unsubscribed = 0) {
  const [letter] = await fx.t.db.insert(newsletters).values({ name, slug: `${name.toLowerCase().replace(/\W+/g, "-")}-${Date.now().toString(36)}` }).returning();
  for (let i = 0; i < active + unsubscribed; i++) {
    const [row] = await fx.t.db
      .insert(subscribers)
      .values({ email: `r-${letter!.id.slice(0, 8)}-${i}@example.org`, status: i < active ? "active" : "unsubscribed", tokenKey: newTokenKey(), consentSource: "/newsletter", consentAt: new Date() })
      .returning();
    await fx.t.db.insert(subscriptions).values({ subscriberId: row!.id, newsletterId: letter!.id });
  }
  return letter!;
}

describe("the newsletter send of a story just published", () => {
  it("a story published with a newsletter ticked is sending to that newsletter's active subscribers", async () => {
    const letter = await letterWith("Morning Briefing", 3, 2);
    const categoryId = await fixtureCategoryId(fx);
    const story = await saveArticleFromForm(
      fx.t.db,
      fx.storage,
      articleForm({ title: "Out with a letter", slug: "out-with-a-letter", intent: "publish", categoryId, authorName: "Desk" }),
      { timeZone: TEST_TIME_ZONE, actor: editor, newsletterIds: [letter.id] },
    );
    expect(story.justPublished).toBe(true);
    const sends = await storySendStatus(fx.t.db, story.id);
    expect(sends).toEqual([{ newsletterName: "Morning Briefing", status: "queued", recipients: 3 }]);
    expect(storySendText(sends[0]!)).toBe("Sending to 3 subscribers of Morning Briefing");

    // Once the send has gone, its frozen recipients count (not whoever subscribes since).
    await fx.t.db.update(newsletterSends).set({ status: "sent", recipients: 3, startedAt: new Date(), finishedAt: new Date() }).where(eq(newsletterSends.articleId, story.id));
    await letterWith("Unrelated", 4);
    expect(await storySendStatus(fx.t.db, story.id)).toEqual([{ newsletterName: "Morning Briefing", status: "sent", recipients: 3 }]);
  });

  it("a story published with no newsletter has no send, and a later update is not a publication", async () => {
    const story = await saveArticle(fx, { title: "Quiet one", slug: "quiet-one", intent: "publish" }, { actor: editor });
    expect(story.justPublished).toBe(true);
    expect(await storySendStatus(fx.t.db, story.id)).toEqual([]);
    const again = await saveArticle(fx, { title: "Quiet one, updated", slug: "quiet-one", intent: "publish" }, { id: story.id, actor: editor });
    expect(again.justPublished).toBe(false);
  });

  it("an id that is no uuid reads nothing", async () => {
    expect(await storySendStatus(fx.t.db, "not-a-uuid")).toEqual([]);
  });
});
