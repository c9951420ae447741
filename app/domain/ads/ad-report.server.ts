import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { adCampaigns, adCreatives, advertisers } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { addCounts, NO_COUNTS, type AdCounts, type AdDayRow, type AdPace } from "./ad-report-format";

export type { AdDayRow } from "./ad-report-format";

// What the ads got (issue 43): a campaign's report (totals, by day, by creative, by slot, its goal's
// progress) and an advertiser's (each of its campaigns in a period), read from ad_days. Days are the
// site time zone's (ad_days.day is written in it); the caller passes today's date there. A viewable
// count above its impressions can only come from forged beacons: every row counts min(viewable, impressions).

/** The longest period a report covers, in days. */
export const AD_REPORT_MAX_DAYS = 366;
/** An advertiser's report without a period: the last this many days, up to today. */
export const ADVERTISER_DEFAULT_DAYS = 30;

const DAY_MS = 86_400_000;
const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface AdPeriod {
  /** First and last day, YYYY-MM-DD in the site's zone, both included. */
  from: string;
  to: string;
  days: number;
}

/** The period asked for: `from`/`to` of the query string; either left out takes its default. */
export interface AdPeriodAsked {
  from?: string | null;
  to?: string | null;
}

export interface AdCreativeRow extends AdCounts {
  id: string;
  kind: "image" | "text";
  size: string;
  headline: string;
  alt: string;
  archived: boolean;
}

export interface AdSlotRow extends AdCounts {
  slot: string;
}

export interface AdGoalProgress {
  goal: number;
  /** Every impression from the campaign's first day up to today (whatever the period shown). */
  toDate: number;
  /** toDate / goal. */
  share: number;
  /** Where an even pace would be today: goal × days elapsed (today included) / the campaign's days. */
  expected: number;
  daysElapsed: number;
  campaignDays: number;
  pace: AdPace;
}

export interface AdCampaignSummary {
  id: string;
  name: string;
  startsOn: string;
  endsOn: string;
  slots: string[];
  priority: string;
  impressionGoal: number | null;
  paused: boolean;
  advertiser: { id: string; name: string };
}

export interface CampaignReport {
  campaign: AdCampaignSummary;
  period: AdPeriod;
  totals: AdCounts;
  byDay: AdDayRow[];
  byCreative: AdCreativeRow[];
  bySlot: AdSlotRow[];
  goal: AdGoalProgress | null;
}

export interface AdvertiserReport {
  advertiser: { id: string; name: string; contactName: string; contactEmail: string; house: boolean };
  period: AdPeriod;
  campaigns: { campaign: Omit<AdCampaignSummary, "advertiser">; totals: AdCounts; byDay: AdDayRow[] }[];
  totals: AdCounts;
}

// ---------------------------------------------------------------- days and periods

/** YYYY-MM-DD plus `days` calendar days. */
export function addDays(day: string, days: number): string {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The days from `from` to `to`, both included. */
export const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS) + 1;

