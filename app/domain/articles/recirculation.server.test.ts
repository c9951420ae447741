import { beforeAll, describe, expect, it } from "vitest";
import { articles, categories } from "~/db/schema";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { listMoreFromCategory, listRelatedStories } from "./recirculation.server";

let t: TestDatabase;
const HOUR = 3_600_000;
const ids: Record<string, string> = {};

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
  await article("tram-line-opens", "New tram line opens downtown", city, 1);
  await article("tram-fares", "Tram fares rise in spring", city, 5);
  await article("library-hours", "Library extends its hours", city, 3);
  await article("park-cleanup", "Volunteers clean the park", city, 8);
  await article("tram-derby", "Fans take the tram to the derby", sport, 2);
  await article("tram-draft", "Tram strike planned", city, 0, { status: "draft", publishedAt: null });
  await article("tram-future", "Tram timetable changes", city, -5);
  await article("cup-final", "Cup final tonight", sport, 4);
});

describe("More from {Category}", () => {
  it("lists the category's newest public articles without the article itself", async () => {
    const more = await listMoreFromCategory(t.db, ids["tram-line-opens"], "city");
    expect(more.map((a) => a.slug)).toEqual(["library-hours", "tram-fares", "park-cleanup"]);
    expect(more.every((a) => a.category?.slug === "city")).toBe(true);
  });
});

describe("Related stories", () => {
  it("finds articles sharing title words, most recent first, never itself or an unpublished one", async () => {
    const related = await listRelatedStories(t.db, ids["tram-line-opens"]);
    expect(related.map((a) => a.slug)).toEqual(["tram-derby", "tram-fares"]);
  });

  it("leaves out what the page already shows", async () => {
    const related = await listRelatedStories(t.db, ids["tram-line-opens"], [ids["tram-fares"]]);
    expect(related.map((a) => a.slug)).toEqual(["tram-derby"]);
  });

  it("prefers the same category among equal matches", async () => {
    const related = await listRelatedStories(t.db, ids["tram-fares"], [], 1);
    expect(related.map((a) => a.slug)).toEqual(["tram-line-opens"]);
  });

  it("is empty for an article whose words match nothing else", async () => {
    expect(await listRelatedStories(t.db, ids["park-cleanup"])).toEqual([]);
  });
});
