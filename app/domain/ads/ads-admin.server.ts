import { and, asc, count, desc, eq, ilike, inArray, ne, sql } from "drizzle-orm";
import { READER_UPLOAD_SOURCE } from "~/domain/media/media-publish.schema";
import type { Db } from "~/db/client.server";
import { isUniqueViolation } from "~/db/pg-errors";
import { adCampaigns, adCreatives, adDays, advertisers, categories, media } from "~/db/schema";
import type { Actor } from "~/domain/accounts/actor";
import { recordActivity } from "~/domain/activity/activity.server";
import { AppError } from "~/lib/app-error";
import { isUuid } from "~/lib/ids";
import { AD_SLOT_NAMES } from "./ad-slots";
import {
  ADVERTISER_HAS_CAMPAIGNS,
  ADVERTISER_NAME_TAKEN,
  addDays,
  CAMPAIGN_HAS_SERVED,
  IMAGE_REQUIRED,
  LINK_RELATIVE_FOR_HOUSE_ONLY,
  type AdvertiserInput,
  type CampaignInput,
  type CreativeInput,
} from "./ads.schema";

// The ads back office's reads and writes (issue 43): advertisers, campaigns, creatives and the house
// ads. Every change is one transaction with its activity entry; the tables' change notices (migration
// 0043) make the serving side reload its campaigns.

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

const notFound = (what: string) => new AppError("not_found", `This ${what} does not exist (any more).`);

/** Sums of ad_days per campaign: one grouped query. */
function servedByCampaign(db: Db | Tx) {
  return db
    .select({
      campaignId: adDays.campaignId,
      impressions: sql<number>`sum(${adDays.impressions})::bigint`.mapWith(Number).as("impressions"),
      clicks: sql<number>`sum(${adDays.clicks})::bigint`.mapWith(Number).as("clicks"),
    })
    .from(adDays)
    .groupBy(adDays.campaignId)
    .as("served");
}

export interface CampaignRow {
  id: string;
  name: string;
  advertiserId: string;
  advertiserName: string;
  startsOn: string;
  endsOn: string;
  slots: string[];
  priority: (typeof adCampaigns.$inferSelect)["priority"];
  weight: number;
  impressionGoal: number | null;
  paused: boolean;
  impressions: number;
  clicks: number;
}

/** Campaigns (of one advertiser, or all), the latest ending first, with what they have served so far. */
export async function listCampaigns(db: Db, options: { advertiserId?: string } = {}): Promise<CampaignRow[]> {
  const served = servedByCampaign(db);
  return db
    .select({
      id: adCampaigns.id,
      name: adCampaigns.name,
      advertiserId: adCampaigns.advertiserId,
      advertiserName: advertisers.name,
      startsOn: adCampaigns.startsOn,
      endsOn: adCampaigns.endsOn,
      slots: adCampaigns.slots,
      priority: adCampaigns.priority,
      weight: adCampaigns.weight,
      impressionGoal: adCampaigns.impressionGoal,
      paused: adCampaigns.paused,
      impressions: sql<number>`coalesce(${served.impressions}, 0)`.mapWith(Number),
      clicks: sql<number>`coalesce(${served.clicks}, 0)`.mapWith(Number),
    })
    .from(adCampaigns)
    .innerJoin(advertisers, eq(advertisers.id, adCampaigns.advertiserId))
    .leftJoin(served, eq(served.campaignId, adCampaigns.id))
    .where(options.advertiserId ? eq(adCampaigns.advertiserId, options.advertiserId) : undefined)
    .orderBy(desc(adCampaigns.endsOn), asc(adCampaigns.name));
}

export interface AdvertiserRow {
  id: string;
  name: string;
  contactName: string;
  contactEmail: string;
  house: boolean;
  campaigns: number;
}

/** Every advertiser by name, with its number of campaigns. */
export async function listAdvertisers(db: Db): Promise<AdvertiserRow[]> {
  const rows = await db
    .select({
      id: advertisers.id,
      name: advertisers.name,
      contactName: advertisers.contactName,
      contactEmail: advertisers.contactEmail,
      house: advertisers.house,
      campaigns: count(adCampaigns.id),
    })
    .from(advertisers)
    .leftJoin(adCampaigns, eq(adCampaigns.advertiserId, advertisers.id))
    .groupBy(advertisers.id)
    .orderBy(asc(sql`lower(${advertisers.name})`));
  return rows;
}

