import { and, asc, eq, inArray, isNull, lte, ne, or, sql } from "drizzle-orm";
import { publiclyVisible, publiclyVisibleSql } from "~/db/article-visibility";
import type { Db } from "~/db/client.server";
import { preparedQuery } from "~/db/prepared-queries.server";
import { articles, categories, storyPins, websiteSettings } from "~/db/schema";
import { SYSTEM_ACTOR, type Actor } from "~/domain/accounts/actor";
import { recordActivity } from "~/domain/activity/activity.server";
import { cardColumns, newestFirst, toCard, type RowWindow } from "~/domain/articles/article-cards.server";
import type { ArticleCard } from "~/domain/articles/articles.schema";
import { DEFAULT_SETTINGS } from "~/domain/settings/default-settings";
import { AppError } from "~/lib/app-error";
import { fromDateTimeLocal } from "~/lib/dates";
import { isUuid } from "~/lib/ids";
import { MAX_TOP_PINS, PIN_MESSAGES, type HomePlacement, type PinnableStory, type PinView } from "./front-page.schema";

// The front page the editors choose (issue 27, decision 0034): the home page's lead and top stories
// and one story atop each category page, placed by hand, each until an optional time. Readers' pages
// read pins with the stories they already read (one query for home, one small one for a category);
// a pin whose story is no longer public, or whose time has passed, is simply not shown.

type PinField = "articleId" | "placement" | "categoryId" | "until" | "pinId" | "categoryIds";

/** A home-page pin (lead or top) in force now: written once, read by every home-page query. */
const activeHomePin = () => sql`(${storyPins.placement} <> 'category' and (${storyPins.until} is null or ${storyPins.until} > now()))`;
const activePin = () => or(isNull(storyPins.until), sql`${storyPins.until} > now()`)!;

// ------------------------------------------------------------------------------ reader pages

/**
 * Home's stories in one statement (decision 0031's prepared queries): the pinned ones in force and
 * the newest public ones (enough to fill the page whatever the pins), each row with its pin's place.
 * The ids are found first, from the pins' table and the (status, published_at, id) index, so only
 * those few rows are read.
 */
const homeCards = preparedQuery("home_cards", (db, name) => {
  const newestIds = db.select({ id: articles.id }).from(articles).where(publiclyVisible()).orderBy(...newestFirst).limit(sql.placeholder("limit"));
  return db
    .select({ ...cardColumns, pinPlacement: storyPins.placement, pinPosition: storyPins.position })
    .from(articles)
    .leftJoin(categories, eq(articles.categoryId, categories.id))
    .leftJoin(storyPins, and(eq(storyPins.articleId, articles.id), activeHomePin()))
    .where(
      and(
        publiclyVisible(),
        sql`${articles.id} in (select ${storyPins.articleId} from ${storyPins} where ${activeHomePin()} union all (${newestIds}))`,
      ),
    )
    .orderBy(...newestFirst)
    .prepare(name);
});

/**
 * The home page's `count` stories in their order: the pinned lead (else the newest story), the pinned
 * top stories in the editors' order, then the newest others. No story twice.
 */
export async function homePageStories(db: Db, count: number): Promise<ArticleCard[]> {
  const rows = await homeCards(db, { limit: count + MAX_TOP_PINS + 1 });
  const lead = rows.find((row) => row.pinPlacement === "lead");
  const tops = rows.filter((row) => row.pinPlacement === "top").sort((a, b) => a.pinPosition! - b.pinPosition!);
  const rest = rows.filter((row) => row.pinPlacement === null);
  const ordered = lead ? [lead, ...tops, ...rest] : [...rest.slice(0, 1), ...tops, ...rest.slice(1)];
  return ordered.slice(0, count).map(({ pinPlacement: _placement, pinPosition: _position, ...card }) => toCard(card));
}

/**
 * The home page's category blocks (issue 41, decision 0055) in one statement: for each category asked
 * for, its newest `perCategory` public stories that the page does not already show. A lateral join
 * reads each category's first rows from the (category_id, status, published_at, id) index and stops
 * (no category's whole list is read or sorted), then the cards of those few ids.
 */
