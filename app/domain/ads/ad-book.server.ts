import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import type { ChangeFeed } from "~/lib/change-feed.server";
import { fromDateTimeLocal } from "~/lib/dates";
import type { Logger } from "~/lib/logger.server";
import { SlotFragment } from "~/lib/slot-fragment.server";
import { siteDayOf } from "../audience/visitor-hash.server";
import { adFragmentHtml, type FragmentCreative } from "./ad-fragment.server";
import { placementKey } from "./ad-recorder.server";
import { AD_PRIORITIES, AD_SLOTS, parseSlotMarkerName, type AdPriorityName, type AdSize, type AdSlotName } from "./ad-slots";
import { adToken, type AdPlacement } from "./ad-token.server";

// The live campaigns, held in each process's memory (issue 43, decision 0061): the door fills a
// stored page's slots from here with no render and no query per answer. Read again on the ad tables'
// change notices (like the redirects), and once a minute for the day and the pacing counts (what
// the other processes served). A slot is filled from the highest priority with a campaign for it
// (sponsorship, then standard, then house), by weight within it; a campaign with an impression goal
// is paced evenly over its days.

/** The tables whose notices reload the book (categories: a campaign targets them by id, a page names them by slug). */
export const AD_TABLES = new Set(["advertisers", "ad_campaigns", "ad_creatives", "categories"]);

/** A creative of a live campaign, with its fragment for each slot of its size the campaign may fill. */
interface LiveCreative {
  id: string;
  size: AdSize;
  /** By slot: the HTML made once, and the impression count's key (its day in front: see `keyOn`). */
  bySlot: Map<AdSlotName, { html: string; fragment: SlotFragment; placement: AdPlacement; key: string }>;
}

interface LiveCampaign {
  id: string;
  priority: AdPriorityName;
  weight: number;
  startsOn: string;
  endsOn: string;
  slots: ReadonlySet<string>;
  /** The slugs of the categories it targets; null: every page. */
  categories: ReadonlySet<string> | null;
  goal: number | null;
  /** Its days (ends_on - starts_on + 1) and today's index in them. */
  days: number;
  /** Impressions written before today, and today (the database's at the last read, plus this process's since). */
  before: number;
  today: number;
  creatives: Map<AdSize, LiveCreative[]>;
}

/**
 * How long a shared cache may keep a page whose slots a paced campaign could not fill just now: the
 * book reads the other processes' serving once a minute, and the campaign's share grows with the day.
 */
export const PACED_EMPTY_SECONDS = 60;

/** A campaign that may fill one slot of one page (a marker's name), with its creatives of the slot's size. */
type Fit = { campaign: LiveCampaign; creatives: LiveCreative[] };
/** Who may fill one slot of one page today, by priority, highest first. */
type Candidates = Fit[][];

/** What the door put in a page's slots: the fills, and how to count them. */
export interface AdFill {
  fills: Record<string, SlotFragment>;
  /** The impressions' keys (placementKey), one per filled slot. */
  keys: string[];
}

/** The site's day and the instants it covers. */
interface SiteDay {
  day: string;
  from: number;
  to: number;
}

