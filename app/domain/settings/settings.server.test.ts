import { beforeEach, describe, expect, test } from "vitest";
import { media, websiteSettings } from "~/db/schema";
import { createTestDatabase } from "../../../tests/setup/test-database";
import { publicSettings, settingsFormSchema, type SettingsFormInput } from "./settings.schema";
import { AppError } from "~/lib/app-error";
import { getSettings, updateSettings } from "./settings.server";

const { db, pool } = await createTestDatabase();

const valid: SettingsFormInput = {
  siteName: "  The Daily Harbour ",
  siteTagline: "News by the water",
  siteDescription: "",
  footerText: "Made in New York",
  logoUrl: "",
  faviconUrl: "",
  contactEmail: "desk@harbour.example",
  contactPhone: "+1 (212) 555-0100",
  facebookUrl: "https://facebook.com/harbour",
  twitterUrl: "",
  instagramUrl: "",
  linkedinUrl: "http://linkedin.com/company/harbour",
  youtubeUrl: "",
};

function errorsOf(input: Partial<SettingsFormInput>) {
  const result = settingsFormSchema.safeParse({ ...valid, ...input });
  return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path[0], i.message]));
}

describe("settingsFormSchema", () => {
  test("trims values and turns empty optional fields into null", () => {
    const parsed = settingsFormSchema.parse(valid);
    expect(parsed.siteName).toBe("The Daily Harbour");
    expect(parsed.siteDescription).toBeNull();
    expect(parsed.twitterUrl).toBeNull();
    expect(parsed.logoUrl).toBeNull();
  });

  test("the site name is required", () => {
    expect(errorsOf({ siteName: "   " })).toEqual({ siteName: "Site name is required" });
  });

  test("the contact e-mail must be valid or empty", () => {
    expect(errorsOf({ contactEmail: "not-an-email" })).toEqual({ contactEmail: "Enter a valid email address" });
    expect(errorsOf({ contactEmail: "" })).toEqual({});
  });

  test("social links must be http(s) URLs or empty", () => {
    expect(errorsOf({ youtubeUrl: "javascript:alert(1)" })).toEqual({ youtubeUrl: "YouTube URL must be a link starting with http:// or https://" });
    expect(errorsOf({ twitterUrl: "x.com/someone" })).toEqual({ twitterUrl: "Twitter/X URL must be a link starting with http:// or https://" });
  });

  test("logo and favicon must be our own uploaded images", () => {
    expect(errorsOf({ logoUrl: "https://evil.example/logo.png" })).toEqual({ logoUrl: "Logo must be an image uploaded here" });
    expect(errorsOf({ faviconUrl: "/media/files/123-a.pdf" })).toEqual({ faviconUrl: "Favicon must be an image uploaded here" });
    expect(errorsOf({ logoUrl: "/media/images/../secret" })).toEqual({ logoUrl: "Logo must be an image uploaded here" });
    expect(errorsOf({ logoUrl: "/media/images/123-abc.png" })).toEqual({});
  });

  test("the newsletters' postal address is at most 500 characters; blocked sign-up domains are domains, one a line", () => {
    expect(errorsOf({ postalAddress: "x".repeat(501) })).toEqual({ postalAddress: "Postal address must be at most 500 characters" });
    expect(settingsFormSchema.parse({ ...valid, postalAddress: " 1 Quay Street\nPortsmouth " }).postalAddress).toBe("1 Quay Street\nPortsmouth");
    expect(settingsFormSchema.parse({ ...valid, newsletterBlockedDomains: "Spam.Example\r\n\n@mailinator.com\n*.temp.test\nspam.example" }).newsletterBlockedDomains).toEqual([
      "spam.example",
      "mailinator.com",
      "temp.test",
    ]);
    expect(errorsOf({ newsletterBlockedDomains: "good.example\nnot a domain" })).toEqual({
      newsletterBlockedDomains: 'Blocked sign-up domains: "not a domain" is not a domain (one a line, like example.com)',
    });
    expect(errorsOf({ newsletterBlockedDomains: "localhost" })).toHaveProperty("newsletterBlockedDomains");
    // Left out, both keep what is saved.
    expect(settingsFormSchema.parse(valid).newsletterBlockedDomains).toBeUndefined();
  });
});

