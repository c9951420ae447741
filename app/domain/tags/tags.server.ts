import { and, asc, count, eq, inArray, ne, sql } from "drizzle-orm";
import { publiclyVisible } from "~/db/article-visibility";
import type { Db } from "~/db/client.server";
import { isUniqueViolation } from "~/db/pg-errors";
import { articles, articleTags, tags, tagSlugRedirects } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { isUuid } from "~/lib/ids";
import { isSlug, slugify } from "~/lib/slugs";
import { SYSTEM_ACTOR, type Actor } from "~/domain/accounts/actor";
import { recordActivity } from "~/domain/activity/activity.server";
import { MAX_TAGS_PER_ARTICLE, normalizeTagName, tagNameProblem, TOO_MANY_TAGS, type TagRenameFieldName, type TagSummary } from "./tags.schema";

/** A database handle or an open transaction. */
type Queryable = Db | Parameters<Parameters<Db["transaction"]>[0]>[0];

export const TAG_NAME_TAKEN = (other: string) => `Another tag, “${other}”, already has this address: merge into it instead.`;
export const MERGE_INTO_ITSELF = "Choose another tag to merge into: a tag cannot be merged into itself.";

const notFound = () => new AppError("not_found", "This tag no longer exists.");

// ---------------------------------------------------------------- reads

export interface AdminTagRow extends TagSummary {
  /** How many stories carry it, whatever their status. */
  articleCount: number;
}

/** Every tag by name, with how many stories carry it (/admin/tags). */
export async function listAdminTags(db: Db): Promise<AdminTagRow[]> {
  return db
    .select({ id: tags.id, name: tags.name, slug: tags.slug, articleCount: count(articleTags.articleId) })
    .from(tags)
    .leftJoin(articleTags, eq(articleTags.tagId, tags.id))
    .groupBy(tags.id)
    .orderBy(asc(sql`lower(${tags.name})`), asc(tags.slug));
}

/** Every tag by name: what the article form's picker offers. */
export async function listTagChoices(db: Db): Promise<TagSummary[]> {
  return db.select({ id: tags.id, name: tags.name, slug: tags.slug }).from(tags).orderBy(asc(sql`lower(${tags.name})`));
}

/** A story's tags in their order (the article page shows them to readers: ids, names and slugs only). */
export async function getArticleTags(db: Pick<Db, "select">, articleId: string): Promise<TagSummary[]> {
  if (!isUuid(articleId)) return [];
  return db
    .select({ id: tags.id, name: tags.name, slug: tags.slug })
    .from(articleTags)
    .innerJoin(tags, eq(tags.id, articleTags.tagId))
    .where(eq(articleTags.articleId, articleId))
    .orderBy(asc(articleTags.position));
}

/** A story's tag names in their order (the article form's field). */
export async function getArticleTagNames(db: Pick<Db, "select">, articleId: string): Promise<string[]> {
  return (await getArticleTags(db, articleId)).map((t) => t.name);
}

/**
 * What /tag/{slug} is: the tag, when it exists and at least one public story carries it (a tag of
 * drafts alone is nobody's business: a 404, as an unknown tag); `redirect` the current slug of a tag
 * that once had this address (merged or renamed); else null.
 */
export async function findPublicTag(db: Db, slug: string): Promise<{ tag: TagSummary } | { redirect: string } | null> {
  if (!isSlug(slug)) return null;
  const [tag] = await db.select({ id: tags.id, name: tags.name, slug: tags.slug }).from(tags).where(eq(tags.slug, slug)).limit(1);
  if (tag) return (await hasPublicStory(db, tag.id)) ? { tag } : null;
  const [moved] = await db
    .select({ id: tags.id, slug: tags.slug })
    .from(tagSlugRedirects)
    .innerJoin(tags, eq(tags.id, tagSlugRedirects.tagId))
    .where(eq(tagSlugRedirects.oldSlug, slug))
    .limit(1);
  if (moved && moved.slug !== slug && (await hasPublicStory(db, moved.id))) return { redirect: moved.slug };
  return null;
}

async function hasPublicStory(db: Db, tagId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: articles.id })
    .from(articleTags)
    .innerJoin(articles, eq(articles.id, articleTags.articleId))
    .where(and(eq(articleTags.tagId, tagId), publiclyVisible()))
    .limit(1);
  return Boolean(row);
}

/** Whether any tag has a public story (the sitemap index lists the tags' sitemap then). */
export async function anyTagInSitemap(db: Db): Promise<boolean> {
  const [row] = await db
    .select({ id: articleTags.tagId })
    .from(articleTags)
    .innerJoin(articles, eq(articles.id, articleTags.articleId))
    .where(publiclyVisible())
    .limit(1);
  return Boolean(row);
}