function dayAfter(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** Media's public address (the media route). */
function mediaUrlOf(bucket: string, name: string): string {
  return `/media/${bucket}/${encodeURIComponent(name)}`;
}

export class AdBook {
  private campaigns: LiveCampaign[] = [];
  private candidates = new Map<string, Candidates>();
  /** By slot marker: the campaigns held that could fill it on some day (its slot, its category, a creative of its size). */
  private fitting = new Map<string, Fit[]>();
  private siteDay: SiteDay;
  private loading: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly options: { timeZone: string; secret: string; now?: () => number; random?: () => number },
  ) {
    this.siteDay = this.dayAt(this.now());
  }

  private now(): number {
    return this.options.now ? this.options.now() : Date.now();
  }

  private dayAt(at: number): SiteDay {
    const day = siteDayOf(at, this.options.timeZone);
    const from = fromDateTimeLocal(`${day}T00:00`, this.options.timeZone)!.getTime();
    const to = fromDateTimeLocal(`${dayAfter(day)}T00:00`, this.options.timeZone)!.getTime();
    return { day, from, to };
  }

  /** The site's day now (YYYY-MM-DD): counts are kept under it. */
  today(): string {
    const now = this.now();
    if (now >= this.siteDay.to || now < this.siteDay.from) {
      this.siteDay = this.dayAt(now);
      this.candidates.clear();
      this.fitting.clear();
      // Yesterday's "today" is "before" now; the minute's reload reads both again.
      for (const campaign of this.campaigns) {
        campaign.before += campaign.today;
        campaign.today = 0;
      }
    }
    return this.siteDay.day;
  }

  /** Live campaigns held (tests, the bench). */
  get size(): number {
    return this.campaigns.length;
  }

  /**
   * Chooses what fills each of `slots` (the stored page's marker names) for one answer, or null when
   * nothing does (the page goes out as stored). `count`: called with each impression's key when the
   * answer is an impression (the view rule); null for one that is not (a bot's, a prefetch's), which
   * gets the ads but neither counts nor uses up a paced campaign's share of the day.
   */
  fill(slots: readonly string[], count: ((key: string) => void) | null): AdFill | null {
    if (this.campaigns.length === 0 || slots.length === 0) return null;
    const day = this.today();
    let out: AdFill | null = null;
    for (let i = 0; i < slots.length; i++) {
      const name = slots[i]!;
      const chosen = this.choose(name);
      if (!chosen) continue;
      const { campaign, placement } = chosen;
      out ??= { fills: {}, keys: [] };
      out.fills[name] = placement.fragment;
      const key = `${day}|${placement.key}`;
      out.keys.push(key);
      if (count) {
        campaign.today++;
        count(key);
      }
    }
    return out;
  }

  /**
   * The HTML that would fill slot `name` now, with its placement (the reader's browser asks for it:
   * /api/ads/fill). `counted`: the request is an impression (the view rule); the caller records it by
   * `key`, and only then does it use up a paced campaign's share.
   */
  fillOne(name: string, counted = true): { html: string; placement: AdPlacement; key: string } | null {
    if (this.campaigns.length === 0) return null;
    const day = this.today();
    const chosen = this.choose(name);
    if (!chosen) return null;
    if (counted) chosen.campaign.today++;
    return { html: chosen.placement.html, placement: chosen.placement.placement, key: `${day}|${chosen.placement.key}` };
  }

  private choose(name: string) {
    let byPriority = this.candidates.get(name);
    if (!byPriority) {
      byPriority = this.candidatesFor(name);
      if (this.candidates.size > 10_000) this.candidates.clear();
      this.candidates.set(name, byPriority);
    }
    const parsed = byPriority.length > 0 ? parseSlotMarkerName(name) : null;
    if (!parsed) return null;
    const random = this.options.random ?? Math.random;
    for (const group of byPriority) {
      let total = 0;
      for (const entry of group) if (this.paced(entry.campaign)) total += entry.campaign.weight;
      if (total === 0) continue;
      let at = random() * total;
      for (const entry of group) {
        if (!this.paced(entry.campaign)) continue;
        at -= entry.campaign.weight;
        if (at < 0 || entry === group[group.length - 1]) {
          const creative = entry.creatives.length === 1 ? entry.creatives[0]! : entry.creatives[Math.floor(random() * entry.creatives.length)]!;
          return { campaign: entry.campaign, placement: creative.bySlot.get(parsed.slot)! };
        }
      }
    }
    return null;
  }

  /**
   * Whether a campaign may be shown now: no goal, or its goal not reached and today's share of what is
   * left (spread evenly over its remaining days) not yet served by this time of day (an hour ahead allowed).
   */
  private paced(campaign: LiveCampaign): boolean {
    if (campaign.goal === null) return true;
    const left = campaign.goal - campaign.before;
    if (left <= 0 || campaign.today >= left) return false;
    const remainingDays = daysBetween(this.siteDay.day, campaign.endsOn) + 1;
    const todaysShare = left / Math.max(1, remainingDays);
    const { from, to } = this.siteDay;
    const elapsed = Math.min(1, (this.now() - from) / (to - from) + 1 / 24);
    return campaign.today < Math.ceil(todaysShare * elapsed);
  }

  /**
   * How many seconds a shared cache (a CDN, Varnish) may keep a page whose `slots` went out empty,
   * when a campaign held could fill one of them sooner than the page's own lifetime would end: one
   * that starts when the site's day turns (seconds until then), or a paced one whose share of the day
   * is served for now (PACED_EMPTY_SECONDS). Null when none could: the page keeps its own lifetime.
   */
  emptyFor(slots: readonly string[]): number | null {
    if (this.campaigns.length === 0) return null;
    const day = this.today();
    let seconds: number | null = null;
    for (const name of slots) {
      for (const { campaign } of this.fittingFor(name)) {
        let wait: number;
        if (campaign.startsOn > day) wait = Math.ceil((this.siteDay.to - this.now()) / 1000);
        else if (campaign.endsOn >= day && campaign.goal !== null && campaign.before + campaign.today < campaign.goal) wait = PACED_EMPTY_SECONDS;
        else continue;
        seconds = Math.max(1, Math.min(seconds ?? wait, wait));
      }
    }
    return seconds;
  }

  /** The campaigns held that may fill slot marker `name` (its slot, its category, a creative of its size), on any day: worked out once a reload. */
  private fittingFor(name: string): Fit[] {
    let out = this.fitting.get(name);
    if (!out) {
      out = this.fits(name);
      if (this.fitting.size > 10_000) this.fitting.clear();
      this.fitting.set(name, out);
    }
    return out;
  }

  private fits(name: string): Fit[] {
    const parsed = parseSlotMarkerName(name);
    if (!parsed) return [];
    const size = AD_SLOTS[parsed.slot].size;
    const out: Fit[] = [];
    for (const campaign of this.campaigns) {
      if (!campaign.slots.has(parsed.slot)) continue;
      if (campaign.categories && !(parsed.category && campaign.categories.has(parsed.category))) continue;
      const creatives = campaign.creatives.get(size);
      if (creatives && creatives.length > 0) out.push({ campaign, creatives });
    }
    return out;
  }

  private candidatesFor(name: string): Candidates {
    const day = this.siteDay.day;
    const today = this.fittingFor(name).filter(({ campaign }) => campaign.startsOn <= day && campaign.endsOn >= day);
    const groups: Candidates = [];
    for (const priority of AD_PRIORITIES) {
      const group = today.filter(({ campaign }) => campaign.priority === priority);
      if (group.length > 0) groups.push(group);
    }
    return groups;
  }

  /** Reads the live campaigns again; calls made while a read runs share one more read after it. */
  reload(): Promise<void> {
    if (this.loading) {
      this.again = true;
      return this.loading;
    }
    this.loading = this.read()
      .catch((error: unknown) => this.log.error({ err: error }, "could not read the ad campaigns; keeping the ones held"))
      .finally(() => {
        this.loading = null;
        if (this.again) {
          this.again = false;
          void this.reload();
        }
      });
    return this.loading;
  }

  private async read() {
    const day = this.today();
    // Campaigns running today or tomorrow (the day may turn before the next read), not paused.
    const tomorrow = dayAfter(day);
    const campaignRows = await this.db.execute<{
      id: string;
      house: boolean;
      starts_on: string;
      ends_on: string;
      slots: string[];
      category_slugs: string[] | null;
      targeted: boolean;
      priority: AdPriorityName;
      weight: number;
      impression_goal: number | null;
      before: string;
      today: string;
    }>(sql`
      select c.id, a.house, to_char(c.starts_on, 'YYYY-MM-DD') as starts_on, to_char(c.ends_on, 'YYYY-MM-DD') as ends_on,
             c.slots, array(select cat.slug from categories cat where cat.id = any(c.category_ids)) as category_slugs,
             cardinality(c.category_ids) > 0 as targeted, c.priority, c.weight, c.impression_goal,
             coalesce((select sum(d.impressions) from ad_days d where d.campaign_id = c.id and d.day < ${day}::date), 0)::text as before,
             coalesce((select sum(d.impressions) from ad_days d where d.campaign_id = c.id and d.day = ${day}::date), 0)::text as today
      from ad_campaigns c join advertisers a on a.id = c.advertiser_id
      where not c.paused and c.ends_on >= ${day}::date and c.starts_on <= ${tomorrow}::date`);
    const ids = campaignRows.rows.map((row) => row.id);
    const creativeRows =
      ids.length === 0
        ? { rows: [] }
        : await this.db.execute<{ id: string; campaign_id: string; size: AdSize; kind: "image" | "text"; alt: string; headline: string; body: string; link_url: string; bucket: string | null; name: string | null }>(sql`
            select cr.id, cr.campaign_id, cr.size, cr.kind, cr.alt, cr.headline, cr.body, cr.link_url, m.bucket, m.name
            from ad_creatives cr left join media m on m.id = cr.media_id
            where not cr.archived and cr.campaign_id = any(${sql.param(ids)}::uuid[])`);
    const campaigns: LiveCampaign[] = [];
    const byId = new Map<string, { campaign: LiveCampaign; house: boolean }>();
    for (const row of campaignRows.rows) {
      const campaign: LiveCampaign = {
        id: row.id,
        priority: row.priority,
        weight: Math.max(1, Number(row.weight)),
        startsOn: row.starts_on,
        endsOn: row.ends_on,
        slots: new Set(row.slots),
        // A campaign whose categories were all deleted targets nothing (not every page).
        categories: row.targeted ? new Set(row.category_slugs ?? []) : null,
        goal: row.impression_goal === null ? null : Number(row.impression_goal),
        days: daysBetween(row.starts_on, row.ends_on) + 1,
        before: Number(row.before),
        today: Number(row.today),
        creatives: new Map(),
      };
      campaigns.push(campaign);
      byId.set(row.id, { campaign, house: row.house });
    }
    for (const row of creativeRows.rows) {
      const owner = byId.get(row.campaign_id);
      if (!owner) continue;
      const { campaign, house } = owner;
      let shown: FragmentCreative;
      if (row.kind === "image") {
        if (!row.bucket || !row.name) continue;
        shown = { kind: "image", size: row.size, imageUrl: mediaUrlOf(row.bucket, row.name), alt: row.alt, linkUrl: row.link_url };
      } else {
        shown = { kind: "text", size: row.size, headline: row.headline, body: row.body, linkUrl: row.link_url };
      }
      const creative: LiveCreative = { id: row.id, size: row.size, bySlot: new Map() };
      for (const slot of campaign.slots) {
        if (!(slot in AD_SLOTS) || AD_SLOTS[slot as AdSlotName].size !== row.size) continue;
        const placement: AdPlacement = { campaignId: campaign.id, creativeId: row.id, slot: slot as AdSlotName };
        const token = adToken(this.options.secret, placement);
        const html = adFragmentHtml(shown, token, house);
        creative.bySlot.set(slot as AdSlotName, {
          html,
          fragment: new SlotFragment(html),
          placement,
          key: placementKey("", placement).slice(1),
        });
      }
      const list = campaign.creatives.get(row.size) ?? [];
      list.push(creative);
      campaign.creatives.set(row.size, list);
    }
    this.campaigns = campaigns;
    this.candidates.clear();
    this.fitting.clear();
  }

  /** Reloads whenever a notice names an ad table, or the feed reconnected (a notice may be lost). */
  watch(changes: ChangeFeed) {
    changes.on("change", (event) => {
      if (AD_TABLES.has(event.table) || event.table === "*") void this.reload();
    });
  }

  /** Reads again every `intervalMs`: the day's turn, and what the other processes served (pacing). */
  start(intervalMs = 60_000) {
    this.timer = setInterval(() => void this.reload(), intervalMs);
    this.timer.unref();
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
