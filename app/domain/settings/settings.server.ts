import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { websiteSettings, type WebsiteSettings } from "~/db/schema";
import { DEFAULT_SETTINGS } from "./settings.schema";

/** The one settings row (defaults if it is somehow missing). */
export async function getSettings(db: Db): Promise<WebsiteSettings> {
  const [row] = await db.select().from(websiteSettings).where(eq(websiteSettings.id, 1)).limit(1);
  return (
    row ?? {
      id: 1,
      ...DEFAULT_SETTINGS,
      logoUrl: null,
      faviconUrl: null,
      adClientId: null,
      analyticsId: null,
      updatedAt: new Date(0),
    }
  );
}

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
    analyticsId: settings.analyticsId,
  };
}
export type PublicSettings = ReturnType<typeof publicSettings>;
