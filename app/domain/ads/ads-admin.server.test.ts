import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { adCampaigns, adCreatives, adDays, advertisers, auditEvents, categories, media } from "~/db/schema";
import type { Actor } from "~/domain/accounts/actor";
import { isAppError } from "~/lib/app-error";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { AD_SLOT_NAMES } from "./ad-slots";
import {
  addCreative,
  addHouseAds,
  createAdvertiser,
  createCampaign,
  deleteAdvertiser,
  deleteCampaign,
  endCampaignToday,
  getCampaign,
  listAdvertisers,
  listCampaigns,
  setCampaignPaused,
  setCreativeArchived,
  updateAdvertiser,
} from "./ads-admin.server";
import { ADVERTISER_HAS_CAMPAIGNS, ADVERTISER_NAME_TAKEN, CAMPAIGN_HAS_SERVED, IMAGE_REQUIRED, LINK_RELATIVE_FOR_HOUSE_ONLY, type CampaignInput } from "./ads.schema";

let t: TestDatabase;
const actor: Actor = { id: null, name: "Ads desk" };
const blank = { contactName: "", contactEmail: "", notes: "" };
const campaignOf = (advertiserId: string, extra: Partial<CampaignInput> = {}): CampaignInput => ({
  name: "Winter tyres",
  advertiserId,
  startsOn: "2026-12-01",
  endsOn: "2026-12-07",
  slots: ["article"],
  categoryIds: [],
  priority: "standard",
  weight: 1,
  impressionGoal: null,
  ...extra,
});

async function refusal(call: Promise<unknown>) {
  try {
    await call;
  } catch (error) {
    if (isAppError(error)) return { code: error.code, status: error.status, message: error.message, field: error.field };
    throw error;
  }
  throw new Error("expected a refusal");
}

beforeAll(async () => {
  t = await createTestDatabase();
});

describe("advertisers", () => {
  it("a name is unique whatever its case: the second is refused beside the name field", async () => {
    const id = await createAdvertiser(t.db, actor, { name: "Harbour Garage", ...blank });
    expect(await refusal(createAdvertiser(t.db, actor, { name: "HARBOUR garage", ...blank }))).toMatchObject({ code: "already_exists", field: "name", message: ADVERTISER_NAME_TAKEN });
    const other = await createAdvertiser(t.db, actor, { name: "Theatre Royal", ...blank });
    expect(await refusal(updateAdvertiser(t.db, actor, other, { name: "harbour GARAGE", ...blank }))).toMatchObject({ field: "name" });
    await updateAdvertiser(t.db, actor, id, { name: "Harbour Garage Ltd", contactName: "Ann", contactEmail: "ann@garage.example", notes: "" });
    const [row] = await t.db.select().from(advertisers).where(eq(advertisers.id, id));
    expect(row).toMatchObject({ name: "Harbour Garage Ltd", contactEmail: "ann@garage.example" });
    const kinds = await t.db.select({ kind: auditEvents.kind }).from(auditEvents).where(eq(auditEvents.objectId, id));
    expect(kinds.map((k) => k.kind).sort()).toEqual(["advertiser.create", "advertiser.update"]);
  });

  it("is deleted only while it has no campaign", async () => {
    const id = await createAdvertiser(t.db, actor, { name: "Bakery", ...blank });
    const campaign = await createCampaign(t.db, actor, campaignOf(id));
    expect(await refusal(deleteAdvertiser(t.db, actor, id))).toMatchObject({ code: "in_use", status: 409, message: ADVERTISER_HAS_CAMPAIGNS });
    await deleteCampaign(t.db, actor, campaign);
    await deleteAdvertiser(t.db, actor, id);
    expect(await t.db.select().from(advertisers).where(eq(advertisers.id, id))).toEqual([]);
  });
});