/**
 * Tags with at least one public story, each with the newest change among them (the tags' sitemap). Groups
 * the tagged public stories: fine for a newsroom's tags; a summary table kept by triggers (as the
 * authors' sitemap has, migration 0019) is the step when it is not.
 */
export async function listPublicTagsForSitemap(db: Db): Promise<{ slug: string; lastmod: Date }[]> {
  const rows = await db
    .select({ slug: tags.slug, lastmod: sql<Date>`max(${articles.updatedAt})`.mapWith(articles.updatedAt) })
    .from(tags)
    .innerJoin(articleTags, eq(articleTags.tagId, tags.id))
    .innerJoin(articles, eq(articles.id, articleTags.articleId))
    .where(publiclyVisible())
    .groupBy(tags.id)
    .orderBy(asc(tags.slug));
  return rows;
}

// ---------------------------------------------------------------- writes

function checkName(name: string): string {
  const problem = tagNameProblem(name);
  if (problem) throw new AppError<TagRenameFieldName>("invalid_input", problem, { field: "name" });
  return normalizeTagName(name);
}

/**
 * The tags of these names, in order, creating those whose address no tag has (a name whose slug a tag
 * already has reuses that tag, whatever its spelling: "Climate Change" and "climate-change" are one
 * tag). Inside the caller's transaction; a concurrent create of the same slug is absorbed.
 */
export async function findOrCreateTags(tx: Queryable, names: readonly string[], actor: Actor = SYSTEM_ACTOR): Promise<TagSummary[]> {
  if (names.length > MAX_TAGS_PER_ARTICLE) throw new AppError("invalid_input", TOO_MANY_TAGS, { field: "tags" });
  const wanted: { name: string; slug: string }[] = [];
  for (const raw of names) {
    const problem = tagNameProblem(raw);
    if (problem) throw new AppError("invalid_input", `“${normalizeTagName(raw)}”: ${problem}`, { field: "tags" });
    const name = normalizeTagName(raw);
    const slug = slugify(name);
    if (!wanted.some((w) => w.slug === slug)) wanted.push({ name, slug });
  }
  if (wanted.length === 0) return [];
  const created = await tx
    .insert(tags)
    .values(wanted)
    .onConflictDoNothing({ target: tags.slug })
    .returning({ id: tags.id, name: tags.name, slug: tags.slug });
  for (const tag of created) {
    // The tag's own address now: an old address of another tag with this slug no longer applies.
    await tx.delete(tagSlugRedirects).where(eq(tagSlugRedirects.oldSlug, tag.slug));
    await recordActivity(tx, actor, { kind: "tag.create", objectType: "tag", objectId: tag.id, objectLabel: tag.name });
  }
  const found = await tx
    .select({ id: tags.id, name: tags.name, slug: tags.slug })
    .from(tags)
    .where(inArray(tags.slug, wanted.map((w) => w.slug)));
  const bySlug = new Map(found.map((t) => [t.slug, t]));
  return wanted.map((w) => {
    const tag = bySlug.get(w.slug);
    // Deleted by someone else between the insert and this read: said plainly, nothing saved.
    if (!tag) throw new AppError("invalid_input", `The tag “${w.name}” was deleted meanwhile. Save again.`, { status: 409, field: "tags" });
    return tag;
  });
}

/** Creates a tag by name (or returns the tag that already has its address). */
export async function createTag(db: Db, name: string, actor: Actor = SYSTEM_ACTOR): Promise<TagSummary> {
  const checked = checkName(name);
  return db.transaction(async (tx) => (await findOrCreateTags(tx, [checked], actor))[0]!);
}

/**
 * Replaces a story's tags with these names in order (inside the story's save transaction; the
 * article service has checked who may edit it). Returns the tag names as stored, for the audit trail.
 */
export async function setArticleTags(tx: Queryable, articleId: string, names: readonly string[], actor: Actor = SYSTEM_ACTOR): Promise<TagSummary[]> {
  const chosen = await findOrCreateTags(tx, names, actor);
  const current = await tx
    .select({ tagId: articleTags.tagId, position: articleTags.position })
    .from(articleTags)
    .where(eq(articleTags.articleId, articleId))
    .orderBy(asc(articleTags.position));
  // Unchanged tags write nothing (no change notice, no cached page dropped).
  const same = current.length === chosen.length && current.every((row, i) => row.tagId === chosen[i]!.id);
  if (same) return chosen;
  await tx.delete(articleTags).where(eq(articleTags.articleId, articleId));
  if (chosen.length > 0) await tx.insert(articleTags).values(chosen.map((tag, position) => ({ articleId, tagId: tag.id, position })));
  return chosen;
}