export async function getAdvertiser(db: Db, id: string) {
  if (!isUuid(id)) throw notFound("advertiser");
  const [row] = await db.select().from(advertisers).where(eq(advertisers.id, id));
  if (!row) throw notFound("advertiser");
  return row;
}

function nameTaken(error: unknown): never {
  if (isUniqueViolation(error)) throw new AppError("already_exists", ADVERTISER_NAME_TAKEN, { field: "name" });
  throw error;
}

async function refuseTakenName(db: Db | Tx, name: string, exceptId?: string) {
  const [other] = await db
    .select({ id: advertisers.id })
    .from(advertisers)
    .where(and(sql`lower(${advertisers.name}) = lower(${name})`, exceptId ? sql`${advertisers.id} <> ${exceptId}` : undefined));
  if (other) throw new AppError("already_exists", ADVERTISER_NAME_TAKEN, { field: "name" });
}

export async function createAdvertiser(db: Db, actor: Actor, input: AdvertiserInput): Promise<string> {
  return db
    .transaction(async (tx) => {
      await refuseTakenName(tx, input.name);
      const [row] = await tx.insert(advertisers).values(input).returning({ id: advertisers.id });
      await recordActivity(tx, actor, { kind: "advertiser.create", objectType: "advertiser", objectId: row!.id, objectLabel: input.name });
      return row!.id;
    })
    .catch(nameTaken);
}

export async function updateAdvertiser(db: Db, actor: Actor, id: string, input: AdvertiserInput): Promise<void> {
  await getAdvertiser(db, id);
  await db
    .transaction(async (tx) => {
      await refuseTakenName(tx, input.name, id);
      await tx.update(advertisers).set({ ...input, updatedAt: new Date() }).where(eq(advertisers.id, id));
      await recordActivity(tx, actor, { kind: "advertiser.update", objectType: "advertiser", objectId: id, objectLabel: input.name });
    })
    .catch(nameTaken);
}

/** Deletes an advertiser that has no campaign (else refused: its campaigns and their figures stay). */
export async function deleteAdvertiser(db: Db, actor: Actor, id: string): Promise<void> {
  const found = await getAdvertiser(db, id);
  await db.transaction(async (tx) => {
    const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(adCampaigns).where(eq(adCampaigns.advertiserId, id));
    if (n > 0) throw new AppError("in_use", ADVERTISER_HAS_CAMPAIGNS);
    await tx.delete(advertisers).where(eq(advertisers.id, id));
    await recordActivity(tx, actor, { kind: "advertiser.delete", objectType: "advertiser", objectId: id, objectLabel: found.name });
  });
}

/** A campaign with its advertiser, creatives (with their image's file name) and what it served. */
export async function getCampaign(db: Db, id: string) {
  if (!isUuid(id)) throw notFound("campaign");
  const served = servedByCampaign(db);
  const [row] = await db
    .select({
      campaign: adCampaigns,
      advertiserName: advertisers.name,
      house: advertisers.house,
      impressions: sql<number>`coalesce(${served.impressions}, 0)`.mapWith(Number),
      clicks: sql<number>`coalesce(${served.clicks}, 0)`.mapWith(Number),
      servedRows: sql<number>`(select count(*) from ${adDays} where ${adDays.campaignId} = ${adCampaigns.id})`.mapWith(Number),
    })
    .from(adCampaigns)
    .innerJoin(advertisers, eq(advertisers.id, adCampaigns.advertiserId))
    .leftJoin(served, eq(served.campaignId, adCampaigns.id))
    .where(eq(adCampaigns.id, id));
  if (!row) throw notFound("campaign");
  const creatives = await db
    .select({ creative: adCreatives, mediaBucket: media.bucket, mediaName: media.name })
    .from(adCreatives)
    .leftJoin(media, eq(media.id, adCreatives.mediaId))
    .where(eq(adCreatives.campaignId, id))
    .orderBy(asc(adCreatives.archived), desc(adCreatives.createdAt));
  return { ...row.campaign, advertiserName: row.advertiserName, house: row.house, impressions: row.impressions, clicks: row.clicks, hasServed: row.servedRows > 0, creatives };
}

