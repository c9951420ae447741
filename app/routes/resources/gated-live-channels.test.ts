import { beforeAll, describe, expect, it } from "vitest";
import { articles, liveUpdates } from "~/db/schema";
import { liveBlogPostingJsonLd } from "~/lib/structured-data";
import { loader as articleRss } from "~/routes/resources/article-rss";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { liveUpdatesFor } from "~/domain/live/live-coverage.server";

// Issue 40: the updates of a gated live story are part of its gated content. The page's update list
// and its LiveBlogPosting come from liveUpdatesFor, which gives a teaser copy nothing; the story's
// feed (/article/:slug/rss.xml, one answer for everyone) has no item. (The stream: server/live-door-gated.test.ts.)

const ORIGIN = "https://news.example";
let t: TestDatabase;
const doc = (text: string) => ({ type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text }] }] });

async function liveStory(slug: string, access: "public" | "members" | "paid") {
  const [row] = await t.db
    .insert(articles)
    .values({
      title: `Story ${slug}`,
      slug,
      excerpt: `Summary of ${slug}`,
      content: "Body.",
      status: "published",
      publishedAt: new Date(Date.now() - 7_200_000),
      liveStartedAt: new Date(Date.now() - 3_600_000),
      access,
    })
    .returning();
  await t.db.insert(liveUpdates).values([
    { articleId: row!.id, content: `First update of ${slug} secret-one`, contentDoc: doc(`First update of ${slug} secret-one`), headline: "Key headline secret-head", keyEvent: true },
    { articleId: row!.id, content: `Pinned update secret-pin`, contentDoc: doc("Pinned update secret-pin"), pinned: true },
  ]);
  return row!;
}

async function feed(slug: string) {
  const response = await articleRss({ params: { slug }, context: { db: t.db, env: { publicUrl: ORIGIN } }, request: new Request(`${ORIGIN}/article/${slug}/rss.xml`) } as never);
  return { status: response.status, body: await response.text() };
}

const SITE = { name: "Frontpage", origin: ORIGIN, logoUrl: null };

beforeAll(async () => {
  t = await createTestDatabase();
});

describe("a gated live story's updates", () => {
  it("liveUpdatesFor gives a teaser copy no update, pinned update, key event or structured update, and says they are withheld", async () => {
    const story = await liveStory("paid-live", "paid");
    const teaser = await liveUpdatesFor(t.db, story, false);
    expect(teaser!.coverage).toMatchObject({ withheld: true, updates: [], pinned: null, keyEvents: [], olderThan: null });
    expect(teaser!.structured).toEqual([]);
    expect(JSON.stringify(teaser)).not.toMatch(/secret-/);

    const whole = await liveUpdatesFor(t.db, story, true);
    expect(whole!.coverage.withheld).toBeUndefined();
    expect(whole!.coverage.updates.map((u) => u.text)).toContain("First update of paid-live secret-one");
    expect(whole!.coverage.pinned?.text).toBe("Pinned update secret-pin");
    expect(whole!.coverage.keyEvents.map((k) => k.title)).toEqual(["Key headline secret-head"]);
    expect(whole!.structured).toHaveLength(2);
    expect(await liveUpdatesFor(t.db, { ...story, liveStartedAt: null }, true)).toBeNull();
  });

  it("the LiveBlogPosting of a teaser copy carries no update; the whole copy's carries them", async () => {
    const story = await liveStory("paid-jsonld", "paid");
    const article = { ...story, publishedAt: story.publishedAt!, description: story.excerpt!, image: null, keywords: [], authors: [], category: null };
    const coverage = { startedAt: story.liveStartedAt!.toISOString(), endedAt: null };
    const teaser = liveBlogPostingJsonLd(SITE as never, article as never, coverage, (await liveUpdatesFor(t.db, story, false))!.structured);
    expect(teaser.liveBlogUpdate).toEqual([]);
    expect(JSON.stringify(teaser)).not.toMatch(/secret-/);
    const whole = liveBlogPostingJsonLd(SITE as never, article as never, coverage, (await liveUpdatesFor(t.db, story, true))!.structured);
    expect(JSON.stringify(whole.liveBlogUpdate)).toContain("secret-one");
  });

  it("the story's feed has its channel and no item for a Paid or Members story; a public story's feed has its updates", async () => {
    await liveStory("paid-feed", "paid");
    await liveStory("members-feed", "members");
    await liveStory("public-feed", "public");
    for (const slug of ["paid-feed", "members-feed"]) {
      const { status, body } = await feed(slug);
      expect(status).toBe(200);
      expect(body).toContain(`<title>Story ${slug}: live updates | `);
      expect(body).toContain(`Summary of ${slug}`);
      expect(body).not.toContain("<item>");
      expect(body).not.toMatch(/secret-/);
    }
    const open = await feed("public-feed");
    expect(open.body).toContain("<item>");
    expect(open.body).toContain("secret-one");
  });
});