/**
 * Renames a tag; its address follows the new name, and its old address redirects to it. A name whose
 * address another tag has is refused with a message that says to merge instead.
 */
export async function renameTag(db: Db, id: string, name: string, actor: Actor = SYSTEM_ACTOR): Promise<TagSummary> {
  if (!isUuid(id)) throw notFound();
  const newName = checkName(name);
  const newSlug = slugify(newName);
  try {
    return await db.transaction(async (tx) => {
      const [before] = await tx.select().from(tags).where(eq(tags.id, id)).for("update");
      if (!before) throw notFound();
      const [other] = await tx
        .select({ name: tags.name })
        .from(tags)
        .where(and(eq(tags.slug, newSlug), ne(tags.id, id)))
        .limit(1);
      if (other) throw new AppError<TagRenameFieldName>("slug_taken", TAG_NAME_TAKEN(other.name), { field: "name" });
      const [row] = await tx
        .update(tags)
        .set({ name: newName, slug: newSlug })
        .where(eq(tags.id, id))
        .returning({ id: tags.id, name: tags.name, slug: tags.slug });
      if (before.slug !== newSlug) {
        await tx.delete(tagSlugRedirects).where(eq(tagSlugRedirects.oldSlug, newSlug));
        await tx
          .insert(tagSlugRedirects)
          .values({ oldSlug: before.slug, tagId: id })
          .onConflictDoUpdate({ target: tagSlugRedirects.oldSlug, set: { tagId: id, createdAt: sql`now()` } });
      }
      await recordActivity(tx, actor, {
        kind: "tag.rename",
        objectType: "tag",
        objectId: id,
        objectLabel: newName,
        details: { from: before.name, to: newName },
      });
      return row!;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError<TagRenameFieldName>("slug_taken", TAG_NAME_TAKEN(newName), { field: "name" });
    throw error;
  }
}

/**
 * Merges tag `fromId` into `intoId`: its stories carry `intoId` instead (once, at the place the merged
 * tag had when they did not carry it already), it is deleted, and its address (and every old address
 * that led to it) redirects to `intoId`'s page.
 */
export async function mergeTags(db: Db, fromId: string, intoId: string, actor: Actor = SYSTEM_ACTOR): Promise<TagSummary> {
  if (!isUuid(fromId) || !isUuid(intoId)) throw notFound();
  if (fromId === intoId) throw new AppError("invalid_input", MERGE_INTO_ITSELF, { field: "into" });
  return db.transaction(async (tx) => {
    // Both locked, in a fixed order (two opposite merges at once wait rather than deadlock).
    const locked = await tx
      .select({ id: tags.id, name: tags.name, slug: tags.slug })
      .from(tags)
      .where(inArray(tags.id, [fromId, intoId]))
      .orderBy(asc(tags.id))
      .for("update");
    const from = locked.find((t) => t.id === fromId);
    const into = locked.find((t) => t.id === intoId);
    if (!from || !into) throw notFound();
    // Stories carrying both keep the target once; the others carry the target where the merged tag was.
    await tx.execute(sql`
      insert into ${articleTags} (article_id, tag_id, position)
      select article_id, ${intoId}::uuid, position from ${articleTags}
      where tag_id = ${fromId}::uuid
      on conflict (article_id, tag_id) do nothing`);
    await tx.update(tagSlugRedirects).set({ tagId: intoId }).where(eq(tagSlugRedirects.tagId, fromId));
    await tx.delete(tags).where(eq(tags.id, fromId));
    await tx
      .insert(tagSlugRedirects)
      .values({ oldSlug: from.slug, tagId: intoId })
      .onConflictDoUpdate({ target: tagSlugRedirects.oldSlug, set: { tagId: intoId, createdAt: sql`now()` } });
    await recordActivity(tx, actor, {
      kind: "tag.merge",
      objectType: "tag",
      objectId: intoId,
      objectLabel: into.name,
      details: { merged: from.name, mergedSlug: from.slug, into: into.name },
    });
    return into;
  });
}

/** Deletes a tag: its stories no longer carry it; its page and its old addresses answer 404. */
export async function deleteTag(db: Db, id: string, actor: Actor = SYSTEM_ACTOR): Promise<void> {
  if (!isUuid(id)) throw notFound();
  await db.transaction(async (tx) => {
    const [deleted] = await tx.delete(tags).where(eq(tags.id, id)).returning({ name: tags.name });
    if (!deleted) throw notFound();
    await recordActivity(tx, actor, { kind: "tag.delete", objectType: "tag", objectId: id, objectLabel: deleted.name });
  });
}
