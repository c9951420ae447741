import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { websiteSettings } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { fromDateTimeLocal } from "~/lib/dates";
import type { BreakingNewsField, BreakingNewsInput } from "./breaking-news.schema";
import { DEFAULT_SETTINGS } from "./settings.schema";
import { SYSTEM_ACTOR, type Actor } from "~/domain/accounts/actor";
import { recordActivity } from "~/domain/activity/activity.server";

/**
 * Shows the breaking-news banner on every reader page until `input.expiresAt` (read on the site's
 * clock). The settings row's trigger announces the change, which clears every process's page cache.
 */
export async function showBreakingNews(db: Db, input: BreakingNewsInput, timeZone: string, now = new Date(), actor: Actor = SYSTEM_ACTOR) {
  const expiresAt = fromDateTimeLocal(input.expiresAt, timeZone);
  if (!expiresAt) throw new AppError<BreakingNewsField>("invalid_input", "Enter the date and time the banner goes away", { field: "expiresAt" });
  if (expiresAt.getTime() <= now.getTime()) {
    throw new AppError<BreakingNewsField>("invalid_input", "The banner must go away at a time in the future", { field: "expiresAt" });
  }
  const banner = { breakingNewsText: input.text, breakingNewsUrl: input.url, breakingNewsExpiresAt: expiresAt, updatedAt: now };
  await db.transaction(async (tx) => {
    await tx
      .insert(websiteSettings)
      .values({ id: 1, siteName: DEFAULT_SETTINGS.siteName, ...banner })
      .onConflictDoUpdate({ target: websiteSettings.id, set: banner });
    await recordActivity(tx, actor, { kind: "breaking_news.update", objectType: "settings", objectLabel: input.text, details: { shown: true, expiresAt: expiresAt.toISOString() } });
  });
  return { text: input.text, url: input.url, expiresAt };
}

/** Takes the banner down at once. */
export async function removeBreakingNews(db: Db, now = new Date(), actor: Actor = SYSTEM_ACTOR) {
  await db.transaction(async (tx) => {
    await tx
      .update(websiteSettings)
      .set({ breakingNewsText: null, breakingNewsUrl: null, breakingNewsExpiresAt: null, updatedAt: now })
      .where(eq(websiteSettings.id, 1));
    await recordActivity(tx, actor, { kind: "breaking_news.update", objectType: "settings", objectLabel: "Banner removed", details: { shown: false } });
  });
}
