import type { ArticleCard } from "~/domain/articles/articles.schema";
import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, test } from "vitest";
import { articles, auditEvents, categories, storyPins, websiteSettings } from "~/db/schema";
import { toDateTimeLocal } from "~/lib/dates";
import { refusal } from "../../../tests/setup/refusal";
import { createTestDatabase } from "../../../tests/setup/test-database";
import { MAX_TOP_PINS, PIN_MESSAGES } from "./front-page.schema";
import {
  categoryPinnedStory,
  featureStory,
  frontPagePlacementOf,
  homePageStories,
  listPins,
  moveTopPin,
  pinStory,
  reorderTopPins,
  exploreCategoriesOf,
  searchPinnableStories,
  setExploreCategories,
  setPinUntil,
  unfeatureStory,
  unpinStory,
  upcomingPinEnds,
  withCategoryPin,
  categoryPageRows,
  homeCategorySections,
} from "./front-page.server";

const { db } = await createTestDatabase();
const TZ = "America/New_York";
const EDITOR = { id: null, name: "Edna Editor" };
/** A datetime-local value on the site's clock, `minutes` from now. */
const inMinutes = (minutes: number) => toDateTimeLocal(new Date(Date.now() + minutes * 60_000), TZ);

let news: string;
let sport: string;
/** Public stories, oldest first (story 0 is ten days old, story 9 the newest). */
let stories: string[];

async function story(title: string, hoursAgo: number, over: Partial<typeof articles.$inferInsert> = {}) {
  const [row] = await db
    .insert(articles)
    .values({ title, slug: title.toLowerCase().replace(/[^a-z0-9]+/g, "-"), content: "Body", categoryId: news, publishedAt: new Date(Date.now() - hoursAgo * 3600_000), ...over })
    .returning({ id: articles.id });
  return row!.id;
}

beforeEach(async () => {
  await db.delete(storyPins);
  await db.delete(articles);
  await db.delete(categories);
  await db.delete(websiteSettings);
  [{ id: news }, { id: sport }] = (await db
    .insert(categories)
    .values([
      { name: "News", slug: "news" },
      { name: "Sport", slug: "sport" },
    ])
    .returning({ id: categories.id })) as [{ id: string }, { id: string }];
  stories = [];
  for (let i = 0; i < 10; i++) stories.push(await story(`Story ${i}`, 240 - i * 24, i % 2 ? { categoryId: sport } : {}));
});

const titles = async (count = 12) => (await homePageStories(db, count)).map((card) => card.title);

describe("the home page's order", () => {
  test("without pins it is the newest first, as before", async () => {
    expect(await titles(5)).toEqual(["Story 9", "Story 8", "Story 7", "Story 6", "Story 5"]);
  });

  test("the pinned lead comes first, the top stories next in the editors' order, then the newest, none twice", async () => {
    await pinStory(db, { articleId: stories[2]!, placement: "lead", until: "" }, TZ, EDITOR);
    await pinStory(db, { articleId: stories[0]!, placement: "top", until: "" }, TZ, EDITOR);
    await pinStory(db, { articleId: stories[8]!, placement: "top", until: "" }, TZ, EDITOR);
    expect(await titles()).toEqual(["Story 2", "Story 0", "Story 8", "Story 9", "Story 7", "Story 6", "Story 5", "Story 4", "Story 3", "Story 1"]);
    expect(await titles(4)).toEqual(["Story 2", "Story 0", "Story 8", "Story 9"]);
  });

  test("top stories without a pinned lead follow the newest story, which leads", async () => {
    await pinStory(db, { articleId: stories[1]!, placement: "top", until: "" }, TZ, EDITOR);
    expect(await titles(3)).toEqual(["Story 9", "Story 1", "Story 8"]);
  });

  test("a pin whose time has passed, or whose story was unpublished or deleted, simply stops showing", async () => {
    await pinStory(db, { articleId: stories[3]!, placement: "lead", until: inMinutes(30) }, TZ, EDITOR);
    await pinStory(db, { articleId: stories[4]!, placement: "top", until: "" }, TZ, EDITOR);
    await pinStory(db, { articleId: stories[5]!, placement: "top", until: "" }, TZ, EDITOR);
    expect(await titles(3)).toEqual(["Story 3", "Story 4", "Story 5"]);
    // Its time passes (moved in the database: the clock is PostgreSQL's).
    await db.update(storyPins).set({ until: sql`now() - interval '1 second'` }).where(eq(storyPins.articleId, stories[3]!));
    await db.update(articles).set({ status: "draft" }).where(eq(articles.id, stories[4]!));
    await db.delete(articles).where(eq(articles.id, stories[5]!));
    expect(await titles(3)).toEqual(["Story 9", "Story 8", "Story 7"]);
    expect((await listPins(db)).map((pin) => [pin.title, pin.showing])).toEqual([
      ["Story 3", false],
      ["Story 4", false],
    ]);
  });
});

