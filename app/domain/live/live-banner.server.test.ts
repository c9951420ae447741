import { sql } from "drizzle-orm";
import { afterAll, describe, expect, test } from "vitest";
import { ChangeFeed, type ChangeEvent } from "~/lib/change-feed.server";
import { createLogger } from "~/lib/logger.server";
import { toDateTimeLocal } from "~/lib/dates";
import { showBreakingNews } from "~/domain/settings/breaking-news.server";
import { bannerStorySlug, changesBannerStory, createSiteFrame } from "~/domain/settings/site-frame.server";
import { createTestDatabase } from "../../../tests/setup/test-database";
import { endLiveCoverage, restartLiveCoverage } from "./live-admin.server";

// The breaking-news banner may link to a live story (issue 31): it says "LIVE" then. The banner is on
// every page, so the site frame (which knows it) is read again, and every cached page dropped, when the
// database's change notice names that story: ending its coverage takes "LIVE" off every page.

const t = await createTestDatabase();
const feed = new ChangeFeed(t.url, createLogger("silent"));
await feed.start();
afterAll(() => feed.stop());

const TZ = "America/New_York";

async function story(slug: string, live: boolean): Promise<string> {
  const { rows } = await t.db.execute<{ id: string }>(
    sql`insert into articles (title, slug, content, status, published_at, live_started_at)
        values (${slug}, ${slug}, 'Body', 'published', now() - interval '1 hour', ${live ? sql`now()` : null}) returning id`,
  );
  return rows[0]!.id;
}

function nextChange(table: string): Promise<ChangeEvent> {
  return new Promise((resolve) => {
    const listener = (event: ChangeEvent) => {
      if (event.table !== table) return;
      feed.off("change", listener);
      resolve(event);
    };
    feed.on("change", listener);
  });
}

describe("the banner of a live story", () => {
  test("reads the story's address from the banner's link only", () => {
    expect(bannerStorySlug("/article/vote-count")).toBe("vote-count");
    expect(bannerStorySlug("/article/vote-count?x=1#update-1")).toBe("vote-count");
    expect(bannerStorySlug("https://elsewhere.example/article/vote-count")).toBeNull();
    expect(bannerStorySlug("/category/politics")).toBeNull();
    expect(bannerStorySlug(null)).toBeNull();
    expect(changesBannerStory({ table: "articles", op: "UPDATE", public: { ids: ["x"], slugs: ["vote-count"], categories: [], authors: [] } }, "vote-count")).toBe(true);
    expect(changesBannerStory({ table: "articles", op: "UPDATE", public: { ids: ["y"], slugs: ["other"], categories: [], authors: [] } }, "vote-count")).toBe(false);
    expect(changesBannerStory({ table: "articles", op: "UPDATE" }, "vote-count")).toBe(true);
    expect(changesBannerStory({ table: "live_updates", op: "INSERT", live: [] }, "vote-count")).toBe(false);
  });

  test("says LIVE while the linked story is live; ending and restarting it reads the frame again and drops every page", async () => {
    const id = await story("vote-count", true);
    await story("quiet-story", false);
    let dropped = 0;
    const frame = createSiteFrame(t.db, feed, { onBannerStoryChange: () => dropped++ });
    const settingsNotice = nextChange("website_settings");
    await showBreakingNews(t.db, { text: "Votes are being counted", url: "/article/vote-count", expiresAt: toDateTimeLocal(new Date(Date.now() + 3600_000), TZ) }, TZ, new Date());
    await settingsNotice;
    expect((await frame()).bannerLive).toBe(true);

    // Another story's change leaves the frame (and the pages) alone.
    let notice = nextChange("articles");
    await t.db.execute(sql`update articles set live_started_at = now() where slug = 'quiet-story'`);
    await notice;
    expect(dropped).toBe(0);

    notice = nextChange("articles");
    await endLiveCoverage(t.db, { id: null, name: "System" }, id);
    await notice;
    expect(dropped).toBe(1);
    expect((await frame()).bannerLive).toBe(false);

    notice = nextChange("articles");
    await restartLiveCoverage(t.db, { id: null, name: "System" }, id);
    await notice;
    expect(dropped).toBe(2);
    expect((await frame()).bannerLive).toBe(true);

    // A banner that links elsewhere is no live banner.
    const other = nextChange("website_settings");
    await showBreakingNews(t.db, { text: "Storm warning", url: "/category/weather", expiresAt: toDateTimeLocal(new Date(Date.now() + 3600_000), TZ) }, TZ, new Date());
    await other;
    expect((await frame()).bannerLive).toBe(false);
  });
});
