import { randomUUID } from "node:crypto";
import { and, asc, eq, isNull, isNotNull, ne, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { memberTiers, type MemberTier } from "~/db/schema";
import type { Actor } from "~/domain/accounts/actor";
import { recordActivity } from "~/domain/activity/activity.server";
import { AppError } from "~/lib/app-error";
import { CHANGE_CHANNEL } from "~/lib/change-feed.server";
import { slugify } from "~/lib/slugs";
import type { CatalogSync, CatalogTier, TierCatalog } from "./billing.server";
import { formatPrice, pricesOf, type TierFormInput } from "./tiers.schema";

// Paid tiers (issue 40): saved here and in Stripe's catalog together. Stripe is asked first (a product,
// two prices); the row is written after, in one transaction with its activity entry; when that write
// fails, what Stripe made is undone, and prices a change replaced are retired only once the row holds
// the new ones. So a refusal from either side leaves nothing half saved.

export const STRIPE_NOT_CONFIGURED = "Paid tiers need Stripe: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET (and CURRENCY if not USD), then restart the site.";

/** Every tier, the offered ones first in their order, then the archived. */
export async function listTiers(db: Pick<Db, "select">): Promise<MemberTier[]> {
  return db.select().from(memberTiers).orderBy(sql`${memberTiers.archivedAt} is not null`, asc(memberTiers.position), asc(memberTiers.createdAt));
}

/** The tiers /subscribe offers: not archived, with both Stripe prices, in the site's currency, in order. */
export async function offeredTiers(db: Pick<Db, "select">, currency: string): Promise<MemberTier[]> {
  return db
    .select()
    .from(memberTiers)
    .where(and(isNull(memberTiers.archivedAt), eq(memberTiers.currency, currency), isNotNull(memberTiers.stripeMonthlyPriceId), isNotNull(memberTiers.stripeYearlyPriceId)))
    .orderBy(asc(memberTiers.position), asc(memberTiers.createdAt));
}

export async function getTier(db: Pick<Db, "select">, id: string): Promise<MemberTier | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [tier] = await db.select().from(memberTiers).where(eq(memberTiers.id, id));
  return tier ?? null;
}

function catalogTier(tier: MemberTier): CatalogTier {
  return {
    id: tier.id,
    name: tier.name,
    description: tier.description,
    benefits: tier.benefits,
    monthlyPrice: tier.monthlyPrice,
    yearlyPrice: tier.yearlyPrice,
    currency: tier.currency,
    stripeProductId: tier.stripeProductId,
    stripeMonthlyPriceId: tier.stripeMonthlyPriceId,
    stripeYearlyPriceId: tier.stripeYearlyPriceId,
  };
}

/** The input's prices in minor units, or the field error. */
function pricesOrRefuse(input: TierFormInput, currency: string) {
  const prices = pricesOf(input, currency);
  if ("field" in prices) throw new AppError("invalid_input", prices.message, { field: prices.field });
  return prices;
}

async function refuseTakenSlug(db: Pick<Db, "select">, slug: string, exceptId: string | null) {
  if (!slug) throw new AppError("invalid_input", "Give the tier a name with letters or digits.", { field: "name" });
  const [taken] = await db
    .select({ id: memberTiers.id })
    .from(memberTiers)
    .where(exceptId ? and(eq(memberTiers.slug, slug), ne(memberTiers.id, exceptId)) : eq(memberTiers.slug, slug));
  if (taken) throw new AppError("already_exists", "Another tier has this name. Choose another.", { field: "name" });
}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** Tells every process, once the transaction commits, that the tiers changed: /subscribe's cached copies are dropped (TIERS_TAG). */
async function announceTierChange(tx: Tx) {
  await tx.execute(sql`select pg_notify(${CHANGE_CHANNEL}, ${JSON.stringify({ table: "member_tiers", op: "UPDATE" })})`);
}

const isUniqueViolation = (error: unknown) => (error as { code?: string; cause?: { code?: string } })?.code === "23505" || (error as { cause?: { code?: string } })?.cause?.code === "23505";

/** Writes the row after Stripe's sync; undoes the sync when the write fails. */
async function saveAfterSync<T>(sync: CatalogSync, write: () => Promise<T>): Promise<T> {
  let saved: T;
  try {
    saved = await write();
  } catch (error) {
    await sync.undo();
    if (isUniqueViolation(error)) throw new AppError("already_exists", "Another tier has this name. Choose another.", { field: "name", cause: error });
    throw error;
  }
  await sync.afterSave();
  return saved;
}

const summary = (tier: { monthlyPrice: number; yearlyPrice: number; currency: string; trialDays: number }) => ({
  monthly: formatPrice(tier.monthlyPrice, tier.currency),
  yearly: formatPrice(tier.yearlyPrice, tier.currency),
  trialDays: tier.trialDays,
});

