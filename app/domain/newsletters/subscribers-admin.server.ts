import { and, asc, count, desc, eq, exists, ilike, inArray, isNotNull, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { newsletters, sendRecipients, subscriberTombstones, subscribers, subscriptions } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { isUuid } from "~/lib/ids";
import type { Actor } from "~/domain/accounts/actor";
import { checkCapability } from "~/domain/articles/article-access.server";
import { recordActivity } from "~/domain/activity/activity.server";
import { newTokenKey } from "./subscriber-tokens.server";
import { CONSENT_REQUIRED, SUBSCRIBERS_PAGE_SIZE, type SubscriberState } from "./subscribers-admin.schema";
import { type SubscriberCsvRow, type SubscriberExportRow } from "./subscribers-csv.server";
import { emailHash } from "./subscribers.server";

// The newsroom's side of subscribers (issue 30): /admin/subscribers' list, the CSV import and export,
// the erasure of a person (GDPR), the dashboard's card and the sign-ups each article's form brought.

export { CONSENT_REQUIRED, isSubscriberState, SUBSCRIBER_STATES, SUBSCRIBERS_PAGE_SIZE, type SubscriberState } from "./subscribers-admin.schema";
export const SUBSCRIBER_GONE = "This subscriber no longer exists.";

const MANAGE_REFUSED = "Only admins may import, export or delete subscribers.";
/** Rows per INSERT of an import (each subscriber row is 8 parameters; PostgreSQL takes at most 65,535). */
const CHUNK = 2000;


export interface SubscriberFilter {
  search?: string;
  newsletterId?: string | null;
  status?: SubscriberState | null;
}

function whereOf(filter: SubscriberFilter): SQL | undefined {
  const search = filter.search?.trim();
  return and(
    search ? ilike(subscribers.email, `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined,
    filter.status ? eq(subscribers.status, filter.status) : undefined,
    filter.newsletterId && isUuid(filter.newsletterId)
      ? exists(
          sql`(select 1 from ${subscriptions} where "subscriptions"."subscriber_id" = "subscribers"."id" and "subscriptions"."newsletter_id" = ${filter.newsletterId})`,
        )
      : undefined,
  );
}

export interface AdminSubscriberRow {
  id: string;
  email: string;
  name: string | null;
  status: SubscriberState;
  newsletters: string[];
  consentSource: string | null;
  consentAt: Date | null;
  confirmedAt: Date | null;
  createdAt: Date;
}

const newsletterNames = sql<string[]>`coalesce((select array_agg(n.name order by n.position, n.created_at) from subscriptions s join newsletters n on n.id = s.newsletter_id where s.subscriber_id = "subscribers"."id"), '{}')`;

/** One page of subscribers, newest first, searched by address and narrowed by newsletter and state. */
export async function listSubscribers(db: Db, filter: SubscriberFilter, page: number): Promise<{ rows: AdminSubscriberRow[]; total: number }> {
  const where = whereOf(filter);
  const [rows, [{ total }]] = (await Promise.all([
    db
      .select({
        id: subscribers.id,
        email: subscribers.email,
        name: subscribers.name,
        status: subscribers.status,
        newsletters: newsletterNames,
        consentSource: subscribers.consentSource,
        consentAt: subscribers.consentAt,
        confirmedAt: subscribers.confirmedAt,
        createdAt: subscribers.createdAt,
      })
      .from(subscribers)
      .where(where)
      .orderBy(desc(subscribers.createdAt), asc(subscribers.email))
      .limit(SUBSCRIBERS_PAGE_SIZE)
      .offset((page - 1) * SUBSCRIBERS_PAGE_SIZE),
    db.select({ total: count() }).from(subscribers).where(where),
  ])) as [AdminSubscriberRow[], [{ total: number }]];
  return { rows, total };
}

// ---------------------------------------------------------------- import

export interface SubscriberImportReport {
  /** New people, active from now. */
  added: number;
  /** People already active, given the file's newsletters too (or nothing new). */
  updated: number;
  /** People not added, with why: unsubscribed, bounced or complained before; erased at their request. */
  skipped: { line: number; email: string; reason: string }[];
  /** Lines not imported, with why (from the file's parse and from here). */
  problems: { line: number; reason: string }[];
}

const SKIP_REASONS: Record<string, string> = {
  unsubscribed: "unsubscribed before: an import does not resubscribe them",
  bounced: "their address bounced: an import does not resubscribe them",
  complained: "they marked a newsletter as spam: an import does not resubscribe them",
};
export const ERASED_SKIP = "erased at their request";

/**
 * Imports parsed rows (admins only, with the importer's word that these people agreed): every row is
 * checked first (its newsletters must exist and not be archived), then every good row is written in
 * one transaction. New people are active, their consent "import" now; an address that once unsubscribed,
 * bounced or complained stays as it is, and one erased at their request (its hash kept) is not added:
 * both are reported as skipped. A row naming no newsletter joins every public one.
 */
export async function importSubscribers(
  db: Db,
  actor: Actor,
  rows: readonly SubscriberCsvRow[],
  options: { consent: boolean; fileProblems?: { line: number; reason: string }[] },
): Promise<SubscriberImportReport> {
  checkCapability(actor, "subscribers.manage", MANAGE_REFUSED);
  if (!options.consent) throw new AppError("invalid_input", CONSENT_REQUIRED, { field: "consent" });
  const all = await db.select().from(newsletters);
  const usable = all.filter((n) => !n.archivedAt);
  const byKey = new Map<string, string>();
  for (const n of usable) {
    byKey.set(n.slug.toLowerCase(), n.id);
    byKey.set(n.name.trim().toLowerCase(), n.id);
  }
  const defaults = usable.filter((n) => n.isPublic).map((n) => n.id);
  const problems = [...(options.fileProblems ?? [])];
  const good: (SubscriberCsvRow & { newsletterIds: string[] })[] = [];
  for (const row of rows) {
    const unknown = row.newsletters.filter((item) => !byKey.has(item.toLowerCase()));
    if (unknown.length > 0) {
      problems.push({ line: row.line, reason: `No newsletter is called ${unknown.map((u) => `“${u.slice(0, 80)}”`).join(", ")} (archived ones cannot be imported into).` });
      continue;
    }
    const ids = row.newsletters.length > 0 ? [...new Set(row.newsletters.map((item) => byKey.get(item.toLowerCase())!))] : defaults;
    if (ids.length === 0) {
      problems.push({ line: row.line, reason: "Name a newsletter in the newsletters column: no newsletter is public." });
      continue;
    }
    good.push({ ...row, newsletterIds: ids });
  }
  const report: SubscriberImportReport = { added: 0, updated: 0, skipped: [], problems: problems.sort((a, b) => a.line - b.line) };
  if (good.length === 0) return report;

  await db.transaction(async (tx) => {
    const now = new Date();
    const existing = new Map<string, { id: string; status: string }>();
    const tombstoned = new Set<string>();
    for (let i = 0; i < good.length; i += CHUNK) {
      const chunk = good.slice(i, i + CHUNK);
      const found = await tx
        .select({ id: subscribers.id, email: subscribers.email, status: subscribers.status })
        .from(subscribers)
        .where(inArray(sql`lower(${subscribers.email})`, chunk.map((r) => r.email.toLowerCase())))
        .for("update");
      for (const f of found) existing.set(f.email.toLowerCase(), { id: f.id, status: f.status });
      const hashes = await tx
        .select({ hash: subscriberTombstones.emailHash })
        .from(subscriberTombstones)
        .where(inArray(subscriberTombstones.emailHash, chunk.map((r) => emailHash(r.email))));
      for (const h of hashes) tombstoned.add(h.hash);
    }
    const toInsert: typeof good = [];
    const subscriptionRows: { subscriberId: string; newsletterId: string }[] = [];
    const activate: string[] = [];
    for (const row of good) {
      const found = existing.get(row.email.toLowerCase());
      if (found) {
        if (SKIP_REASONS[found.status]) {
          report.skipped.push({ line: row.line, email: row.email, reason: SKIP_REASONS[found.status]! });
          continue;
        }
        if (found.status === "pending") activate.push(found.id);
        report.updated++;
        for (const newsletterId of row.newsletterIds) subscriptionRows.push({ subscriberId: found.id, newsletterId });
      } else if (tombstoned.has(emailHash(row.email))) {
        report.skipped.push({ line: row.line, email: row.email, reason: ERASED_SKIP });
      } else {
        toInsert.push(row);
      }
    }
    for (let i = 0; i < toInsert.length; i += CHUNK) {
      const chunk = toInsert.slice(i, i + CHUNK);
      const inserted = await tx
        .insert(subscribers)
        .values(
          chunk.map((row) => ({
            // Lower-cased: members sign in by their address (decision 0054).
            email: row.email.toLowerCase(),
            name: row.name,
            status: "active" as const,
            emailVerified: true,
            tokenKey: newTokenKey(),
            consentSource: "import",
            consentAt: now,
            confirmedAt: now,
          })),
        )
        .returning({ id: subscribers.id, email: subscribers.email });
      const idOf = new Map(inserted.map((r) => [r.email.toLowerCase(), r.id]));
      for (const row of chunk) for (const newsletterId of row.newsletterIds) subscriptionRows.push({ subscriberId: idOf.get(row.email.toLowerCase())!, newsletterId });
      report.added += inserted.length;
    }
    // A pending sign-up in the file: the importer's word is their consent, recorded as such.
    if (activate.length > 0) {
      await tx
        .update(subscribers)
        .set({ status: "active", consentSource: "import", consentAt: now, confirmedAt: now, updatedAt: now })
        .where(and(inArray(subscribers.id, activate), eq(subscribers.status, "pending")));
    }
    for (let i = 0; i < subscriptionRows.length; i += CHUNK * 4) {
      await tx.insert(subscriptions).values(subscriptionRows.slice(i, i + CHUNK * 4)).onConflictDoNothing();
    }
    report.skipped.sort((a, b) => a.line - b.line);
    await recordActivity(tx, actor, {
      kind: "subscribers.import",
      objectType: "subscriber",
      objectLabel: `${report.added} added, ${report.updated} already subscribed`,
      details: { added: report.added, updated: report.updated, skipped: report.skipped.length, refused: report.problems.length, consent: "import" },
    });
  });
  return report;
}

// ---------------------------------------------------------------- export

/** Every subscriber (narrowed like the list) with the consent record, oldest first: the export's rows. Logged as subscribers.export. */
export async function exportSubscribers(db: Db, actor: Actor, filter: SubscriberFilter = {}): Promise<SubscriberExportRow[]> {
  checkCapability(actor, "subscribers.manage", MANAGE_REFUSED);
  const rows = (await db
    .select({
      email: subscribers.email,
      name: subscribers.name,
      status: subscribers.status,
      newsletters: sql<
        string[]
      >`coalesce((select array_agg(n.slug order by n.position, n.created_at) from subscriptions s join newsletters n on n.id = s.newsletter_id where s.subscriber_id = "subscribers"."id"), '{}')`,
      consentSource: subscribers.consentSource,
      consentAt: subscribers.consentAt,
      confirmedAt: subscribers.confirmedAt,
      createdAt: subscribers.createdAt,
    })
    .from(subscribers)
    .where(whereOf(filter))
    .orderBy(asc(subscribers.createdAt), asc(subscribers.email))) as SubscriberExportRow[];
  await recordActivity(db, actor, {
    kind: "subscribers.export",
    objectType: "subscriber",
    objectLabel: rows.length === 1 ? "1 subscriber" : `${rows.length} subscribers`,
    details: { count: rows.length, ...(filter.search ? { search: filter.search } : {}), ...(filter.status ? { status: filter.status } : {}) },
  });
  return rows;
}

// ---------------------------------------------------------------- erasure

/**
 * Erases a person at their request (GDPR): their row and subscriptions go, their address leaves every
 * send's recipient list (what had not gone yet is cancelled), and only the address's hash is kept
 * (subscriber_tombstones), so that a later import cannot add them back. Logged without the address.
 */
export async function deleteSubscriber(db: Db, actor: Actor, id: string): Promise<void> {
  checkCapability(actor, "subscribers.manage", MANAGE_REFUSED);
  if (!isUuid(id)) throw new AppError("not_found", SUBSCRIBER_GONE);
  await db.transaction(async (tx) => {
    const hash = await erasePerson(tx, id);
    await recordActivity(tx, actor, { kind: "subscriber.delete", objectType: "subscriber", objectId: id, objectLabel: "a subscriber", details: { emailHash: hash } });
  });
}

/**
 * The erasure itself, inside the caller's transaction (an admin's delete above, a member's own "Delete
 * my account": app/domain/members/member-erasure.server.ts): answers the address's hash. The member's
 * payment records (member_subscriptions, member_invoices) stay without them (their foreign keys set
 * null): the anonymised records the law asks a business to keep.
 */
export async function erasePerson(tx: Pick<Db, "select" | "insert" | "update" | "delete">, id: string): Promise<string> {
  const [row] = await tx.select({ email: subscribers.email }).from(subscribers).where(eq(subscribers.id, id)).for("update");
  if (!row) throw new AppError("not_found", SUBSCRIBER_GONE);
  const hash = emailHash(row.email);
  await tx.insert(subscriberTombstones).values({ emailHash: hash }).onConflictDoNothing();
  await tx
    .update(sendRecipients)
    .set({
      email: "",
      lastError: null,
      status: sql`case when ${sendRecipients.status} in ('queued', 'deferred') then 'cancelled' else ${sendRecipients.status} end`,
    })
    .where(eq(sendRecipients.subscriberId, id));
  await tx.delete(subscribers).where(eq(subscribers.id, id));
  return hash;
}

// ---------------------------------------------------------------- counts

/** The dashboard's "Subscribers" card: active subscribers, and those confirmed in the last 30 days. */
export async function subscriberCounts(db: Db, now = new Date()): Promise<{ active: number; newLast30Days: number }> {
  const since = new Date(now.getTime() - 30 * 24 * 60 * 60 * 1000);
  const [row] = await db
    .select({
      active: sql<number>`count(*) filter (where ${subscribers.status} = 'active')::int`,
      newLast30Days: sql<number>`count(*) filter (where ${subscribers.confirmedAt} >= ${since})::int`,
    })
    .from(subscribers);
  return { active: Number(row?.active ?? 0), newLast30Days: Number(row?.newLast30Days ?? 0) };
}

/**
 * How many sign-ups each article's form brought: subscribers who signed up there and confirmed (whatever
 * they did since: a later unsubscribe still counts as a sign-up the story brought). Articles with none are absent.
 */
export async function signupsByArticle(db: Db, articleIds: readonly string[]): Promise<Map<string, number>> {
  const ids = articleIds.filter(isUuid);
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ articleId: subscribers.signupArticleId, n: count() })
    .from(subscribers)
    .where(and(inArray(subscribers.signupArticleId, ids), isNotNull(subscribers.confirmedAt)))
    .groupBy(subscribers.signupArticleId);
  return new Map(rows.map((r) => [r.articleId!, Number(r.n)]));
}

