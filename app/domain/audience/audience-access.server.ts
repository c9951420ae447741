import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { articles, authors, NO_STORY } from "~/db/schema";
import type { Actor } from "~/domain/accounts/actor";
import { can, mayViewStoryAudience, type Role } from "~/domain/accounts/roles";
import { readOwnership } from "~/domain/articles/article-access.server";
import { AppError } from "~/lib/app-error";
import type { AudienceScope } from "./audience-report.types";

// Who sees which audience figures (issue 42): the route guard checks `audience.view`; these rules add
// the scope (the whole site with `audience.viewAll`, else one's own stories) and the story check.

export const NOT_YOUR_STORY = "You can see the audience of your own stories only.";

/**
 * The scope of a user's reports: the whole site, or the stories whose byline names the user's author
 * record (article_authors). `authorId` is that record's id (authors.id); an account with no author
 * record has no stories by byline (the nil id matches none).
 */
export async function audienceScopeFor(db: Db, user: { id: string; role: Role | null }): Promise<AudienceScope> {
  if (can(user.role, "audience.viewAll")) return { kind: "site" };
  const [record] = await db.select({ id: authors.id }).from(authors).where(eq(authors.userId, user.id));
  return { kind: "author", authorId: record?.id ?? NO_STORY };
}

/** Refuses (404) an unknown story and (403) one the user may not see the audience of; answers when it was published. */
export async function checkStoryAudienceAccess(db: Db, user: { id: string; role: Role | null }, articleId: string): Promise<{ publishedAt: Date | null }> {
  const actor: Actor = { id: user.id, name: "", role: user.role };
  const ownership = await readOwnership(db, articleId, actor);
  if (!ownership) throw new AppError("not_found", "Story not found.");
  if (!mayViewStoryAudience(user, ownership)) throw new AppError("forbidden", NOT_YOUR_STORY);
  const [row] = await db.select({ publishedAt: articles.publishedAt }).from(articles).where(eq(articles.id, articleId));
  return { publishedAt: row?.publishedAt ?? null };
}