const sectionCards = preparedQuery("home_section_cards", (db, name) => {
  const picked = sql`select picked.id from unnest(${sql.placeholder("categoryIds")}::uuid[]) as wanted(category_id)
    cross join lateral (
      select a.id from ${articles} a
      where a.category_id = wanted.category_id and ${publiclyVisibleSql("a")} and a.id <> all(${sql.placeholder("shownIds")}::uuid[])
      order by a.published_at desc nulls last, a.id desc nulls last
      limit ${sql.placeholder("perCategory")}
    ) as picked`;
  return db
    .select({ ...cardColumns, categoryId: articles.categoryId })
    .from(articles)
    .leftJoin(categories, eq(articles.categoryId, categories.id))
    .where(sql`${articles.id} in (${picked})`)
    .orderBy(...newestFirst)
    .prepare(name);
});

/** A category's block on the home page: the category and its newest stories not shown above it. */
export interface CategorySection<C> {
  category: C;
  stories: ArticleCard[];
}

/**
 * The home page's blocks, one per category of `wanted` (in its order) that has a story the page does
 * not already show (`shownIds`), each with up to `perCategory` of its newest public stories.
 */
export async function homeCategorySections<C extends { id: string }>(db: Db, wanted: readonly C[], shownIds: readonly string[], perCategory: number): Promise<CategorySection<C>[]> {
  if (wanted.length === 0 || perCategory <= 0) return [];
  const rows = await sectionCards(db, { categoryIds: wanted.map((c) => c.id), shownIds: shownIds.filter(isUuid), perCategory });
  const byCategory = new Map<string, ArticleCard[]>();
  for (const { categoryId, ...row } of rows) {
    if (!categoryId) continue;
    const list = byCategory.get(categoryId) ?? [];
    list.push(toCard(row));
    byCategory.set(categoryId, list);
  }
  return wanted.flatMap((category) => {
    const stories = byCategory.get(category.id);
    return stories ? [{ category, stories }] : [];
  });
}

const categoryPinCard = preparedQuery("category_pin_card", (db, name) =>
  db
    .select(cardColumns)
    .from(storyPins)
    .innerJoin(articles, eq(articles.id, storyPins.articleId))
    .leftJoin(categories, eq(articles.categoryId, categories.id))
    // Still of that category (a story moved to another since no longer leads this one's page).
    .where(and(eq(storyPins.placement, "category"), eq(storyPins.categoryId, sql.placeholder("categoryId")), eq(articles.categoryId, storyPins.categoryId), activePin(), publiclyVisible()))
    .limit(1)
    .prepare(name),
);

/** The story pinned atop a category's page, if one is in force and public (one small query, by the one-per-category index). */
export async function categoryPinnedStory(db: Db, categoryId: string): Promise<ArticleCard | null> {
  const [row] = await categoryPinCard(db, { categoryId });
  return row ? toCard(row) : null;
}

/**
 * The rows of a category's newest-first list that page `pageNumber` reads: one more than a page, and
 * from the row before the page's own after page 1, so withCategoryPin can make room for a pin.
 */
export function categoryPageRows(pageNumber: number, pageSize: number): RowWindow {
  return { offset: pageNumber === 1 ? 0 : (pageNumber - 1) * pageSize - 1, limit: pageSize + 1 };
}

/** Whether `a` comes before `b` newest first (published_at desc, then id desc: article-cards' order). */
const newerThan = (a: ArticleCard, b: ArticleCard) => (a.publishedAt.getTime() === b.publishedAt.getTime() ? a.id > b.id : a.publishedAt > b.publishedAt);

/**
 * A category page's `pageSize` cards, from the `rows` categoryPageRows named. With a pin the list is
 * the pin, then the newest first without it: the pin leads page 1 and is nowhere else, and every
 * page still holds `pageSize` cards (the story that page 1 gives up to the pin opens page 2).
 */