describe("Keep raw audience events for (days)", () => {
  test("is a whole number from 1 to 3650, blank or left out keeps the saved value, and is saved", async () => {
    const message = "Keep raw audience events for (days) must be a whole number from 1 to 3650";
    for (const bad of ["0", "3651", "-5", "12.5", "ninety", "10000"]) expect(errorsOf({ audienceRetentionDays: bad })).toEqual({ audienceRetentionDays: message });
    expect(settingsFormSchema.parse({ ...valid, audienceRetentionDays: " 30 " }).audienceRetentionDays).toBe(30);
    expect(settingsFormSchema.parse({ ...valid, audienceRetentionDays: "3650" }).audienceRetentionDays).toBe(3650);
    expect(settingsFormSchema.parse({ ...valid, audienceRetentionDays: "" }).audienceRetentionDays).toBeUndefined();
    await db.delete(websiteSettings);
    expect((await getSettings(db)).audienceRetentionDays).toBe(90);
    await updateSettings(db, settingsFormSchema.parse({ ...valid, audienceRetentionDays: "30" }));
    expect((await getSettings(db)).audienceRetentionDays).toBe(30);
    await updateSettings(db, settingsFormSchema.parse(valid));
    expect((await getSettings(db)).audienceRetentionDays).toBe(30);
  });
});

describe("updateSettings", () => {
  beforeEach(async () => {
    await db.delete(websiteSettings);
    await db.delete(media);
  });

  test("saves every field of the form into the one settings row", async () => {
    await db.insert(media).values({ bucket: "images", name: "1-logo.png", originalName: "logo.png", contentType: "image/png", size: 1 });
    await updateSettings(db, settingsFormSchema.parse({ ...valid, logoUrl: "/media/images/1-logo.png" }));
    await updateSettings(db, settingsFormSchema.parse({ ...valid, siteName: "Second Save", logoUrl: "/media/images/1-logo.png" }));
    const rows = await db.select().from(websiteSettings);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: 1,
      siteName: "Second Save",
      siteTagline: "News by the water",
      siteDescription: null,
      logoUrl: "/media/images/1-logo.png",
      contactEmail: "desk@harbour.example",
      linkedinUrl: "http://linkedin.com/company/harbour",
    });
    expect((await getSettings(db)).siteName).toBe("Second Save");
  });

  test("a logo that is not a stored upload is refused and nothing changes", async () => {
    await db.insert(websiteSettings).values({ id: 1, siteName: "Before" });
    const error = await updateSettings(db, settingsFormSchema.parse({ ...valid, logoUrl: "/media/images/9-missing.png" })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).fieldErrors).toEqual({ logoUrl: "Logo must be an image uploaded here" });
    expect((await getSettings(db)).siteName).toBe("Before");
  });

  test("a favicon or logo of a kind their uploads refuse is refused on save too, and nothing changes", async () => {
    await db.insert(websiteSettings).values({ id: 1, siteName: "Before" });
    await db.insert(media).values([
      { bucket: "images", name: "2-photo.jpg", originalName: "photo.jpg", contentType: "image/jpeg", size: 1 },
      { bucket: "images", name: "3-anim.gif", originalName: "anim.gif", contentType: "image/gif", size: 1 },
    ]);
    const error = await updateSettings(
      db,
      settingsFormSchema.parse({ ...valid, faviconUrl: "/media/images/2-photo.jpg", logoUrl: "/media/images/3-anim.gif" }),
    ).catch((e: unknown) => e);
    expect((error as AppError).fieldErrors).toEqual({
      faviconUrl: "Only ICO and PNG favicons are accepted.",
      logoUrl: "Only JPEG, PNG, SVG and WebP logos are accepted.",
    });
    expect((await getSettings(db)).siteName).toBe("Before");
    // The same JPEG is a fine logo.
    await updateSettings(db, settingsFormSchema.parse({ ...valid, logoUrl: "/media/images/2-photo.jpg" }));
    expect((await getSettings(db)).logoUrl).toBe("/media/images/2-photo.jpg");
  });

  test("saving leaves settings the form does not show untouched", async () => {
    await db.insert(websiteSettings).values({ id: 1, siteName: "Before", adClientId: "ca-pub-123", analyticsId: "G-XYZ" });
    await updateSettings(db, settingsFormSchema.parse(valid));
    const saved = await getSettings(db);
    expect(saved).toMatchObject({ siteName: "The Daily Harbour", adClientId: "ca-pub-123", analyticsId: "G-XYZ" });
  });

  test("a save is announced on the change channel, which clears every process's page cache", async () => {
    const client = await pool.connect();
    try {
      const heard = new Promise<string>((resolve) => client.on("notification", (n) => resolve(n.payload ?? "")));
      await client.query("listen frontpage_changes");
      await updateSettings(db, settingsFormSchema.parse(valid));
      const payload = await Promise.race([heard, new Promise<string>((_, reject) => setTimeout(() => reject(new Error("no notification")), 3000))]);
      expect(JSON.parse(payload)).toMatchObject({ table: "website_settings" });
    } finally {
      await client.query("unlisten *");
      client.release();
    }
  });
});

