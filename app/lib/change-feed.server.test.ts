import { sql } from "drizzle-orm";
import { afterAll, describe, expect, test } from "vitest";
import { createTestDatabase } from "../../tests/setup/test-database";
import { ChangeFeed, type ChangeEvent } from "./change-feed.server";
import { createLogger } from "./logger.server";

// The database announces changes (migrations 0001, 0014); a comment's notice names its article, so
// only that article's pages are cleared (decision 0024).

const t = await createTestDatabase();
const feed = new ChangeFeed(t.url, createLogger("silent"));
await feed.start();
afterAll(() => feed.stop());

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

async function article(slug: string): Promise<string> {
  const { rows } = await t.db.execute<{ id: string }>(sql`insert into articles (title, slug, content) values (${slug}, ${slug}, 'Body') returning id`);
  return rows[0]!.id;
}

describe("change notices", () => {
  test("posting, moderating and deleting a comment names its article; comments on many articles at once name none", async () => {
    const id = await article("noticed-story");
    const other = await article("other-story");

    let notice = nextChange("comments");
    await t.db.execute(sql`insert into comments (article_id, author_name, author_email, content) values (${id}, 'A', 'a@example.org', 'Hi')`);
    expect(await notice).toEqual({ table: "comments", op: "INSERT", articles: ["noticed-story"] });

    notice = nextChange("comments");
    await t.db.execute(sql`update comments set status = 'published' where article_id in (${id}, ${other})`);
    expect(await notice).toMatchObject({ op: "UPDATE", articles: ["noticed-story"] });

    notice = nextChange("comments");
    await t.db.execute(sql`delete from comments where article_id = ${id}`);
    expect(await notice).toEqual({ table: "comments", op: "DELETE", articles: ["noticed-story"] });

    // More than 50 articles in one statement: every page may have changed.
    const many = await Promise.all(Array.from({ length: 51 }, (_, i) => article(`many-${i}`)));
    notice = nextChange("comments");
    await t.db.execute(sql`insert into comments (article_id, author_name, author_email, content) select unnest(${`{${many.join(",")}}`}::uuid[]), 'B', 'b@example.org', 'Hi'`);
    expect(await notice).toEqual({ table: "comments", op: "INSERT" });
  });
});

