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
