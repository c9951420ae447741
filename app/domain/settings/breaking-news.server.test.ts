import { beforeEach, describe, expect, test } from "vitest";
import { websiteSettings } from "~/db/schema";
import { parseForm } from "~/lib/forms";
import { createTestDatabase } from "../../../tests/setup/test-database";
import { activeBreakingNews, breakingNewsSchema } from "./breaking-news.schema";
import { removeBreakingNews, showBreakingNews } from "./breaking-news.server";
import { getSettings, updateSettings } from "./settings.server";
import { settingsFormSchema } from "./settings.schema";
import { refusal } from "../../../tests/setup/refusal";

const { db } = await createTestDatabase();
const TZ = "America/New_York";
// 09:00 in New York on 23 November 2026.
const NOW = new Date("2026-11-23T14:00:00.000Z");

const input = (over: Partial<Record<"text" | "url" | "expiresAt", string>> = {}) =>
  parseForm(breakingNewsSchema, { text: "Storm closes the harbour bridge", url: "/article/storm", expiresAt: "2026-11-23T18:00", ...over });


beforeEach(async () => {
  await db.delete(websiteSettings);
});

describe("the breaking-news banner", () => {
  test("shown until a time on the site's clock, then gone by itself", async () => {
    const shown = await showBreakingNews(db, input(), TZ, NOW);
    expect(shown.expiresAt.toISOString()).toBe("2026-11-23T23:00:00.000Z");
    const settings = await getSettings(db);
    expect(activeBreakingNews(settings, NOW)).toEqual({ text: "Storm closes the harbour bridge", url: "/article/storm", expiresAt: shown.expiresAt });
    expect(activeBreakingNews(settings, new Date("2026-11-23T22:59:59.000Z"))).not.toBeNull();
    expect(activeBreakingNews(settings, new Date("2026-11-23T23:00:00.000Z"))).toBeNull();
  });

  test("Remove banner takes it down at once; saving the Website Settings leaves it alone", async () => {
    await showBreakingNews(db, input(), TZ, NOW);
    await updateSettings(db, settingsFormSchema.parse({ siteName: "Harbour", siteTagline: "", siteDescription: "", footerText: "", logoUrl: "", faviconUrl: "", contactEmail: "", contactPhone: "", facebookUrl: "", twitterUrl: "", instagramUrl: "", linkedinUrl: "", youtubeUrl: "" }));
    expect(activeBreakingNews(await getSettings(db), NOW)?.text).toBe("Storm closes the harbour bridge");
    await removeBreakingNews(db, NOW);
    expect(activeBreakingNews(await getSettings(db), NOW)).toBeNull();
  });

  test("an expiry that is no date, or in the past, is refused beside its field and nothing changes", async () => {
    for (const expiresAt of ["tomorrow", "2026-02-30T10:00"]) {
      expect(await refusal(showBreakingNews(db, input({ expiresAt }), TZ, NOW))).toMatchObject({ code: "invalid_input", field: "expiresAt", status: 400 });
    }
    expect(await refusal(showBreakingNews(db, input({ expiresAt: "2026-11-23T08:59" }), TZ, NOW))).toMatchObject({
      field: "expiresAt",
      message: "The banner must go away at a time in the future",
    });
    expect(activeBreakingNews(await getSettings(db), NOW)).toBeNull();
  });

  test("the form refuses a blank text and a link that is neither https nor a path of this site", () => {
    expect(() => input({ text: "  " })).toThrow("Write the banner's text");
    for (const url of ["javascript:alert(1)", "//evil.example/x", "ftp://files.example", "/\\evil.example"]) {
      expect(() => input({ url })).toThrow("The link must be a web address (https://…) or a path on this site (/…)");
    }
    expect(input({ url: "https://news.example/live" }).url).toBe("https://news.example/live");
    expect(input({ url: "" }).url).toBeNull();
  });
});
