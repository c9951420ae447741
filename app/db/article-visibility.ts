import { and, eq, lte, sql } from "drizzle-orm";
import { articles } from "./schema";

/**
 * THE rule of what readers may see (decision 0009): an article that is published and whose
 * `published_at` has passed. Every public read (the article page, home, category pages, the feeds,
 * comment posting, view counting, the dashboard's public figures) filters with it; only the back
 * office reads drafts and scheduled articles.
 *
 * It lives in app/db rather than app/domain/articles because the view recorder (app/lib) needs it
 * too and app/lib may not import app/domain.
 */
export function publiclyVisible() {
  return and(eq(articles.status, "published"), lte(articles.publishedAt, sql`now()`))!;
}

/** The same rule as raw SQL over the `articles` table under `alias`, for hand-written statements. */
export function publiclyVisibleSql(alias = "articles") {
  const a = sql.identifier(alias);
  return sql`(${a}.status = 'published' and ${a}.published_at <= now())`;
}
