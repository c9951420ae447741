import { and, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { articleNewsletters, articles, newsletters } from "~/db/schema";
import type { Actor } from "~/domain/accounts/actor";
import { checkCapability } from "~/domain/articles/article-access.server";
import { AppError } from "~/lib/app-error";
import { isUuid } from "~/lib/ids";
import { activeSubscriberCount, postalAddressMissing, SEND_BY_EMAIL_FORBIDDEN } from "./newsletter-admin.server";
import { queueStorySends } from "./newsletter-sends.server";

// "Send by e-mail" of a story that is public already (issue 39): from its edit page, to a Stories
// newsletter it has not gone to. The same exactly-once rule as a publication's send (decision 0043):
// the send is the one row the unique index newsletter_sends_story_once allows per story and
// newsletter, made by the publication's own queueStorySends; a second attempt, whoever makes it, finds
// that row and is refused.

export const STORY_NOT_PUBLIC = "This story is not public yet: choose the newsletter under “Send by e-mail”, and it goes when the story is published.";
export const NEWSLETTER_NOT_SENDABLE = "This newsletter cannot be sent a story: it is archived, is a digest (it goes on its own schedule) or no longer exists.";
export const storyAlreadySent = (newsletter: string) => `This story was already sent to ${newsletter}: a story goes to a newsletter once.`;

/**
 * Sends a public story to one Stories newsletter now, once: refused for a role that may not publish
 * and send (403), a story not public (409), a newsletter archived or a digest (409), and a story that
 * went to that newsletter already (409). Answers the newsletter's name and its active subscribers now
 * (whom the send will reach when it starts), and whether the footer lacks a postal address.
 */
export async function sendPublishedStory(
  db: Db,
  actor: Actor,
  input: { articleId: string; newsletterId: string },
): Promise<{ newsletterName: string; subscribers: number; postalAddressMissing: boolean }> {
  checkCapability(actor, "articles.publish", SEND_BY_EMAIL_FORBIDDEN);
  checkCapability(actor, "newsletters.send", SEND_BY_EMAIL_FORBIDDEN);
  if (!isUuid(input.articleId)) throw new AppError("not_found", "This story no longer exists.");
  if (!isUuid(input.newsletterId)) throw new AppError("invalid_input", NEWSLETTER_NOT_SENDABLE, { status: 409 });
  const sent = await db.transaction(async (tx) => {
    // The story's row is held until the send is made: an unpublish waits for it, or comes first and is seen.
    const [story] = await tx
      .select({ public: sql<boolean>`${articles.status} = 'published' and ${articles.publishedAt} <= now()` })
      .from(articles)
      .where(eq(articles.id, input.articleId))
      .for("update");
    if (!story) throw new AppError("not_found", "This story no longer exists.");
    if (!story.public) throw new AppError("invalid_input", STORY_NOT_PUBLIC, { status: 409 });
    const [newsletter] = await tx
      .select({ name: newsletters.name, subscribers: activeSubscriberCount() })
      .from(newsletters)
      .where(and(eq(newsletters.id, input.newsletterId), eq(newsletters.kind, "stories"), sql`${newsletters.archivedAt} is null`));
    if (!newsletter) throw new AppError("invalid_input", NEWSLETTER_NOT_SENDABLE, { status: 409 });
    // The choice is the story's, as if ticked before publishing; the send is made by the publication's hook.
    await tx.insert(articleNewsletters).values({ articleId: input.articleId, newsletterId: input.newsletterId }).onConflictDoNothing();
    const queued = await queueStorySends(tx, { id: input.articleId }, actor.id, input.newsletterId);
    if (queued === 0) throw new AppError("invalid_input", storyAlreadySent(newsletter.name), { status: 409 });
    return { newsletterName: newsletter.name, subscribers: Number(newsletter.subscribers) };
  });
  return { ...sent, postalAddressMissing: await postalAddressMissing(db) };
}
