import { eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, memberTiers } from "~/db/schema";
import type { Actor } from "~/domain/accounts/actor";
import { isAppError } from "~/lib/app-error";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { startStripeStandIn, type StripeStandIn } from "../../../tests/support/stripe-stand-in";
import type { TierCatalog } from "./billing.server";
import { createStripeCatalog, createStripeClient } from "./stripe.server";
import { formatPrice, pricesOf, tierFormSchema, toMinorUnits } from "./tiers.schema";
import { createTier, listTiers, moveTier, offeredTiers, setTierArchived, updateTier } from "./tiers.server";

// Tiers saved here and in Stripe's catalog together (issue 40), against the local stand-in: a product
// and two prices per tier, a new price for a changed amount (the old one retired), and nothing half
// saved when Stripe refuses.

const log = pino({ level: "silent" });
const admin: Actor = { id: null, name: "Ada Admin", role: "admin" };
let t: TestDatabase;
let standIn: StripeStandIn;
let catalog: TierCatalog;

beforeAll(async () => {
  t = await createTestDatabase();
  standIn = await startStripeStandIn();
  catalog = createStripeCatalog(createStripeClient({ STRIPE_SECRET_KEY: standIn.apiKey, STRIPE_API_BASE: standIn.url })!, log);
});
afterAll(() => standIn?.stop());

const form = (fields: Partial<Record<"name" | "description" | "benefits" | "monthlyPrice" | "yearlyPrice" | "trialDays", string>> = {}) =>
  tierFormSchema.parse({ name: "Supporter", description: "", benefits: "", monthlyPrice: "5", yearlyPrice: "50", trialDays: "", ...fields });

const activity = async (objectId: string) => (await t.db.select({ kind: auditEvents.kind }).from(auditEvents).where(eq(auditEvents.objectId, objectId))).map((r) => r.kind);

describe("prices typed as decimals", () => {
  it("become minor units with the currency's decimals, and read back as readers see them", () => {
    expect(toMinorUnits("5", "usd")).toBe(500);
    expect(toMinorUnits("4.99", "usd")).toBe(499);
    expect(toMinorUnits("4,5", "eur")).toBe(450);
    expect(toMinorUnits("4.999", "usd")).toBeNull();
    expect(toMinorUnits("500", "jpy")).toBe(500);
    expect(toMinorUnits("5.5", "jpy")).toBeNull();
    expect(pricesOf({ monthlyPrice: "0", yearlyPrice: "50" }, "usd")).toMatchObject({ field: "monthlyPrice" });
    expect(pricesOf({ monthlyPrice: "5", yearlyPrice: "5.5" }, "jpy")).toEqual({ field: "yearlyPrice", message: "JPY prices have no decimals: enter a whole number." });
    expect(formatPrice(500, "usd")).toBe("$5");
    expect(formatPrice(499, "usd")).toBe("$4.99");
    expect(formatPrice(5000, "eur")).toBe("€50");
    expect(() => tierFormSchema.parse({ name: "", description: "", benefits: "", monthlyPrice: "five", yearlyPrice: "50", trialDays: "" })).toThrow();
  });
});