/** A new paid tier, last in the order, with its Stripe product and prices. */
export async function createTier(db: Db, actor: Actor, input: TierFormInput, catalog: TierCatalog, currency: string): Promise<MemberTier> {
  const prices = pricesOrRefuse(input, currency);
  const slug = slugify(input.name);
  await refuseTakenSlug(db, slug, null);
  const id = randomUUID();
  const draft: CatalogTier = {
    id,
    name: input.name,
    description: input.description,
    benefits: input.benefits,
    monthlyPrice: prices.monthly,
    yearlyPrice: prices.yearly,
    currency,
    stripeProductId: null,
    stripeMonthlyPriceId: null,
    stripeYearlyPriceId: null,
  };
  const sync = await catalog.sync(draft, null);
  return saveAfterSync(sync, () =>
    db.transaction(async (tx) => {
      const [{ next }] = (await tx.select({ next: sql<number>`coalesce(max(${memberTiers.position}) + 1, 0)::int` }).from(memberTiers)) as [{ next: number }];
      const [tier] = await tx
        .insert(memberTiers)
        .values({
          id,
          name: input.name,
          slug,
          description: input.description,
          benefits: input.benefits,
          monthlyPrice: prices.monthly,
          yearlyPrice: prices.yearly,
          currency,
          trialDays: input.trialDays,
          position: next,
          stripeProductId: sync.productId,
          stripeMonthlyPriceId: sync.monthlyPriceId,
          stripeYearlyPriceId: sync.yearlyPriceId,
        })
        .returning();
      await announceTierChange(tx);
      await recordActivity(tx, actor, { kind: "tier.create", objectType: "tier", objectId: id, objectLabel: input.name, details: summary(tier!) });
      return tier!;
    }),
  );
}

/** Saves a tier's edit: its product brought up to date, a new price for a changed amount (the old one retired once saved). */
export async function updateTier(db: Db, actor: Actor, id: string, input: TierFormInput, catalog: TierCatalog): Promise<MemberTier> {
  const before = await getTier(db, id);
  if (!before) throw new AppError("not_found", "This tier no longer exists.");
  // A tier keeps its currency: its subscribers pay in it. A site that changed CURRENCY makes new tiers.
  const prices = pricesOrRefuse(input, before.currency);
  const slug = slugify(input.name);
  await refuseTakenSlug(db, slug, id);
  const after: CatalogTier = { ...catalogTier(before), name: input.name, description: input.description, benefits: input.benefits, monthlyPrice: prices.monthly, yearlyPrice: prices.yearly };
  const sync = await catalog.sync(after, catalogTier(before));
  const changed = (["name", "description", "benefits", "monthlyPrice", "yearlyPrice", "trialDays"] as const).filter(
    (field) => JSON.stringify({ ...input, monthlyPrice: prices.monthly, yearlyPrice: prices.yearly }[field]) !== JSON.stringify(before[field]),
  );
  return saveAfterSync(sync, () =>
    db.transaction(async (tx) => {
      const [tier] = await tx
        .update(memberTiers)
        .set({
          name: input.name,
          slug,
          description: input.description,
          benefits: input.benefits,
          monthlyPrice: prices.monthly,
          yearlyPrice: prices.yearly,
          trialDays: input.trialDays,
          stripeProductId: sync.productId,
          stripeMonthlyPriceId: sync.monthlyPriceId,
          stripeYearlyPriceId: sync.yearlyPriceId,
          updatedAt: new Date(),
        })
        .where(eq(memberTiers.id, id))
        .returning();
      if (!tier) throw new AppError("not_found", "This tier no longer exists.");
      await announceTierChange(tx);
      await recordActivity(tx, actor, { kind: "tier.update", objectType: "tier", objectId: id, objectLabel: input.name, details: { changed, ...summary(tier) } });
      return tier;
    }),
  );
}

/** Archives a tier (no longer offered; its members keep it) or restores it; its Stripe product follows. */
export async function setTierArchived(db: Db, actor: Actor, id: string, archived: boolean, catalog: TierCatalog): Promise<MemberTier> {
  const tier = await getTier(db, id);
  if (!tier) throw new AppError("not_found", "This tier no longer exists.");
  if (Boolean(tier.archivedAt) === archived) return tier;
  if (tier.stripeProductId) await catalog.setActive(tier.stripeProductId, !archived);
  try {
    return await db.transaction(async (tx) => {
      const [saved] = await tx
        .update(memberTiers)
        .set({ archivedAt: archived ? new Date() : null, updatedAt: new Date() })
        .where(eq(memberTiers.id, id))
        .returning();
      await announceTierChange(tx);
      await recordActivity(tx, actor, { kind: archived ? "tier.archive" : "tier.unarchive", objectType: "tier", objectId: id, objectLabel: tier.name });
      return saved!;
    });
  } catch (error) {
    if (tier.stripeProductId) await catalog.setActive(tier.stripeProductId, archived).catch(() => {});
    throw error;
  }
}

/** Moves an offered tier one place up or down on /subscribe. */
export async function moveTier(db: Db, actor: Actor, id: string, direction: "up" | "down"): Promise<void> {
  await db.transaction(async (tx) => {
    // One reorder at a time: positions are read and written whole.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('member_tiers.position'))`);
    const tiers = (await listTiers(tx)).filter((t) => !t.archivedAt);
    const at = tiers.findIndex((t) => t.id === id);
    if (at < 0) throw new AppError("not_found", "This tier no longer exists or is archived.");
    const to = direction === "up" ? at - 1 : at + 1;
    if (to < 0 || to >= tiers.length) return;
    [tiers[at], tiers[to]] = [tiers[to]!, tiers[at]!];
    for (const [position, tier] of tiers.entries()) {
      if (tier.position !== position) await tx.update(memberTiers).set({ position }).where(eq(memberTiers.id, tier.id));
    }
    await announceTierChange(tx);
    await recordActivity(tx, actor, { kind: "tier.reorder", objectType: "tier", objectId: id, objectLabel: tiers[to]!.name, details: { order: tiers.map((t) => t.name) } });
  });
}