describe("pinning", () => {
  test("only public stories: a draft, a scheduled story and an unknown one are refused and nothing is written", async () => {
    const draft = await story("A draft", 1, { status: "draft" });
    const scheduled = await story("Tomorrow's story", -24, { status: "scheduled" });
    for (const articleId of [draft, scheduled]) {
      expect(await refusal(pinStory(db, { articleId, placement: "lead", until: "" }, TZ, EDITOR))).toMatchObject({ code: "invalid_input", message: PIN_MESSAGES.notPublic, field: "articleId" });
    }
    for (const articleId of ["not-an-id", "6d0f1c5e-8a6b-4d2c-9f57-0c1f3a2b4d5e"]) {
      expect(await refusal(pinStory(db, { articleId, placement: "top", until: "" }, TZ, EDITOR))).toMatchObject({ message: PIN_MESSAGES.unknownStory });
    }
    expect(await listPins(db)).toEqual([]);
  });

  test("an 'until' in the past, or that is no date, is refused", async () => {
    expect(await refusal(pinStory(db, { articleId: stories[0]!, placement: "lead", until: inMinutes(-5) }, TZ, EDITOR))).toMatchObject({ message: PIN_MESSAGES.pastUntil, field: "until" });
    expect(await refusal(pinStory(db, { articleId: stories[0]!, placement: "lead", until: "2026-02-30T10:00" }, TZ, EDITOR))).toMatchObject({ message: PIN_MESSAGES.badUntil });
    expect(await listPins(db)).toEqual([]);
  });

  test(`at most ${MAX_TOP_PINS} top stories`, async () => {
    for (let i = 0; i < MAX_TOP_PINS; i++) await pinStory(db, { articleId: stories[i]!, placement: "top", until: "" }, TZ, EDITOR);
    expect(await refusal(pinStory(db, { articleId: stories[9]!, placement: "top", until: "" }, TZ, EDITOR))).toMatchObject({ message: PIN_MESSAGES.tooManyTop });
    // The lead is apart from them.
    await pinStory(db, { articleId: stories[9]!, placement: "lead", until: "" }, TZ, EDITOR);
    expect((await listPins(db)).length).toBe(MAX_TOP_PINS + 1);
  });

  test("a new lead replaces the old one; a top story made the lead moves there", async () => {
    const trailBefore = (await db.select({ id: auditEvents.id }).from(auditEvents).where(eq(auditEvents.kind, "front_page.update"))).length;
    await pinStory(db, { articleId: stories[1]!, placement: "lead", until: "" }, TZ, EDITOR);
    await pinStory(db, { articleId: stories[2]!, placement: "top", until: "" }, TZ, EDITOR);
    await pinStory(db, { articleId: stories[2]!, placement: "lead", until: inMinutes(60) }, TZ, EDITOR);
    const pins = await listPins(db);
    expect(pins.map((pin) => [pin.title, pin.placement])).toEqual([["Story 2", "lead"]]);
    expect(pins[0]!.until).not.toBeNull();
    const trail = await db.select({ kind: auditEvents.kind, label: auditEvents.objectLabel }).from(auditEvents).where(eq(auditEvents.kind, "front_page.update")).orderBy(auditEvents.id);
    expect(trail.length - trailBefore).toBe(3);
    expect(trail.at(-1)).toEqual({ kind: "front_page.update", label: "Story 2" });
  });

  test("Move up and Move down, and a dragged order", async () => {
    for (const i of [0, 1, 2]) await pinStory(db, { articleId: stories[i]!, placement: "top", until: "" }, TZ, EDITOR);
    const ids = (await listPins(db)).map((pin) => pin.id);
    await moveTopPin(db, ids[2]!, "up", EDITOR);
    expect((await listPins(db)).map((pin) => pin.title)).toEqual(["Story 0", "Story 2", "Story 1"]);
    await moveTopPin(db, ids[0]!, "up", EDITOR); // the first stays first
    await moveTopPin(db, ids[0]!, "down", EDITOR);
    expect((await listPins(db)).map((pin) => pin.title)).toEqual(["Story 2", "Story 0", "Story 1"]);
    await reorderTopPins(db, [ids[1]!, ids[0]!, ids[2]!], EDITOR);
    expect((await listPins(db)).map((pin) => pin.title)).toEqual(["Story 1", "Story 0", "Story 2"]);
    expect(await titles(4)).toEqual(["Story 9", "Story 1", "Story 0", "Story 2"]);
    // An order that does not name every top story once is refused.
    expect(await refusal(reorderTopPins(db, [ids[1]!, ids[0]!], EDITOR))).toMatchObject({ code: "invalid_input" });
    expect(await refusal(reorderTopPins(db, [ids[1]!, ids[1]!, ids[0]!], EDITOR))).toMatchObject({ code: "invalid_input" });
  });

  test("a pin's end changes and it can be removed; a removed pin is refused as gone", async () => {
    await pinStory(db, { articleId: stories[0]!, placement: "lead", until: "" }, TZ, EDITOR);
    const [pin] = await listPins(db);
    await setPinUntil(db, pin!.id, inMinutes(90), TZ, EDITOR);
    const ends = await upcomingPinEnds(db);
    expect(ends).toHaveLength(1);
    expect(ends[0]!.categorySlug).toBeNull();
    expect(Math.abs(ends[0]!.until.getTime() - (Date.now() + 90 * 60_000))).toBeLessThan(61_000);
    expect(await refusal(setPinUntil(db, pin!.id, inMinutes(-1), TZ, EDITOR))).toMatchObject({ message: PIN_MESSAGES.pastUntil });
    await unpinStory(db, pin!.id, EDITOR);
    expect(await listPins(db)).toEqual([]);
    expect(await refusal(unpinStory(db, pin!.id, EDITOR))).toMatchObject({ code: "not_found", message: PIN_MESSAGES.unknownPin });
  });

  test("Feature on the front page pins a top story; turning it off removes the pin", async () => {
    expect(await frontPagePlacementOf(db, stories[3]!)).toBeNull();
    await featureStory(db, stories[3]!, TZ, EDITOR);
    await featureStory(db, stories[3]!, TZ, EDITOR); // twice: still one pin
    expect(await frontPagePlacementOf(db, stories[3]!)).toBe("top");
    expect((await listPins(db)).length).toBe(1);
    expect(await titles(2)).toEqual(["Story 9", "Story 3"]);
    await unfeatureStory(db, stories[3]!, EDITOR);
    expect(await frontPagePlacementOf(db, stories[3]!)).toBeNull();
    const draft = await story("Unfinished", 1, { status: "draft" });
    expect(await refusal(featureStory(db, draft, TZ, EDITOR))).toMatchObject({ message: PIN_MESSAGES.notPublic });
  });

  test("the search finds public stories by title, never drafts", async () => {
    await story("Story of a draft", 1, { status: "draft" });
    const found = await searchPinnableStories(db, "story 1");
    expect(found.map((s) => s.title)).toEqual(["Story 1"]);
    expect((await searchPinnableStories(db, "STORY")).map((s) => s.title)).not.toContain("Story of a draft");
    expect(await searchPinnableStories(db, "100%_")).toEqual([]);
    expect(await searchPinnableStories(db, "   ")).toEqual([]);
  });
});

