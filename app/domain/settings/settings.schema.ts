import { z } from "zod";
import type { WebsiteSettings } from "~/db/schema";

/** The settings row a new site starts with. */
export { DEFAULT_SETTINGS } from "./default-settings";

// ---------------------------------------------------------------- the Website Settings form

/** An optional text field: trimmed, at most `max` characters, empty becomes null. */
const optionalText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .transform((v) => v || null);

/** An optional link: empty, or an absolute http(s) URL. */
const optionalHttpUrl = (label: string) =>
  z
    .string()
    .trim()
    .max(500, `${label} must be at most 500 characters`)
    .refine((v) => {
      if (!v) return true;
      try {
        const url = new URL(v);
        return (url.protocol === "http:" || url.protocol === "https:") && Boolean(url.hostname);
      } catch {
        return false;
      }
    }, `${label} must be a link starting with http:// or https://`)
    .transform((v) => v || null);

/** A logo or favicon: empty, or one of our own uploaded images ("/media/images/<generated name>"). */
export const OWN_IMAGE_URL = /^\/media\/images\/[a-z0-9][a-z0-9.-]{0,120}$/i;
const optionalOwnImage = (label: string) =>
  z
    .string()
    .trim()
    .refine((v) => !v || (OWN_IMAGE_URL.test(v) && !v.includes("..")), `${label} must be an image uploaded here`)
    .transform((v) => v || null);

/** A domain as the blocked sign-up domains hold it: lower case, no "@" or "*." in front, a dot inside. */
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/;
export const MAX_BLOCKED_DOMAINS = 500;

/** "Blocked sign-up domains": one a line (blank lines ignored), each a domain; the newsletter sign-up refuses them and their subdomains. */
const blockedDomains = z
  .string()
  .max(MAX_BLOCKED_DOMAINS * 254, "Blocked sign-up domains is too long")
  .transform((text, ctx) => {
    const domains: string[] = [];
    for (const line of text.split(/\r?\n/)) {
      const domain = line.trim().toLowerCase().replace(/^\*\./, "").replace(/^@/, "").replace(/\.$/, "");
      if (!domain) continue;
      if (!DOMAIN.test(domain)) {
        ctx.addIssue({ code: "custom", message: `Blocked sign-up domains: "${line.trim().slice(0, 80)}" is not a domain (one a line, like example.com)` });
        return z.NEVER;
      }
      if (!domains.includes(domain)) domains.push(domain);
    }
    if (domains.length > MAX_BLOCKED_DOMAINS) {
      ctx.addIssue({ code: "custom", message: `Blocked sign-up domains may list at most ${MAX_BLOCKED_DOMAINS} domains` });
      return z.NEVER;
    }
    return domains;
  });

/** An AdSense publisher id, as Google writes it: "ca-pub-" and 16 digits (a few more or fewer allowed). */
export const AD_CLIENT_ID = /^ca-pub-\d{10,20}$/;

/** The reader-revenue settings' bounds (issue 40): paragraphs before the paywall, free stories per 30 days. */
export const READER_REVENUE_MAX = 50;

/**
 * A whole number from 0 to READER_REVENUE_MAX (issue 40). Left out of a call, or blank: it stays as it is.
 */
const readerRevenueCount = (label: string) =>
  z
    .string()
    .trim()
    .refine((v) => v === "" || (/^\d{1,3}$/.test(v) && Number(v) <= READER_REVENUE_MAX), `${label} must be a whole number from 0 to ${READER_REVENUE_MAX}`)
    .optional()
    .transform((v) => (v === undefined || v === "" ? undefined : Number(v)));

/** Audience analytics (issue 42): the days raw audience events are kept, from 1 to 10 years. */
export const AUDIENCE_RETENTION_MIN = 1;
export const AUDIENCE_RETENTION_MAX = 3650;
export const AUDIENCE_RETENTION_LABEL = "Keep raw audience events for (days)";

