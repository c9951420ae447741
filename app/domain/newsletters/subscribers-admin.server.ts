import { and, asc, count, desc, eq, exists, ilike, inArray, isNotNull, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { memberEvents, memberTiers, newsletters, sendRecipients, subscriberTombstones, subscribers, subscriptions } from "~/db/schema";
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

export type ImportAction = "create" | "update" | "unchanged" | "skip";

export interface SubscriberImportReport {
  /** A dry run: what an import would do; nothing was written. */
  dryRun: boolean;
  /** New people, active from now (or not on e-mail when the file says so). */
  added: number;
  /** People already on record who gain something from the file: newsletters, a name, a complimentary plan, a Stripe customer. */
  updated: number;
  /** People already on record whom the file changes in nothing (a second run of the same file: everyone). */
  unchanged: number;
  /** People not added, with why: unsubscribed, bounced or complained before; erased at their request. */
  skipped: { line: number; email: string; reason: string }[];
  /** Lines not imported, with why (from the file's parse and from here). */
  problems: { line: number; reason: string }[];
  /** Every line that parsed, with what it does (or would do) and why. */
  lines: { line: number; email: string; action: ImportAction; notes: string[] }[];
}

const SKIP_REASONS: Record<string, string> = {
  unsubscribed: "unsubscribed before: an import does not resubscribe them",
  bounced: "their address bounced: an import does not resubscribe them",
  complained: "they marked a newsletter as spam: an import does not resubscribe them",
};
export const ERASED_SKIP = "erased at their request";
export const NO_TIER_FOR_COMP = "No paid tier exists for its complimentary plan: create one at /admin/members/tiers, then import again.";

type Writer = Pick<Db, "select" | "insert" | "update">;

interface Existing {
  id: string;
  status: string;
  name: string | null;
  compTierId: string | null;
  stripeCustomerId: string | null;
  newsletterIds: Set<string>;
}

/**
 * Imports parsed rows (admins only, with the importer's word that these people agreed): every row is
 * checked first (its newsletters must exist and not be archived; a complimentary plan needs a paid
 * tier), then every good row is written in one transaction. New people are active, their consent
 * "import" now, on the file's newsletters or every public one; one the file says receives no e-mail
 * (Ghost's subscribed_to_emails false, Substack's email_disabled) is recorded as unsubscribed, on none.
 * Someone already on record gains what the file adds and keeps what they have (their name, their plan,
 * their Stripe customer): a second run of the same file changes nothing. An address that once
 * unsubscribed, bounced or complained is not resubscribed, and one erased at their request (its hash
 * kept) is not added. A member's complimentary plan goes to the tier the file names (by name or slug)
 * or else to the first paid tier; a paying member keeps only their Stripe customer (the subscription
 * arrives from Stripe). With `dryRun`, the same report and nothing written.
 */
export async function importSubscribers(
  db: Db,
  actor: Actor,
  rows: readonly SubscriberCsvRow[],
  options: { consent: boolean; fileProblems?: { line: number; reason: string }[]; dryRun?: boolean; activity?: "subscribers.import" | "members.import"; now?: Date },
): Promise<SubscriberImportReport> {
  checkCapability(actor, "subscribers.manage", MANAGE_REFUSED);
  if (!options.consent) throw new AppError("invalid_input", CONSENT_REQUIRED, { field: "consent" });
  const dryRun = options.dryRun ?? false;
  const [all, tiers] = await Promise.all([
    db.select().from(newsletters),
    db.select({ id: memberTiers.id, name: memberTiers.name, slug: memberTiers.slug, archivedAt: memberTiers.archivedAt }).from(memberTiers).orderBy(asc(memberTiers.position), asc(memberTiers.createdAt)),
  ]);
  const usable = all.filter((n) => !n.archivedAt);
  const byKey = new Map<string, string>();
  for (const n of usable) {
    byKey.set(n.slug.toLowerCase(), n.id);
    byKey.set(n.name.trim().toLowerCase(), n.id);
  }
  const nameOf = new Map(all.map((n) => [n.id, n.name]));
  const tierByKey = new Map<string, { id: string; name: string }>();
  for (const tier of tiers) {
    tierByKey.set(tier.slug.toLowerCase(), tier);
    tierByKey.set(tier.name.trim().toLowerCase(), tier);
  }
  const firstTier = tiers.find((t) => !t.archivedAt) ?? null;
  const defaults = usable.filter((n) => n.isPublic).map((n) => n.id);
  const problems = [...(options.fileProblems ?? [])];
  type Good = SubscriberCsvRow & { newsletterIds: string[]; compTier: { id: string; name: string } | null; notes: string[] };
  const good: Good[] = [];
  for (const row of rows) {
    const notes = [...(row.notes ?? [])];
    const unknown = row.newsletters.filter((item) => !byKey.has(item.toLowerCase()));
    if (unknown.length > 0) {
      problems.push({ line: row.line, reason: `No newsletter is called ${unknown.map((u) => `“${u.slice(0, 80)}”`).join(", ")} (archived ones cannot be imported into).` });
      continue;
    }
    const ids = row.subscribed === false ? [] : row.newsletters.length > 0 ? [...new Set(row.newsletters.map((item) => byKey.get(item.toLowerCase())!))] : defaults;
    if (ids.length === 0 && row.subscribed !== false) {
      problems.push({ line: row.line, reason: "Name a newsletter in the newsletters column: no newsletter is public." });
      continue;
    }
    let compTier: Good["compTier"] = null;
    if (row.comp) {
      const named = row.comp.tier ? tierByKey.get(row.comp.tier.trim().toLowerCase()) : undefined;
      compTier = named ?? firstTier;
      if (!compTier) {
        problems.push({ line: row.line, reason: NO_TIER_FOR_COMP });
        continue;
      }
      if (row.comp.tier && !named) notes.push(`no tier is called “${row.comp.tier.slice(0, 80)}”: its complimentary plan is in ${compTier.name}, the first paid tier`);
    }
    good.push({ ...row, newsletterIds: ids, compTier, notes });
  }
  const report: SubscriberImportReport = { dryRun, added: 0, updated: 0, unchanged: 0, skipped: [], problems: problems.sort((a, b) => a.line - b.line), lines: [] };
  if (good.length === 0) return report;

  const run = async (tx: Writer) => {
    const now = options.now ?? new Date();
    const existing = new Map<string, Existing>();
    const tombstoned = new Set<string>();
    const customerHolders = new Map<string, string>();
    for (let i = 0; i < good.length; i += CHUNK) {
      const chunk = good.slice(i, i + CHUNK);
      const query = tx
        .select({ id: subscribers.id, email: subscribers.email, status: subscribers.status, name: subscribers.name, compTierId: subscribers.compTierId, stripeCustomerId: subscribers.stripeCustomerId })
        .from(subscribers)
        .where(inArray(sql`lower(${subscribers.email})`, chunk.map((r) => r.email.toLowerCase())));
      const found = dryRun ? await query : await query.for("update");
      for (const f of found) existing.set(f.email.toLowerCase(), { ...f, newsletterIds: new Set() });
      const ids = found.map((f) => f.id);
      if (ids.length > 0) {
        const subs = await tx.select({ subscriberId: subscriptions.subscriberId, newsletterId: subscriptions.newsletterId }).from(subscriptions).where(inArray(subscriptions.subscriberId, ids));
        const byId = new Map(found.map((f) => [f.id, existing.get(f.email.toLowerCase())!]));
        for (const s of subs) byId.get(s.subscriberId)?.newsletterIds.add(s.newsletterId);
      }
      const hashes = await tx
        .select({ hash: subscriberTombstones.emailHash })
        .from(subscriberTombstones)
        .where(inArray(subscriberTombstones.emailHash, chunk.map((r) => emailHash(r.email))));
      for (const h of hashes) tombstoned.add(h.hash);
      const customers = chunk.map((r) => r.stripeCustomerId).filter((c): c is string => Boolean(c));
      if (customers.length > 0) {
        const holders = await tx.select({ id: subscribers.id, customer: subscribers.stripeCustomerId }).from(subscribers).where(inArray(subscribers.stripeCustomerId, customers));
        for (const h of holders) customerHolders.set(h.customer!, h.id);
      }
    }
    const toInsert: Good[] = [];
    const subscriptionRows: { subscriberId: string; newsletterId: string }[] = [];
    const changes: { id: string; set: Partial<typeof subscribers.$inferInsert>; comp: Good["compTier"]; compUntil: Date | null }[] = [];
    const seenCustomers = new Set<string>();
    for (const row of good) {
      const found = existing.get(row.email.toLowerCase());
      const notes = [...row.notes];
      const skip = (reason: string) => {
        report.skipped.push({ line: row.line, email: row.email, reason });
        report.lines.push({ line: row.line, email: row.email, action: "skip", notes: [reason, ...notes] });
      };
      if (row.skip) {
        skip(row.skip);
        continue;
      }
      let customer = row.stripeCustomerId ?? null;
      if (customer) {
        const holder = customerHolders.get(customer);
        if ((holder && holder !== found?.id) || seenCustomers.has(customer)) {
          notes.push(`its Stripe customer ${customer} belongs to another member: not kept`);
          customer = null;
        } else seenCustomers.add(customer);
      }
      if (!found) {
        if (tombstoned.has(emailHash(row.email))) {
          skip(ERASED_SKIP);
          continue;
        }
        toInsert.push({ ...row, stripeCustomerId: customer });
        const what = [
          row.subscribed === false ? "no e-mail (the file says so)" : `newsletters: ${row.newsletterIds.map((id) => nameOf.get(id)).join(", ")}`,
          ...(row.compTier ? [`complimentary ${row.compTier.name}${row.comp?.until ? ` until ${row.comp.until.toISOString().slice(0, 10)}` : ""}`] : []),
          ...(customer ? [`Stripe customer ${customer}`] : []),
        ];
        report.lines.push({ line: row.line, email: row.email, action: "create", notes: [...what, ...notes] });
        continue;
      }
      const what: string[] = [];
      const set: Partial<typeof subscribers.$inferInsert> = {};
      if (!found.name && row.name) {
        set.name = row.name;
        what.push(`name: ${row.name}`);
      }
      const missing = row.newsletterIds.filter((id) => !found.newsletterIds.has(id));
      const mayResubscribe = !SKIP_REASONS[found.status];
      if (row.subscribed !== false && missing.length > 0) {
        if (mayResubscribe) {
          for (const newsletterId of missing) subscriptionRows.push({ subscriberId: found.id, newsletterId });
          what.push(`newsletters: ${missing.map((id) => nameOf.get(id)).join(", ")}`);
        } else notes.push(SKIP_REASONS[found.status]!);
      }
      if (row.subscribed !== false && found.status === "pending" && row.newsletterIds.length > 0) {
        // A pending sign-up in the file: the importer's word is their consent, recorded as such.
        Object.assign(set, { status: "active", consentSource: "import", consentAt: now, confirmedAt: now });
        what.push("confirmed by the import");
      }
      let comp: Good["compTier"] = null;
      if (row.compTier) {
        if (found.compTierId) notes.push("already has a complimentary plan: kept");
        else {
          comp = row.compTier;
          Object.assign(set, { compTierId: comp.id, compUntil: row.comp?.until ?? null });
          what.push(`complimentary ${comp.name}${row.comp?.until ? ` until ${row.comp.until.toISOString().slice(0, 10)}` : ""}`);
        }
      }
      if (customer && customer !== found.stripeCustomerId) {
        if (found.stripeCustomerId) notes.push(`keeps its Stripe customer ${found.stripeCustomerId}`);
        else {
          set.stripeCustomerId = customer;
          what.push(`Stripe customer ${customer}`);
        }
      }
      // Someone the file would resubscribe who once left: skipped as before, unless the file brings them a
      // plan (a comp, a Stripe customer); a name alone does not make an update of them.
      const blocked = !mayResubscribe && row.subscribed !== false && missing.length > 0;
      if (blocked && !comp && !set.stripeCustomerId) {
        skip(SKIP_REASONS[found.status]!);
        continue;
      }
      if (what.length === 0) {
        report.unchanged++;
        report.lines.push({ line: row.line, email: row.email, action: "unchanged", notes });
        continue;
      }
      report.updated++;
      report.lines.push({ line: row.line, email: row.email, action: "update", notes: [...what, ...notes] });
      if (Object.keys(set).length > 0) changes.push({ id: found.id, set, comp, compUntil: row.comp?.until ?? null });
    }
    report.added = toInsert.length;
    report.skipped.sort((a, b) => a.line - b.line);
    report.lines.sort((a, b) => a.line - b.line);
    if (dryRun) return;

    const compGiven: { id: string; tier: { id: string; name: string }; until: Date | null }[] = [];
    for (let i = 0; i < toInsert.length; i += CHUNK) {
      const chunk = toInsert.slice(i, i + CHUNK);
      const inserted = await tx
        .insert(subscribers)
        .values(
          chunk.map((row) => ({
            // Lower-cased: members sign in by their address (decision 0054).
            email: row.email.toLowerCase(),
            name: row.name,
            status: row.subscribed === false ? ("unsubscribed" as const) : ("active" as const),
            emailVerified: true,
            tokenKey: newTokenKey(),
            consentSource: row.subscribed === false ? null : "import",
            consentAt: row.subscribed === false ? null : now,
            confirmedAt: row.subscribed === false ? null : now,
            unsubscribedAt: row.subscribed === false ? now : null,
            compTierId: row.compTier?.id ?? null,
            compUntil: row.compTier ? (row.comp?.until ?? null) : null,
            stripeCustomerId: row.stripeCustomerId ?? null,
            ...(row.createdAt ? { createdAt: row.createdAt } : {}),
          })),
        )
        .returning({ id: subscribers.id, email: subscribers.email });
      const idOf = new Map(inserted.map((r) => [r.email.toLowerCase(), r.id]));
      for (const row of chunk) {
        const id = idOf.get(row.email.toLowerCase())!;
        for (const newsletterId of row.newsletterIds) subscriptionRows.push({ subscriberId: id, newsletterId });
        if (row.compTier) compGiven.push({ id, tier: row.compTier, until: row.comp?.until ?? null });
      }
    }
    for (const change of changes) {
      await tx.update(subscribers).set({ ...change.set, ...(change.comp ? { accessChangedAt: now } : {}), updatedAt: now }).where(eq(subscribers.id, change.id));
      if (change.comp) compGiven.push({ id: change.id, tier: change.comp, until: change.compUntil });
    }
    for (let i = 0; i < subscriptionRows.length; i += CHUNK * 4) {
      await tx.insert(subscriptions).values(subscriptionRows.slice(i, i + CHUNK * 4)).onConflictDoNothing();
    }
    // A complimentary plan from the file is on the member's timeline like one an admin gives.
    for (let i = 0; i < compGiven.length; i += CHUNK) {
      await tx.insert(memberEvents).values(
        compGiven.slice(i, i + CHUNK).map((c) => ({ memberId: c.id, kind: "comp_granted", detail: { tierId: c.tier.id, tier: c.tier.name, until: c.until?.toISOString() ?? null, source: "import" }, createdAt: now })),
      );
    }
    await recordActivity(tx, actor, {
      kind: options.activity ?? "subscribers.import",
      objectType: options.activity === "members.import" ? "member" : "subscriber",
      objectLabel: `${report.added} added, ${report.updated} updated`,
      details: { added: report.added, updated: report.updated, unchanged: report.unchanged, skipped: report.skipped.length, refused: report.problems.length, consent: "import" },
    });
  };
  if (dryRun) await run(db);
  else await db.transaction(run);
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

