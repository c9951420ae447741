import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { articles, categories, newsletters, newsletterSends, sendRecipients, websiteSettings } from "~/db/schema";
import { digestSendEmail, digestStoriesOf, digestWindowOf, emailSiteOf, emailStoryOfArticle, personalizeEmail, storyEmail } from "~/domain/newsletters/newsletter-email.server";
import { trackingToken } from "~/domain/newsletters/newsletter-tracking.server";
import { newsletterById, type Newsletter } from "~/domain/newsletters/newsletters.server";
import { loader as clickRoute } from "~/routes/resources/newsletter-click";
import { loader as openRoute } from "~/routes/resources/newsletter-open";
import { loader as viewRoute } from "~/routes/resources/newsletter-view";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";

// Issue 30's e-mail links over a real database: the open pixel and the signed click redirect record
// once and refuse anything not signed; a digest's browser view rebuilds the send's e-mail; the reads
// the e-mail is made from (the site, a story, a digest's stories and window).

const ORIGIN = "https://news.example";
const SECRET = "a-session-secret-of-at-least-32-characters!";
let t: TestDatabase;
const context = () => ({ db: t.db, env: { publicUrl: ORIGIN, TIME_ZONE: "America/New_York" }, subscriberSecret: SECRET });

async function get(loader: (args: never) => Promise<Response>, path: string, params: Record<string, string>) {
  return loader({ params, context: context(), request: new Request(`${ORIGIN}${path}`) } as never);
}

let newsId: string;
let sportId: string;
const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);

async function story(title: string, publishedAt: Date, options: { categoryId?: string; status?: "draft" | "published" } = {}) {
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  const [row] = await t.db
    .insert(articles)
    .values({
      title,
      slug,
      content: `${title} body.`,
      excerpt: `About ${title}.`,
      contentDoc: { type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text: `${title} body.` }] }] },
      featuredImage: "/media/images/1700000000000-cover.jpg",
      featuredImageAlt: `${title} picture`,
      authorName: "Desk Writer",
      categoryId: options.categoryId ?? newsId,
      status: options.status ?? "published",
      publishedAt,
    })
    .returning({ id: articles.id });
  return row!.id;
}

async function newsletter(values: Partial<typeof newsletters.$inferInsert>): Promise<Newsletter> {
  const [row] = await t.db
    .insert(newsletters)
    .values({ name: "Daily Digest", slug: `n-${Math.random().toString(36).slice(2)}`, kind: "digest", digestFrequency: "daily", digestTime: "07:00", ...values })
    .returning();
  return row!;
}

async function send(newsletterId: string, values: Partial<typeof newsletterSends.$inferInsert> = {}) {
  const [row] = await t.db.insert(newsletterSends).values({ newsletterId, kind: "digest", status: "sent", subject: "Daily Digest", ...values }).returning();
  return row!;
}

beforeAll(async () => {
  t = await createTestDatabase();
  const rows = await t.db
    .insert(categories)
    .values([
      { name: "News", slug: "e-news" },
      { name: "Sport", slug: "e-sport" },
    ])
    .returning({ id: categories.id });
  [newsId, sportId] = [rows[0]!.id, rows[1]!.id];
  const settings = { siteName: "The Marrowby Courier", postalAddress: "1 Market Square, Marrowby", logoUrl: "/media/images/logo.png" };
  await t.db.insert(websiteSettings).values({ id: 1, ...settings }).onConflictDoUpdate({ target: websiteSettings.id, set: settings });
});

