import { and, asc, desc, eq, gte, inArray, lt, lte, max, sql, type SQL } from "drizzle-orm";
import { publiclyVisible } from "~/db/article-visibility";
import type { Db } from "~/db/client.server";
import { articles, articleSitemapMonths, articleTags, authors, authorSitemap, categories, liveUpdates, media } from "~/db/schema";
import { writtenBy } from "~/domain/authors/authors.server";
import { getSettings } from "~/domain/settings/settings.server";
import type { BylineAuthor } from "~/domain/authors/byline";
import { xmlEscape } from "~/lib/xml";
import { cardColumns, newestFirst } from "./article-cards.server";
import { renderFeaturedImageHtml } from "./featured-image-html";
import { renderStoryHtml } from "./story-html";
import { isGated, storyPartsOf } from "./story-paywall";

/** The link a gated story's feed item ends with (issue 40): to the story's page, where its call to action is. */
export const FEED_PAYWALL_LINK_TEXT = "Subscribe to read the whole story";

// What the feeds and sitemaps read (decision 0019): public articles only (publiclyVisible), through
// the (status, published_at) indexes, and never every article at once.

/** Items per RSS feed. */
export const FEED_ITEMS = 50;
/** The sitemaps protocol's limit of URLs per file. */
export const SITEMAP_MAX_URLS = 50_000;
/** Google News: articles of the last two days, at most 1,000. */
export const NEWS_SITEMAP_DAYS = 2;
export const NEWS_SITEMAP_MAX = 1000;

// ---------------------------------------------------------------- RSS

/** Whose articles a feed carries: the whole site, a category's or an author's. */
export type FeedScope =
  | { kind: "site" }
  | { kind: "category"; categoryId: string }
  | { kind: "author"; authorId: string }
  | { kind: "tag"; tagId: string };

export interface FeedItem {
  id: string;
  title: string;
  slug: string;
  excerpt: string | null;
  /** The body as readers see it: the featured image's figure and the story, as HTML (relative URLs). */
  html: string;
  image: { url: string; type: string | null; length: number | null; alt: string | null } | null;
  authors: BylineAuthor[];
  authorName: string;
  category: string | null;
  publishedAt: Date;
  updatedAt: Date;
}

function scopeFilter(db: Db, scope: FeedScope): SQL | undefined {
  if (scope.kind === "category") return eq(articles.categoryId, scope.categoryId);
  if (scope.kind === "author") return writtenBy(db, scope.authorId);
  if (scope.kind === "tag") return inArray(articles.id, db.select({ id: articleTags.articleId }).from(articleTags).where(eq(articleTags.tagId, scope.tagId)));
  return undefined;
}