describe("saving a tier", () => {
  it("creates its Stripe product and a monthly and a yearly price, and logs the change", async () => {
    const tier = await createTier(t.db, admin, form({ benefits: "Every story\n\n  No ads  ", trialDays: "7" }), catalog, "usd");
    expect(tier).toMatchObject({ name: "Supporter", slug: "supporter", monthlyPrice: 500, yearlyPrice: 5000, currency: "usd", trialDays: 7, benefits: ["Every story", "No ads"] });
    expect(standIn.products.get(tier.stripeProductId!)).toMatchObject({ name: "Supporter", active: true, metadata: { tier_id: tier.id } });
    expect(standIn.prices.get(tier.stripeMonthlyPriceId!)).toMatchObject({ product: tier.stripeProductId, unit_amount: 500, currency: "usd", recurring: { interval: "month" }, active: true });
    expect(standIn.prices.get(tier.stripeYearlyPriceId!)).toMatchObject({ unit_amount: 5000, recurring: { interval: "year" }, active: true });
    expect(await activity(tier.id)).toEqual(["tier.create"]);
    expect((await offeredTiers(t.db, "usd")).map((x) => x.id)).toContain(tier.id);
  });

  it("a changed amount is a new price (the old one deactivated, as Stripe's prices never change); a new name updates the product", async () => {
    const tier = await createTier(t.db, admin, form({ name: "Patron", monthlyPrice: "10", yearlyPrice: "100" }), catalog, "usd");
    const saved = await updateTier(t.db, admin, tier.id, form({ name: "Patron Plus", monthlyPrice: "12.50", yearlyPrice: "100" }), catalog);
    expect(saved).toMatchObject({ name: "Patron Plus", monthlyPrice: 1250, yearlyPrice: 10000, stripeProductId: tier.stripeProductId, stripeYearlyPriceId: tier.stripeYearlyPriceId });
    expect(saved.stripeMonthlyPriceId).not.toBe(tier.stripeMonthlyPriceId);
    expect(standIn.prices.get(saved.stripeMonthlyPriceId!)).toMatchObject({ unit_amount: 1250, active: true });
    expect(standIn.prices.get(tier.stripeMonthlyPriceId!)).toMatchObject({ unit_amount: 1000, active: false });
    expect(standIn.products.get(tier.stripeProductId!)).toMatchObject({ name: "Patron Plus" });
    expect(await activity(tier.id)).toEqual(["tier.create", "tier.update"]);
  });

  it("when Stripe refuses, nothing is saved, in the database or in Stripe", async () => {
    const products = standIn.products.size;
    // The price is refused: the product made before it is taken off sale.
    standIn.failNext("POST", "/v1/prices", { status: 400, message: "Invalid currency." });
    const refusal = await createTier(t.db, admin, form({ name: "Refused" }), catalog, "usd").catch((e: unknown) => e);
    expect(isAppError(refusal, "upstream_failed")).toBe(true);
    expect((refusal as Error).message).toMatch(/^Stripe refused saving the tier's product and prices: Invalid currency\. Nothing was saved\.$/);
    expect((await t.db.select().from(memberTiers).where(eq(memberTiers.name, "Refused"))).length).toBe(0);
    expect(standIn.products.size).toBe(products + 1);
    expect([...standIn.products.values()].at(-1)).toMatchObject({ name: "Refused", active: false });

    // An edit refused keeps the tier exactly as it was.
    const tier = await createTier(t.db, admin, form({ name: "Steady", monthlyPrice: "3", yearlyPrice: "30" }), catalog, "usd");
    standIn.failNext("POST", "/v1/prices", { status: 402, message: "Your account cannot create prices.", type: "card_error" });
    await expect(updateTier(t.db, admin, tier.id, form({ name: "Steady", monthlyPrice: "4", yearlyPrice: "30" }), catalog)).rejects.toThrow(/Stripe refused/);
    const [after] = await t.db.select().from(memberTiers).where(eq(memberTiers.id, tier.id));
    expect(after).toEqual(tier);
    expect(standIn.prices.get(tier.stripeMonthlyPriceId!)!.active).toBe(true);
    expect(await activity(tier.id)).toEqual(["tier.create"]);
  });

  it("a name another tier has is refused before Stripe is asked", async () => {
    const calls = standIn.requests.length;
    await expect(createTier(t.db, admin, form({ name: "supporter" }), catalog, "usd")).rejects.toMatchObject({ code: "already_exists", field: "name" });
    expect(standIn.requests.length).toBe(calls);
  });

  it("archiving keeps the tier (for its members) but takes it off /subscribe and its product off sale; restoring brings both back", async () => {
    const tier = await createTier(t.db, admin, form({ name: "Archivable" }), catalog, "usd");
    await setTierArchived(t.db, admin, tier.id, true, catalog);
    expect(standIn.products.get(tier.stripeProductId!)!.active).toBe(false);
    expect((await offeredTiers(t.db, "usd")).map((x) => x.id)).not.toContain(tier.id);
    expect((await listTiers(t.db)).map((x) => x.id)).toContain(tier.id);
    await setTierArchived(t.db, admin, tier.id, false, catalog);
    expect(standIn.products.get(tier.stripeProductId!)!.active).toBe(true);
    expect((await offeredTiers(t.db, "usd")).map((x) => x.id)).toContain(tier.id);
    expect(await activity(tier.id)).toEqual(["tier.create", "tier.archive", "tier.unarchive"]);
  });

  it("moving a tier changes the order /subscribe shows", async () => {
    const before = (await offeredTiers(t.db, "usd")).map((x) => x.name);
    await moveTier(t.db, admin, (await offeredTiers(t.db, "usd"))[1]!.id, "up");
    const after = (await offeredTiers(t.db, "usd")).map((x) => x.name);
    expect(after).toEqual([before[1], before[0], ...before.slice(2)]);
  });
});
