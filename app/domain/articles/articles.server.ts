import { and, eq, sql } from "drizzle-orm";
import { publiclyVisible } from "~/db/article-visibility";
import type { Db } from "~/db/client.server";
import { preparedQuery } from "~/db/prepared-queries.server";
import { articles, articleTags, categories, type Article } from "~/db/schema";
import { isUuid } from "~/lib/ids";
import { isSlug } from "~/lib/slugs";
import type { ArticleCard, ArticlePaywall, FeaturedImageText } from "./articles.schema";
import { cardColumns, countOf, newestFirst, newestMatching, preparedPageOfCards, toCard, type RowWindow } from "./article-cards.server";
import type { ArticleNote } from "./corrections.schema";
import { notesColumn } from "./corrections.server";
import { readEveryTime, type StoryMemo } from "./story-memo.server";
import { readingMinutes, wordCount } from "./story-document";
import { renderFeaturedImageHtml } from "./featured-image-html";
import { renderStoryHtml } from "./story-html";
import { NO_POSTERS, type EmbedPosters } from "./story-embed-html";
import { storyPlainText } from "./story-document";
import { isGated, storyAccessOf, storyPartsOf } from "./story-paywall";
import { ANONYMOUS, callToActionOf, isMeterable, meterNote, type Reader, type StoryAccessLevel, type Variant } from "~/domain/members/access";
import { PAYWALLED_CONTENT_CLASS } from "~/domain/members/paywall";

/** The newest public articles with their category, newest first (home loads 12, the RSS feed 50). */
export async function listLatestArticles(db: Db, limit = 12): Promise<ArticleCard[]> {
  const rows = await latestArticles(db, { limit });
  return rows.map(toCard);
}

const latestArticles = preparedQuery("latest_articles", (db, name) =>
  db
    .select(cardColumns)
    .from(articles)
    .leftJoin(categories, eq(articles.categoryId, categories.id))
    .where(publiclyVisible())
    .orderBy(...newestFirst)
    .limit(sql.placeholder("limit"))
    .prepare(name),
);

/**
 * One page of a category's public articles, newest first, and the total count for pagination (kept
 * in `memo` until a public story changes: a count reads every row of the category).
 */
export async function listCategoryArticles(db: Db, categoryId: string, rows: RowWindow, memo: StoryMemo = readEveryTime) {
  const [cards, total] = await Promise.all([
    categoryPage(db, { categoryId }, rows, { memo, key: `category-boundaries:${categoryId}` }),
    memo(`category-count:${categoryId}`, () => countOf(db, and(eq(articles.categoryId, categoryId), publiclyVisible()))),
  ]);
  return { articles: cards, total };
}

const categoryPage = preparedPageOfCards<{ categoryId: string }>(
  "category_page",
  newestMatching(() => and(eq(articles.categoryId, sql.placeholder("categoryId")), publiclyVisible())),
);

/** Whether the article of the outer query carries tag `tagId` (a placeholder or a value). */
const taggedWith = (tagId: unknown) =>
  sql`exists (select 1 from ${articleTags} where ${articleTags.articleId} = "articles"."id" and ${articleTags.tagId} = ${tagId})`;

/**
 * One page of a tag's public articles, newest first, and the total count for pagination (issue 29;
 * kept in `memo` as a category's count is).
 */
export async function listTagArticles(db: Db, tagId: string, rows: RowWindow, memo: StoryMemo = readEveryTime) {
  const [cards, total] = await Promise.all([
    tagPage(db, { tagId }, rows, { memo, key: `tag-boundaries:${tagId}` }),
    memo(`tag-count:${tagId}`, () => countOf(db, and(taggedWith(tagId), publiclyVisible()))),
  ]);
  return { articles: cards, total };
}

const tagPage = preparedPageOfCards<{ tagId: string }>(
  "tag_page",
  newestMatching(() => and(taggedWith(sql.placeholder("tagId")), publiclyVisible())),
);

export interface ArticleDetail extends ArticleCard, FeaturedImageText {
  content: string;
  /** When readers are told it was last updated ("Show as updated", a note): later, schema.org dateModified. */
  modifiedAt: Date | null;
  /** The story editor's document (checked when saved), or null for a plain-text story. */
  contentDoc: unknown;
  /** Its correction and update notes, newest first. */
  corrections: ArticleNote[];
  /** Live coverage (issue 31): when it started (null: never a live story) and ended (null: live now, when started). */
  liveStartedAt: Date | null;
  liveEndedAt: Date | null;
  /** Who may read the whole story (issue 40), and a paid story's tier (null: any paid tier). */
  access: StoryAccessLevel;
  accessTierId: string | null;
  /** The search and social overrides (issue 41): null, derived from the story (its headline, standfirst, featured image). */
  seoTitle: string | null;
  seoDescription: string | null;
  socialImage: string | null;
}

/** What an article page shows with its featured image. */
const featuredImageTextColumns = {
  featuredImageAlt: articles.featuredImageAlt,
  featuredImageCaption: articles.featuredImageCaption,
  featuredImageCredit: articles.featuredImageCredit,
};

/** What an article's page reads of it: its card, its figure's texts, its story and its notes. */
const detailColumns = {
  ...cardColumns,
  ...featuredImageTextColumns,
  content: articles.content,
  contentDoc: articles.contentDoc,
  modifiedAt: articles.modifiedAt,
  corrections: notesColumn,
  liveStartedAt: articles.liveStartedAt,
  liveEndedAt: articles.liveEndedAt,
  access: articles.access,
  accessTierId: articles.accessTierId,
  seoTitle: articles.seoTitle,
  seoDescription: articles.seoDescription,
  socialImage: articles.socialImage,
};

