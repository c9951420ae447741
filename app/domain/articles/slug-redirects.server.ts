import { and, eq, sql } from "drizzle-orm";
import { publiclyVisible } from "~/db/article-visibility";
import type { Db } from "~/db/client.server";
import { articles, articleSlugRedirects } from "~/db/schema";
import { isSlug } from "~/lib/slugs";

/** A database handle or an open transaction. */
type Queryable = Db | Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * Where an old article address leads now (decision 0012): the current slug of the article that had
 * `oldSlug`, while that article is publicly visible; else null (the address is a 404, as before).
 * One hop whatever the number of renames: rows point at the article, not at the next slug.
 */
export async function findSlugRedirect(db: Db, oldSlug: string): Promise<string | null> {
  if (!isSlug(oldSlug)) return null;
  const [row] = await db
    .select({ slug: articles.slug })
    .from(articleSlugRedirects)
    .innerJoin(articles, eq(articles.id, articleSlugRedirects.articleId))
    .where(and(eq(articleSlugRedirects.oldSlug, oldSlug), publiclyVisible()))
    .limit(1);
  // A live article holding the slug answers itself (the route asks here only when none does).
  return row && row.slug !== oldSlug ? row.slug : null;
}

/** The article an old address `slug` redirects to (whatever its status), with its title; locked in a transaction when asked. */
export async function slugRedirectOwner(db: Queryable, slug: string, options: { lock?: boolean } = {}) {
  const query = db
    .select({ articleId: articleSlugRedirects.articleId, title: articles.title })
    .from(articleSlugRedirects)
    .innerJoin(articles, eq(articles.id, articleSlugRedirects.articleId))
    .where(eq(articleSlugRedirects.oldSlug, slug))
    .limit(1);
  const [row] = options.lock ? await query.for("update", { of: articleSlugRedirects }) : await query;
  return row ?? null;
}

/**
 * After an article's slug changed from `oldSlug`: its old address redirects to it (a row another
 * article left for the same slug cannot exist, as that article would have held the slug; the upsert
 * keeps a concurrent write from failing).
 */
export async function recordSlugRedirect(tx: Queryable, oldSlug: string, articleId: string) {
  await tx
    .insert(articleSlugRedirects)
    .values({ oldSlug, articleId })
    .onConflictDoUpdate({ target: articleSlugRedirects.oldSlug, set: { articleId, createdAt: sql`now()` } });
}

/** Removes the redirect of address `slug` (the article taking it back, or taking it over). */
export async function removeSlugRedirect(tx: Queryable, slug: string) {
  await tx.delete(articleSlugRedirects).where(eq(articleSlugRedirects.oldSlug, slug));
}
