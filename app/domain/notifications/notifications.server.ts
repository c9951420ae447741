import { and, count, desc, eq, inArray, isNull, ne, or, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { articleAuthors, articles, authors, comments, notifications, user, userRoles } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { isUuid } from "~/lib/ids";
import { enqueueJob } from "~/lib/job-queue.server";
import { notificationText, NOTIFICATIONS_PER_PAGE, type NotificationItem, type NotificationKind } from "./notifications.schema";

// Notifications (issue 27): written in the transaction of the change that causes them, never to the
// person who made it; each is also e-mailed through the job queue (decision 0032) to those who have
// not turned e-mail off in "Your account".

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type Writer = Tx | Db;

/** The job that e-mails one notification (notification-email.server.ts runs it). */
export const NOTIFICATION_EMAIL_TASK = "notification-email";

/** Where a story's notifications lead: its edit page. */
export const storyEditPath = (articleId: string) => `/admin/articles/edit/${articleId}`;
const MODERATION_PATH = "/admin/comments?tab=pending";

/** Whoever acted (null: the system, the scheduler). */
type ActorId = string | null;

/** The accounts a story belongs to: those tied to its authors, and its creator, if they are still in the back office. */
async function storyPeople(tx: Writer, articleId: string): Promise<string[]> {
  const rows = await tx
    .selectDistinct({ id: userRoles.userId })
    .from(userRoles)
    .where(
      or(
        inArray(
          userRoles.userId,
          tx
            .select({ id: authors.userId })
            .from(articleAuthors)
            .innerJoin(authors, eq(authors.id, articleAuthors.authorId))
            .where(and(eq(articleAuthors.articleId, articleId), sql`${authors.userId} is not null`)),
        ),
        inArray(userRoles.userId, tx.select({ id: sql<string>`${articles.createdById}` }).from(articles).where(eq(articles.id, articleId))),
      ),
    );
  return rows.map((r) => r.id);
}

/** Editors and admins. */
async function deskPeople(tx: Writer): Promise<string[]> {
  const rows = await tx.selectDistinct({ id: userRoles.userId }).from(userRoles).where(inArray(userRoles.role, ["admin", "editor"]));
  return rows.map((r) => r.id);
}

/** Queues the e-mail of each new notification whose person keeps e-mail on (the job checks again when it runs). */
async function queueEmails(tx: Writer, created: { id: string; userId: string }[]) {
  if (created.length === 0) return;
  const wanting = await tx
    .select({ id: user.id })
    .from(user)
    .where(and(inArray(user.id, [...new Set(created.map((c) => c.userId))]), eq(user.emailNotifications, true)));
  const ids = new Set(wanting.map((w) => w.id));
  for (const row of created) {
    if (ids.has(row.userId)) await enqueueJob(tx, NOTIFICATION_EMAIL_TASK, { id: row.id }, { key: `${NOTIFICATION_EMAIL_TASK}:${row.id}` });
  }
}

async function notify(
  tx: Writer,
  recipients: string[],
  actorId: ActorId,
  fields: { kind: NotificationKind; articleId: string | null; text: string; note?: string | null; href: string },
) {
  const people = [...new Set(recipients)].filter((id) => id !== actorId);
  if (people.length === 0) return [];
  const created = await tx
    .insert(notifications)
    .values(people.map((userId) => ({ userId, kind: fields.kind, articleId: fields.articleId, text: fields.text, note: fields.note ?? null, href: fields.href })))
    .returning({ id: notifications.id, userId: notifications.userId });
  await queueEmails(tx, created);
  return created;
}

/** How a sentence names the person who acted: their name (not "Name (e-mail)", as the audit trail does). */
async function nameOf(tx: Writer, actor: { id: ActorId; name: string }): Promise<string> {
  if (!actor.id) return actor.name;
  const [row] = await tx.select({ name: user.name }).from(user).where(eq(user.id, actor.id));
  return row?.name.trim() || actor.name;
}

/** "{Editor} sent back '{title}'", with the note, to the story's people. */
export async function notifySentBack(tx: Writer, article: { id: string; title: string }, actor: { id: ActorId; name: string }, note: string) {
  return notify(tx, await storyPeople(tx, article.id), actor.id, {
    kind: "article.sent_back",
    articleId: article.id,
    text: notificationText.sentBack(await nameOf(tx, actor), article.title),
    note,
    href: storyEditPath(article.id),
  });
}

/** "'{title}' is waiting for review", to editors and admins. */
export async function notifyReviewRequested(tx: Writer, article: { id: string; title: string }, actorId: ActorId) {
  return notify(tx, await deskPeople(tx), actorId, {
    kind: "article.review_requested",
    articleId: article.id,
    text: notificationText.reviewRequested(article.title),
    href: storyEditPath(article.id),
  });
}

/**
 * "'{title}' was published", to the story's people (by a save, or by the scheduler: actor null). It leads
 * to the public page: an author may no longer open a published story's edit page.
 */
export async function notifyPublished(tx: Writer, article: { id: string; title: string; slug: string }, actorId: ActorId) {
  return notify(tx, await storyPeople(tx, article.id), actorId, {
    kind: "article.published",
    articleId: article.id,
    text: notificationText.published(article.title),
    href: `/article/${article.slug}`,
  });
}

/** Serialises the moderation notice's writers: two comments at once still leave one unread notice per person. */
const MODERATION_LOCK = sql`select pg_advisory_xact_lock(hashtext('notifications:comments.pending'))`;

/**
 * "{N} comments wait for moderation", to editors and admins, when a comment enters moderation (in its
 * transaction): one unread notice per person, its count and text brought up to date (and moved to the
 * top) while it is unread; a new one (and its e-mail) only for those who had read the last.
 */
export async function notifyCommentsPending(tx: Tx) {
  await tx.execute(MODERATION_LOCK);
  const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(comments).where(eq(comments.status, "pending"));
  if (n === 0) return [];
  const text = notificationText.commentsPending(n);
  const updated = await tx
    .update(notifications)
    .set({ text, createdAt: sql`now()` })
    .where(and(eq(notifications.kind, "comments.pending"), isNull(notifications.readAt)))
    .returning({ userId: notifications.userId });
  const told = new Set(updated.map((u) => u.userId));
  const people = (await deskPeople(tx)).filter((id) => !told.has(id));
  return notify(tx, people, null, { kind: "comments.pending", articleId: null, text, href: MODERATION_PATH });
}

// ---------------------------------------------------------------- the list

/** The unread count of the bell: one query on the partial index of unread rows. */
export async function countUnread(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return row?.n ?? 0;
}

/** The person's notifications, newest first. */
export async function listNotifications(db: Db, userId: string, limit = NOTIFICATIONS_PER_PAGE): Promise<NotificationItem[]> {
  const rows = await db
    .select({
      id: notifications.id,
      kind: notifications.kind,
      text: notifications.text,
      note: notifications.note,
      href: notifications.href,
      createdAt: notifications.createdAt,
      readAt: notifications.readAt,
    })
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit);
  return rows.map((r) => ({ id: r.id, kind: r.kind, text: r.text, note: r.note, href: r.href, createdAt: r.createdAt.toISOString(), read: r.readAt !== null }));
}

const notFound = () => new AppError("not_found", "This notification no longer exists.");

/** Opens one of the person's notifications: marks it read and answers where it leads. */
export async function openNotification(db: Db, userId: string, id: string): Promise<string> {
  if (!isUuid(id)) throw notFound();
  const [row] = await db
    .update(notifications)
    .set({ readAt: sql`coalesce(${notifications.readAt}, now())` })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning({ href: notifications.href });
  if (!row) throw notFound();
  return row.href;
}

/** Marks every unread notification of the person read; answers how many were. */
export async function markAllRead(db: Db, userId: string): Promise<number> {
  const rows = await db
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return rows.length;
}

/** Whether the person's notifications are also e-mailed ("Your account"). */
export async function emailNotificationsOn(db: Db, userId: string): Promise<boolean> {
  const [row] = await db.select({ on: user.emailNotifications }).from(user).where(eq(user.id, userId));
  return row?.on ?? false;
}

/** Turns the person's notification e-mails on or off. */
export async function setEmailNotifications(db: Db, userId: string, on: boolean): Promise<void> {
  await db.update(user).set({ emailNotifications: on, updatedAt: new Date() }).where(and(eq(user.id, userId), ne(user.emailNotifications, on)));
}
