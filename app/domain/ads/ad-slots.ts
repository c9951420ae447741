/**
 * The site's ad slots (the seed's fixed identifiers) and how a page marks one for the door (issue 43,
 * decisions 0060 and 0061). Browser-safe: the reader bundle and the back office import this.
 */

/** A creative's size: "banner" fills the 120 px slots, "box" the 250 px ones. */
export const AD_SIZES = {
  banner: { label: "Banner (wide, 120 px high)", height: 120, width: 970 },
  box: { label: "Box (250 px high)", height: 250, width: 300 },
} as const;
export type AdSize = keyof typeof AD_SIZES;

export function isAdSize(value: unknown): value is AdSize {
  return typeof value === "string" && Object.hasOwn(AD_SIZES, value);
}

/** Every ad slot of the site, with its fixed id, size and landmark name. */
export const AD_SLOTS = {
  // Labels differ where a page has several slots: each landmark needs its own name (axe: landmark-unique).
  "home-top": { id: "1000000001", height: 120, size: "banner", label: "Advertisement (top)", where: "Home page, top" },
  "home-middle": { id: "1000000002", height: 250, size: "box", label: "Advertisement (middle)", where: "Home page, middle" },
  "home-bottom": { id: "1000000003", height: 120, size: "banner", label: "Advertisement (bottom)", where: "Home page, bottom" },
  article: { id: "1000000004", height: 250, size: "box", label: "Advertisement", where: "Article pages" },
  category: { id: "1000000005", height: 120, size: "banner", label: "Advertisement", where: "Category, author and tag pages" },
  contact: { id: "1000000006", height: 250, size: "box", label: "Advertisement", where: "Contact page" },
  about: { id: "1000000007", height: 250, size: "box", label: "Advertisement", where: "About page" },
} as const satisfies Record<string, { id: string; height: number; size: AdSize; label: string; where: string }>;
export type AdSlotName = keyof typeof AD_SLOTS;
export const AD_SLOT_NAMES = Object.keys(AD_SLOTS) as AdSlotName[];

export function isAdSlotName(value: unknown): value is AdSlotName {
  return typeof value === "string" && Object.hasOwn(AD_SLOTS, value);
}

/** The start of a slot's marker: `<!--frontpage-slot:NAME-->` (server/nonced-body.ts cuts pages there). */
export const SLOT_MARKER_PREFIX = "<!--frontpage-slot:";
export const SLOT_MARKER_SUFFIX = "-->";

/** Between a slot's name and the page's category in a marker's name. */
const CATEGORY_PART = "-in-";
/** A category's slug as a marker may carry it (the marker's grammar: lower-case words joined by hyphens). */
const CATEGORY_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** The longest marker name (server/nonced-body.ts reads no longer one). */
export const MAX_SLOT_MARKER_NAME = 128;

/**
 * The name a page's slot goes by in its marker: the slot, and the category of the page (an article's,
 * a category page's) when it has one, for campaigns that target categories: `article-in-<slug>`.
 */
export function slotMarkerName(slot: AdSlotName, categorySlug?: string | null): string {
  if (!categorySlug || !CATEGORY_SLUG.test(categorySlug)) return slot;
  const name = `${slot}${CATEGORY_PART}${categorySlug}`;
  return name.length <= MAX_SLOT_MARKER_NAME ? name : slot;
}

/** What a marker's name says: the slot and the page's category slug (null: none), or null for a name that is no slot of ours. */
export function parseSlotMarkerName(name: string): { slot: AdSlotName; category: string | null } | null {
  const at = name.indexOf(CATEGORY_PART);
  const slot = at === -1 ? name : name.slice(0, at);
  if (!isAdSlotName(slot)) return null;
  if (at === -1) return { slot, category: null };
  const category = name.slice(at + CATEGORY_PART.length);
  return CATEGORY_SLUG.test(category) ? { slot, category } : null;
}

/** The slot's marker as the renderer writes it (the inner HTML of the slot's element). */
export function slotMarkerHtml(slot: AdSlotName, categorySlug?: string | null): string {
  return `${SLOT_MARKER_PREFIX}${slotMarkerName(slot, categorySlug)}${SLOT_MARKER_SUFFIX}`;
}

/** The priorities of campaigns, highest first: a slot is filled from the highest that has a campaign for it. */
export const AD_PRIORITIES = ["sponsorship", "standard", "house"] as const;
export type AdPriorityName = (typeof AD_PRIORITIES)[number];
export const AD_PRIORITY_LABELS: Record<AdPriorityName, string> = {
  sponsorship: "Sponsorship",
  standard: "Standard",
  house: "House",
};
