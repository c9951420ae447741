import { eq, inArray, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { articlePendingVersions, articles, categories } from "~/db/schema";
import type { Actor } from "~/domain/accounts/actor";
import { recordActivity } from "~/domain/activity/activity.server";
import { AppError, isAppError } from "~/lib/app-error";
import { isUuid } from "~/lib/ids";
import { checkMayEdit, readOwnership } from "./article-access.server";
import { deleteArticle, unpublishArticle } from "./article-admin.server";
import { BULK_MAX, type BulkAction, type BulkOutcome, type BulkResult } from "./article-list.schema";
import { recordRevision, revisionSourceColumns } from "./article-revisions.server";

// The article list's bulk actions (issue 27): the selected stories are processed one by one through
// the same service functions a single story's buttons use, so each is checked against the actor's role
// and the story's ownership on its own; the answer says which succeeded and which were refused and why.

const gone = () => new AppError("not_found", "This article no longer exists.");
export const NOTHING_SELECTED = "Select at least one story.";
export const TOO_MANY_SELECTED = `Select at most ${BULK_MAX} stories at once.`;
export const CATEGORY_REQUIRED = "Choose the category to move the stories to.";
export const CATEGORY_GONE = "That category no longer exists. Choose another.";

/**
 * "Move to category…" for one story: sets its category, recording a revision and the audit trail as
 * any save does. An author may move only their own drafts (checkMayEdit, under the row's lock). Its
 * changes saved for later (a pending version) move too, or the next "Update Article" would move the
 * story back.
 */
export async function moveArticleToCategory(db: Db, id: string, categoryId: string, actor: Actor): Promise<void> {
  if (!isUuid(id)) throw gone();
  await db.transaction(async (tx) => {
    const ownership = await readOwnership(tx, id, actor, { lock: true });
    if (!ownership) throw gone();
    checkMayEdit(actor, ownership);
    const [category] = isUuid(categoryId) ? await tx.select({ name: categories.name }).from(categories).where(eq(categories.id, categoryId)) : [];
    if (!category) throw new AppError("invalid_input", CATEGORY_GONE, { field: "categoryId" });
    const [row] = await tx.update(articles).set({ categoryId, updatedAt: new Date() }).where(eq(articles.id, id)).returning(revisionSourceColumns);
    await tx
      .update(articlePendingVersions)
      .set({ fields: sql`jsonb_set(${articlePendingVersions.fields}, '{categoryId}', to_jsonb(${categoryId}::text))` })
      .where(eq(articlePendingVersions.articleId, id));
    await recordRevision(tx, row!, actor);
    await recordActivity(tx, actor, {
      kind: "article.update",
      objectType: "article",
      objectId: id,
      objectLabel: row!.title,
      details: { status: row!.status, category: category.name },
    });
  });
}

/** The ids a bulk request names: distinct, at least one, at most BULK_MAX. */
export function checkSelection(ids: readonly string[]): string[] {
  const distinct = [...new Set(ids.map((id) => id.trim()).filter(Boolean))];
  if (distinct.length === 0) throw new AppError("invalid_input", NOTHING_SELECTED);
  if (distinct.length > BULK_MAX) throw new AppError("invalid_input", TOO_MANY_SELECTED);
  return distinct;
}

/**
 * Applies `action` to each selected story in turn. A story refused (by role, ownership or state) is
 * reported with the reason and the others go on; an unexpected failure stops the run (the stories
 * already done stay done: each is its own transaction). For "move", `categoryId` names the target.
 */
export async function applyBulkAction(
  db: Db,
  action: BulkAction,
  selected: readonly string[],
  actor: Actor,
  options: { categoryId?: string } = {},
): Promise<BulkResult> {
  const ids = checkSelection(selected);
  let categoryId = "";
  if (action === "move") {
    categoryId = options.categoryId?.trim() ?? "";
    if (!categoryId) throw new AppError("missing_fields", CATEGORY_REQUIRED, { field: "categoryId" });
    const [category] = isUuid(categoryId) ? await db.select({ id: categories.id }).from(categories).where(eq(categories.id, categoryId)) : [];
    if (!category) throw new AppError("invalid_input", CATEGORY_GONE, { field: "categoryId" });
  }
  const known = ids.filter(isUuid);
  const titles = new Map(
    known.length > 0
      ? (await db.select({ id: articles.id, title: articles.title }).from(articles).where(inArray(articles.id, known))).map((r) => [r.id, r.title])
      : [],
  );
  const outcomes: BulkOutcome[] = [];
  for (const id of ids) {
    const title = titles.get(id) ?? id;
    try {
      if (!titles.has(id)) throw gone();
      if (action === "unpublish") await unpublishArticle(db, id, actor);
      else if (action === "delete") await deleteArticle(db, id, actor);
      else await moveArticleToCategory(db, id, categoryId, actor);
      outcomes.push({ id, title, ok: true });
    } catch (error) {
      if (!isAppError(error)) throw error;
      outcomes.push({ id, title, ok: false, reason: error.message, code: error.code });
    }
  }
  return { action, outcomes };
}
