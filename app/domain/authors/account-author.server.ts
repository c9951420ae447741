import { eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { authors } from "~/db/schema";
import { slugify } from "~/lib/slugs";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** The most suffixes tried for a taken slug ("jane-doe-2" … "jane-doe-50") before the account id's start is used. */
const MAX_SUFFIX = 50;

/**
 * The author record of a back-office account (issue 27): the one tied to it, or a new one made from its
 * name (a byline and an author page at /author/{slug}). A slug already taken gets a suffix ("-2", "-3" …).
 * Meant to run in the transaction that gives the role, so a person never has a role without a byline.
 * Concurrent calls cannot make two: an insert that meets a unique slug or account does nothing and the
 * next slug, or the other call's row, is taken.
 */
export async function ensureAccountAuthor(tx: Tx | Db, account: { id: string; name: string; email: string }): Promise<{ id: string; slug: string; created: boolean }> {
  const existing = await tx.select({ id: authors.id, slug: authors.slug }).from(authors).where(eq(authors.userId, account.id)).limit(1);
  if (existing[0]) return { ...existing[0], created: false };
  const name = (account.name.trim() || account.email.split("@")[0] || account.email).slice(0, 120);
  const base = slugify(name) || slugify(account.email.split("@")[0] ?? "") || "author";
  const candidates = [base, ...Array.from({ length: MAX_SUFFIX - 1 }, (_, i) => `${base}-${i + 2}`), `${base}-${slugify(account.id).slice(0, 8)}`];
  for (const slug of candidates) {
    const [row] = await tx
      .insert(authors)
      .values({ name, slug, userId: account.id })
      .onConflictDoNothing()
      .returning({ id: authors.id, slug: authors.slug });
    if (row) return { ...row, created: true };
    const [theirs] = await tx.select({ id: authors.id, slug: authors.slug }).from(authors).where(eq(authors.userId, account.id)).limit(1);
    if (theirs) return { ...theirs, created: false };
  }
  // Fifty people of the same name: the account id alone cannot be taken by anyone else's slug pattern.
  const [row] = await tx
    .insert(authors)
    .values({ name, slug: sql`${base} || '-' || substr(md5(${account.id} || clock_timestamp()::text), 1, 10)`, userId: account.id })
    .returning({ id: authors.id, slug: authors.slug });
  return { ...row!, created: true };
}
