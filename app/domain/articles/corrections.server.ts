import { and, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "~/db/client.server";
import { articleCorrections, articles } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { parseForm } from "~/lib/forms";
import { isUuid } from "~/lib/ids";
import { ARTICLE_NOTE_KINDS, ARTICLE_NOTE_MAX_LENGTH, type AdminArticleNote, type ArticleNote, type ArticleNoteFieldName } from "./corrections.schema";
import { SYSTEM_ACTOR, type Actor } from "~/domain/accounts/actor";
import { recordActivity } from "~/domain/activity/activity.server";

/** The "Add note" form, as the browser sends it and the server checks it. */
export const articleNoteSchema = z.object({
  kind: z.enum(ARTICLE_NOTE_KINDS, { error: "Choose Correction or Update." }),
  text: z
    .string()
    .trim()
    .min(1, "Write the note's text.")
    .max(ARTICLE_NOTE_MAX_LENGTH, `The note must be at most ${ARTICLE_NOTE_MAX_LENGTH} characters.`),
});

export type ArticleNoteInput = z.infer<typeof articleNoteSchema>;
// The schema's fields are exactly the form's field names (a type check: it fails to compile otherwise).
const _sameFields: [keyof ArticleNoteInput] extends [ArticleNoteFieldName] ? ([ArticleNoteFieldName] extends [keyof ArticleNoteInput] ? true : never) : never = true;

const newestFirst = [desc(articleCorrections.createdAt), desc(articleCorrections.id)] as const;

/**
 * An article's correction and update notes as readers see them, newest first, read with the article's
 * own row (its page and its preview: one query fewer per article page, issue 13). Their times come as
 * text (JSON). The outer row is named in full, as in the byline column (article-cards.server.ts).
 */
export const notesColumn = sql<ArticleNote[]>`coalesce((
  select json_agg(json_build_object('id', ${articleCorrections.id}, 'kind', ${articleCorrections.kind}, 'text', ${articleCorrections.text},
    'createdAt', ${articleCorrections.createdAt}) order by ${sql.join([...newestFirst], sql`, `)})
  from ${articleCorrections} where ${articleCorrections.articleId} = "articles"."id"), '[]'::json)`;

/** The same notes for the back office, with who added each. */
export async function listArticleNotesForAdmin(db: Db, articleId: string): Promise<AdminArticleNote[]> {
  if (!isUuid(articleId)) return [];
  return db
    .select({
      id: articleCorrections.id,
      kind: articleCorrections.kind,
      text: articleCorrections.text,
      createdAt: articleCorrections.createdAt,
      createdByName: articleCorrections.createdByName,
    })
    .from(articleCorrections)
    .where(eq(articleCorrections.articleId, articleId))
    .orderBy(...newestFirst);
}

const articleGone = () => new AppError("not_found", "This article no longer exists.");

/**
 * Adds a dated "Correction" or "Update" note to a published article (decision 0012). A note is a
 * substantial change: in the same transaction the article's modified_at becomes now, so readers
 * see "Updated {date}". Refused: an unknown article (404), one that is not published, a blank or
 * too long text, an unknown kind (400); nothing is written then.
 */
export async function addArticleNote(
  db: Db,
  actor: Actor,
  articleId: string,
  values: Record<ArticleNoteFieldName, string>,
): Promise<ArticleNote> {
  const input = parseForm(articleNoteSchema, values, { required: ["text"], missingMessage: "Write the note's text." });
  if (!isUuid(articleId)) throw articleGone();
  return db.transaction(async (tx) => {
    const [article] = await tx.select({ status: articles.status }).from(articles).where(eq(articles.id, articleId)).for("update");
    if (!article) throw articleGone();
    if (article.status !== "published") {
      throw new AppError("invalid_input", "Corrections and updates can only be added to a published article.");
    }
    const [note] = await tx
      .insert(articleCorrections)
      .values({ articleId, kind: input.kind, text: input.text, createdById: actor.id, createdByName: actor.name })
      .returning({ id: articleCorrections.id, kind: articleCorrections.kind, text: articleCorrections.text, createdAt: articleCorrections.createdAt });
    // now() is the transaction's start, the same instant as the note's created_at.
    const [updated] = await tx
      .update(articles)
      .set({ modifiedAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(articles.id, articleId))
      .returning({ title: articles.title });
    await recordActivity(tx, actor, { kind: "article.note", objectType: "article", objectId: articleId, objectLabel: updated!.title, details: { added: input.kind } });
    return note!;
  });
}

/** Deletes one note of an article; an unknown note (or one of another article) is "not_found". */
export async function deleteArticleNote(db: Db, articleId: string, noteId: string, actor: Actor = SYSTEM_ACTOR): Promise<void> {
  if (!isUuid(articleId) || !isUuid(noteId)) throw noteGone();
  await db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(articleCorrections)
      .where(and(eq(articleCorrections.id, noteId), eq(articleCorrections.articleId, articleId)))
      .returning({ kind: articleCorrections.kind });
    if (!deleted) throw noteGone();
    const [article] = await tx.select({ title: articles.title }).from(articles).where(eq(articles.id, articleId));
    await recordActivity(tx, actor, { kind: "article.note", objectType: "article", objectId: articleId, objectLabel: article?.title ?? null, details: { deleted: deleted.kind } });
  });
}

const noteGone = () => new AppError("not_found", "This note no longer exists.");