describe("Show the welcome banner", () => {
  test("on by default; a ticked box is on, an unticked one off, and a caller that leaves it out keeps it", async () => {
    await db.delete(websiteSettings);
    expect((await getSettings(db)).showWelcomeBanner).toBe(true);
    await updateSettings(db, settingsFormSchema.parse({ ...valid, showWelcomeBanner: "" }));
    expect((await getSettings(db)).showWelcomeBanner).toBe(false);
    await updateSettings(db, settingsFormSchema.parse(valid));
    expect((await getSettings(db)).showWelcomeBanner).toBe(false);
    await updateSettings(db, settingsFormSchema.parse({ ...valid, showWelcomeBanner: "on" }));
    expect((await getSettings(db)).showWelcomeBanner).toBe(true);
    expect(errorsOf({ showWelcomeBanner: "maybe" as "on" })).toEqual({ showWelcomeBanner: "Show the welcome banner is either ticked or not" });
  });
});

describe("Advertising: the ad network's client id and asking readers' consent (issue 43)", () => {
  test("a client id is a Google publisher id or empty", () => {
    expect(errorsOf({ adClientId: "pub-1234" })).toEqual({ adClientId: "Ad network client id must look like ca-pub-1234567890123456" });
    expect(errorsOf({ adClientId: "ca-pub-1234567890123456<script>" })).toEqual({ adClientId: "Ad network client id must look like ca-pub-1234567890123456" });
    expect(errorsOf({ adClientId: " ca-pub-1234567890123456 " })).toEqual({});
    expect(settingsFormSchema.parse({ ...valid, adClientId: "" }).adClientId).toBeNull();
    expect(errorsOf({ adConsentRequired: "yes" as "on" })).toEqual({ adConsentRequired: "Ask readers' consent is either ticked or not" });
  });

  test("consent is asked by default; the form's box and id are saved, shown to reader pages, and kept by a caller that leaves them out", async () => {
    await db.delete(websiteSettings);
    expect(await getSettings(db)).toMatchObject({ adClientId: null, adConsentRequired: true });
    await updateSettings(db, settingsFormSchema.parse({ ...valid, adClientId: " ca-pub-1234567890123456", adConsentRequired: "" }));
    expect(await getSettings(db)).toMatchObject({ adClientId: "ca-pub-1234567890123456", adConsentRequired: false });
    expect(publicSettings(await getSettings(db))).toMatchObject({ adClientId: "ca-pub-1234567890123456", adConsentRequired: false });
    // Left out of a call (another form's save): both stay.
    await updateSettings(db, settingsFormSchema.parse(valid));
    expect(await getSettings(db)).toMatchObject({ adClientId: "ca-pub-1234567890123456", adConsentRequired: false });
    await updateSettings(db, settingsFormSchema.parse({ ...valid, adClientId: "", adConsentRequired: "on" }));
    expect(await getSettings(db)).toMatchObject({ adClientId: null, adConsentRequired: true });
    // The server's AD_CLIENT_ID serves when the field is empty.
    expect(publicSettings(await getSettings(db), "ca-pub-9999999999999999")).toMatchObject({ adClientId: "ca-pub-9999999999999999", adConsentRequired: true });
  });
});