describe("story notices (decision 0028)", () => {
  /** The notices on `table` of what `statement` does, once this process has heard them all. */
  async function noticesOf(table: string, statement: () => Promise<unknown>): Promise<ChangeEvent[]> {
    const heard: ChangeEvent[] = [];
    const listener = (event: ChangeEvent) => void (event.table === table && heard.push(event));
    feed.on("change", listener);
    try {
      await statement();
      expect(await feed.caughtUp()).toBe(true);
      return heard;
    } finally {
      feed.off("change", listener);
    }
  }

  test("a public story's change names it, its addresses, categories and authors; drafts, scheduled stories and view counts name none", async () => {
    const { rows: cats } = await t.db.execute<{ id: string }>(sql`insert into categories (name, slug) values ('Politics N', 'politics-n'), ('Sport N', 'Sport-N') returning id`);
    const [politics, sport] = cats.map((row) => row.id);
    const { rows: people } = await t.db.execute<{ id: string }>(sql`insert into authors (name, slug) values ('Ada N', 'ada-n'), ('Bo N', 'bo-n') returning id`);
    const [ada, bo] = people.map((row) => row.id);

    // A draft: the notice (for the dashboards) names no public story.
    let notices = await noticesOf("articles", () =>
      t.db.execute(sql`insert into articles (title, slug, content, status, category_id) values ('Draft N', 'draft-n', 'Body', 'draft', ${politics})`),
    );
    expect(notices).toEqual([{ table: "articles", op: "INSERT", public: { ids: [], slugs: [], categories: [], authors: [], tags: [] } }]);
    const [{ id: draft }] = (await t.db.execute<{ id: string }>(sql`select id from articles where slug = 'draft-n'`)).rows;
    // An autosave of the draft: the same.
    notices = await noticesOf("articles", () => t.db.execute(sql`update articles set content = 'Typed more' where id = ${draft}`));
    expect(notices).toEqual([{ table: "articles", op: "UPDATE", public: { ids: [], slugs: [], categories: [], authors: [], tags: [] } }]);

    // Publishing it names it.
    await t.db.execute(sql`insert into article_authors (article_id, author_id, position) values (${draft}, ${ada}, 0)`);
    notices = await noticesOf("articles", () => t.db.execute(sql`update articles set status = 'published', published_at = now() where id = ${draft}`));
    expect(notices).toEqual([{ table: "articles", op: "UPDATE", public: { ids: [draft], slugs: ["draft-n"], categories: ["politics-n"], authors: ["ada-n"], tags: [] } }]);

    // A new address and category: both, before and after.
    notices = await noticesOf("articles", () => t.db.execute(sql`update articles set slug = 'Moved-N', category_id = ${sport} where id = ${draft}`));
    expect(notices).toHaveLength(1);
    expect(notices[0]!.public!.slugs.sort()).toEqual(["draft-n", "moved-n"]);
    expect(notices[0]!.public!.categories.sort()).toEqual(["politics-n", "sport-n"]);

    // The view recorder's counts, and an update that changes nothing readers see: no notice at all.
    notices = await noticesOf("articles", () => t.db.execute(sql`update articles set views = views + 3 where id = ${draft}`));
    expect(notices).toEqual([]);
    notices = await noticesOf("articles", () => t.db.execute(sql`update articles set updated_at = now() where id = ${draft}`));
    expect(notices).toEqual([]);
    // The scheduler's run with nothing due: none either.
    notices = await noticesOf("articles", () => t.db.execute(sql`update articles set status = 'published' where status = 'scheduled' and published_at <= now()`));
    expect(notices).toEqual([]);

    // A byline change names the authors before and after.
    notices = await noticesOf("article_authors", async () => {
      await t.db.execute(sql`delete from article_authors where article_id = ${draft}`);
      await t.db.execute(sql`insert into article_authors (article_id, author_id, position) values (${draft}, ${bo}, 0)`);
    });
    expect(notices.map((n) => n.public!.authors)).toEqual([["ada-n"], ["bo-n"]]);
    expect(notices.every((n) => n.public!.ids[0] === draft)).toBe(true);

    // A correction on it names it; deleting it names it with its last address.
    notices = await noticesOf("article_corrections", () =>
      t.db.execute(sql`insert into article_corrections (article_id, kind, text, created_by_name) values (${draft}, 'correction', 'Fixed', 'Ed')`),
    );
    expect(notices[0]!.public).toEqual({ ids: [draft], slugs: ["moved-n"], categories: ["sport-n"], authors: ["bo-n"], tags: [] });
    notices = await noticesOf("articles", () => t.db.execute(sql`delete from articles where id = ${draft}`));
    expect(notices[0]).toMatchObject({ op: "DELETE", public: { ids: [draft], slugs: ["moved-n"], categories: ["sport-n"] } });
  });

  test("a public story's tags are named by its notices; a tag's rename or delete names nothing (every page); a new tag sends none (migration 0027)", async () => {
    const { rows: made } = await t.db.execute<{ id: string }>(sql`insert into tags (name, slug) values ('Tides T', 'tides-t'), ('Moon T', 'moon-t') returning id`);
    const [tides, moon] = made.map((row) => row.id);
    const story = await article("tagged-t");
    // Tagging a public story names it and the tag; retagging names the tags before and after.
    let notices = await noticesOf("article_tags", () => t.db.execute(sql`insert into article_tags (article_id, tag_id, position) values (${story}, ${tides}, 0)`));
    expect(notices).toMatchObject([{ op: "INSERT", public: { ids: [story], slugs: ["tagged-t"], tags: ["tides-t"] } }]);
    notices = await noticesOf("article_tags", () => t.db.execute(sql`update article_tags set tag_id = ${moon} where article_id = ${story}`));
    expect(notices[0]!.public!.tags!.sort()).toEqual(["moon-t", "tides-t"]);
    // The story's own change names its current tags (its tag pages list it).
    notices = await noticesOf("articles", () => t.db.execute(sql`update articles set title = 'Retitled T' where id = ${story}`));
    expect(notices[0]!.public!.tags).toEqual(["moon-t"]);
    // A draft's tags name no public story.
    const { rows: drafts } = await t.db.execute<{ id: string }>(sql`insert into articles (title, slug, content, status) values ('D', 'draft-t', 'Body', 'draft') returning id`);
    notices = await noticesOf("article_tags", () => t.db.execute(sql`insert into article_tags (article_id, tag_id, position) values (${drafts[0]!.id}, ${tides}, 0)`));
    expect(notices[0]!.public).toEqual({ ids: [], slugs: [], categories: [], authors: [], tags: [] });
    // The tags themselves: a new one sends nothing; a rename or a delete drops every page.
    expect(await noticesOf("tags", () => t.db.execute(sql`insert into tags (name, slug) values ('New T', 'new-t')`))).toEqual([]);
    expect(await noticesOf("tags", () => t.db.execute(sql`update tags set name = 'Moon!' where id = ${moon}`))).toEqual([{ table: "tags", op: "UPDATE" }]);
    expect(await noticesOf("tags", () => t.db.execute(sql`delete from tags where id = ${moon}`))).toEqual([{ table: "tags", op: "DELETE" }]);
  });

  test("more than 50 public stories in one statement name none (every page)", async () => {
    await t.db.execute(sql`insert into articles (title, slug, content) select 'Bulk ' || i, 'bulk-n-' || i, 'Body' from generate_series(1, 51) i`);
    await feed.caughtUp();
    const notices = await noticesOf("articles", () => t.db.execute(sql`update articles set title = title || '!' where slug like 'bulk-n-%'`));
    expect(notices).toEqual([{ table: "articles", op: "UPDATE" }]);
  });

  test("caughtUp answers once this process has heard every notice committed before it", async () => {
    const heard: ChangeEvent[] = [];
    const listener = (event: ChangeEvent) => void heard.push(event);
    feed.on("change", listener);
    try {
      await t.db.execute(sql`select pg_notify('frontpage_changes', '{"table":"marker","op":"TEST"}')`);
      expect(await feed.caughtUp()).toBe(true);
      expect(heard.some((event) => event.table === "marker")).toBe(true);
      // Its own mark is not a change.
      expect(heard.some((event) => "caughtUp" in event)).toBe(false);
    } finally {
      feed.off("change", listener);
    }
  });
});

