import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { authors, user } from "~/db/schema";
import type { Actor } from "~/domain/accounts/actor";
import { AppError } from "~/lib/app-error";
import type { Storage } from "~/lib/storage.server";
import { authorInputSchema, type AuthorInput } from "./authors.schema";
import { updateAuthor } from "./authors.server";

// A new team member's author page (issue 41): after joining they are asked, once, for the photo, role
// title and short bio readers see on /author/{slug}. Only their own author record (the one tied to
// their account) is ever written here, through the author form's own schema and updateAuthor's rules.

/** The fields the welcome step asks for: the author form's own rules for them. */
export const ownProfileSchema = authorInputSchema.pick({ roleTitle: true, bio: true, photoUrl: true });
export const OWN_PROFILE_FIELDS = ["roleTitle", "bio", "photoUrl"] as const;
export type OwnProfileField = (typeof OWN_PROFILE_FIELDS)[number];

export interface OwnAuthor {
  id: string;
  name: string;
  slug: string;
  roleTitle: string | null;
  bio: string | null;
  photoUrl: string | null;
}

/** Whether this account still has to be asked (never asked, saved or skipped). */
export async function authorProfileAsked(db: Db, userId: string): Promise<boolean> {
  const [row] = await db.select({ askedAt: user.authorProfileAskedAt }).from(user).where(eq(user.id, userId)).limit(1);
  return row?.askedAt != null;
}

/** The author record tied to this account, or null (an account made before authors were tied to accounts). */
export async function ownAuthor(db: Db, userId: string): Promise<OwnAuthor | null> {
  const [row] = await db
    .select({ id: authors.id, name: authors.name, slug: authors.slug, roleTitle: authors.roleTitle, bio: authors.bio, photoUrl: authors.photoUrl })
    .from(authors)
    .where(eq(authors.userId, userId))
    .limit(1);
  return row ?? null;
}

/** Records that the account was asked (saved or skipped): it is not asked again. */
export async function markAuthorProfileAsked(db: Db, userId: string): Promise<void> {
  await db.update(user).set({ authorProfileAskedAt: sql`now()` }).where(and(eq(user.id, userId), isNull(user.authorProfileAskedAt)));
}

/**
 * Saves the role title, bio and photo of the signed-in account's own author record (checked by
 * ownProfileSchema; the photo must be our own image, as in the author form), then records that the
 * account was asked. Every other field of the record stays as it was.
 */
export async function saveOwnAuthorProfile(
  db: Db,
  storage: Storage,
  userId: string,
  input: Pick<AuthorInput, OwnProfileField>,
  actor: Actor,
): Promise<OwnAuthor> {
  const own = await db.select().from(authors).where(eq(authors.userId, userId)).limit(1);
  const author = own[0];
  if (!author) throw new AppError("not_found", "Your account has no author page yet: an administrator can create one under Authors.");
  const full: AuthorInput = {
    name: author.name,
    slug: author.slug,
    websiteUrl: author.websiteUrl,
    xUrl: author.xUrl,
    linkedinUrl: author.linkedinUrl,
    userId,
    ...input,
  };
  await updateAuthor(db, storage, author.id, full, actor);
  await markAuthorProfileAsked(db, userId);
  return { id: author.id, name: author.name, slug: author.slug, ...input };
}