describe("the reads the e-mail is made from", () => {
  it("the site: name, an absolute logo, the accent colour and the postal address; an SVG logo gives way to the name", async () => {
    expect(await emailSiteOf(t.db, ORIGIN)).toMatchObject({
      name: "The Marrowby Courier",
      publicUrl: ORIGIN,
      logoUrl: `${ORIGIN}/media/images/logo.png`,
      accentColor: "#1e40af",
      postalAddress: "1 Market Square, Marrowby",
    });
    await t.db.update(websiteSettings).set({ logoUrl: "/media/images/logo.svg" }).where(eq(websiteSettings.id, 1));
    expect((await emailSiteOf(t.db, ORIGIN)).logoUrl).toBeNull();
    await t.db.update(websiteSettings).set({ logoUrl: "/media/images/logo.png" }).where(eq(websiteSettings.id, 1));
  });

  it("a saved article as a story: its address, absolute image, byline and document; an unknown id is null", async () => {
    const id = await story("Bridge reopens", hoursAgo(2));
    const found = await emailStoryOfArticle(t.db, id, ORIGIN);
    expect(found).toMatchObject({
      title: "Bridge reopens",
      dek: "About Bridge reopens.",
      url: `${ORIGIN}/article/bridge-reopens`,
      featuredImage: { url: `${ORIGIN}/media/images/1700000000000-cover.jpg`, alt: "Bridge reopens picture", caption: null, credit: null },
      byline: "Desk Writer",
      document: { type: "doc" },
    });
    expect(await emailStoryOfArticle(t.db, "6f1c8f0e-8a4b-4c1e-9d51-3f3c1b2a7e10", ORIGIN)).toBeNull();
    expect(await emailStoryOfArticle(t.db, "not-an-id", ORIGIN)).toBeNull();
  });

  it("a digest's stories: public ones in its window, newest first, at most 20, of its categories when it chose some", async () => {
    const chosen = await newsletter({ digestCategoryIds: [sportId] });
    const all = await newsletter({});
    const since = hoursAgo(30);
    const until = new Date();
    await story("Old match", hoursAgo(40), { categoryId: sportId });
    await story("Cup final", hoursAgo(5), { categoryId: sportId });
    await story("Derby draw", hoursAgo(3), { categoryId: sportId });
    await story("Draft match", hoursAgo(3), { categoryId: sportId, status: "draft" });
    await story("Scheduled match", new Date(Date.now() + 3_600_000), { categoryId: sportId });
    expect((await digestStoriesOf(t.db, chosen, since, until, ORIGIN)).map((s) => s.title)).toEqual(["Derby draw", "Cup final"]);
    const everything = (await digestStoriesOf(t.db, all, since, until, ORIGIN)).map((s) => s.title);
    expect(everything).toEqual(expect.arrayContaining(["Derby draw", "Cup final", "Bridge reopens"]));
    expect(everything).not.toContain("Old match");
    for (let i = 0; i < 22; i++) await story(`Many ${i}`, hoursAgo(1 + i / 100), { categoryId: newsId });
    const many = await digestStoriesOf(t.db, all, since, until, ORIGIN);
    expect(many).toHaveLength(20);
    expect(many[0]!.title).toBe("Many 0");
  });

  it("a digest's window runs from the previous digest send (skipped ones too) to this one; the first covers the day before", async () => {
    const digest = await newsletter({});
    const first = await send(digest.id, { createdAt: hoursAgo(48) });
    const skipped = await send(digest.id, { status: "skipped", createdAt: hoursAgo(24) });
    const third = await send(digest.id, { createdAt: hoursAgo(0) });
    expect(await digestWindowOf(t.db, third, digest)).toEqual({ since: skipped.createdAt, until: third.createdAt });
    expect(await digestWindowOf(t.db, first, digest)).toEqual({ since: new Date(first.createdAt.getTime() - 86_400_000), until: first.createdAt });
    expect((await digestWindowOf(t.db, first, { digestFrequency: "weekly" })).since).toEqual(new Date(first.createdAt.getTime() - 7 * 86_400_000));
  });
});