/** The campaign's advertiser, categories and slots must exist. */
async function checkCampaignInput(tx: Tx, input: CampaignInput) {
  const [advertiser] = await tx.select({ id: advertisers.id }).from(advertisers).where(eq(advertisers.id, input.advertiserId));
  if (!advertiser) throw new AppError("invalid_input", "This advertiser does not exist (any more): choose another.", { field: "advertiserId" });
  if (input.categoryIds.length > 0) {
    const found = await tx.select({ id: categories.id }).from(categories).where(inArray(categories.id, input.categoryIds));
    if (found.length !== input.categoryIds.length) throw new AppError("unknown_category", "A chosen category does not exist (any more): choose again.", { field: "categoryIds" });
  }
  if (!input.slots.every((slot) => (AD_SLOT_NAMES as string[]).includes(slot))) throw new AppError("invalid_input", "Choose slots from the list.", { field: "slots" });
}

export async function createCampaign(db: Db, actor: Actor, input: CampaignInput): Promise<string> {
  return db.transaction(async (tx) => {
    await checkCampaignInput(tx, input);
    const [row] = await tx.insert(adCampaigns).values(input).returning({ id: adCampaigns.id });
    await recordActivity(tx, actor, { kind: "campaign.create", objectType: "campaign", objectId: row!.id, objectLabel: input.name });
    return row!.id;
  });
}

export async function updateCampaign(db: Db, actor: Actor, id: string, input: CampaignInput): Promise<void> {
  await getCampaign(db, id);
  await db.transaction(async (tx) => {
    await checkCampaignInput(tx, input);
    await tx.update(adCampaigns).set({ ...input, updatedAt: new Date() }).where(eq(adCampaigns.id, id));
    await recordActivity(tx, actor, { kind: "campaign.update", objectType: "campaign", objectId: id, objectLabel: input.name });
  });
}

/** Pauses (stops serving at once, dates kept) or resumes a campaign. */
export async function setCampaignPaused(db: Db, actor: Actor, id: string, paused: boolean): Promise<void> {
  const found = await getCampaign(db, id);
  if (found.paused === paused) return;
  await db.transaction(async (tx) => {
    await tx.update(adCampaigns).set({ paused, updatedAt: new Date() }).where(eq(adCampaigns.id, id));
    await recordActivity(tx, actor, { kind: paused ? "campaign.pause" : "campaign.resume", objectType: "campaign", objectId: id, objectLabel: found.name });
  });
}

/** Ends a campaign on `today` (its last day becomes today; a campaign not started yet starts and ends today). */
export async function endCampaignToday(db: Db, actor: Actor, id: string, today: string): Promise<void> {
  const found = await getCampaign(db, id);
  if (found.endsOn <= today) return;
  await db.transaction(async (tx) => {
    await tx
      .update(adCampaigns)
      .set({ endsOn: today, startsOn: found.startsOn > today ? today : found.startsOn, updatedAt: new Date() })
      .where(eq(adCampaigns.id, id));
    await recordActivity(tx, actor, { kind: "campaign.update", objectType: "campaign", objectId: id, objectLabel: found.name, details: { endsOn: today } });
  });
}

/** Deletes a campaign that never served (no ad_days row); one that did is kept for its reports. */
export async function deleteCampaign(db: Db, actor: Actor, id: string): Promise<void> {
  const found = await getCampaign(db, id);
  await db.transaction(async (tx) => {
    const [served] = await tx.select({ day: adDays.day }).from(adDays).where(eq(adDays.campaignId, id)).limit(1).for("share");
    if (served) throw new AppError("in_use", CAMPAIGN_HAS_SERVED);
    await tx.delete(adCampaigns).where(eq(adCampaigns.id, id));
    await recordActivity(tx, actor, { kind: "campaign.delete", objectType: "campaign", objectId: id, objectLabel: found.name });
  });
}

/** Adds a creative to a campaign: an image of the media library (images bucket) or a text ad. */
export async function addCreative(db: Db, actor: Actor, campaignId: string, input: CreativeInput): Promise<string> {
  const campaign = await getCampaign(db, campaignId);
  if (input.linkUrl.startsWith("/") && !campaign.house) throw new AppError("invalid_input", LINK_RELATIVE_FOR_HOUSE_ONLY, { field: "linkUrl" });
  return db.transaction(async (tx) => {
    if (input.kind === "image") {
      const [image] = await tx.select({ id: media.id }).from(media).where(and(eq(media.id, input.mediaId), eq(media.bucket, "images")));
      if (!image) throw new AppError("invalid_media", IMAGE_REQUIRED, { field: "mediaId" });
    }
    const values =
      input.kind === "image"
        ? { campaignId, kind: input.kind, size: input.size, mediaId: input.mediaId, alt: input.alt, linkUrl: input.linkUrl }
        : { campaignId, kind: input.kind, size: input.size, headline: input.headline, body: input.body, linkUrl: input.linkUrl };
    const [row] = await tx.insert(adCreatives).values(values).returning({ id: adCreatives.id });
    await recordActivity(tx, actor, { kind: "creative.create", objectType: "campaign", objectId: campaignId, objectLabel: campaign.name, details: { creative: row!.id, kind: input.kind, size: input.size } });
    return row!.id;
  });
}

