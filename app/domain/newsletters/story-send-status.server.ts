import { asc, eq, and } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { newsletters, newsletterSends } from "~/db/schema";
import type { StorySendFacts } from "~/domain/articles/story-live.schema";
import { isUuid } from "~/lib/ids";
import { activeSubscriberCount } from "./newsletter-admin.server";

/**
 * The newsletters a story goes out to by e-mail (its story sends, made in the transaction that
 * published it), for "Your story is live" (issue 41). A send that has started counts its frozen
 * recipients; one still queued counts the newsletter's active subscribers, whom it is about to reach.
 */
export async function storySendStatus(db: Db, articleId: string): Promise<StorySendFacts[]> {
  if (!isUuid(articleId)) return [];
  const rows = await db
    .select({
      newsletterName: newsletters.name,
      status: newsletterSends.status,
      recipients: newsletterSends.recipients,
      startedAt: newsletterSends.startedAt,
      subscribers: activeSubscriberCount(),
    })
    .from(newsletterSends)
    .innerJoin(newsletters, eq(newsletters.id, newsletterSends.newsletterId))
    .where(and(eq(newsletterSends.articleId, articleId), eq(newsletterSends.kind, "story")))
    .orderBy(asc(newsletters.position), asc(newsletters.createdAt));
  return rows.map((row) => ({
    newsletterName: row.newsletterName,
    status: row.status,
    recipients: row.status === "queued" && row.startedAt === null ? Number(row.subscribers) : row.recipients,
  }));
}
