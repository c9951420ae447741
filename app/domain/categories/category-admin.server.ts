import { and, asc, count, eq, ne } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { isUniqueViolation } from "~/db/pg-errors";
import { articles, categories } from "~/db/schema";
import { isUuid } from "~/lib/ids";
import { AppError } from "~/lib/app-error";
import type { CategoryFieldName, CategoryInput } from "./categories.schema";
import { SYSTEM_ACTOR, type Actor } from "~/domain/accounts/actor";
import { recordActivity } from "~/domain/activity/activity.server";

export const CATEGORY_SLUG_TAKEN = "This slug is already used by another category.";

export interface AdminCategoryRow {
  id: string;
  name: string;
  slug: string;
  articleCount: number;
}

/** All categories ordered by name, with how many articles each holds. */
export async function listAdminCategories(db: Db): Promise<AdminCategoryRow[]> {
  return db
    .select({ id: categories.id, name: categories.name, slug: categories.slug, articleCount: count(articles.id) })
    .from(categories)
    .leftJoin(articles, eq(articles.categoryId, categories.id))
    .groupBy(categories.id)
    .orderBy(asc(categories.name), asc(categories.slug));
}

const notFound = () => new AppError("not_found", "This category no longer exists.");
const slugTaken = () => new AppError<CategoryFieldName>("slug_taken", CATEGORY_SLUG_TAKEN, { field: "slug" });

async function checkSlugFree(db: Db, slug: string, exceptId?: string) {
  const [taken] = await db
    .select({ id: categories.id })
    .from(categories)
    .where(exceptId ? and(eq(categories.slug, slug), ne(categories.id, exceptId)) : eq(categories.slug, slug))
    .limit(1);
  if (taken) throw slugTaken();
}

function translateWriteError(error: unknown): never {
  if (isUniqueViolation(error)) throw slugTaken();
  throw error;
}

/** Creates a category; a slug already taken is refused with a clear message (checked, and caught on a race). */
export async function createCategory(db: Db, input: CategoryInput, actor: Actor = SYSTEM_ACTOR) {
  await checkSlugFree(db, input.slug);
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(categories)
        .values({ name: input.name, slug: input.slug })
        .returning({ id: categories.id, name: categories.name, slug: categories.slug });
      await recordActivity(tx, actor, { kind: "category.create", objectType: "category", objectId: row!.id, objectLabel: row!.name });
      return row!;
    });
  } catch (error) {
    translateWriteError(error);
  }
}

/** Renames a category or changes its slug; the same slug rule as create. */
export async function updateCategory(db: Db, id: string, input: CategoryInput, actor: Actor = SYSTEM_ACTOR) {
  if (!isUuid(id)) throw notFound();
  await checkSlugFree(db, input.slug, id);
  let row: { id: string; name: string; slug: string } | undefined;
  try {
    row = await db.transaction(async (tx) => {
      const [updated] = await tx
        .update(categories)
        .set({ name: input.name, slug: input.slug })
        .where(eq(categories.id, id))
        .returning({ id: categories.id, name: categories.name, slug: categories.slug });
      if (updated) await recordActivity(tx, actor, { kind: "category.update", objectType: "category", objectId: id, objectLabel: updated.name });
      return updated;
    });
  } catch (error) {
    translateWriteError(error);
  }
  if (!row) throw notFound();
  return row;
}

/** Deletes a category; its articles stay, without a category (foreign key ON DELETE SET NULL). */
export async function deleteCategory(db: Db, id: string, actor: Actor = SYSTEM_ACTOR): Promise<void> {
  if (!isUuid(id)) throw notFound();
  await db.transaction(async (tx) => {
    const [deleted] = await tx.delete(categories).where(eq(categories.id, id)).returning({ name: categories.name });
    if (!deleted) throw notFound();
    await recordActivity(tx, actor, { kind: "category.delete", objectType: "category", objectId: id, objectLabel: deleted.name });
  });
}
