import { checkCapability } from "~/domain/articles/article-access.server";
import { and, asc, count, eq, inArray, lte, ne, sql, type Placeholder } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { isUniqueViolation, pgConstraint } from "~/db/pg-errors";
import { articleAuthors, articles, authorListing, authors, user } from "~/db/schema";
import { SYSTEM_ACTOR, type Actor } from "~/domain/accounts/actor";
import { recordActivity } from "~/domain/activity/activity.server";
import { AppError } from "~/lib/app-error";
import { isUuid } from "~/lib/ids";
import { isOwnMediaUrl } from "~/lib/own-media.server";
import { isSlug } from "~/lib/slugs";
import type { Storage } from "~/lib/storage.server";
import { UPLOAD_RULES } from "~/lib/upload-rules";
import { pageWindow, preparedPageOfCards } from "~/domain/articles/article-cards.server";
import { readEveryTime, type StoryMemo } from "~/domain/articles/story-memo.server";
import { ACCOUNT_TAKEN, AUTHOR_SLUG_TAKEN, UNKNOWN_ACCOUNT, UNKNOWN_AUTHOR, type AdminAuthor, type AuthorFieldName, type AuthorInput } from "./authors.schema";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

const notFound = () => new AppError("not_found", "This author no longer exists.");
const slugTaken = () => new AppError<AuthorFieldName>("slug_taken", AUTHOR_SLUG_TAKEN, { field: "slug" });
export const AUTHOR_PHOTO_INVALID = "The photo must be an image uploaded to this site (JPEG, PNG, GIF or WebP from the media library).";

const adminColumns = {
  id: authors.id,
  name: authors.name,
  slug: authors.slug,
  roleTitle: authors.roleTitle,
  bio: authors.bio,
  photoUrl: authors.photoUrl,
  websiteUrl: authors.websiteUrl,
  xUrl: authors.xUrl,
  linkedinUrl: authors.linkedinUrl,
  userId: authors.userId,
};

/** Every author by name, with how many articles name them. */
export async function listAdminAuthors(db: Db): Promise<AdminAuthor[]> {
  return db
    .select({ ...adminColumns, articleCount: count(articleAuthors.articleId) })
    .from(authors)
    .leftJoin(articleAuthors, eq(articleAuthors.authorId, authors.id))
    .groupBy(authors.id)
    .orderBy(asc(authors.name), asc(authors.slug));
}

/** Every author as the article form offers them (id, name), by name. */
export async function listAuthorChoices(db: Db): Promise<{ id: string; name: string }[]> {
  return db.select({ id: authors.id, name: authors.name }).from(authors).orderBy(asc(authors.name), asc(authors.slug));
}

/** The author tied to an account (the article form's default), or null. */
export async function getAuthorForUser(db: Db, userId: string): Promise<{ id: string; name: string } | null> {
  const [row] = await db.select({ id: authors.id, name: authors.name }).from(authors).where(eq(authors.userId, userId)).limit(1);
  return row ?? null;
}

/** The photo: blank, or an image of our own media store that exists (the media library's image rules). */
async function checkPhoto(storage: Storage, photoUrl: string | null, previous?: string | null) {
  if (!photoUrl || photoUrl === previous) return;
  const extensions = UPLOAD_RULES.image.types.flatMap((t) => t.extensions);
  if (!(await isOwnMediaUrl(storage, "images", photoUrl, extensions))) {
    throw new AppError<AuthorFieldName>("invalid_media", AUTHOR_PHOTO_INVALID, { field: "photoUrl" });
  }
}

async function checkSlugFree(db: Db, slug: string, exceptId?: string) {
  const [taken] = await db
    .select({ id: authors.id })
    .from(authors)
    .where(exceptId ? and(eq(authors.slug, slug), ne(authors.id, exceptId)) : eq(authors.slug, slug))
    .limit(1);
  if (taken) throw slugTaken();
}

const accountTaken = () => new AppError<AuthorFieldName>("invalid_input", ACCOUNT_TAKEN, { field: "userId", status: 409 });

function translateWriteError(error: unknown): never {
  if (isUniqueViolation(error)) throw pgConstraint(error) === "authors_user_id_key" ? accountTaken() : slugTaken();
  throw error;
}

/** The account an author is tied to: blank, or an existing account no other author is tied to. */
async function checkAccount(db: Db, userId: string | null, exceptId?: string) {
  if (!userId) return;
  const [account] = await db.select({ id: user.id }).from(user).where(eq(user.id, userId)).limit(1);
  if (!account) throw new AppError<AuthorFieldName>("invalid_input", UNKNOWN_ACCOUNT, { field: "userId" });
  const [taken] = await db
    .select({ id: authors.id })
    .from(authors)
    .where(exceptId ? and(eq(authors.userId, userId), ne(authors.id, exceptId)) : eq(authors.userId, userId))
    .limit(1);
  if (taken) throw accountTaken();
}