/** A plain-text story (written before the editor) as paragraphs of escaped text. */
function plainTextHtml(content: string): string {
  return content
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${xmlEscape(p).replace(/\n/g, "<br>")}</p>`)
    .join("");
}

/** The newest public articles of a feed, with their full body, lead image (and its stored size) and authors. */
export async function listFeedItems(db: Db, scope: FeedScope, limit = FEED_ITEMS): Promise<FeedItem[]> {
  const rows = await db
    .select({
      ...cardColumns,
      content: articles.content,
      contentDoc: articles.contentDoc,
      featuredImageCaption: articles.featuredImageCaption,
      featuredImageCredit: articles.featuredImageCredit,
      imageType: media.contentType,
      imageSize: media.size,
      updatedAt: articles.updatedAt,
      access: articles.access,
    })
    .from(articles)
    .leftJoin(categories, eq(articles.categoryId, categories.id))
    // Our own uploads have a media row: the enclosure's type and byte length come from it.
    .leftJoin(media, and(eq(media.bucket, "images"), sql`${articles.featuredImage} = '/media/images/' || ${media.name}`))
    .where(and(publiclyVisible(), scopeFilter(db, scope)))
    .orderBy(...newestFirst)
    .limit(limit);
  // A gated story (issue 40) carries its free part only, cut as its page cuts it, and a link to its page.
  const paragraphs = rows.some((r) => isGated(r.access)) ? (await getSettings(db)).paywallParagraphs : 0;
  return rows.map((r) => {
    const figure = renderFeaturedImageHtml(r) ?? "";
    const body = isGated(r.access)
      ? `${renderStoryHtml(storyPartsOf(r, paragraphs).free)}<p><a href="/article/${xmlEscape(r.slug)}">${FEED_PAYWALL_LINK_TEXT}</a></p>`
      : r.contentDoc
        ? renderStoryHtml(r.contentDoc)
        : plainTextHtml(r.content);
    return {
      id: r.id,
      title: r.title,
      slug: r.slug,
      excerpt: r.excerpt,
      html: figure + body,
      image: r.featuredImage ? { url: r.featuredImage, type: r.imageType, length: r.imageSize, alt: r.featuredImageAlt } : null,
      authors: r.authors,
      authorName: r.authorName,
      category: r.categoryName,
      publishedAt: r.publishedAt,
      updatedAt: r.updatedAt,
    };
  });
}

// ---------------------------------------------------------------- sitemaps

/** One child sitemap of articles: a month of publication, split in parts of SITEMAP_MAX_URLS. */
export interface ArticleSitemapPart {
  /** "2026-11" */
  month: string;
  /** 1 for the first SITEMAP_MAX_URLS articles of the month, 2 for the next, … */
  part: number;
  lastmod: Date;
}

/** The sitemap's months up to this one (a month after it can only hold stories still to come). */
const monthsSoFar = () => lte(articleSitemapMonths.month, sql`to_char(now() at time zone 'UTC', 'YYYY-MM')`);

/**
 * The months with public articles, newest first, each as its parts, with the newest change in each:
 * one row a month, kept by the articles table's triggers (migration 0017), not the archive grouped on
 * every read. A month counts its published articles; one published with a date still to come (the
 * scheduler's are "scheduled" until then) would count before its month's sitemap lists it.
 */
export async function listArticleSitemapParts(db: Db, maxUrls = SITEMAP_MAX_URLS): Promise<ArticleSitemapPart[]> {
  const rows = await db
    .select()
    .from(articleSitemapMonths)
    .where(monthsSoFar())
    .orderBy(desc(articleSitemapMonths.month));
  return rows.flatMap((row) => Array.from({ length: Math.ceil(row.articles / maxUrls) }, (_, i) => ({ month: row.month, part: i + 1, lastmod: row.lastmod })));
}

/** The file name of a part of a month's articles: articles-2026-11.xml, then articles-2026-11-2.xml, … */
export function articleSitemapFile({ month, part }: Pick<ArticleSitemapPart, "month" | "part">): string {
  return part === 1 ? `articles-${month}.xml` : `articles-${month}-${part}.xml`;
}

/** The month and part a file name of articleSitemapFile names, or null. */
export function parseArticleSitemapFile(file: string): Pick<ArticleSitemapPart, "month" | "part"> | null {
  const match = /^articles-(\d{4}-\d{2})(?:-([2-9]|[1-9]\d+))?\.xml$/.exec(file);
  return match ? { month: match[1]!, part: Number(match[2] ?? 1) } : null;
}

/** The bounds of a "YYYY-MM" month in UTC, or null for a string that names no month. */
export function monthBounds(month: string): { from: Date; to: Date } | null {
  const match = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
  if (!match) return null;
  const [year, m] = [Number(match[1]), Number(match[2])];
  return { from: new Date(Date.UTC(year, m - 1, 1)), to: new Date(Date.UTC(year, m, 1)) };
}

/** One part of a month's public articles: address and last change, oldest first (stable parts). */
/**
 * When a story that has been live (issue 31) last changed with its updates: the newest post or edit
 * among them (null: never live, or no update). Asked only of the stories that were live: one probe of
 * the story's updates each, not every article's.
 */
const latestLiveChange = () =>
  sql<Date | null>`case when ${articles.liveStartedAt} is not null then (select max(coalesce(${liveUpdates.editedAt}, ${liveUpdates.createdAt}))
    from ${liveUpdates} where ${liveUpdates.articleId} = ${articles.id} and ${liveUpdates.deletedAt} is null) end`;

/** A month's part of the article sitemap; a live story's lastmod is its newest update when that is later than the story's own change. */
export async function listSitemapArticles(db: Db, month: string, part: number, maxUrls = SITEMAP_MAX_URLS) {
  const bounds = monthBounds(month);
  if (!bounds || !Number.isInteger(part) || part < 1) return [];
  return db
    .select({ slug: articles.slug, updatedAt: sql<Date>`greatest(${articles.updatedAt}, ${latestLiveChange()})`.mapWith(articles.updatedAt) })
    .from(articles)
    .where(and(publiclyVisible(), gte(articles.publishedAt, bounds.from), lt(articles.publishedAt, bounds.to)))
    .orderBy(asc(articles.publishedAt), asc(articles.id))
    .limit(maxUrls)
    .offset((part - 1) * maxUrls);
}

/** Every category with the newest change among its public articles (null: none yet). */
export async function listSitemapCategories(db: Db) {
  // Each category's newest change, one probe of the (category_id, status, updated_at) index each
  // (migration 0018), not the archive grouped by category (issue 13: 28 ms at 100,000 articles). The
  // outer row is named in full: drizzle leaves a lone table's columns unqualified.
  const newest = sql<Date | null>`(select ${articles.updatedAt} from ${articles}
    where ${articles.categoryId} = "categories"."id" and ${publiclyVisible()}
    order by ${articles.updatedAt} desc nulls last limit 1)`.mapWith(articles.updatedAt);
  return db.select({ slug: categories.slug, lastmod: newest }).from(categories).orderBy(asc(categories.slug));
}

/** Whether any author has a public article (the index lists the authors' sitemap then). */
export async function anyAuthorInSitemap(db: Db): Promise<boolean> {
  const [row] = await db.select({ id: authorSitemap.authorId }).from(authorSitemap).limit(1);
  return Boolean(row);
}

/**
 * Authors with at least one public article (decision 0015), with the newest change to them or their
 * articles: a row an author, kept by triggers (migration 0019), not every byline of the archive joined.
 */
export async function listSitemapAuthors(db: Db) {
  return db
    .select({ slug: authors.slug, lastmod: sql<Date>`greatest(${authors.updatedAt}, ${authorSitemap.lastmod})`.mapWith(authors.updatedAt) })
    .from(authorSitemap)
    .innerJoin(authors, eq(authors.id, authorSitemap.authorId))
    .orderBy(asc(authors.slug));
}

/** The newest change to any public article, or null (from the sitemap's months: migration 0017). */
async function newestArticleChange(db: Db): Promise<Date | null> {
  const [row] = await db.select({ lastmod: max(articleSitemapMonths.lastmod) }).from(articleSitemapMonths).where(monthsSoFar());
  return row?.lastmod ? new Date(row.lastmod) : null;
}

/**
 * When the site's own pages last changed, for their lastmod: the home page with its newest article
 * or the settings it shows, the static pages with the settings; and the newest public article's change.
 */
export async function pagesLastChange(db: Db): Promise<{ home: Date; staticPages: Date; newestArticle: Date | null }> {
  const [settings, newestArticle] = await Promise.all([getSettings(db), newestArticleChange(db)]);
  const home = newestArticle && newestArticle > settings.updatedAt ? newestArticle : settings.updatedAt;
  return { home, staticPages: settings.updatedAt, newestArticle };
}

/** Google News: the public articles of the last NEWS_SITEMAP_DAYS days, newest first, at most NEWS_SITEMAP_MAX; a live story with its newest update's time. */
export async function listNewsSitemapArticles(db: Db, now = new Date()) {
  const since = new Date(now.getTime() - NEWS_SITEMAP_DAYS * 24 * 60 * 60 * 1000);
  return db
    .select({
      slug: articles.slug,
      title: articles.title,
      publishedAt: sql<Date>`${articles.publishedAt}`.mapWith(articles.createdAt),
      // A live story's newest update (issue 31): the news sitemap has no field of its own for a change,
      // so the sitemaps protocol's <lastmod> carries it.
      lastmod: sql<Date | null>`${latestLiveChange()}`.mapWith(articles.updatedAt),
    })
    .from(articles)
    .where(and(publiclyVisible(), gte(articles.publishedAt, since)))
    .orderBy(...newestFirst)
    .limit(NEWS_SITEMAP_MAX);
}
