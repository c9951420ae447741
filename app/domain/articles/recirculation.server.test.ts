import { EventEmitter } from "node:events";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { articles, categories } from "~/db/schema";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { listRecirculation } from "./recirculation.server";
import { createStoryMemo, readEveryTime, type StoryMemo } from "./story-memo.server";

let t: TestDatabase;
const HOUR = 3_600_000;
const ids: Record<string, string> = {};
let cityId: string;

/** An article published `hoursAgo` hours ago (public unless told otherwise). */
async function article(slug: string, title: string, categoryId: string | null, hoursAgo: number, extra: Partial<typeof articles.$inferInsert> = {}) {
  const [row] = await t.db
    .insert(articles)
    .values({ title, slug, content: "Body.", categoryId, status: "published", publishedAt: new Date(Date.now() - hoursAgo * HOUR), ...extra })
    .returning({ id: articles.id });
  ids[slug] = row.id;
}

beforeAll(async () => {
  t = await createTestDatabase();
  const [{ id: city }, { id: sport }] = await t.db
    .insert(categories)
    .values([
      { name: "City", slug: "city" },
      { name: "Sport", slug: "sport" },
    ])
    .returning({ id: categories.id });
  cityId = city;
  await article("tram-line-opens", "New tram line opens downtown", city, 1);
  await article("tram-fares", "Tram fares rise in spring", city, 5);
  await article("library-hours", "Library extends its hours", city, 3);
  await article("park-cleanup", "Volunteers clean the park", city, 8);
  await article("tram-derby", "Fans take the tram to the derby", sport, 2);
  await article("tram-draft", "Tram strike planned", city, 0, { status: "draft", publishedAt: null });
  await article("tram-future", "Tram timetable changes", city, -5);
  await article("cup-final", "Cup final tonight", sport, 4);
  await article("tram-stops", "Tram stops move", city, 9);
  await article("tram-nocat", "Tram notes", null, 30);
});

/** The two sections for an article (as its page shows them, category included). */
function recirculationOf(slug: string, category: string | null, memo: StoryMemo = readEveryTime, limit?: number) {
  return listRecirculation(t.db, { id: ids[slug]!, category: category ? { slug: category } : null }, memo, limit);
}
const slugs = (cards: { slug: string }[]) => cards.map((c) => c.slug);

describe("More from {Category}", () => {
  it("lists the category's newest public articles without the article itself", async () => {
    const { moreFromCategory } = await recirculationOf("tram-line-opens", "city");
    expect(slugs(moreFromCategory)).toEqual(["library-hours", "tram-fares", "park-cleanup"]);
    expect(moreFromCategory.every((a) => a.category?.slug === "city")).toBe(true);
  });

  it("is empty for an article without a category", async () => {
    const { moreFromCategory, related } = await recirculationOf("tram-nocat", null);
    expect(moreFromCategory).toEqual([]);
    expect(slugs(related)).toEqual(["tram-line-opens", "tram-derby", "tram-fares"]);
  });
});

describe("Related stories", () => {
  it("finds articles sharing title words, most recent first, never itself, an unpublished one or one \"More from\" shows", async () => {
    const { related } = await recirculationOf("tram-line-opens", "city");
    expect(slugs(related)).toEqual(["tram-derby", "tram-stops", "tram-nocat"]);
  });

  it("prefers the same category among equal matches", async () => {
    // "More from" takes tram-line-opens; tram-derby (Sport) is newer than tram-stops (City).
    const { moreFromCategory, related } = await recirculationOf("tram-fares", "city", readEveryTime, 1);
    expect(slugs(moreFromCategory)).toEqual(["tram-line-opens"]);
    expect(slugs(related)).toEqual(["tram-stops"]);
  });

  it("is empty for an article whose words match nothing else", async () => {
    expect((await recirculationOf("park-cleanup", "city")).related).toEqual([]);
  });
});

describe("the picks kept until a public story changes", () => {
  it("reads the cards afresh each time, and picks again only after a change notice", async () => {
    const changes = new EventEmitter();
    const memo = createStoryMemo(changes);
    const before = await recirculationOf("tram-line-opens", "city", memo);
    await t.db.update(articles).set({ views: 4321 }).where(eq(articles.id, ids["library-hours"]!));
    await article("tram-news", "Tram news just in", cityId, 0.5);
    const kept = await recirculationOf("tram-line-opens", "city", memo);
    expect(slugs(kept.moreFromCategory)).toEqual(slugs(before.moreFromCategory));
    expect(slugs(kept.related)).toEqual(slugs(before.related));
    expect(kept.moreFromCategory[0]!.views).toBe(4321);
    changes.emit("change", { table: "articles" });
    const fresh = await recirculationOf("tram-line-opens", "city", memo);
    expect(slugs(fresh.moreFromCategory)).toEqual(["tram-news", "library-hours", "tram-fares"]);
    expect(slugs(fresh.related)).toEqual(["tram-derby", "tram-stops", "tram-nocat"]);
    await t.db.delete(articles).where(eq(articles.id, ids["tram-news"]!));
  });
});