/** Archives (out of rotation, kept for the reports) or restores a creative of the campaign. */
export async function setCreativeArchived(db: Db, actor: Actor, campaignId: string, creativeId: string, archived: boolean): Promise<void> {
  const campaign = await getCampaign(db, campaignId);
  if (!campaign.creatives.some((c) => c.creative.id === creativeId)) throw notFound("creative");
  await db.transaction(async (tx) => {
    await tx.update(adCreatives).set({ archived }).where(and(eq(adCreatives.id, creativeId), eq(adCreatives.campaignId, campaignId)));
    await recordActivity(tx, actor, { kind: archived ? "creative.archive" : "creative.restore", objectType: "campaign", objectId: campaignId, objectLabel: campaign.name, details: { creative: creativeId } });
  });
}

/** The images of the media library a creative may use, newest first (id, file name). */
export async function listAdImages(db: Db, options: { search?: string; limit?: number } = {}) {
  return db
    .select({ id: media.id, name: media.name, originalName: media.originalName })
    .from(media)
    .where(and(eq(media.bucket, "images"), ne(media.source, READER_UPLOAD_SOURCE), options.search ? ilike(media.originalName, `%${options.search}%`) : undefined))
    .orderBy(desc(media.createdAt))
    .limit(options.limit ?? 60);
}

/** The house campaigns' names and texts (the newsroom's own ads). */
export const HOUSE_CAMPAIGNS = [
  { name: "Subscribe", link: "/subscribe", headline: "Support local journalism", body: "Subscribe and get every story, every day." },
  { name: "Get our newsletter", link: "/newsletter", headline: "Get our newsletter", body: "The day's news in your inbox, free." },
] as const;

export const HOUSE_DAYS = 365;

/**
 * The newsroom's own ads, once: its house advertiser (named after the site) and the two house
 * campaigns (every slot, from today for 365 days, weight 1, no goal), each with a text ad in both
 * sizes. Idempotent: what exists already (the house advertiser, a house campaign of that name) is
 * kept. Returns the number of campaigns added.
 */
export async function addHouseAds(db: Db, actor: Actor, options: { siteName: string; today: string }): Promise<{ advertiserId: string; added: number }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('frontpage.house-ads'))`);
    let [house] = await tx.select({ id: advertisers.id }).from(advertisers).where(eq(advertisers.house, true)).limit(1);
    if (!house) {
      const base = options.siteName.trim() || "The newsroom";
      const [taken] = await tx.select({ id: advertisers.id }).from(advertisers).where(sql`lower(${advertisers.name}) = lower(${base})`);
      const name = taken ? `${base} (house ads)` : base;
      [house] = await tx.insert(advertisers).values({ name, house: true, notes: "The newsroom's own ads: they fill a slot no other campaign fills." }).returning({ id: advertisers.id });
      await recordActivity(tx, actor, { kind: "advertiser.create", objectType: "advertiser", objectId: house!.id, objectLabel: name });
    }
    const existing = await tx.select({ name: adCampaigns.name }).from(adCampaigns).where(and(eq(adCampaigns.advertiserId, house!.id), eq(adCampaigns.priority, "house")));
    let added = 0;
    for (const spec of HOUSE_CAMPAIGNS) {
      if (existing.some((c) => c.name.toLowerCase() === spec.name.toLowerCase())) continue;
      const [campaign] = await tx
        .insert(adCampaigns)
        .values({ advertiserId: house!.id, name: spec.name, startsOn: options.today, endsOn: addDays(options.today, HOUSE_DAYS - 1), slots: [...AD_SLOT_NAMES], categoryIds: [], priority: "house", weight: 1, impressionGoal: null })
        .returning({ id: adCampaigns.id });
      await tx.insert(adCreatives).values(
        (["banner", "box"] as const).map((size) => ({ campaignId: campaign!.id, kind: "text" as const, size, headline: spec.headline, body: spec.body, linkUrl: spec.link })),
      );
      await recordActivity(tx, actor, { kind: "campaign.create", objectType: "campaign", objectId: campaign!.id, objectLabel: spec.name, details: { house: true } });
      added++;
    }
    return { advertiserId: house!.id, added };
  });
}
