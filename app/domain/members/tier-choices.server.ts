import { asc, eq, isNull, or } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { memberTiers } from "~/db/schema";

/**
 * The paid tiers a story's "Access" may name (issue 40): those not archived, in their order, and the
 * story's own tier even when archived since (it keeps it until someone chooses another).
 */
export async function listTierChoices(db: Pick<Db, "select">, keep: string | null = null): Promise<{ id: string; name: string; archived: boolean }[]> {
  const rows = await db
    .select({ id: memberTiers.id, name: memberTiers.name, archivedAt: memberTiers.archivedAt })
    .from(memberTiers)
    .where(keep ? or(isNull(memberTiers.archivedAt), eq(memberTiers.id, keep)) : isNull(memberTiers.archivedAt))
    .orderBy(asc(memberTiers.position), asc(memberTiers.name));
  return rows.map(({ id, name, archivedAt }) => ({ id, name, archived: archivedAt !== null }));
}
