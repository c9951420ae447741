import { eq, sql } from "drizzle-orm";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { articles, newsletters, newsletterSends, websiteSettings } from "~/db/schema";
import { DEFAULT_SETTINGS } from "~/domain/settings/settings.schema";
import { enqueueJob } from "~/lib/job-queue.server";
import { setUpArticleFixture } from "../../../tests/setup/article-fixture";
import { digestStoriesOf, digestWindowOf } from "./newsletter-email.server";
import { digestIsDue, latestDigestTime, NO_NEW_STORIES, runDueDigests, type DigestDeps } from "./newsletter-digests.server";

// Digests' schedule with a fixed clock: due at the site's wall-clock time, once, with the stories since
// the previous digest; skipped (and recorded) when there are none.

const fx = setUpArticleFixture("newsletter-digests");
const log = pino({ level: "silent" });
const TZ = "America/New_York";

describe("the schedule on the site's wall clock", () => {
  it("daily at 09:00 New York is 14:00 UTC in winter and 13:00 UTC in summer", () => {
    expect(latestDigestTime(new Date("2026-01-15T14:00:00Z"), TZ, { frequency: "daily", weekday: null, time: "09:00" }).toISOString()).toBe("2026-01-15T14:00:00.000Z");
    expect(latestDigestTime(new Date("2026-01-15T13:59:00Z"), TZ, { frequency: "daily", weekday: null, time: "09:00" }).toISOString()).toBe("2026-01-14T14:00:00.000Z");
    expect(latestDigestTime(new Date("2026-07-15T13:30:00Z"), TZ, { frequency: "daily", weekday: null, time: "09:00" }).toISOString()).toBe("2026-07-15T13:00:00.000Z");
  });

  it("weekly on Monday at 18:30 is the last Monday's", () => {
    // Thursday 2026-01-15: the last Monday was the 12th.
    expect(latestDigestTime(new Date("2026-01-15T12:00:00Z"), TZ, { frequency: "weekly", weekday: 1, time: "18:30" }).toISOString()).toBe("2026-01-12T23:30:00.000Z");
    // On Monday itself, before and after the time.
    expect(latestDigestTime(new Date("2026-01-19T23:29:00Z"), TZ, { frequency: "weekly", weekday: 1, time: "18:30" }).toISOString()).toBe("2026-01-12T23:30:00.000Z");
    expect(latestDigestTime(new Date("2026-01-19T23:31:00Z"), TZ, { frequency: "weekly", weekday: 1, time: "18:30" }).toISOString()).toBe("2026-01-19T23:30:00.000Z");
  });
});

