import { and, asc, eq, isNull } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { newsletters } from "~/db/schema";

// The newsletters themselves (issue 30): what the sign-up forms offer and the newsroom sends. The admin
// screen's writes (create, edit, archive) live here too; a site always keeps at least one newsletter
// that is not archived (migration 0031 makes the first, a public "Stories" one named after the site).

export type Newsletter = typeof newsletters.$inferSelect;

/** The newsletters readers may choose on the sign-up forms and /newsletter: public, not archived, in order. */
export async function publicNewsletters(db: Db): Promise<Newsletter[]> {
  return db
    .select()
    .from(newsletters)
    .where(and(eq(newsletters.isPublic, true), isNull(newsletters.archivedAt)))
    .orderBy(asc(newsletters.position), asc(newsletters.createdAt));
}

/** Every newsletter not archived (public or not), in order: what an editor may send a story to. */
export async function activeNewsletters(db: Db): Promise<Newsletter[]> {
  return db.select().from(newsletters).where(isNull(newsletters.archivedAt)).orderBy(asc(newsletters.position), asc(newsletters.createdAt));
}

export async function newsletterById(db: Db, id: string): Promise<Newsletter | null> {
  const [row] = await db.select().from(newsletters).where(eq(newsletters.id, id)).limit(1);
  return row ?? null;
}
