import { count, desc, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { articles, categories } from "~/db/schema";
import { isSlug } from "~/lib/slugs";
import type { ArticleCard } from "./articles.schema";

const cardColumns = {
  id: articles.id,
  title: articles.title,
  slug: articles.slug,
  excerpt: articles.excerpt,
  featuredImage: articles.featuredImage,
  videoUrl: articles.videoUrl,
  authorName: articles.authorName,
  views: articles.views,
  createdAt: articles.createdAt,
  categoryName: categories.name,
  categorySlug: categories.slug,
};

type CardRow = Omit<ArticleCard, "category"> & { categoryName: string | null; categorySlug: string | null };

function toCard({ categoryName, categorySlug, ...row }: CardRow): ArticleCard {
  return { ...row, category: categoryName && categorySlug ? { name: categoryName, slug: categorySlug } : null };
}

/** The newest articles with their category, newest first (home loads 12). */
export async function listLatestArticles(db: Db, limit = 12): Promise<ArticleCard[]> {
  const rows = await db
    .select(cardColumns)
    .from(articles)
    .leftJoin(categories, eq(articles.categoryId, categories.id))
    .orderBy(desc(articles.createdAt), desc(articles.id))
    .limit(limit);
  return rows.map(toCard);
}

/** One page of a category's articles, newest first, and the total count for pagination. */
export async function listCategoryArticles(db: Db, categoryId: string, page: number, pageSize: number) {
  const [rows, [{ total }]] = await Promise.all([
    db
      .select(cardColumns)
      .from(articles)
      .leftJoin(categories, eq(articles.categoryId, categories.id))
      .where(eq(articles.categoryId, categoryId))
      .orderBy(desc(articles.createdAt), desc(articles.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(articles).where(eq(articles.categoryId, categoryId)),
  ]);
  return { articles: rows.map(toCard), total };
}

export interface ArticleDetail extends ArticleCard {
  content: string;
  /** The story editor's document (checked when saved), or null for a plain-text story. */
  contentDoc: unknown;
}

export async function getArticleBySlug(db: Db, slug: string): Promise<ArticleDetail | null> {
  if (!isSlug(slug)) return null;
  const [row] = await db
    .select({ ...cardColumns, content: articles.content, contentDoc: articles.contentDoc })
    .from(articles)
    .leftJoin(categories, eq(articles.categoryId, categories.id))
    .where(eq(articles.slug, slug))
    .limit(1);
  if (!row) return null;
  const { content, contentDoc, ...card } = row;
  return { ...toCard(card), content, contentDoc };
}

/** An article's stored view count, by slug (null when there is no such article). */
export async function getArticleViews(db: Db, slug: string): Promise<number | null> {
  if (!isSlug(slug)) return null;
  const [row] = await db.select({ views: articles.views }).from(articles).where(eq(articles.slug, slug)).limit(1);
  return row?.views ?? null;
}

/** Every article's address and last change, newest first, for the sitemap. */
export async function listArticlesForSitemap(db: Db, limit = 50_000) {
  return db
    .select({ slug: articles.slug, updatedAt: articles.updatedAt })
    .from(articles)
    .orderBy(desc(articles.createdAt))
    .limit(limit);
}
