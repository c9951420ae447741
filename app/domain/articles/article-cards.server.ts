import { desc, sql } from "drizzle-orm";
import { articles, categories } from "~/db/schema";
import type { ArticleCard } from "./articles.schema";

// What every list of public articles selects for its cards (home, category, author pages, feeds),
// and how a row becomes a card.

/**
 * Readers' order: newest publication first. NULLS LAST as in the (status, published_at) indexes
 * (migration 0003), so PostgreSQL reads them in order instead of sorting every match (a public
 * article always has published_at).
 */
export const newestFirst = [sql`${articles.publishedAt} desc nulls last`, desc(articles.id)] as const;

/** The columns of a card; select them from articles left-joined to categories. */
export const cardColumns = {
  id: articles.id,
  title: articles.title,
  slug: articles.slug,
  excerpt: articles.excerpt,
  featuredImage: articles.featuredImage,
  featuredImageAlt: articles.featuredImageAlt,
  videoUrl: articles.videoUrl,
  authorName: articles.authorName,
  views: articles.views,
  createdAt: articles.createdAt,
  // Set for every public article (the database's check); coalesce only keeps the type non-null.
  publishedAt: sql<Date>`coalesce(${articles.publishedAt}, ${articles.createdAt})`.mapWith(articles.createdAt),
  categoryName: categories.name,
  categorySlug: categories.slug,
};

type CardRow = Omit<ArticleCard, "category"> & { categoryName: string | null; categorySlug: string | null };

export function toCard({ categoryName, categorySlug, ...row }: CardRow): ArticleCard {
  return { ...row, category: categoryName && categorySlug ? { name: categoryName, slug: categorySlug } : null };
}