export const settingsFormSchema = z.object({
  siteName: z.string().trim().min(1, "Site name is required").max(100, "Site name must be at most 100 characters"),
  siteTagline: optionalText("Tagline", 200),
  siteDescription: optionalText("Description", 1000),
  footerText: optionalText("Footer text", 500),
  logoUrl: optionalOwnImage("Logo"),
  faviconUrl: optionalOwnImage("Favicon"),
  contactEmail: z
    .string()
    .trim()
    .max(254, "Email must be at most 254 characters")
    .refine((v) => !v || z.email().safeParse(v).success, "Enter a valid email address")
    .transform((v) => v || null),
  contactPhone: z
    .string()
    .trim()
    .max(40, "Phone must be at most 40 characters")
    .refine((v) => !v || /^\+?[0-9 ().\-/]{3,40}$/.test(v), "Phone may hold only digits, spaces, +, -, ( ) and .")
    .transform((v) => v || null),
  facebookUrl: optionalHttpUrl("Facebook URL"),
  twitterUrl: optionalHttpUrl("Twitter/X URL"),
  instagramUrl: optionalHttpUrl("Instagram URL"),
  linkedinUrl: optionalHttpUrl("LinkedIn URL"),
  youtubeUrl: optionalHttpUrl("YouTube URL"),
  /**
   * The newsroom's postal address (issue 30): in every newsletter's footer (CAN-SPAM). Left out of a
   * call entirely: it stays as it is.
   */
  postalAddress: z.string().trim().max(500, "Postal address must be at most 500 characters").optional(),
  /** The domains the newsletter sign-up refuses (issue 30). Left out of a call: they stay as they are. */
  newsletterBlockedDomains: blockedDomains.optional(),
  /**
   * "Show the welcome banner" (issue 27): a checkbox, "on" when ticked and "" when not (formValues
   * reads an unticked box as ""). Left out of a call entirely: the setting stays as it is.
   */
  showWelcomeBanner: z
    .enum(["on", ""], { message: "Show the welcome banner is either ticked or not" })
    .optional()
    .transform((v) => (v === undefined ? undefined : v === "on")),
  /** Reader revenue (issue 40; tiers.manage): how many paragraphs a gated story shows before its call to action, without a "Paywall here" block. */
  paywallParagraphs: readerRevenueCount("Paragraphs before the paywall"),
  /** Gated stories an anonymous reader may read whole per 30 days (0: no meter). */
  meterAnonymous: readerRevenueCount("Free stories for anonymous readers"),
  /** Paid stories a signed-in free member may read whole per 30 days (0: no meter). */
  meterMembers: readerRevenueCount("Free stories for signed-in members"),
  /**
   * Days the raw audience events are kept before their day is dropped (the hourly rollups stay for
   * ever). Left out of a call, or blank: it stays as it is.
   */
  audienceRetentionDays: z
    .string()
    .trim()
    .refine(
      (v) => v === "" || (/^\d{1,4}$/.test(v) && Number(v) >= AUDIENCE_RETENTION_MIN && Number(v) <= AUDIENCE_RETENTION_MAX),
      `${AUDIENCE_RETENTION_LABEL} must be a whole number from ${AUDIENCE_RETENTION_MIN} to ${AUDIENCE_RETENTION_MAX}`,
    )
    .optional()
    .transform((v) => (v === undefined || v === "" ? undefined : Number(v))),
  /**
   * Advertising (issue 43): the ad network's client id for the slots no campaign fills (empty: none).
   * Left out of a call entirely: it stays as it is.
   */
  adClientId: z
    .string()
    .trim()
    .refine((v) => !v || AD_CLIENT_ID.test(v), "Ad network client id must look like ca-pub-1234567890123456")
    .optional()
    .transform((v) => (v === undefined ? undefined : v || null)),
  /**
   * "Ask readers' consent before loading the ad network": a checkbox, "on" or "" (unticked). Left out
   * of a call entirely: it stays as it is.
   */
  adConsentRequired: z
    .enum(["on", ""], { message: "Ask readers' consent is either ticked or not" })
    .optional()
    .transform((v) => (v === undefined ? undefined : v === "on")),
});

/** The settings only a role with tiers.manage may change (issue 40). */
export const READER_REVENUE_FIELDS = ["paywallParagraphs", "meterAnonymous", "meterMembers"] as const;
export type SettingsFormInput = z.input<typeof settingsFormSchema>;
export type SettingsUpdate = z.output<typeof settingsFormSchema>;
export type SettingsField = keyof SettingsFormInput;
export const SETTINGS_FIELDS = Object.keys(settingsFormSchema.shape) as SettingsField[];

/** The tab each field lives on, so a refused save can show the tab holding the problem. */
export const SETTINGS_FIELD_TAB: Record<SettingsField, "general" | "branding" | "contact" | "social" | "newsletters" | "readerRevenue" | "audience" | "advertising"> = {
  siteName: "general",
  siteTagline: "general",
  siteDescription: "general",
  footerText: "general",
  logoUrl: "branding",
  faviconUrl: "branding",
  contactEmail: "contact",
  contactPhone: "contact",
  facebookUrl: "social",
  twitterUrl: "social",
  instagramUrl: "social",
  linkedinUrl: "social",
  youtubeUrl: "social",
  showWelcomeBanner: "general",
  postalAddress: "newsletters",
  newsletterBlockedDomains: "newsletters",
  paywallParagraphs: "readerRevenue",
  meterAnonymous: "readerRevenue",
  meterMembers: "readerRevenue",
  audienceRetentionDays: "audience",
  adClientId: "advertising",
  adConsentRequired: "advertising",
};

/** The Settings form's checkboxes: sent as "on" or left out, shown from the row's booleans. */
export const SETTINGS_CHECKBOXES = ["showWelcomeBanner", "adConsentRequired"] as const satisfies readonly SettingsField[];

/** The settings a public page may show (everything but internal bookkeeping). */
export function publicSettings(settings: WebsiteSettings, envAdClientId?: string) {
  return {
    siteName: settings.siteName,
    siteTagline: settings.siteTagline,
    siteDescription: settings.siteDescription,
    logoUrl: settings.logoUrl,
    faviconUrl: settings.faviconUrl,
    contactEmail: settings.contactEmail,
    contactPhone: settings.contactPhone,
    footerText: settings.footerText,
    social: {
      facebook: settings.facebookUrl,
      twitter: settings.twitterUrl,
      instagram: settings.instagramUrl,
      linkedin: settings.linkedinUrl,
      youtube: settings.youtubeUrl,
    },
    adClientId: settings.adClientId || envAdClientId || null,
    /** Whether the ad network (adClientId) waits for the reader's consent (issue 43; app/lib/ad-consent.ts). */
    adConsentRequired: settings.adConsentRequired,
    analyticsId: settings.analyticsId,
  };
}
export type PublicSettings = ReturnType<typeof publicSettings>;