/** The back-office accounts an author can be tied to (id, name, e-mail), by e-mail. */
export async function listAccountChoices(db: Db): Promise<{ id: string; label: string }[]> {
  const rows = await db.select({ id: user.id, name: user.name, email: user.email }).from(user).orderBy(asc(user.email));
  return rows.map((r) => ({ id: r.id, label: r.name && r.name !== r.email ? `${r.name} (${r.email})` : r.email }));
}

const values = (input: AuthorInput) => ({
  name: input.name,
  slug: input.slug,
  roleTitle: input.roleTitle,
  bio: input.bio,
  photoUrl: input.photoUrl,
  websiteUrl: input.websiteUrl,
  xUrl: input.xUrl,
  linkedinUrl: input.linkedinUrl,
  userId: input.userId,
});

/** Creates an author from checked input; a taken slug, an unknown or taken account, or a foreign photo is refused. */
export async function createAuthor(db: Db, storage: Storage, input: AuthorInput, actor: Actor = SYSTEM_ACTOR) {
  await checkSlugFree(db, input.slug);
  await checkAccount(db, input.userId);
  await checkPhoto(storage, input.photoUrl);
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx.insert(authors).values(values(input)).returning({ id: authors.id, slug: authors.slug });
      await recordActivity(tx, actor, { kind: "author.create", objectType: "author", objectId: row!.id, objectLabel: input.name });
      return row!;
    });
  } catch (error) {
    translateWriteError(error);
  }
}

/** Updates an author by id with the same rules as create; an unknown id is "not_found". */
export async function updateAuthor(db: Db, storage: Storage, id: string, input: AuthorInput, actor: Actor = SYSTEM_ACTOR) {
  if (!isUuid(id)) throw notFound();
  const [previous] = await db.select({ photoUrl: authors.photoUrl }).from(authors).where(eq(authors.id, id)).limit(1);
  if (!previous) throw notFound();
  await checkSlugFree(db, input.slug, id);
  await checkAccount(db, input.userId, id);
  await checkPhoto(storage, input.photoUrl, previous.photoUrl);
  let row: { id: string; slug: string } | undefined;
  try {
    row = await db.transaction(async (tx) => {
      const [updated] = await tx
        .update(authors)
        .set({ ...values(input), updatedAt: new Date() })
        .where(eq(authors.id, id))
        .returning({ id: authors.id, slug: authors.slug });
      if (updated) await recordActivity(tx, actor, { kind: "author.update", objectType: "author", objectId: id, objectLabel: input.name });
      return updated;
    });
  } catch (error) {
    translateWriteError(error);
  }
  if (!row) throw notFound();
  return row;
}

/**
 * Unties an author from their back-office account (issue 27): the byline and the author page stay, the
 * account no longer writes as them (its new stories have no default byline until another is tied).
 */
export const UNLINK_ADMINS_ONLY = "Only an administrator can unlink an author from an account.";

export async function unlinkAuthorAccount(db: Db, id: string, actor: Actor = SYSTEM_ACTOR): Promise<{ name: string }> {
  // It takes an account's byline (and its share in co-bylined drafts) away: an administrator's act.
  checkCapability(actor, "team.manage", UNLINK_ADMINS_ONLY);
  if (!isUuid(id)) throw notFound();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(authors)
      .set({ userId: null, updatedAt: new Date() })
      .where(eq(authors.id, id))
      .returning({ name: authors.name });
    if (!row) throw notFound();
    await recordActivity(tx, actor, { kind: "author.update", objectType: "author", objectId: id, objectLabel: row.name, details: { unlinked: true } });
    return row;
  });
}

/**
 * Deletes an author (decision 0015), in one transaction: they leave every byline; an article left with
 * no author gets their name as its plain-text Author Name, so its byline still says who wrote it.
 */