export function withCategoryPin(rows: readonly ArticleCard[], pin: ArticleCard | null, pageNumber: number, pageSize: number): ArticleCard[] {
  if (pageNumber === 1) return pin ? [pin, ...rows.filter((card) => card.id !== pin.id).slice(0, pageSize - 1)] : rows.slice(0, pageSize);
  // `rows` start one row early: without a pin, or with one on an earlier page, the page starts one later.
  if (pin && rows.some((card) => card.id === pin.id)) return rows.filter((card) => card.id !== pin.id).slice(0, pageSize);
  const pinIsEarlier = pin !== null && rows[0] !== undefined && newerThan(pin, rows[0]);
  return !pin || pinIsEarlier ? rows.slice(1, pageSize + 1) : rows.slice(0, pageSize);
}

/**
 * The pins still to end, soonest first, with the page each one changes: the home page's, or a
 * category's (its slug). The page cache clears those pages at that time (server/services.ts).
 */
export async function upcomingPinEnds(db: Db, now = new Date()): Promise<{ until: Date; categorySlug: string | null }[]> {
  return db
    .select({ until: sql<Date>`${storyPins.until}`.mapWith(storyPins.until), categorySlug: categories.slug })
    .from(storyPins)
    .leftJoin(categories, eq(categories.id, storyPins.categoryId))
    .where(sql`${storyPins.until} > ${now}`)
    .orderBy(asc(storyPins.until))
    .limit(100);
}

// ------------------------------------------------------------------------------ the admin screen

/** Every pin, with its story, home's first (lead, then top stories in order), then the categories'. */
export async function listPins(db: Db): Promise<PinView[]> {
  const rows = await db
    .select({
      id: storyPins.id,
      placement: storyPins.placement,
      categoryId: storyPins.categoryId,
      articleId: storyPins.articleId,
      title: articles.title,
      slug: articles.slug,
      position: storyPins.position,
      until: storyPins.until,
      hiddenBecause: sql<PinView["hiddenBecause"]>`case
        when not (${publiclyVisible()}) then 'not-public'
        when ${storyPins.placement} = 'category' and ${articles.categoryId} is distinct from ${storyPins.categoryId} then 'moved'
        when ${storyPins.until} <= now() then 'ended'
      end`,
    })
    .from(storyPins)
    .innerJoin(articles, eq(articles.id, storyPins.articleId))
    .orderBy(sql`case ${storyPins.placement} when 'lead' then 0 when 'top' then 1 else 2 end`, asc(storyPins.position), asc(storyPins.createdAt));
  return rows.map((row) => ({ ...row, until: row.until ? row.until.toISOString() : null, showing: row.hiddenBecause === null }));
}

/** Public stories whose title holds `query` (case-insensitive), newest first: what an editor may pin. */
export async function searchPinnableStories(db: Db, query: string, limit = 10): Promise<PinnableStory[]> {
  const words = query.trim().slice(0, 200);
  if (!words) return [];
  const pattern = `%${words.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await db
    .select({ id: articles.id, title: articles.title, slug: articles.slug, categoryId: articles.categoryId, categoryName: categories.name, publishedAt: articles.publishedAt })
    .from(articles)
    .leftJoin(categories, eq(articles.categoryId, categories.id))
    .where(and(publiclyVisible(), sql`${articles.title} ilike ${pattern}`))
    .orderBy(...newestFirst)
    .limit(limit);
  return rows.map((row) => ({ ...row, publishedAt: (row.publishedAt ?? new Date(0)).toISOString() }));
}

/** The home page's place of a story now ("Feature on the front page" is on when it has one). */
export async function frontPagePlacementOf(db: Db, articleId: string): Promise<HomePlacement | null> {
  if (!isUuid(articleId)) return null;
  const [row] = await db
    .select({ placement: storyPins.placement })
    .from(storyPins)
    .where(and(eq(storyPins.articleId, articleId), ne(storyPins.placement, "category"), activePin()))
    .limit(1);
  return (row?.placement as HomePlacement | undefined) ?? null;
}

const refused = (message: string, field: PinField) => new AppError<PinField>("invalid_input", message, { field });

/** The end of a pin from the form's datetime-local value on the site's clock: null (no end), or a future instant. */
function untilOf(local: string, timeZone: string, now: Date): Date | null {
  if (!local.trim()) return null;
  const until = fromDateTimeLocal(local, timeZone);
  if (!until) throw refused(PIN_MESSAGES.badUntil, "until");
  if (until.getTime() <= now.getTime()) throw refused(PIN_MESSAGES.pastUntil, "until");
  return until;
}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** The story, if it is public at `now`; else the refusal (unknown, or a draft/scheduled story). */
async function publicStory(tx: Tx, articleId: string, now: Date) {
  if (!isUuid(articleId)) throw refused(PIN_MESSAGES.unknownStory, "articleId");
  const [story] = await tx
    .select({ id: articles.id, title: articles.title, status: articles.status, publishedAt: articles.publishedAt, categoryId: articles.categoryId })
    .from(articles)
    .where(eq(articles.id, articleId))
    .limit(1);
  if (!story) throw refused(PIN_MESSAGES.unknownStory, "articleId");
  if (story.status !== "published" || !story.publishedAt || story.publishedAt.getTime() > now.getTime()) throw refused(PIN_MESSAGES.notPublic, "articleId");
  return story;
}

/** Pins that have ended are forgotten at the next change (they show nowhere already). */
async function forgetEnded(tx: Tx, now: Date) {
  await tx.delete(storyPins).where(lte(storyPins.until, now));
}

/** Serialises the writes to the pins (positions and the six-story limit are read, then written). */
async function lockPins(tx: Tx) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('story_pins'))`);
}