function isRealDay(day: string): boolean {
  if (!DAY_RE.test(day)) return false;
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/**
 * The period of a report: `asked.from`/`asked.to` (YYYY-MM-DD) where given, else the defaults. A day
 * that is not a date, a period ending before it starts or longer than AD_REPORT_MAX_DAYS: AppError 400
 * naming the field.
 */
export function adPeriodOf(asked: AdPeriodAsked, defaults: { from: string; to: string }): AdPeriod {
  const given = (value: string | null | undefined) => (value ?? "").trim();
  const from = given(asked.from) || defaults.from;
  const to = given(asked.to) || defaults.to;
  if (!isRealDay(from)) throw new AppError("invalid_input", `The first day "${from}" is not a date (YYYY-MM-DD).`, { field: "from" });
  if (!isRealDay(to)) throw new AppError("invalid_input", `The last day "${to}" is not a date (YYYY-MM-DD).`, { field: "to" });
  if (to < from) throw new AppError("invalid_input", "The period ends before it starts: choose a last day on or after the first.", { field: "to" });
  const days = daysBetween(from, to);
  if (days > AD_REPORT_MAX_DAYS) throw new AppError("invalid_input", `A report covers at most ${AD_REPORT_MAX_DAYS} days; this period has ${days}.`, { field: "to" });
  return { from, to, days };
}

/** A campaign's own period: its first day up to its last or today, whichever comes first (at most a year, ending there). */
export function campaignDefaultPeriod(campaign: { startsOn: string; endsOn: string }, today: string): { from: string; to: string } {
  let to = campaign.endsOn < today ? campaign.endsOn : today;
  if (to < campaign.startsOn) to = campaign.startsOn; // not started yet: its first day (zeros)
  const earliest = addDays(to, -(AD_REPORT_MAX_DAYS - 1));
  return { from: campaign.startsOn < earliest ? earliest : campaign.startsOn, to };
}

/** The goal's progress and the even pace's expectation on `today`. */
export function goalProgress(campaign: { startsOn: string; endsOn: string; impressionGoal: number | null }, toDate: number, today: string): AdGoalProgress | null {
  const goal = campaign.impressionGoal;
  if (goal === null || goal <= 0) return null;
  const campaignDays = daysBetween(campaign.startsOn, campaign.endsOn);
  const daysElapsed = Math.min(campaignDays, Math.max(0, daysBetween(campaign.startsOn, today)));
  const expected = Math.round((goal * daysElapsed) / campaignDays);
  const pace: AdPace = daysElapsed === 0 ? "not started" : today > campaign.endsOn ? (toDate >= goal ? "met" : "missed") : toDate >= expected ? "ahead" : "behind";
  return { goal, toDate, share: toDate / goal, expected, daysElapsed, campaignDays, pace };
}

// ---------------------------------------------------------------- reads

const num = (value: unknown) => Number(value ?? 0);
const countsOf = (r: Record<string, unknown>): AdCounts => ({ impressions: num(r.impressions), viewable: num(r.viewable), clicks: num(r.clicks) });
/** The three sums of ad_days rows, each row's viewable capped at its impressions. */
const SUMS = sql.raw(`coalesce(sum(a.impressions), 0) as impressions, coalesce(sum(least(a.viewable, a.impressions)), 0) as viewable, coalesce(sum(a.clicks), 0) as clicks`);

const campaignColumns = {
  id: adCampaigns.id,
  name: adCampaigns.name,
  startsOn: adCampaigns.startsOn,
  endsOn: adCampaigns.endsOn,
  slots: adCampaigns.slots,
  priority: adCampaigns.priority,
  impressionGoal: adCampaigns.impressionGoal,
  paused: adCampaigns.paused,
};

async function findCampaign(db: Db, campaignId: string): Promise<AdCampaignSummary> {
  const missing = new AppError("not_found", "There is no such campaign.");
  if (!UUID_RE.test(campaignId)) throw missing;
  const [row] = await db
    .select({ ...campaignColumns, advertiserId: advertisers.id, advertiserName: advertisers.name })
    .from(adCampaigns)
    .innerJoin(advertisers, eq(advertisers.id, adCampaigns.advertiserId))
    .where(eq(adCampaigns.id, campaignId));
  if (!row) throw missing;
  const { advertiserId, advertiserName, ...campaign } = row;
  return { ...campaign, advertiser: { id: advertiserId, name: advertiserName } };
}

/** The campaign and the period asked of its report (its own days up to today by default): 404 / 400 as campaignReport. */
export async function campaignAndPeriod(db: Db, campaignId: string, asked: AdPeriodAsked & { today: string }): Promise<{ campaign: AdCampaignSummary; period: AdPeriod }> {
  const campaign = await findCampaign(db, campaignId);
  return { campaign, period: adPeriodOf(asked, campaignDefaultPeriod(campaign, asked.today)) };
}

/** Every day of the period, zeros included, for the campaigns given (summed). */
async function daysOf(db: Db, campaignIds: readonly string[], period: AdPeriod): Promise<AdDayRow[]> {
  const ids = sql`array[${sql.join(
    campaignIds.map((id) => sql`${id}`),
    sql`, `,
  )}]::uuid[]`;
  const result = await db.execute(sql`
    select to_char(d, 'YYYY-MM-DD') as day, ${SUMS}
    from generate_series(${period.from}::date, ${period.to}::date, interval '1 day') d
    left join ad_days a on a.day = d::date and a.campaign_id = any(${ids})
    group by d order by d`);
  return result.rows.map((r) => ({ day: String(r.day), ...countsOf(r) }));
}

/**
 * A campaign's report for a period (default: its own days up to today). Unknown campaign: AppError 404;
 * a bad period: AppError 400 (adPeriodOf).
 */
export async function campaignReport(db: Db, campaignId: string, asked: AdPeriodAsked & { today: string }): Promise<CampaignReport> {
  const { campaign, period } = await campaignAndPeriod(db, campaignId, asked);
  const byDay = await daysOf(db, [campaign.id], period);
  const totals = byDay.reduce<AdCounts>(addCounts, NO_COUNTS);

  const creatives = await db
    .select({ id: adCreatives.id, kind: adCreatives.kind, size: adCreatives.size, headline: adCreatives.headline, alt: adCreatives.alt, archived: adCreatives.archived })
    .from(adCreatives)
    .where(eq(adCreatives.campaignId, campaign.id))
    .orderBy(asc(adCreatives.createdAt), asc(adCreatives.id));
  const perCreative = await db.execute(sql`
    select a.creative_id, ${SUMS} from ad_days a
    where a.campaign_id = ${campaign.id}::uuid and a.day between ${period.from}::date and ${period.to}::date
    group by a.creative_id`);
  const creativeCounts = new Map(perCreative.rows.map((r) => [String(r.creative_id), countsOf(r)]));
  const byCreative = creatives.map((c) => ({ ...c, ...(creativeCounts.get(c.id) ?? NO_COUNTS) }));

  const perSlot = await db.execute(sql`
    select a.slot, ${SUMS} from ad_days a
    where a.campaign_id = ${campaign.id}::uuid and a.day between ${period.from}::date and ${period.to}::date
    group by a.slot`);
  const slotCounts = new Map(perSlot.rows.map((r) => [String(r.slot), countsOf(r)]));
  // The campaign's slots first (zeros included), then any slot it was counted in before its slots changed.
  const slots = [...campaign.slots, ...[...slotCounts.keys()].filter((s) => !campaign.slots.includes(s)).sort()];
  const bySlot = slots.map((slot) => ({ slot, ...(slotCounts.get(slot) ?? NO_COUNTS) }));

  let goal: AdGoalProgress | null = null;
  if (campaign.impressionGoal !== null) {
    const [row] = (
      await db.execute(sql`select coalesce(sum(impressions), 0) as impressions from ad_days where campaign_id = ${campaign.id}::uuid and day <= ${asked.today}::date`)
    ).rows;
    goal = goalProgress(campaign, num(row?.impressions), asked.today);
  }
  return { campaign, period, totals, byDay, byCreative, bySlot, goal };
}

/** The advertiser and the period asked of its report (the last 30 days by default): 404 for no such advertiser, 400 for a bad period. */
export async function advertiserAndPeriod(db: Db, advertiserId: string, asked: AdPeriodAsked & { today: string }): Promise<Pick<AdvertiserReport, "advertiser" | "period">> {
  const missing = new AppError("not_found", "There is no such advertiser.");
  if (!UUID_RE.test(advertiserId)) throw missing;
  const [advertiser] = await db
    .select({ id: advertisers.id, name: advertisers.name, contactName: advertisers.contactName, contactEmail: advertisers.contactEmail, house: advertisers.house })
    .from(advertisers)
    .where(eq(advertisers.id, advertiserId));
  if (!advertiser) throw missing;
  return { advertiser, period: adPeriodOf(asked, { from: addDays(asked.today, -(ADVERTISER_DEFAULT_DAYS - 1)), to: asked.today }) };
}

/**
 * An advertiser's report for a period (default: the last 30 days up to today): each of its campaigns
 * that runs on a day of the period or was counted in it, with its totals and its days (those of the
 * period it ran on, and any other that has counts), and the grand totals.
 */
export async function advertiserReport(db: Db, advertiserId: string, asked: AdPeriodAsked & { today: string }): Promise<AdvertiserReport> {
  const { advertiser, period } = await advertiserAndPeriod(db, advertiserId, asked);

  const campaigns = await db
    .select(campaignColumns)
    .from(adCampaigns)
    .where(
      sql`${adCampaigns.advertiserId} = ${advertiser.id} and ((${adCampaigns.startsOn} <= ${period.to}::date and ${adCampaigns.endsOn} >= ${period.from}::date)
        or exists (select 1 from ad_days a where a.campaign_id = ${adCampaigns.id} and a.day between ${period.from}::date and ${period.to}::date))`,
    )
    .orderBy(asc(adCampaigns.startsOn), asc(adCampaigns.name));

  const reports = [];
  for (const campaign of campaigns) {
    const days = await daysOf(db, [campaign.id], period);
    const totals = days.reduce<AdCounts>(addCounts, NO_COUNTS);
    const byDay = days.filter((d) => (d.day >= campaign.startsOn && d.day <= campaign.endsOn) || d.impressions > 0 || d.viewable > 0 || d.clicks > 0);
    reports.push({ campaign, totals, byDay });
  }
  const totals = reports.reduce<AdCounts>((sum, r) => addCounts(sum, r.totals), NO_COUNTS);
  return { advertiser, period, campaigns: reports, totals };
}

/** One line of a CSV export: a day, a campaign, a creative and a slot's counts. */
export interface AdCountLine extends AdCounts {
  day: string;
  campaign: string;
  advertiser: string;
  creative: { kind: string; size: string; headline: string; alt: string; archived: boolean };
  slot: string;
}

/** The counted rows (day × creative × slot) of a campaign or of an advertiser's campaigns in a period, in order. */
export async function adCountLines(db: Db, scope: { campaignId: string } | { advertiserId: string }, period: AdPeriod): Promise<AdCountLine[]> {
  const where = "campaignId" in scope ? sql`c.id = ${scope.campaignId}::uuid` : sql`c.advertiser_id = ${scope.advertiserId}::uuid`;
  const result = await db.execute(sql`
    select to_char(a.day, 'YYYY-MM-DD') as day, c.name as campaign, v.name as advertiser, cr.kind, cr.size, cr.headline, cr.alt, cr.archived, a.slot,
      a.impressions, least(a.viewable, a.impressions) as viewable, a.clicks
    from ad_days a
    join ad_campaigns c on c.id = a.campaign_id
    join advertisers v on v.id = c.advertiser_id
    join ad_creatives cr on cr.id = a.creative_id
    where ${where} and a.day between ${period.from}::date and ${period.to}::date
    order by a.day, c.starts_on, c.name, a.slot, cr.created_at, cr.id`);
  return result.rows.map((r) => ({
    day: String(r.day),
    campaign: String(r.campaign),
    advertiser: String(r.advertiser),
    creative: { kind: String(r.kind), size: String(r.size), headline: String(r.headline), alt: String(r.alt), archived: r.archived === true },
    slot: String(r.slot),
    ...countsOf(r),
  }));
}