describe("the open pixel and the click redirect", () => {
  const reader = "0b5a5a6e-2c1d-4e8f-9a3b-7c6d5e4f3a21";

  async function trackedSend(track: boolean) {
    const stories = await newsletter({ kind: "stories", digestFrequency: null, digestTime: null, trackEngagement: track });
    const row = await send(stories.id, { kind: "story" });
    await t.db.insert(sendRecipients).values({ sendId: row.id, subscriberId: reader, email: "reader@example.com", status: "sent" });
    return { newsletter: stories, send: row, recipient: { sendId: row.id, subscriberId: reader } };
  }
  const recipientRow = async (sendId: string) =>
    (await t.db.select().from(sendRecipients).where(and(eq(sendRecipients.sendId, sendId), eq(sendRecipients.subscriberId, reader))))[0]!;

  it("the pixel of a signed token records the first open once and answers a GIF nobody keeps; a forged one is 404", async () => {
    const { send, recipient } = await trackedSend(true);
    const token = trackingToken(SECRET, "open", recipient);
    const answer = await get(openRoute, `/newsletter/open/${token}.gif`, { token: `${token}.gif` });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Content-Type")).toBe("image/gif");
    expect(answer.headers.get("Cache-Control")).toBe("no-store");
    expect(new Uint8Array(await answer.arrayBuffer()).slice(0, 6)).toEqual(new TextEncoder().encode("GIF89a"));
    const opened = (await recipientRow(send.id)).openedAt;
    expect(opened).toBeInstanceOf(Date);
    await get(openRoute, `/newsletter/open/${token}.gif`, { token: `${token}.gif` });
    expect((await recipientRow(send.id)).openedAt).toEqual(opened);

    const forged = `${token.slice(0, -3)}xyz`;
    expect((await get(openRoute, `/newsletter/open/${forged}.gif`, { token: `${forged}.gif` })).status).toBe(404);
    const clickToken = trackingToken(SECRET, "click", recipient, "https://example.com/");
    expect((await get(openRoute, `/newsletter/open/${clickToken}.gif`, { token: `${clickToken}.gif` })).status).toBe(404);
  });

  it("a click on a link of the e-mail records the click and goes there; another address or an edited token is 404", async () => {
    const { newsletter: tracked, send, recipient } = await trackedSend(true);
    const site = await emailSiteOf(t.db, ORIGIN);
    const article = await emailStoryOfArticle(t.db, await story("Harbour plan", hoursAgo(1)), ORIGIN);
    const email = personalizeEmail(await storyEmail(site, tracked, article!), {
      unsubscribeUrl: `${ORIGIN}/newsletter/unsubscribe/x`,
      preferencesUrl: `${ORIGIN}/newsletter/preferences/x`,
      tracking: { secret: SECRET, ...recipient },
    });
    const href = /<a href="(https:\/\/news\.example\/newsletter\/click\/[^"]+)"[^>]*>Harbour plan<\/a>/.exec(email.html)![1]!.replaceAll("&amp;", "&");
    const url = new URL(href);
    const token = url.pathname.split("/").pop()!;

    const answer = await get(clickRoute, `${url.pathname}${url.search}`, { token });
    expect(answer.status).toBe(302);
    // To the story, saying which newsletter the reader came from (issue 42).
    expect(answer.headers.get("Location")).toBe(`${ORIGIN}/article/harbour-plan?utm_source=newsletter&utm_medium=email&utm_campaign=${tracked.slug}`);
    expect(answer.headers.get("Cache-Control")).toBe("no-store");
    expect(answer.headers.get("Referrer-Policy")).toBe("no-referrer");
    const row = await recipientRow(send.id);
    expect(row.clickedAt).toBeInstanceOf(Date);
    // A click is an open too (images were off).
    expect(row.openedAt).toBeInstanceOf(Date);

    const elsewhere = `/newsletter/click/${token}?u=${encodeURIComponent("https://evil.example/")}`;
    expect((await get(clickRoute, elsewhere, { token })).status).toBe(404);
    const edited = `${token.slice(0, -2)}${token.endsWith("AA") ? "BB" : "AA"}`;
    expect((await get(clickRoute, `/newsletter/click/${edited}${url.search}`, { token: edited })).status).toBe(404);
    expect((await get(clickRoute, `/newsletter/click/${token}`, { token })).status).toBe(404);
    const js = trackingToken(SECRET, "click", recipient, "javascript:alert(1)");
    expect((await get(clickRoute, `/newsletter/click/${js}?u=${encodeURIComponent("javascript:alert(1)")}`, { token: js })).status).toBe(404);
  });

  it("a newsletter that turned tracking off records nothing more, and its links still lead where they pointed", async () => {
    const { send, recipient } = await trackedSend(false);
    const token = trackingToken(SECRET, "click", recipient, "https://example.com/a");
    const answer = await get(clickRoute, `/newsletter/click/${token}?u=${encodeURIComponent("https://example.com/a")}`, { token });
    expect(answer.status).toBe(302);
    const open = trackingToken(SECRET, "open", recipient);
    expect((await get(openRoute, `/newsletter/open/${open}.gif`, { token: `${open}.gif` })).status).toBe(200);
    const row = await recipientRow(send.id);
    expect(row.clickedAt).toBeNull();
    expect(row.openedAt).toBeNull();
  });
});