export interface PinRequest {
  articleId: string;
  placement: "lead" | "top" | "category";
  /** For a category pin: the category whose page it leads. */
  categoryId?: string;
  /** A datetime-local value on the site's clock, or "" for no end. */
  until: string;
}

/**
 * Pins a public story: as the home page's lead (replacing the lead there was), as a top story (after
 * the others; at most MAX_TOP_PINS), or atop its category's page (replacing that page's pin). A story
 * pinned on the home page already moves to its new place. Refused: a story that is not public, an
 * "until" in the past, a seventh top story, an unknown category or one the story is not in.
 */
export async function pinStory(db: Db, request: PinRequest, timeZone: string, actor: Actor = SYSTEM_ACTOR, now = new Date()) {
  const until = untilOf(request.until, timeZone, now);
  return db.transaction(async (tx) => {
    await lockPins(tx);
    const story = await publicStory(tx, request.articleId, now);
    await forgetEnded(tx, now);
    let label: string;
    if (request.placement === "category") {
      const categoryId = request.categoryId ?? "";
      const [category] = isUuid(categoryId) ? await tx.select({ id: categories.id, name: categories.name }).from(categories).where(eq(categories.id, categoryId)).limit(1) : [];
      if (!category) throw refused(PIN_MESSAGES.unknownCategory, "categoryId");
      if (story.categoryId !== category.id) throw refused(`“${story.title}” is not in ${category.name}: only a story of the category can lead its page.`, "articleId");
      await tx.delete(storyPins).where(and(eq(storyPins.placement, "category"), eq(storyPins.categoryId, category.id)));
      await tx.insert(storyPins).values({ placement: "category", categoryId: category.id, articleId: story.id, until, createdById: actor.id });
      label = `Pinned atop ${category.name}`;
    } else {
      const [current] = await tx
        .select({ id: storyPins.id, placement: storyPins.placement })
        .from(storyPins)
        .where(and(eq(storyPins.articleId, story.id), ne(storyPins.placement, "category")));
      if (request.placement === "lead") {
        await tx.delete(storyPins).where(or(eq(storyPins.placement, "lead"), current ? eq(storyPins.id, current.id) : undefined));
        await tx.insert(storyPins).values({ placement: "lead", articleId: story.id, until, createdById: actor.id });
        label = "Pinned as the lead story";
      } else if (current?.placement === "top") {
        await tx.update(storyPins).set({ until }).where(eq(storyPins.id, current.id));
        label = "Top story's end changed";
      } else {
        const [{ tops, last }] = (await tx
          .select({ tops: sql<number>`count(*)::int`, last: sql<number>`coalesce(max(${storyPins.position}), -1)::int` })
          .from(storyPins)
          .where(eq(storyPins.placement, "top"))) as [{ tops: number; last: number }];
        if (tops >= MAX_TOP_PINS) throw refused(PIN_MESSAGES.tooManyTop, "placement");
        if (current) await tx.delete(storyPins).where(eq(storyPins.id, current.id));
        await tx.insert(storyPins).values({ placement: "top", articleId: story.id, position: last + 1, until, createdById: actor.id });
        label = "Pinned as a top story";
      }
    }
    await recordActivity(tx, actor, {
      kind: "front_page.update",
      objectType: "article",
      objectId: story.id,
      objectLabel: story.title,
      details: { change: label, placement: request.placement, until: until?.toISOString() ?? null },
    });
    return { articleId: story.id, placement: request.placement, until };
  });
}

