import { z } from "zod";
import { AD_PRIORITIES, AD_SIZES, AD_SLOT_NAMES, AD_SLOTS, isAdSlotName, type AdSize, type AdSlotName } from "./ad-slots";

// The ads back office's forms (issue 43): advertisers, campaigns and creatives. The same schemas check
// the forms in the browser and the input on the server; server-only rules (a name taken, an image of
// the library, a relative link for a house ad only) are added in ads-admin.server.ts. Browser-safe.

export const ADVERTISER_NAME_TAKEN = "Another advertiser already has this name.";
export const ADVERTISER_HAS_CAMPAIGNS = "This advertiser still has campaigns: delete or move them first (a campaign that ran is kept for its reports).";
export const CAMPAIGN_HAS_SERVED = "This campaign has already been shown on the site: its figures are kept for the reports. Pause it, or end it today, instead.";
export const END_BEFORE_START = "The end date must be on or after the start date.";
export const SLOTS_REQUIRED = "Choose at least one slot.";
export const LINK_INVALID = "Enter a full web address starting with http:// or https://.";
export const LINK_INVALID_HOUSE = "Enter a full web address starting with http:// or https://, or a path of this site starting with “/” (like /subscribe).";
export const LINK_RELATIVE_FOR_HOUSE_ONLY = "Only house ads may link to a path of this site: enter a full web address starting with http:// or https://.";
export const IMAGE_REQUIRED = "Choose an image from the media library.";
export const ALT_REQUIRED = "Alt text is required: it is what readers who cannot see the image hear.";
export const HEADLINE_MAX = 60;
export const BODY_MAX = 140;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is a real calendar day written YYYY-MM-DD. */
export function isIsoDay(value: string): boolean {
  if (!DAY.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/** The day `days` after `day` (YYYY-MM-DD, calendar arithmetic, no time zone involved). */
export function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** A link a creative may have: an http(s) URL, or (house ads only) a path of this site. */
export function linkProblem(value: string, { house }: { house: boolean }): string | null {
  const link = value.trim();
  if (link.startsWith("/")) {
    if (link.startsWith("//") || /[\s\\]/.test(link)) return house ? LINK_INVALID_HOUSE : LINK_INVALID;
    return house ? null : LINK_RELATIVE_FOR_HOUSE_ONLY;
  }
  try {
    const url = new URL(link);
    if ((url.protocol === "http:" || url.protocol === "https:") && url.hostname) return null;
  } catch {
    // not a URL at all
  }
  return house ? LINK_INVALID_HOUSE : LINK_INVALID;
}

const text = (max: number, label: string) => z.string().trim().max(max, `${label} must be at most ${max} characters.`);

export const advertiserFormSchema = z.object({
  name: z.string().trim().min(1, "Name is required.").max(120, "Name must be at most 120 characters."),
  contactName: text(120, "Contact name"),
  contactEmail: z
    .string()
    .trim()
    .max(254, "E-mail address must be at most 254 characters.")
    .refine((v) => v === "" || z.email().safeParse(v).success, "Enter a valid e-mail address (like name@example.com), or leave it empty."),
  notes: text(2000, "Notes"),
});
export type AdvertiserFieldName = keyof z.input<typeof advertiserFormSchema>;
export type AdvertiserInput = z.output<typeof advertiserFormSchema>;

/** A list field sent as one string (the form's checkboxes joined with commas). */
const listOf = (value: string) =>
  value
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);

export const campaignFormSchema = z
  .object({
    name: z.string().trim().min(1, "Name is required.").max(120, "Name must be at most 120 characters."),
    advertiserId: z.string().trim().regex(UUID, "Choose an advertiser."),
    startsOn: z.string().trim().refine(isIsoDay, "Enter the start date (YYYY-MM-DD)."),
    endsOn: z.string().trim().refine(isIsoDay, "Enter the end date (YYYY-MM-DD)."),
    /** Slot names joined with commas. */
    slots: z
      .string()
      .transform(listOf)
      .refine((slots) => slots.length > 0, SLOTS_REQUIRED)
      .refine((slots) => slots.every(isAdSlotName), "Choose slots from the list.")
      .transform((slots) => [...new Set(slots)] as AdSlotName[]),
    /** "all", or "chosen" with categoryIds. */
    categoryScope: z.enum(["all", "chosen"], { error: "Choose all pages or some categories." }),
    /** Category ids joined with commas. */
    categoryIds: z
      .string()
      .transform(listOf)
      .refine((ids) => ids.every((id) => UUID.test(id)), "Choose categories from the list.")
      .transform((ids) => [...new Set(ids.map((id) => id.toLowerCase()))]),
    priority: z.enum(AD_PRIORITIES, { error: "Choose a priority." }),
    weight: z
      .string()
      .trim()
      .regex(/^\d{1,4}$/, "Weight must be a whole number from 1 to 1000.")
      .transform(Number)
      .refine((n) => n >= 1 && n <= 1000, "Weight must be a whole number from 1 to 1000."),
    impressionGoal: z
      .string()
      .trim()
      .refine((v) => v === "" || (/^\d{1,10}$/.test(v) && Number(v) > 0 && Number(v) <= 2_147_483_647), "The goal must be a positive whole number of impressions, or empty for none.")
      .transform((v) => (v === "" ? null : Number(v))),
  })
  .superRefine((value, ctx) => {
    if (isIsoDay(value.startsOn) && isIsoDay(value.endsOn) && value.endsOn < value.startsOn) ctx.addIssue({ code: "custom", path: ["endsOn"], message: END_BEFORE_START });
    if (value.categoryScope === "chosen" && value.categoryIds.length === 0) ctx.addIssue({ code: "custom", path: ["categoryIds"], message: "Choose at least one category, or All pages." });
  })
  .transform(({ categoryScope, categoryIds, ...rest }) => ({ ...rest, categoryIds: categoryScope === "all" ? [] : categoryIds }));
export type CampaignFieldName = keyof z.input<typeof campaignFormSchema>;
export type CampaignInput = z.output<typeof campaignFormSchema>;

const sizeField = z.enum(Object.keys(AD_SIZES) as [AdSize, ...AdSize[]], { error: "Choose a size: banner or box." });

/** A creative's form; `house`: the campaign's advertiser is the newsroom (its links may be paths of this site). */
export function creativeFormSchema({ house }: { house: boolean }) {
  const link = z
    .string()
    .trim()
    .min(1, "Link is required.")
    .max(2048, "The link must be at most 2048 characters.")
    .superRefine((value, ctx) => {
      const problem = linkProblem(value, { house });
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    });
  return z.discriminatedUnion("kind", [
    z.object({
      kind: z.literal("image"),
      size: sizeField,
      mediaId: z.string().trim().regex(UUID, IMAGE_REQUIRED),
      alt: z.string().trim().min(1, ALT_REQUIRED).max(300, "Alt text must be at most 300 characters."),
      linkUrl: link,
    }),
    z.object({
      kind: z.literal("text"),
      size: sizeField,
      headline: z.string().trim().min(1, "Headline is required.").max(HEADLINE_MAX, `The headline must be at most ${HEADLINE_MAX} characters.`),
      body: text(BODY_MAX, "The line"),
      linkUrl: link,
    }),
  ]);
}
export type CreativeInput = z.output<ReturnType<typeof creativeFormSchema>>;
export type CreativeFieldName = "kind" | "size" | "mediaId" | "alt" | "headline" | "body" | "linkUrl";

/**
 * What a campaign is doing on `today` (the site's day): from its dates, whether it is paused, and
 * whether the impressions served (as written so far) have reached its goal (it then shows no more).
 */
export type CampaignStatus = "Scheduled" | "Running" | "Goal reached" | "Paused" | "Ended";
export function campaignStatus(campaign: { startsOn: string; endsOn: string; paused: boolean; impressionGoal: number | null; impressions: number }, today: string): CampaignStatus {
  if (campaign.endsOn < today) return "Ended";
  if (campaign.impressionGoal !== null && campaign.impressions >= campaign.impressionGoal) return "Goal reached";
  if (campaign.paused) return "Paused";
  return campaign.startsOn > today ? "Scheduled" : "Running";
}

/** The sizes a campaign's slots need that none of its live (unarchived) creatives has, with the slots that need each. */
export function missingSizes(slots: readonly string[], creatives: readonly { size: string; archived: boolean }[]): { size: AdSize; slots: AdSlotName[] }[] {
  const have = new Set(creatives.filter((c) => !c.archived).map((c) => c.size));
  const missing = new Map<AdSize, AdSlotName[]>();
  for (const slot of slots) {
    if (!isAdSlotName(slot)) continue;
    const size = AD_SLOTS[slot].size;
    if (!have.has(size)) missing.set(size, [...(missing.get(size) ?? []), slot]);
  }
  return [...missing].map(([size, needing]) => ({ size, slots: needing }));
}

/** The slots whose pages have a category (a campaign's categories matter only there). */
export const CATEGORY_SLOTS: readonly AdSlotName[] = ["article", "category"];
export { AD_SLOT_NAMES };