describe("digest sends", () => {
  // 10:00 in New York on Monday the 9th: after that day's 09:00.
  const created = new Date("2026-03-09T14:00:00Z");
  let clock = new Date("2026-03-10T13:59:00Z");
  const queued: string[] = [];
  const deps = (): DigestDeps => ({
    db: fx.t.db,
    log,
    env: { publicUrl: "https://news.example.org", TIME_ZONE: TZ },
    now: () => clock,
    enqueueSend: async (tx, sendId) => {
      queued.push(sendId);
      await enqueueJob(tx, "newsletter-send", { sendId }, { key: `newsletter-send:${sendId}` });
    },
  });

  async function digest(values: Partial<typeof newsletters.$inferInsert> = {}) {
    const [row] = await fx.t.db
      .insert(newsletters)
      .values({ name: "Morning Digest", slug: `digest-${Math.random().toString(36).slice(2)}`, kind: "digest", digestFrequency: "daily", digestTime: "09:00", createdAt: created, ...values })
      .returning();
    return row!;
  }

  async function story(slug: string, publishedAt: Date, categoryId: string | null = null) {
    await fx.t.db.insert(articles).values({ title: `Story ${slug}`, slug, content: "Body", status: "published", publishedAt, categoryId });
  }

  it("sends the stories since the previous digest at its time, once; the next with none is skipped", async () => {
    await fx.t.db.insert(websiteSettings).values({ ...DEFAULT_SETTINGS, id: 1, postalAddress: "1 Press Row" }).onConflictDoNothing();
    const letter = await digest();
    await story("digest-yesterday", new Date("2026-03-09T20:00:00Z"));
    await story("digest-this-morning", new Date("2026-03-10T12:00:00Z"));
    await story("digest-too-old", new Date("2026-03-08T20:00:00Z"));

    // 08:59 in New York: not yet.
    clock = new Date("2026-03-10T12:59:00Z");
    expect(digestIsDue(letter, clock, TZ)).toBe(false);
    expect(await runDueDigests(deps())).toEqual({ queued: [], skipped: [] });

    // 09:00 (13:00 UTC: daylight saving time began on March 8): due, with the two stories of the day.
    clock = new Date("2026-03-10T13:00:30Z");
    const first = await runDueDigests(deps());
    expect(first.queued).toHaveLength(1);
    expect(queued).toContain(first.queued[0]);
    const [send] = await fx.t.db.select().from(newsletterSends).where(eq(newsletterSends.id, first.queued[0]!));
    expect(send).toMatchObject({ kind: "digest", status: "queued", newsletterId: letter.id });
    expect(send!.createdAt.toISOString()).toBe(clock.toISOString());
    // What the e-mail (and its browser view) will hold: the day's stories, newest first.
    const window = await digestWindowOf(fx.t.db, send!, letter);
    expect((await digestStoriesOf(fx.t.db, letter, window.since, window.until)).map((s) => s.title)).toEqual(["Story digest-this-morning", "Story digest-yesterday"]);
    const [after] = await fx.t.db.select().from(newsletters).where(eq(newsletters.id, letter.id));
    expect(after!.lastDigestAt!.toISOString()).toBe(clock.toISOString());

    // The same minute again, and a minute later: nothing more.
    expect(await runDueDigests(deps())).toEqual({ queued: [], skipped: [] });
    clock = new Date("2026-03-10T13:01:30Z");
    expect(await runDueDigests(deps())).toEqual({ queued: [], skipped: [] });

    // The next day at 09:00 with no story since: a send recorded as skipped, with its note.
    clock = new Date("2026-03-11T13:00:10Z");
    const second = await runDueDigests(deps());
    expect(second.queued).toEqual([]);
    expect(second.skipped).toHaveLength(1);
    const [skipped] = await fx.t.db.select().from(newsletterSends).where(eq(newsletterSends.id, second.skipped[0]!));
    expect(skipped).toMatchObject({ status: "skipped", note: NO_NEW_STORIES, recipients: 0 });

    // A story that morning: the day after, it is in the digest (the window starts at the skipped one).
    await story("digest-thursday", new Date("2026-03-11T15:00:00Z"));
    clock = new Date("2026-03-12T13:00:10Z");
    expect((await runDueDigests(deps())).queued).toHaveLength(1);
  });

  it("two runners at the same minute make one send", async () => {
    const letter = await digest({ digestTime: "10:00" });
    await story("digest-race", new Date("2026-03-10T13:30:00Z"));
    clock = new Date("2026-03-10T14:00:05Z");
    await Promise.all([runDueDigests(deps()), runDueDigests(deps())]);
    const sends = await fx.t.db.select().from(newsletterSends).where(eq(newsletterSends.newsletterId, letter.id));
    expect(sends).toHaveLength(1);
  });

  it("a digest made after today's time waits for tomorrow's; an archived one never goes", async () => {
    const late = await digest({ digestTime: "07:00", createdAt: new Date("2026-03-10T12:30:00Z") });
    const archived = await digest({ digestTime: "07:00", archivedAt: new Date("2026-03-09T13:00:00Z") });
    clock = new Date("2026-03-10T13:00:00Z");
    expect(digestIsDue(late, clock, TZ)).toBe(false);
    expect(digestIsDue(archived, clock, TZ)).toBe(false);
    clock = new Date("2026-03-11T11:00:00Z");
    expect(digestIsDue(late, clock, TZ)).toBe(true);
    expect(digestIsDue(archived, clock, TZ)).toBe(false);
  });

  it("a weekly digest of chosen categories counts only their stories", async () => {
    // A category of its own, so the other tests' stories are not in it.
    const [sports] = (await fx.t.db.execute<{ id: string }>(sql`insert into categories (name, slug) values ('Sports', 'sports-digest') returning id`)).rows;
    const letter = await digest({ digestFrequency: "weekly", digestWeekday: 5, digestTime: "17:00", digestCategoryIds: [sports!.id] });
    // Friday 2026-03-13 at 17:00 New York is 21:00 UTC; only stories of other categories that week.
    clock = new Date("2026-03-13T21:00:30Z");
    await runDueDigests(deps());
    const first = await fx.t.db.select().from(newsletterSends).where(eq(newsletterSends.newsletterId, letter.id));
    expect(first.map((s) => s.status)).toEqual(["skipped"]);
    await story("digest-sports", new Date("2026-03-15T12:00:00Z"), sports!.id);
    clock = new Date("2026-03-20T21:00:30Z");
    const week = await runDueDigests(deps());
    const mine = await fx.t.db.select().from(newsletterSends).where(eq(newsletterSends.newsletterId, letter.id));
    expect(mine.map((s) => s.status).sort()).toEqual(["queued", "skipped"]);
    expect(week.queued).toContain(mine.find((s) => s.status === "queued")!.id);
  });
});