/** The pin by id, or the refusal (gone: another editor removed it, or it ended). */
async function pinById(tx: Tx, pinId: string) {
  const [pin] = isUuid(pinId)
    ? await tx
        .select({ id: storyPins.id, placement: storyPins.placement, position: storyPins.position, articleId: storyPins.articleId, title: articles.title })
        .from(storyPins)
        .innerJoin(articles, eq(articles.id, storyPins.articleId))
        .where(eq(storyPins.id, pinId))
        .limit(1)
    : [];
  if (!pin) throw new AppError<PinField>("not_found", PIN_MESSAGES.unknownPin, { field: "pinId" });
  return pin;
}

/** Removes a pin: its story falls back to its place among the newest. */
export async function unpinStory(db: Db, pinId: string, actor: Actor = SYSTEM_ACTOR) {
  await db.transaction(async (tx) => {
    await lockPins(tx);
    const pin = await pinById(tx, pinId);
    await tx.delete(storyPins).where(eq(storyPins.id, pin.id));
    await recordActivity(tx, actor, { kind: "front_page.update", objectType: "article", objectId: pin.articleId, objectLabel: pin.title, details: { change: "Unpinned", placement: pin.placement } });
  });
}

/** Changes when a pin ends ("" for never). */
export async function setPinUntil(db: Db, pinId: string, local: string, timeZone: string, actor: Actor = SYSTEM_ACTOR, now = new Date()) {
  const until = untilOf(local, timeZone, now);
  await db.transaction(async (tx) => {
    await lockPins(tx);
    const pin = await pinById(tx, pinId);
    await tx.update(storyPins).set({ until }).where(eq(storyPins.id, pin.id));
    await recordActivity(tx, actor, {
      kind: "front_page.update",
      objectType: "article",
      objectId: pin.articleId,
      objectLabel: pin.title,
      details: { change: "Pin's end changed", placement: pin.placement, until: until?.toISOString() ?? null },
    });
  });
}

/** The top stories' order: `orderedPinIds` must name every top-story pin once. */
export async function reorderTopPins(db: Db, orderedPinIds: readonly string[], actor: Actor = SYSTEM_ACTOR) {
  await db.transaction(async (tx) => {
    await lockPins(tx);
    const tops = await tx.select({ id: storyPins.id }).from(storyPins).where(eq(storyPins.placement, "top"));
    const known = new Set(tops.map((pin) => pin.id));
    if (orderedPinIds.length !== known.size || new Set(orderedPinIds).size !== known.size || orderedPinIds.some((id) => !known.has(id))) {
      throw new AppError<PinField>("invalid_input", "The top stories changed meanwhile. The page has been reloaded: try again.", { field: "pinId" });
    }
    for (const [position, id] of orderedPinIds.entries()) await tx.update(storyPins).set({ position }).where(eq(storyPins.id, id));
    await recordActivity(tx, actor, { kind: "front_page.update", objectType: "settings", objectLabel: "Top stories reordered", details: { change: "Top stories reordered" } });
  });
}