describe("story pin notices (decision 0034)", () => {
  test("a pin's notice says whether the home page changed and which category pages did", async () => {
    const heard: ChangeEvent[] = [];
    const listener = (event: ChangeEvent) => void (event.table === "story_pins" && heard.push(event));
    feed.on("change", listener);
    try {
      const { rows: cats } = await t.db.execute<{ id: string }>(sql`insert into categories (name, slug) values ('Pins P', 'Pins-P') returning id`);
      const category = cats[0]!.id;
      const lead = await article("pinned-lead");
      const first = await article("pinned-first");
      await t.db.execute(sql`insert into story_pins (placement, article_id) values ('lead', ${lead})`);
      await t.db.execute(sql`insert into story_pins (placement, category_id, article_id) values ('category', ${category}, ${first})`);
      await t.db.execute(sql`update story_pins set until = now() + interval '1 hour'`);
      await t.db.execute(sql`delete from story_pins where placement = 'lead'`);
      // A statement that changes no pin says nothing.
      await t.db.execute(sql`delete from story_pins where placement = 'top'`);
      expect(await feed.caughtUp()).toBe(true);
      expect(heard).toEqual([
        { table: "story_pins", op: "INSERT", pins: { home: true, categories: [] } },
        { table: "story_pins", op: "INSERT", pins: { home: false, categories: ["pins-p"] } },
        { table: "story_pins", op: "UPDATE", pins: { home: true, categories: ["pins-p"] } },
        { table: "story_pins", op: "DELETE", pins: { home: true, categories: [] } },
      ]);
    } finally {
      feed.off("change", listener);
    }
  });
});

describe("settings notices (migration 0024)", () => {
  test("a change to the home page's own settings alone says so; any other change to the settings does not", async () => {
    const heard: ChangeEvent[] = [];
    const listener = (event: ChangeEvent) => void (event.table === "website_settings" && heard.push(event));
    feed.on("change", listener);
    try {
      await t.db.execute(sql`insert into website_settings (id, site_name) values (1, 'Notices') on conflict (id) do nothing`);
      await feed.caughtUp();
      heard.length = 0;
      await t.db.execute(sql`update website_settings set explore_category_ids = '{}', updated_at = now()`);
      await t.db.execute(sql`update website_settings set show_welcome_banner = false`);
      await t.db.execute(sql`update website_settings set site_name = 'Renamed', show_welcome_banner = true`);
      expect(await feed.caughtUp()).toBe(true);
      expect(heard).toEqual([
        { table: "website_settings", op: "UPDATE", homeOnly: true },
        { table: "website_settings", op: "UPDATE", homeOnly: true },
        { table: "website_settings", op: "UPDATE", homeOnly: false },
      ]);
    } finally {
      feed.off("change", listener);
    }
  });
});