export async function deleteAuthor(db: Db, id: string, actor: Actor = SYSTEM_ACTOR): Promise<void> {
  if (!isUuid(id)) throw notFound();
  await db.transaction(async (tx) => {
    const [author] = await tx.select({ id: authors.id, name: authors.name }).from(authors).where(eq(authors.id, id)).for("update");
    if (!author) throw notFound();
    const theirs = tx.select({ id: articleAuthors.articleId }).from(articleAuthors).where(eq(articleAuthors.authorId, id));
    const shared = tx
      .select({ id: articleAuthors.articleId })
      .from(articleAuthors)
      .where(and(ne(articleAuthors.authorId, id), inArray(articleAuthors.articleId, theirs)));
    await tx
      .update(articles)
      .set({ authorName: author.name })
      .where(and(inArray(articles.id, theirs), sql`${articles.id} not in (${shared})`));
    await tx.delete(articleAuthors).where(eq(articleAuthors.authorId, id));
    await tx.delete(authors).where(eq(authors.id, id));
    await recordActivity(tx, actor, { kind: "author.delete", objectType: "author", objectId: id, objectLabel: author.name });
  });
}

// ---------------------------------------------------------------- articles' authors

/**
 * Checks that every id names an author (the article form's choice): duplicates are dropped, order is
 * kept. An unknown or malformed id is refused ("invalid_input" on the authors field).
 */
export async function checkAuthorIds(db: Pick<Db, "select">, ids: readonly string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  if (unique.length > 20) throw new AppError("invalid_input", "An article can name at most 20 authors.", { field: "authorIds" });
  if (!unique.every(isUuid)) throw new AppError("invalid_input", UNKNOWN_AUTHOR, { field: "authorIds" });
  const found = await db.select({ id: authors.id }).from(authors).where(inArray(authors.id, unique));
  if (found.length !== unique.length) throw new AppError("invalid_input", UNKNOWN_AUTHOR, { field: "authorIds" });
  return unique;
}

/** Replaces an article's authors with `ids` in that order (inside the article's transaction). */
export async function setArticleAuthors(tx: Tx, articleId: string, ids: readonly string[]): Promise<void> {
  await tx.delete(articleAuthors).where(eq(articleAuthors.articleId, articleId));
  if (ids.length > 0) {
    await tx.insert(articleAuthors).values(ids.map((authorId, position) => ({ articleId, authorId, position })));
  }
}

/** An article's author ids in byline order. */
export async function getArticleAuthorIds(db: Pick<Db, "select">, articleId: string): Promise<string[]> {
  const rows = await db
    .select({ id: articleAuthors.authorId })
    .from(articleAuthors)
    .where(eq(articleAuthors.articleId, articleId))
    .orderBy(asc(articleAuthors.position));
  return rows.map((r) => r.id);
}

// ---------------------------------------------------------------- the author page

/** An author as their public page shows them (no account tie). */
export type PublicAuthor = Omit<AdminAuthor, "userId" | "articleCount">;

/** An author by slug for their page, or null (404). */
export async function getAuthorBySlug(db: Db, slug: string): Promise<PublicAuthor | null> {
  if (!isSlug(slug)) return null;
  const { userId: _userId, ...columns } = adminColumns;
  const [row] = await db.select(columns).from(authors).where(eq(authors.slug, slug)).limit(1);
  return row ?? null;
}

/**
 * Articles with this author in their byline (their feed, the admin list's filter). For the newest,
 * PostgreSQL walks the (status, published_at, id) index and probes each article's byline (migration
 * 0015: an author of a third of 100,000 articles, the first 20 in 1 ms).
 */
export function writtenBy(db: Pick<Db, "select">, authorId: string) {
  return inArray(articles.id, db.select({ id: articleAuthors.articleId }).from(articleAuthors).where(eq(articleAuthors.authorId, authorId)));
}

/** An author's public stories in the authors' listing (migration 0021): what their page lists and counts. */
const listedFor = (authorId: string | Placeholder) => and(eq(authorListing.authorId, authorId), lte(authorListing.publishedAt, sql`now()`));

/** One page of an author's public articles, newest first, and their total count (kept in `memo` as a category's; deep pages from its kept boundaries). */
export async function listAuthorArticles(db: Db, authorId: string, page: number, pageSize: number, memo: StoryMemo = readEveryTime) {
  const [cards, total] = await Promise.all([
    authorPage(db, { authorId }, pageWindow(page, pageSize), { memo, key: `author-boundaries:${authorId}` }),
    memo(`author-count:${authorId}`, async () => (await db.select({ total: count() }).from(authorListing).where(listedFor(authorId)))[0]?.total ?? 0),
  ]);
  return { articles: cards, total };
}

/** An author's page of ids: from the authors' listing (migration 0021), in its (author, published_at, id) index alone. */
const authorPage = preparedPageOfCards<{ authorId: string }>("author_page", {
  table: authorListing,
  publishedAt: authorListing.publishedAt,
  id: authorListing.articleId,
  where: () => listedFor(sql.placeholder("authorId")),
});