describe("a category's pinned story", () => {
  test("one per category, of that category, first on page 1 and not repeated", async () => {
    await pinStory(db, { articleId: stories[0]!, placement: "category", categoryId: news, until: "" }, TZ, EDITOR);
    const pinned = await categoryPinnedStory(db, news);
    expect(pinned?.title).toBe("Story 0");
    expect(await categoryPinnedStory(db, sport)).toBeNull();
    // A second pin on the same category replaces the first.
    await pinStory(db, { articleId: stories[2]!, placement: "category", categoryId: news, until: "" }, TZ, EDITOR);
    expect((await categoryPinnedStory(db, news))?.title).toBe("Story 2");
    // A story of another category is refused.
    expect(await refusal(pinStory(db, { articleId: stories[1]!, placement: "category", categoryId: news, until: "" }, TZ, EDITOR))).toMatchObject({ field: "articleId" });
    expect(await refusal(pinStory(db, { articleId: stories[1]!, placement: "category", categoryId: "nope", until: "" }, TZ, EDITOR))).toMatchObject({ message: PIN_MESSAGES.unknownCategory });
    // The category pin is not a home-page pin.
    expect(await titles(1)).toEqual(["Story 9"]);

  });

  test("the screen says why a pin no longer shows: its story moved to another category, or is no longer public", async () => {
    await pinStory(db, { articleId: stories[0]!, placement: "category", categoryId: news, until: "" }, TZ, EDITOR);
    expect((await listPins(db))[0]).toMatchObject({ showing: true, hiddenBecause: null });
    await db.execute(sql`update articles set category_id = ${sport} where id = ${stories[0]!}`);
    expect(await categoryPinnedStory(db, news)).toBeNull();
    expect((await listPins(db))[0]).toMatchObject({ showing: false, hiddenBecause: "moved" });
    await db.execute(sql`update articles set category_id = ${news}, status = 'draft' where id = ${stories[0]!}`);
    expect((await listPins(db))[0]).toMatchObject({ showing: false, hiddenBecause: "not-public" });
  });

  test("with a pin every category page still holds a page of cards, and no story is skipped or shown twice", () => {
    // Twelve stories newest first (ids s00…s11), pages of four; the pin is each story in turn, or none.
    const cards = Array.from({ length: 12 }, (_, i) => ({ id: `s${String(i).padStart(2, "0")}`, publishedAt: new Date(Date.UTC(2026, 0, 31 - i)) })) as unknown as ArticleCard[];
    const size = 4;
    for (const pin of [null, ...cards]) {
      const shown: string[] = [];
      for (let page = 1; page <= 3; page++) {
        const { offset, limit } = categoryPageRows(page, size);
        const cardsOfPage = withCategoryPin(cards.slice(offset, offset + limit), pin, page, size).map((c) => c.id);
        expect(cardsOfPage, `pin ${pin?.id ?? "none"}, page ${page}`).toHaveLength(4);
        shown.push(...cardsOfPage);
      }
      const expected = pin ? [pin.id, ...cards.map((c) => c.id).filter((id) => id !== pin.id)] : cards.map((c) => c.id);
      expect(shown, `pin ${pin?.id ?? "none"}`).toEqual(expected);
    }
  });

  test("a category pin's end names its category's page", async () => {
    await pinStory(db, { articleId: stories[1]!, placement: "category", categoryId: sport, until: inMinutes(10) }, TZ, EDITOR);
    expect((await upcomingPinEnds(db)).map((end) => end.categorySlug)).toEqual(["sport"]);
  });
});