/** Moves a top story one place up or down (the "Move up"/"Move down" buttons; the first cannot go up). */
export async function moveTopPin(db: Db, pinId: string, direction: "up" | "down", actor: Actor = SYSTEM_ACTOR) {
  await db.transaction(async (tx) => {
    await lockPins(tx);
    const pin = await pinById(tx, pinId);
    if (pin.placement !== "top") throw new AppError<PinField>("invalid_input", "Only top stories are ordered.", { field: "pinId" });
    const tops = await tx.select({ id: storyPins.id }).from(storyPins).where(eq(storyPins.placement, "top")).orderBy(asc(storyPins.position), asc(storyPins.createdAt));
    const from = tops.findIndex((row) => row.id === pin.id);
    const to = direction === "up" ? from - 1 : from + 1;
    if (to < 0 || to >= tops.length) return;
    const order = tops.map((row) => row.id);
    [order[from], order[to]] = [order[to]!, order[from]!];
    for (const [position, id] of order.entries()) await tx.update(storyPins).set({ position }).where(eq(storyPins.id, id));
    await recordActivity(tx, actor, { kind: "front_page.update", objectType: "article", objectId: pin.articleId, objectLabel: pin.title, details: { change: `Moved ${direction}` } });
  });
}

/** "Feature on the front page": pins a public story as a top story, until removed (nothing changes when it is on the front page already). */
export async function featureStory(db: Db, articleId: string, timeZone: string, actor: Actor = SYSTEM_ACTOR, now = new Date()) {
  if (await frontPagePlacementOf(db, articleId)) return;
  await pinStory(db, { articleId, placement: "top", until: "" }, timeZone, actor, now);
}

/** Takes a story off the home page's pins (lead or top): it falls back among the newest. */
export async function unfeatureStory(db: Db, articleId: string, actor: Actor = SYSTEM_ACTOR) {
  if (!isUuid(articleId)) throw refused(PIN_MESSAGES.unknownStory, "articleId");
  await db.transaction(async (tx) => {
    await lockPins(tx);
    const removed = await tx
      .delete(storyPins)
      .where(and(eq(storyPins.articleId, articleId), ne(storyPins.placement, "category")))
      .returning({ placement: storyPins.placement });
    if (removed.length === 0) return;
    const [story] = await tx.select({ title: articles.title }).from(articles).where(eq(articles.id, articleId)).limit(1);
    await recordActivity(tx, actor, { kind: "front_page.update", objectType: "article", objectId: articleId, objectLabel: story?.title ?? null, details: { change: "Unpinned", placement: removed[0]!.placement } });
  });
}

/**
 * The categories "Explore Topics" shows, in order (null: every category, as the navigation orders
 * them). Each must exist, once. A settings change: every cached page is dropped, as for any setting.
 */
export async function setExploreCategories(db: Db, categoryIds: readonly string[] | null, actor: Actor = SYSTEM_ACTOR) {
  if (categoryIds) {
    const valid = categoryIds.every(isUuid) && new Set(categoryIds).size === categoryIds.length;
    const found = valid && categoryIds.length > 0 ? await db.select({ id: categories.id }).from(categories).where(inArray(categories.id, [...categoryIds])) : [];
    if (!valid || found.length !== categoryIds.length) throw refused(PIN_MESSAGES.badExplore, "categoryIds");
  }
  const value = categoryIds ? [...categoryIds] : null;
  await db.transaction(async (tx) => {
    await tx
      .insert(websiteSettings)
      .values({ id: 1, siteName: DEFAULT_SETTINGS.siteName, exploreCategoryIds: value, updatedAt: new Date() })
      .onConflictDoUpdate({ target: websiteSettings.id, set: { exploreCategoryIds: value, updatedAt: new Date() } });
    await recordActivity(tx, actor, {
      kind: "front_page.update",
      objectType: "settings",
      objectLabel: "Explore Topics",
      details: { change: value ? "Explore Topics chosen" : "Explore Topics shows every category", categories: value?.length ?? null },
    });
  });
}

/** The categories Explore Topics shows: those the editors chose, in their order (a deleted one left out). */
export function exploreCategoriesOf<C extends { id: string }>(all: readonly C[], chosen: readonly string[]): C[] {
  return chosen.map((id) => all.find((category) => category.id === id)).filter((category): category is C => category !== undefined);
}
