import type { AudienceDevice, AudienceSource } from "~/db/schema";

// The shapes of the newsroom's audience figures (issue 42, decision 0058): what
// app/domain/audience/audience-report.server.ts answers and /admin/audience shows. Counts are whole
// numbers; rates are fractions 0..1 (null when nothing was measured); times are ISO strings.

/** The periods of /admin/audience: today, the last 7 and 30 days, or a chosen range of days. */
export type AudiencePeriodKey = "today" | "7d" | "30d" | "range";

export interface AudiencePeriod {
  key: AudiencePeriodKey;
  /** Inclusive start and exclusive end, instants (the site time zone's midnights). */
  from: string;
  to: string;
  /** The chart's step: by hour for one day, by day otherwise. */
  bucket: "hour" | "day";
  /** For a range: the chosen days, YYYY-MM-DD in the site time zone. */
  firstDay: string;
  lastDay: string;
}

/** Whose stories a report covers: the whole site (admins, editors) or one author's stories. */
export type AudienceScope = { kind: "site" } | { kind: "author"; authorId: string };

export interface AudienceTotals {
  views: number;
  /** Unique visitors of each site day, added up (a visitor's hash changes every day). */
  visitors: number;
}

export interface AudienceSeriesPoint extends AudienceTotals {
  /** The bucket's start (ISO instant). */
  at: string;
}

export interface AudienceStoryRow extends AudienceTotals {
  articleId: string;
  title: string;
  slug: string;
  authorName: string | null;
  categoryName: string | null;
  /** Median engaged seconds of the loads that reported (null: none did). */
  medianEngagedSeconds: number | null;
  /** Reads that reached 100% of the story / reads that reported (null: none did). */
  readToEndRate: number | null;
}

export interface AudienceSourceRow extends AudienceTotals {
  source: AudienceSource;
  /** The referrer's host ('' for direct). */
  host: string;
}

export interface AudienceCampaignRow extends AudienceTotals {
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
}

export interface AudienceCategoryRow extends AudienceTotals {
  categoryId: string;
  name: string;
  slug: string;
}

export interface AudienceAuthorRow extends AudienceTotals {
  authorId: string;
  name: string;
}

export interface AudienceDeviceRow extends AudienceTotals {
  device: AudienceDevice;
}

export interface AudienceEngagement {
  /** Page loads of stories whose script reported. */
  reads: number;
  medianEngagedSeconds: number | null;
  readToEndRate: number | null;
  /** Of the reads, the share that reached each quarter. */
  depth: { 25: number | null; 50: number | null; 75: number | null; 100: number | null };
}

export interface AudienceConversions {
  newsletter: number;
  member: number;
  paid: number;
}

export interface AudienceOverview {
  period: AudiencePeriod;
  scope: AudienceScope;
  totals: AudienceTotals;
  series: AudienceSeriesPoint[];
  stories: AudienceStoryRow[];
  sources: AudienceSourceRow[];
  campaigns: AudienceCampaignRow[];
  categories: AudienceCategoryRow[];
  authors: AudienceAuthorRow[];
  devices: AudienceDeviceRow[];
  engagement: AudienceEngagement;
  conversions: AudienceConversions;
}

/** The last 5 minutes, from the raw events. */
export interface AudienceRightNow {
  /** When it was measured (ISO). */
  at: string;
  visitors: number;
  views: number;
  stories: { articleId: string; title: string; slug: string; visitors: number; views: number }[];
  sources: { source: AudienceSource; host: string; visitors: number; views: number }[];
}

export interface AudienceStoryReport {
  article: { id: string; title: string; slug: string; status: string; publishedAt: string | null; authorId: string | null; authorName: string | null; categoryName: string | null };
  period: AudiencePeriod;
  totals: AudienceTotals;
  series: AudienceSeriesPoint[];
  sources: AudienceSourceRow[];
  campaigns: AudienceCampaignRow[];
  engagement: AudienceEngagement;
  conversions: AudienceConversions;
}

/** "Most read" for readers: the last 24 hours' stories by views. */
export interface MostReadStory {
  articleId: string;
  title: string;
  slug: string;
  views: number;
}