describe("campaigns", () => {
  it("lists each campaign with its impressions summed from ad_days, and the advertisers with their counts", async () => {
    const garage = await createAdvertiser(t.db, actor, { name: "Counting Garage", ...blank });
    const a = await createCampaign(t.db, actor, campaignOf(garage, { name: "A", impressionGoal: 1000 }));
    const b = await createCampaign(t.db, actor, campaignOf(garage, { name: "B" }));
    const creative = await addCreative(t.db, actor, a, { kind: "text", size: "box", headline: "Tyres", body: "", linkUrl: "https://garage.example/" });
    await t.db.insert(adDays).values([
      { day: "2026-12-01", campaignId: a, creativeId: creative, slot: "article", impressions: 120, viewable: 80, clicks: 3 },
      { day: "2026-12-02", campaignId: a, creativeId: creative, slot: "article", impressions: 30, viewable: 10, clicks: 1 },
    ]);
    const rows = await listCampaigns(t.db, { advertiserId: garage });
    expect(rows.map((r) => [r.name, r.impressions, r.clicks, r.impressionGoal])).toEqual([
      ["A", 150, 4, 1000],
      ["B", 0, 0, null],
    ]);
    expect((await listAdvertisers(t.db)).find((x) => x.id === garage)).toMatchObject({ campaigns: 2 });
    expect(await refusal(deleteCampaign(t.db, actor, a))).toMatchObject({ code: "in_use", message: CAMPAIGN_HAS_SERVED });
    await deleteCampaign(t.db, actor, b);
    expect((await getCampaign(t.db, a)).hasServed).toBe(true);
  });

  it("refuses a category that does not exist and an advertiser that does not", async () => {
    const garage = await createAdvertiser(t.db, actor, { name: "Target Garage", ...blank });
    expect(await refusal(createCampaign(t.db, actor, campaignOf(garage, { categoryIds: ["0b6c3c5e-8f7a-4d6e-9a1b-2c3d4e5f6a7b"] })))).toMatchObject({ field: "categoryIds" });
    expect(await refusal(createCampaign(t.db, actor, campaignOf("0b6c3c5e-8f7a-4d6e-9a1b-2c3d4e5f6a7b")))).toMatchObject({ field: "advertiserId" });
    const [news] = await t.db.insert(categories).values({ name: "News", slug: "news-ads" }).returning();
    const id = await createCampaign(t.db, actor, campaignOf(garage, { categoryIds: [news!.id] }));
    expect((await getCampaign(t.db, id)).categoryIds).toEqual([news!.id]);
  });

  it("pauses, resumes and ends today", async () => {
    const garage = await createAdvertiser(t.db, actor, { name: "Pause Garage", ...blank });
    const id = await createCampaign(t.db, actor, campaignOf(garage, { startsOn: "2026-12-10", endsOn: "2026-12-20" }));
    await setCampaignPaused(t.db, actor, id, true);
    expect((await getCampaign(t.db, id)).paused).toBe(true);
    await setCampaignPaused(t.db, actor, id, false);
    await endCampaignToday(t.db, actor, id, "2026-12-05");
    expect(await getCampaign(t.db, id)).toMatchObject({ paused: false, startsOn: "2026-12-05", endsOn: "2026-12-05" });
  });
});

describe("creatives", () => {
  it("an image creative needs an image of the library; a relative link is refused unless the advertiser is the house", async () => {
    const garage = await createAdvertiser(t.db, actor, { name: "Creative Garage", ...blank });
    const campaign = await createCampaign(t.db, actor, campaignOf(garage));
    const [logo] = await t.db.insert(media).values({ bucket: "images", name: "tyres.webp", originalName: "tyres.jpg", contentType: "image/webp", size: 10 }).returning();
    const [file] = await t.db.insert(media).values({ bucket: "files", name: "rates.pdf", originalName: "rates.pdf", contentType: "application/pdf", size: 10 }).returning();
    const image = { kind: "image" as const, size: "box" as const, alt: "Tyres", linkUrl: "https://garage.example/" };
    expect(await refusal(addCreative(t.db, actor, campaign, { ...image, mediaId: file!.id }))).toMatchObject({ field: "mediaId", message: IMAGE_REQUIRED });
    expect(await refusal(addCreative(t.db, actor, campaign, { kind: "text", size: "box", headline: "Hi", body: "", linkUrl: "/subscribe" }))).toMatchObject({
      field: "linkUrl",
      message: LINK_RELATIVE_FOR_HOUSE_ONLY,
    });
    const id = await addCreative(t.db, actor, campaign, { ...image, mediaId: logo!.id });
    await setCreativeArchived(t.db, actor, campaign, id, true);
    expect((await getCampaign(t.db, campaign)).creatives.map((c) => [c.creative.id, c.creative.archived, c.mediaName])).toEqual([[id, true, "tyres.webp"]]);
    await setCreativeArchived(t.db, actor, campaign, id, false);
    const other = await createCampaign(t.db, actor, campaignOf(garage, { name: "Other" }));
    expect(await refusal(setCreativeArchived(t.db, actor, other, id, true))).toMatchObject({ code: "not_found" });
  });
});

describe("house ads", () => {
  it("adds the newsroom's advertiser and its two campaigns once, with text ads in both sizes linking inside the site", async () => {
    const first = await addHouseAds(t.db, actor, { siteName: "Harbour Herald", today: "2026-11-29" });
    expect(first.added).toBe(2);
    expect(await addHouseAds(t.db, actor, { siteName: "Harbour Herald", today: "2026-11-30" })).toEqual({ advertiserId: first.advertiserId, added: 0 });
    const [house] = await t.db.select().from(advertisers).where(eq(advertisers.id, first.advertiserId));
    expect(house).toMatchObject({ name: "Harbour Herald", house: true });
    const campaigns = await t.db.select().from(adCampaigns).where(eq(adCampaigns.advertiserId, first.advertiserId));
    expect(campaigns.map((c) => [c.name, c.priority, c.startsOn, c.endsOn, c.weight, c.impressionGoal, c.slots]).sort()).toEqual([
      ["Get our newsletter", "house", "2026-11-29", "2027-11-28", 1, null, AD_SLOT_NAMES],
      ["Subscribe", "house", "2026-11-29", "2027-11-28", 1, null, AD_SLOT_NAMES],
    ]);
    for (const c of campaigns) {
      const creatives = await t.db.select().from(adCreatives).where(eq(adCreatives.campaignId, c.id));
      expect(creatives.map((x) => [x.kind, x.size, x.linkUrl]).sort()).toEqual([
        ["text", "banner", c.name === "Subscribe" ? "/subscribe" : "/newsletter"],
        ["text", "box", c.name === "Subscribe" ? "/subscribe" : "/newsletter"],
      ]);
    }
  });
});