type SelectedDetail = Omit<ArticleDetail, "category"> & { categoryName: string | null; categorySlug: string | null };

function toDetail({
  content,
  contentDoc,
  modifiedAt,
  corrections,
  featuredImageCaption,
  featuredImageCredit,
  liveStartedAt,
  liveEndedAt,
  access,
  accessTierId,
  seoTitle,
  seoDescription,
  socialImage,
  ...card
}: SelectedDetail): ArticleDetail {
  return {
    ...toCard(card),
    featuredImageCaption,
    featuredImageCredit,
    content,
    contentDoc,
    modifiedAt,
    corrections,
    liveStartedAt,
    liveEndedAt,
    access,
    accessTierId,
    seoTitle,
    seoDescription,
    socialImage,
  };
}

/** A public article by slug; a draft, a scheduled article or an unknown slug is null (404). */
const publicArticleBySlug = preparedQuery("public_article_by_slug", (db, name) =>
  db
    .select(detailColumns)
    .from(articles)
    .leftJoin(categories, eq(articles.categoryId, categories.id))
    .where(and(eq(articles.slug, sql.placeholder("slug")), publiclyVisible()))
    .limit(1)
    .prepare(name),
);

export async function getArticleBySlug(db: Db, slug: string): Promise<ArticleDetail | null> {
  if (!isSlug(slug)) return null;
  const [row] = await publicArticleBySlug(db, { slug });
  if (!row) return null;
  return toDetail(row);
}

/**
 * Any article by id, whatever its status, as its page would show it: for the back office's preview
 * only (requireAdmin). An id that is not a UUID names nothing.
 */
export async function getArticleForPreview(db: Db, id: string): Promise<(ArticleDetail & { status: Article["status"] }) | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select({ ...detailColumns, status: articles.status })
    .from(articles)
    .leftJoin(categories, eq(articles.categoryId, categories.id))
    .where(eq(articles.id, id))
    .limit(1);
  if (!row) return null;
  const { status, ...detail } = row;
  return { ...toDetail(detail), status };
}

/** A public article's stored view count, by slug (null when there is no such public article). */
export async function getArticleViews(db: Db, slug: string): Promise<number | null> {
  if (!isSlug(slug)) return null;
  const [row] = await db.select({ views: articles.views }).from(articles).where(and(eq(articles.slug, slug), publiclyVisible())).limit(1);
  return row?.views ?? null;
}

/**
 * An article as its page shows it, on the article page and in the back office's preview alike: a
 * story written in the editor rendered here, on the server, through the renderer's allow-list (a
 * plain-text story, with no document, is shown as text by the page), the featured image with its
 * alt text, caption and credit rendered here too, and its reading time. Its embeds show `posters`
 * (read with the story: storyPostersOf), titled placeholders without.
 */
export function presentArticle<A extends ArticleDetail>(article: A, gate?: PageGate, posters: EmbedPosters = NO_POSTERS) {
  const { contentDoc, accessTierId: _tier, ...shown } = article;
  const featuredFigureHtml = renderFeaturedImageHtml(article);
  const access = storyAccessOf(article);
  // The back office's previews (no gate) show the whole story, its paywall block passed by.
  if (!gate || !isGated(access)) {
    const body = contentDoc ? { html: renderStoryHtml(contentDoc, posters) } : null;
    return { ...shown, featuredFigureHtml, body, readingMinutes: readingMinutes(wordCount(article.content)), paywall: null };
  }
  const parts = storyPartsOf(article, gate.paragraphs);
  const freeText = storyPlainText(parts.free);
  if (gate.variant === "full") {
    // The whole story; its paid part in the element the JSON-LD's hasPart names (Google's paywalled content).
    const gated = parts.gated.content.length ? `<div class="${PAYWALLED_CONTENT_CLASS}">${renderStoryHtml(parts.gated, posters)}</div>` : "";
    const paywall: ArticlePaywall = { access: access.level, variant: "full", articleBody: freeText, callToAction: null, meterNote: null };
    return { ...shown, featuredFigureHtml, body: { html: renderStoryHtml(parts.free, posters) + gated }, readingMinutes: readingMinutes(wordCount(article.content)), paywall };
  }
  // A teaser: the free part only, in every field (the text, the HTML, the reading time). The gated
  // blocks are never rendered, so they are in neither the HTML nor the `.data` of this answer.
  // The meter of the variant's class (a class, not a person): anonymous readers' or free members'; none for "upgrade".
  const reader: Reader = gate.variant === "anonymous" ? ANONYMOUS : { kind: "member", memberId: "", paidTiers: [] };
  const allowed = gate.variant === "anonymous" ? gate.meterAnonymous : gate.variant === "free" ? gate.meterMembers : 0;
  const paywall: ArticlePaywall = {
    access: access.level,
    variant: gate.variant,
    articleBody: freeText,
    callToAction: callToActionOf(gate.variant, access),
    meterNote: allowed > 0 && isMeterable(reader, access) ? meterNote(0, allowed) : null,
  };
  return { ...shown, content: freeText, featuredFigureHtml, body: { html: renderStoryHtml(parts.free, posters) }, readingMinutes: readingMinutes(wordCount(freeText)), paywall };
}

/** What a page render knows of its reader's class and the paywall settings (issue 40). */
export interface PageGate {
  variant: Variant;
  /** The settings: paragraphs before the paywall, and the meters (0: off). */
  paragraphs: number;
  meterAnonymous: number;
  meterMembers: number;
}

