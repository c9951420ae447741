import { eq, exists, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { articleAuthors, articles, authors } from "~/db/schema";
import type { Actor } from "~/domain/accounts/actor";
import { can, mayDeleteArticle, mayEditArticle, type ArticleOwnership, type Capability } from "~/domain/accounts/roles";
import { AppError } from "~/lib/app-error";
import { isUuid } from "~/lib/ids";

// The object-level rules of articles (decision 0017), read where the change is written: whether the
// actor may open, save, publish or delete this article. The route guard has already checked the role's
// capability; these rules add "an author's own drafts only". The system actor (no role) passes.

type Reader = Pick<Db, "select">;

/** True for the article's creator and for an account tied to one of its authors. */
export function ownedBy(userId: string): SQL {
  return or(
    eq(articles.createdById, userId),
    exists(
      sql`(select 1 from ${articleAuthors} join ${authors} on ${authors.id} = ${articleAuthors.authorId}
           where ${articleAuthors.articleId} = ${articles.id} and ${authors.userId} = ${userId})`,
    ),
  )!;
}

/**
 * The article's status and whether it is the actor's own, or null for an unknown id; `lock` takes the
 * row lock a save holds while it decides (so the answer cannot change before the write).
 */
export async function readOwnership(db: Reader, id: string, actor: Actor, options: { lock?: boolean } = {}): Promise<ArticleOwnership | null> {
  if (!isUuid(id)) return null;
  const query = db
    .select({ status: articles.status, own: actor.id ? sql<boolean>`${ownedBy(actor.id)}` : sql<boolean>`false` })
    .from(articles)
    .where(eq(articles.id, id));
  const [row] = await (options.lock ? query.for("update", { of: articles }) : query);
  return row ? { status: row.status, own: Boolean(row.own) } : null;
}

export const NOT_YOURS = "You can only change your own drafts. Ask an editor.";
export const MAY_NOT_PUBLISH = "Your role cannot publish, schedule or unpublish articles. Use Submit for review.";

const isSystem = (actor: Actor) => actor.role === undefined;

/** Refuses (403) an actor who may not open or save this article. */
export function checkMayEdit(actor: Actor, article: ArticleOwnership): void {
  if (isSystem(actor)) return;
  if (!mayEditArticle({ id: actor.id ?? "", role: actor.role ?? null }, article)) throw new AppError("forbidden", NOT_YOURS);
}

/** Refuses (403) an actor who may not delete this article. */
export function checkMayDelete(actor: Actor, article: ArticleOwnership): void {
  if (isSystem(actor)) return;
  if (!mayDeleteArticle({ id: actor.id ?? "", role: actor.role ?? null }, article)) throw new AppError("forbidden", NOT_YOURS);
}

/** Whether the actor holds a capability (the system, which names nobody, holds all). */
export function holdsCapability(actor: Actor, capability: Capability): boolean {
  return isSystem(actor) || can(actor.role ?? null, capability);
}

/** Refuses (403) an actor whose role lacks `capability` (publishing, above all). */
export function checkCapability(actor: Actor, capability: Capability, message = MAY_NOT_PUBLISH): void {
  if (!holdsCapability(actor, capability)) throw new AppError("forbidden", message);
}

/** An article's status and ownership for a screen's loader, refused (403) when the actor may not open it; null for an unknown id. */
export async function openableArticle(db: Reader, id: string, actor: Actor): Promise<ArticleOwnership | null> {
  const ownership = await readOwnership(db, id, actor);
  if (ownership) checkMayEdit(actor, ownership);
  return ownership;
}
