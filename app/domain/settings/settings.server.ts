import { and, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { media, websiteSettings, type WebsiteSettings } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { UPLOAD_RULES } from "~/lib/upload-rules";
import { DEFAULT_SETTINGS, type SettingsUpdate } from "./settings.schema";
import { SYSTEM_ACTOR, type Actor } from "~/domain/accounts/actor";
import { recordActivity } from "~/domain/activity/activity.server";
import { recomputeFreeContent } from "~/domain/articles/story-paywall.server";

/** The one settings row (defaults if it is somehow missing). */
export async function getSettings(db: Pick<Db, "select">): Promise<WebsiteSettings> {
  const [row] = await db.select().from(websiteSettings).where(eq(websiteSettings.id, 1)).limit(1);
  return (
    row ?? {
      id: 1,
      ...DEFAULT_SETTINGS,
      logoUrl: null,
      faviconUrl: null,
      adClientId: null,
      analyticsId: null,
      breakingNewsText: null,
      breakingNewsUrl: null,
      breakingNewsExpiresAt: null,
      showWelcomeBanner: true,
      exploreCategoryIds: null,
      postalAddress: "",
      newsletterBlockedDomains: [],
      paywallParagraphs: 3,
      meterAnonymous: 0,
      meterMembers: 0,
      audienceRetentionDays: 90,
      adConsentRequired: true,
      updatedAt: new Date(0),
    }
  );
}


/**
 * Saves the Website Settings form. Logo and favicon must be images uploaded here (a row in `media`).
 * The row's trigger announces the change, which clears every process's page cache.
 */
export async function updateSettings(db: Db, input: SettingsUpdate, actor: Actor = SYSTEM_ACTOR): Promise<WebsiteSettings> {
  const fieldErrors: Partial<Record<keyof SettingsUpdate, string>> = {};
  for (const [field, label, kind] of [
    ["logoUrl", "Logo", "logo"],
    ["faviconUrl", "Favicon", "favicon"],
  ] as const) {
    const url = input[field];
    if (!url) continue;
    const name = decodeURIComponent(url.slice("/media/images/".length));
    const [row] = await db
      .select({ contentType: media.contentType })
      .from(media)
      .where(and(eq(media.bucket, "images"), eq(media.name, name)))
      .limit(1);
    if (!row) fieldErrors[field] = `${label} must be an image uploaded here`;
    else if (row.contentType === "image/svg+xml") fieldErrors[field] = `${label} must not be an SVG file`;
    // The kinds the logo and favicon uploads accept (an SVG logo is stored rasterised, as PNG).
    else if (!UPLOAD_RULES[kind].types.some((type) => type.mime === row.contentType)) fieldErrors[field] = UPLOAD_RULES[kind].wrongTypeMessage;
  }
  const refused = Object.values(fieldErrors);
  if (refused.length > 0) throw new AppError<keyof SettingsUpdate>("invalid_input", refused[0]!, { fieldErrors });

  // A field left out (showWelcomeBanner of a caller that does not send it) keeps its value.
  const values = { ...Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)), updatedAt: new Date() } as SettingsUpdate & { updatedAt: Date };
  return db.transaction(async (tx) => {
    const before = await getSettings(tx);
    const [row] = await tx
      .insert(websiteSettings)
      .values({ id: 1, ...values })
      .onConflictDoUpdate({ target: websiteSettings.id, set: values })
      .returning();
    // The names of the fields that changed (settings hold no secrets, but the log keeps names only).
    const changed = (Object.keys(input) as (keyof SettingsUpdate)[]).filter((key) => input[key] !== undefined && JSON.stringify((before as Record<string, unknown>)[key]) !== JSON.stringify(input[key]));
    // A new paywall point (issue 40): every gated story's free part is cut again, in this transaction,
    // so search never quotes a paragraph that is now behind the paywall.
    if (changed.includes("paywallParagraphs")) await recomputeFreeContent(tx, row!.paywallParagraphs);
    await recordActivity(tx, actor, { kind: "settings.update", objectType: "settings", objectLabel: "Website settings", details: { changed } });
    return row!;
  });
}

/** Whether every back-office account must use a second factor (the Team screen's switch, admins only). */
export async function setRequireTwoFactor(db: Db, required: boolean, actor: Actor = SYSTEM_ACTOR): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .insert(websiteSettings)
      .values({ ...DEFAULT_SETTINGS, id: 1, requireTwoFactor: required, updatedAt: new Date() })
      .onConflictDoUpdate({ target: websiteSettings.id, set: { requireTwoFactor: required, updatedAt: new Date() } });
    await recordActivity(tx, actor, { kind: "team.require_two_factor", objectType: "settings", objectLabel: required ? "Two-factor required" : "Two-factor optional" });
  });
}