describe("a digest in the browser", () => {
  it("shows the send's e-mail rebuilt from its window, with no personal link and nothing tracked", async () => {
    const digest = await newsletter({ name: "Evening Digest", trackEngagement: true });
    await send(digest.id, { createdAt: hoursAgo(26) });
    await story("Late ferry", hoursAgo(0.5));
    const sent = await send(digest.id);
    const answer = await get(viewRoute, `/newsletter/view/${sent.id}`, { id: sent.id });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(answer.headers.get("Cache-Control")).toBe("no-store");
    const html = await answer.text();
    expect(html).toContain("<title>Evening Digest: ");
    expect(html).toContain(`href="https://news.example/article/late-ferry?utm_source=newsletter&amp;utm_medium=email&amp;utm_campaign=${digest.slug}"`);
    expect(html).toContain('href="https://news.example/newsletter"');
    expect(html).toContain("You subscribed to Evening Digest at The Marrowby Courier.");
    expect(html).not.toMatch(/%%FP|\/newsletter\/(click|open)\//);
    // The story outside the window (published before the previous digest) is not in it.
    expect(html).not.toContain("Old match");
    expect(html).toBe((await (await get(viewRoute, `/newsletter/view/${sent.id}`, { id: sent.id })).text()));
  });

  it("the send engine's digest e-mail is the view's, and says when there is no story to send", async () => {
    const digest = await newsletter({ name: "Night Digest", digestCategoryIds: [sportId] });
    const sent = await send(digest.id, { createdAt: hoursAgo(4) });
    const { email, stories } = await digestSendEmail(t.db, sent, digest, ORIGIN, "America/New_York");
    // Its first digest: the day before the send (Cup final, 5 hours ago), not what came after it (Derby draw).
    expect(stories).toBe(1);
    expect(email.subject).toMatch(/^Night Digest: /);
    expect(email.html).toContain("Cup final");
    expect(email.html).not.toContain("Derby draw");
    expect(email.html).toContain(`href="${ORIGIN}/newsletter/view/${sent.id}?utm_source=newsletter&amp;utm_medium=email&amp;utm_campaign=${digest.slug}"`);
    const view = await (await get(viewRoute, `/newsletter/view/${sent.id}`, { id: sent.id })).text();
    expect(view).toBe(personalizeEmail(email, { unsubscribeUrl: `${ORIGIN}/newsletter`, preferencesUrl: `${ORIGIN}/newsletter` }).html);
    const next = await send(digest.id, { createdAt: hoursAgo(3.9) });
    expect((await digestSendEmail(t.db, next, digest, ORIGIN)).stories).toBe(0);
  });

  it("an unknown send, a story's send, a cancelled or skipped digest, or a malformed id is 404", async () => {
    const digest = await newsletterById(t.db, (await newsletter({})).id);
    const stories = await newsletter({ kind: "stories", digestFrequency: null, digestTime: null });
    const cases = [
      (await send(stories.id, { kind: "story" })).id,
      (await send(digest!.id, { status: "cancelled" })).id,
      (await send(digest!.id, { status: "skipped" })).id,
      "6f1c8f0e-8a4b-4c1e-9d51-3f3c1b2a7e10",
      "not-an-id",
    ];
    for (const id of cases) expect((await get(viewRoute, `/newsletter/view/${id}`, { id })).status, id).toBe(404);
  });
});
