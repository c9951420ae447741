import { and, count, desc, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { auditEvents } from "~/db/schema";
import type { Actor } from "~/domain/accounts/actor";
import type { ActivityKind, ActivityObjectType } from "./activity.schema";

/** A transaction (or the pool): an entry is written inside the change's own transaction where there is one. */
type Writer = Pick<Db, "insert">;

export interface ActivityEntry {
  kind: ActivityKind;
  objectType?: ActivityObjectType;
  objectId?: string | null;
  /** The object as people know it now: a title, a name, an e-mail address. */
  objectLabel?: string | null;
  /** A few facts worth keeping (the new role, the scheduled time, the fields changed). Never secrets. */
  details?: Record<string, unknown>;
  /** The client address, for sign-ins. */
  ip?: string | null;
}

/**
 * Appends one entry to the audit trail (decision 0017): who (the actor's id and name as they are now),
 * what, and on which object. Call it with the transaction that makes the change, so a change and its
 * entry are written together or not at all. Entries are never changed afterwards (a trigger refuses).
 */
export async function recordActivity(db: Writer, actor: Actor, entry: ActivityEntry): Promise<void> {
  await db.insert(auditEvents).values({
    actorId: actor.id,
    actorName: actor.name,
    kind: entry.kind,
    objectType: entry.objectType ?? null,
    objectId: entry.objectId ?? null,
    objectLabel: entry.objectLabel ?? null,
    details: entry.details ?? null,
    ip: entry.ip ?? null,
  });
}

export interface ActivityRow {
  id: number;
  at: Date;
  actorId: string | null;
  actorName: string;
  kind: string;
  objectType: string | null;
  objectId: string | null;
  objectLabel: string | null;
  details: unknown;
  /** The client address, kept for sign-ins. */
  ip: string | null;
}

/** One page of the trail, newest first, narrowed to one person (their account id) and/or one kind. */
export async function listActivity(
  db: Db,
  filter: { actorId?: string | null; kind?: ActivityKind | null },
  page: number,
  pageSize: number,
): Promise<{ rows: ActivityRow[]; total: number }> {
  const where = and(
    filter.actorId ? eq(auditEvents.actorId, filter.actorId) : undefined,
    filter.kind ? eq(auditEvents.kind, filter.kind) : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(auditEvents)
      .where(where)
      .orderBy(desc(auditEvents.at), desc(auditEvents.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(auditEvents).where(where),
  ]);
  return { rows, total };
}

/** The people who appear in the trail (by account), for the filter: their latest name, A to Z. */
export async function listActivityPeople(db: Db): Promise<{ id: string; name: string }[]> {
  const rows = await db.execute<{ id: string; name: string }>(sql`
    select distinct on (actor_id) actor_id as id, actor_name as name
    from audit_events where actor_id is not null
    order by actor_id, at desc`);
  return rows.rows.sort((a, b) => a.name.localeCompare(b.name));
}