describe("Explore Topics", () => {
  test("the chosen categories in order, or every category; unknown or repeated ones are refused", async () => {
    await setExploreCategories(db, [sport, news], EDITOR);
    const [row] = await db.select({ ids: websiteSettings.exploreCategoryIds }).from(websiteSettings);
    expect(row!.ids).toEqual([sport, news]);
    expect(await refusal(setExploreCategories(db, [sport, sport], EDITOR))).toMatchObject({ message: PIN_MESSAGES.badExplore });
    expect(await refusal(setExploreCategories(db, ["6d0f1c5e-8a6b-4d2c-9f57-0c1f3a2b4d5e"], EDITOR))).toMatchObject({ message: PIN_MESSAGES.badExplore });
    await setExploreCategories(db, null, EDITOR);
    const [after] = await db.select({ ids: websiteSettings.exploreCategoryIds }).from(websiteSettings);
    expect(after!.ids).toBeNull();
    // The home page shows the chosen ones in their order; one deleted since is left out.
    const all = [{ id: news }, { id: sport }];
    expect(exploreCategoriesOf(all, [sport, "6d0f1c5e-8a6b-4d2c-9f57-0c1f3a2b4d5e", news])).toEqual([{ id: sport }, { id: news }]);
  });
});

describe("the home page's category blocks", () => {
  test("each category asked for, in that order, with its newest public stories not shown above, at most the number asked", async () => {
    // Stories 0–9 alternate News (even) and Sport (odd); the page already shows 9 and 8.
    await story("A News draft", 0.5, { status: "draft" });
    await story("A scheduled Sport story", -5, { status: "scheduled", categoryId: sport });
    const sections = await homeCategorySections(db, [{ id: sport, name: "Sport" }, { id: news, name: "News" }], [stories[9]!, stories[8]!], 3);
    expect(sections.map((s) => [s.category.name, s.stories.map((c) => c.title)])).toEqual([
      ["Sport", ["Story 7", "Story 5", "Story 3"]],
      ["News", ["Story 6", "Story 4", "Story 2"]],
    ]);
    // Cards, with their category and focal point.
    expect(sections[0]!.stories[0]).toMatchObject({ category: { name: "Sport", slug: "sport" }, featuredImageFocus: null });
  });

  test("a category with nothing left to show has no block; none asked for reads nothing", async () => {
    const sections = await homeCategorySections(db, [{ id: news }, { id: sport }], stories.filter((_, i) => i % 2 === 0), 4);
    expect(sections.map((s) => s.category.id)).toEqual([sport]);
    expect(await homeCategorySections(db, [], [], 4)).toEqual([]);
  });

  test("the focal point of a story's image comes with its card", async () => {
    await db.update(articles).set({ featuredImage: "/media/images/a.jpg", featuredImageFocalX: 0.9, featuredImageFocalY: 0.25 }).where(eq(articles.id, stories[7]!));
    const [section] = await homeCategorySections(db, [{ id: sport }], [stories[9]!], 1);
    expect(section!.stories.map((c) => [c.title, c.featuredImageFocus])).toEqual([["Story 7", { x: 0.9, y: 0.25 }]]);
  });
});
