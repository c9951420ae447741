import fs from "node:fs";
import path from "node:path";
import { expect, test, waitForHydration, type Page } from "./fixtures";
import { signInAsAdmin, toastWith } from "./admin-session";
import { query } from "./db";
import { someArticlePath } from "./routes";

// Uploads are checked from their bytes, so every fixture is a real file of its type.
const PNG_1PX = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
const PDF = Buffer.from("%PDF-1.4\n1 0 obj<< /Type /Catalog >>endobj\ntrailer<< /Root 1 0 R >>\n%%EOF\n");
const MP4 = fs.readFileSync(path.resolve(import.meta.dirname, "../../server/demo/demo-video.mp4"));
const SVG_LOGO = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40"><script>alert("x")</script><rect width="160" height="40" fill="#123456"/></svg>`,
);

/** The media card (a list item of the grid) that shows `fileName`. */
const card = (page: Page, fileName: string) => page.getByRole("listitem").filter({ hasText: fileName });

test.describe("media library", () => {
  test.beforeEach(async ({ page, context, baseURL }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
    await signInAsAdmin(page);
  });

  test("upload to each tab, copy a URL, publish an article from an image, and refuse to delete a file in use", async ({ page }) => {
    // Four uploads, a publish and deletes: it passed 30 s on the loaded CI machine (13 s when quiet).
    test.slow();
    const run = Date.now().toString(36);
    const imageName = `harbour-${run}.png`;
    const videoName = `clip-${run}.mp4`;
    const fileName = `report-${run}.pdf`;
    await page.goto("/admin/media", { waitUntil: "networkidle" });
    await expect(page.getByRole("heading", { level: 1, name: "Media Library" })).toBeVisible();

    // Images: the hint, the upload, the new card first in a 1/2/3-column grid.
    await expect(page.getByText("Select image (JPEG, PNG, GIF, WebP - Max 10MB)")).toBeVisible();
    await page.getByLabel("Select image (JPEG, PNG, GIF, WebP - Max 10MB)").setInputFiles({ name: imageName, mimeType: "image/png", buffer: PNG_1PX });
    await expect(toastWith(page, "File uploaded successfully")).toBeVisible();
    await expect(card(page, imageName)).toBeVisible();
    await expect(page.getByRole("list").filter({ has: card(page, imageName) })).toHaveClass(/grid-cols-1 .*md:grid-cols-2 .*lg:grid-cols-3/);
    await expect(card(page, imageName).getByRole("img", { name: imageName })).toBeVisible();

    // A file that is not an image is refused with the server's message.
    await page.getByLabel("Select image (JPEG, PNG, GIF, WebP - Max 10MB)").setInputFiles({ name: "fake.png", mimeType: "image/png", buffer: PDF });
    await expect(toastWith(page, "Upload failed").filter({ hasText: "Only JPEG, PNG, GIF and WebP images are accepted." })).toBeVisible();

    // Copy URL: the absolute URL goes to the clipboard and a check mark shows for 2 seconds.
    await card(page, imageName).getByRole("button", { name: `Copy URL of ${imageName}` }).click();
    await expect(toastWith(page, "URL copied to clipboard")).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toMatch(/^http:\/\/[^/]+\/media\/images\/\d+-[a-z0-9]+\.png$/);
    await expect(card(page, imageName).getByTestId("copied-check")).toBeVisible();
    await expect(card(page, imageName).getByTestId("copied-check")).toBeHidden({ timeout: 4000 });
    const imageUrl = new URL(copied).pathname;

    // Videos and Files tabs.
    await page.getByRole("tab", { name: "Videos" }).click();
    await page.getByLabel("Select video (MP4, WebM, QuickTime - Max 100MB)").setInputFiles({ name: videoName, mimeType: "video/mp4", buffer: MP4 });
    await expect(card(page, videoName)).toBeVisible();
    await page.getByRole("tab", { name: "Files" }).click();
    await page.getByLabel("Select file (PDF, Word, Excel - Max 50MB)").setInputFiles({ name: fileName, mimeType: "application/pdf", buffer: PDF });
    await expect(card(page, fileName)).toBeVisible();

    // A document is served as a download, never inline.
    const fileHref = await (async () => {
      await card(page, fileName).getByRole("button", { name: `Copy URL of ${fileName}` }).click();
      return page.evaluate(() => navigator.clipboard.readText());
    })();
    const download = await page.request.get(fileHref);
    expect(download.headers()["content-disposition"]).toMatch(/^attachment/);
    expect(download.headers()["x-content-type-options"]).toBe("nosniff");

    // An unused file is deleted after the confirmation.
    await card(page, fileName).getByRole("button", { name: `Delete ${fileName}` }).click();
    await expect(page.getByRole("alertdialog")).toContainText("Are you sure you want to delete this file?");
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete", exact: true }).click();
    await expect(toastWith(page, "File deleted successfully")).toBeVisible();
    await expect(card(page, fileName)).toHaveCount(0);

    // Publish an article from the image: the button waits for title, content and (an image) alt text.
    const title = `Lanterns on the quay ${run}`;
    await page.getByRole("tab", { name: "Images" }).click();
    await card(page, imageName).getByRole("button", { name: "Publish", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Publish Article with Media" });
    const publish = dialog.getByRole("button", { name: "Publish Article" });
    await expect(publish).toBeDisabled();
    await dialog.getByLabel("Title *").fill(title);
    await expect(publish).toBeDisabled();
    await dialog.getByLabel("Category").selectOption({ label: "News" });
    await dialog.getByLabel("Excerpt").fill("Lanterns lit the harbour.");
    await dialog.getByLabel("Content *").fill("The harbour festival opened with lanterns.");
    await expect(publish).toBeDisabled();
    await expect(dialog.getByLabel("Alt text *")).toHaveAccessibleDescription(/Describes the image for readers who cannot see it/);
    await dialog.getByLabel("Alt text *").fill("Lanterns reflected in the harbour at night");
    await expect(publish).toBeEnabled();
    await publish.click();
    await expect(toastWith(page, "Article published successfully")).toBeVisible();
    await expect(dialog).toBeHidden();

    // Publishing the same title again is refused: the slug is taken.
    await card(page, imageName).getByRole("button", { name: "Publish", exact: true }).click();
    await expect(dialog.getByLabel("Title *")).toHaveValue("");
    await dialog.getByLabel("Title *").fill(title);
    await dialog.getByLabel("Category").selectOption({ label: "News" });
    await dialog.getByLabel("Content *").fill("Again.");
    await dialog.getByLabel("Alt text *").fill("Lanterns again");
    await dialog.getByRole("button", { name: "Publish Article" }).click();
    await expect(toastWith(page, "Failed to publish").filter({ hasText: "already exists" })).toBeVisible();
    await page.keyboard.press("Escape");

    // The image now belongs to the article: deleting it is refused and says why.
    await card(page, imageName).getByRole("button", { name: `Delete ${imageName}` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete", exact: true }).click();
    await expect(toastWith(page, "Delete failed").filter({ hasText: `This file is used by the article “${title}”` })).toBeVisible();
    await expect(card(page, imageName)).toBeVisible();

    // The article is on the home page, with the image as its featured image.
    const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, "-");
    await page.goto("/");
    const link = page.locator(`a[href="/article/${slug}"]`).first();
    await expect(link).toBeVisible();
    await page.goto(`/article/${slug}`);
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page.locator(`img[src^="${imageUrl}"], img[srcset*="${imageUrl}"]`).first()).toBeVisible();
    await expect(page.getByRole("img", { name: "Lanterns reflected in the harbour at night" })).toBeVisible();
  });

  test("readers' comment photos are kept in a Reader uploads tab of their own, out of the newsroom's Images, and are never published", async ({ page, browser, baseURL }) => {
    test.slow();
    const run = Date.now().toString(36);
    const photo = `reader-photo-${run}.png`;
    // A reader attaches a photo to a comment (the upload is stored at once, as a comment upload).
    const reader = await browser.newContext({ baseURL });
    try {
      const readerPage = await reader.newPage();
      await readerPage.goto(await someArticlePath(readerPage.request), { waitUntil: "networkidle" });
      await waitForHydration(readerPage.locator("body"));
      // "Add image" opens the file chooser once the comments (hydrated a task after the page) run.
      await expect(async () => {
        const chooser = readerPage.waitForEvent("filechooser", { timeout: 2_000 });
        await readerPage.getByRole("button", { name: "Add image" }).first().click();
        await (await chooser).setFiles({ name: photo, mimeType: "image/png", buffer: PNG_1PX });
      }).toPass({ timeout: 30_000 });
      await expect(toastWith(readerPage, "Upload successful")).toBeVisible();
    } finally {
      await reader.close();
    }
    const [stored] = await query<{ name: string }>(`select name from media where original_name = $1 and source = 'comment'`, [photo]);
    expect(stored).toBeDefined();

    // The newsroom's Images tab (the default) does not show it.
    await page.goto("/admin/media", { waitUntil: "networkidle" });
    await expect(page.getByRole("tab", { name: "Images" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("tabpanel", { name: "Images" })).toBeVisible();
    await expect(card(page, photo)).toHaveCount(0);

    // The Reader uploads tab does, without a Publish button and without an upload box.
    await page.getByRole("tab", { name: "Reader uploads" }).click();
    const panel = page.getByRole("tabpanel", { name: "Reader uploads" });
    await expect(panel).toContainText("Photos and videos readers attached to their comments");
    await expect(panel.getByRole("listitem").filter({ hasText: photo })).toBeVisible();
    await expect(panel.getByRole("listitem").filter({ hasText: photo }).getByRole("button", { name: "Publish" })).toHaveCount(0);
    await expect(panel.getByLabel(/^Select image/)).toHaveCount(0);
    await page.setViewportSize({ width: 390, height: 844 });
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(scroll, "nothing scrolls sideways at 390 px").toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1280, height: 800 });

    // A crafted "Publish Article with Media" of a reader's photo is refused on the server, and nothing is written.
    const title = `From a reader ${run}`;
    const [{ id: categoryId }] = (await query<{ id: string }>(`select id from categories order by name limit 1`)) as [{ id: string }];
    const answer = await page.evaluate(
      async ([name, title, categoryId]) => {
        const response = await fetch("/admin/media", { method: "POST", body: new URLSearchParams({ intent: "publish", bucket: "images", name: name!, title: title!, categoryId: categoryId!, excerpt: "", content: "Body", featuredImageAlt: "A photo" }) });
        return { status: response.status, text: await response.text() };
      },
      [stored!.name, title, categoryId],
    );
    expect(answer.status).toBe(400);
    expect(answer.text).toContain("comment attachment: it cannot be published as an article");
    expect(await query(`select id from articles where title = $1`, [title])).toHaveLength(0);

    // An editor may delete it (no comment uses it).
    await panel.getByRole("button", { name: `Delete ${photo}` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete", exact: true }).click();
    await expect(toastWith(page, "File deleted successfully")).toBeVisible();
    await expect(panel.getByRole("listitem").filter({ hasText: photo })).toHaveCount(0);
    expect(await query(`select id from media where name = $1`, [stored!.name])).toHaveLength(0);
  });
});

/** The settings row as stored (every column; `updated_at` shows whether a save happened at all). */
async function settingsRow(): Promise<Record<string, unknown>> {
  const [row] = await query(`select * from website_settings where id = 1`);
  expect(row, "the settings row").toBeDefined();
  return row!;
}

const withoutUpdatedAt = ({ updated_at: _updatedAt, ...rest }: Record<string, unknown>) => rest;

/** The value of a meta tag of the current page. */
const metaContent = (page: Page, selector: string) => page.locator(`head meta[${selector}]`).getAttribute("content");

test.describe("website settings", () => {
  test("every field of every tab appears on the public pages at once, and a refused save changes nothing", async ({ page, browser, baseURL }) => {
    await signInAsAdmin(page);
    const run = Date.now().toString(36);
    const next = {
      siteName: `Harbour Times ${run}`,
      tagline: `Tide tables and town news ${run}`,
      description: `Ferries, tides and council votes from the harbour, reported every morning ${run}.`,
      footer: `Printed on the quay since 2024 ${run}`,
      email: `desk-${run}@harbour.example`,
      phone: "+1 (212) 555-0199",
    };
    // Footer link name (aria-label) -> settings label and the new address.
    const social = [
      { footer: "Facebook", label: "Facebook", url: `https://www.facebook.com/harbour${run}` },
      { footer: "X", label: "Twitter/X", url: `https://x.com/harbour${run}` },
      { footer: "Instagram", label: "Instagram", url: `https://www.instagram.com/harbour${run}` },
      { footer: "LinkedIn", label: "LinkedIn", url: `https://www.linkedin.com/company/harbour${run}` },
      { footer: "YouTube", label: "YouTube", url: `https://www.youtube.com/@harbour${run}` },
    ];
    const original = await settingsRow();

    try {
      await page.goto("/admin/settings", { waitUntil: "networkidle" });
      await expect(page.getByRole("heading", { level: 1, name: "Website Settings" })).toBeVisible();
      await expect(page.getByText("Manage your website configuration and appearance")).toBeVisible();

      // Keep what the site had, to put it back for the other journeys.
      const fields = ["Site Name *", "Tagline", "Description", "Footer Text", "Email", "Phone", "Facebook", "Twitter/X", "Instagram", "LinkedIn", "YouTube"];
      const before: Record<string, string> = {};
      for (const label of fields) before[label] = await page.getByLabel(label, { exact: true }).inputValue();

      // A bad value is refused on its tab, with the spec's error toast, and nothing is saved: not even
      // the valid change made on another tab.
      await page.getByLabel("Site Name *").fill(next.siteName);
      await page.getByRole("tab", { name: "Social Media" }).click();
      await page.getByLabel("YouTube").fill("javascript:alert(1)");
      await page.getByRole("button", { name: "Save Settings" }).click();
      await expect(toastWith(page, "Error").filter({ hasText: "YouTube URL must be a link starting with http:// or https://" })).toBeVisible();
      await expect(page.getByLabel("YouTube")).toBeFocused();
      expect(await settingsRow()).toEqual(original);

      // The server refuses on its own too (a logo that is no upload of ours), and stores nothing.
      const refused = await page.request.post("/admin/settings", {
        headers: { Origin: baseURL! },
        form: {
          siteName: next.siteName,
          siteTagline: "",
          siteDescription: "",
          footerText: "",
          logoUrl: "/media/images/1700000000000-not-uploaded.png",
          faviconUrl: "",
          contactEmail: "",
          contactPhone: "",
          facebookUrl: "",
          twitterUrl: "",
          instagramUrl: "",
          linkedinUrl: "",
          youtubeUrl: "",
        },
      });
      expect(refused.status()).toBe(400);
      expect(await refused.text()).toContain("Logo must be an image uploaded here");
      expect(await settingsRow()).toEqual(original);

      // General: every field.
      await page.getByRole("tab", { name: "General" }).click();
      await page.getByLabel("Site Name *").fill(next.siteName);
      await page.getByLabel("Tagline").fill(next.tagline);
      await page.getByLabel("Description").fill(next.description);
      await page.getByLabel("Footer Text").fill(next.footer);
      // Branding: an SVG logo is converted to a PNG; a PNG favicon.
      await page.getByRole("tab", { name: "Branding" }).click();
      await page.getByLabel("Upload Logo").setInputFiles({ name: "logo.svg", mimeType: "image/svg+xml", buffer: SVG_LOGO });
      await expect(page.getByRole("img", { name: "Logo preview" })).toHaveAttribute("src", /^\/media\/images\/\d+-[a-z0-9]+\.png$/);
      await page.getByLabel("Upload Favicon").setInputFiles({ name: "favicon.png", mimeType: "image/png", buffer: PNG_1PX });
      await expect(page.getByRole("img", { name: "Favicon preview" })).toHaveAttribute("src", /^\/media\/images\/\d+-[a-z0-9]+\.png$/);
      const logoUrl = (await page.getByRole("img", { name: "Logo preview" }).getAttribute("src"))!;
      const faviconUrl = (await page.getByRole("img", { name: "Favicon preview" }).getAttribute("src"))!;
      // Contact.
      await page.getByRole("tab", { name: "Contact" }).click();
      await expect(page.getByLabel("Email", { exact: true })).toHaveAttribute("type", "email");
      await expect(page.getByLabel("Phone")).toHaveAttribute("type", "tel");
      await page.getByLabel("Email", { exact: true }).fill(next.email);
      await page.getByLabel("Phone").fill(next.phone);
      // Social Media: all five.
      await page.getByRole("tab", { name: "Social Media" }).click();
      for (const { label, url } of social) {
        await expect(page.getByLabel(label, { exact: true })).toHaveAttribute("type", "url");
        await page.getByLabel(label, { exact: true }).fill(url);
      }

      await page.getByRole("button", { name: "Save Settings" }).click();
      await expect(toastWith(page, "Website settings have been updated successfully")).toBeVisible();
      expect(await settingsRow()).toMatchObject({
        site_name: next.siteName,
        site_tagline: next.tagline,
        site_description: next.description,
        footer_text: next.footer,
        logo_url: logoUrl,
        favicon_url: faviconUrl,
        contact_email: next.email,
        contact_phone: next.phone,
        facebook_url: social[0]!.url,
        twitter_url: social[1]!.url,
        instagram_url: social[2]!.url,
        linkedin_url: social[3]!.url,
        youtube_url: social[4]!.url,
      });

      // The public pages show it straight away (the page cache is cleared by the settings change).
      const anonymous = await browser.newContext({ baseURL });
      try {
        const reader = await anonymous.newPage();
        await reader.goto("/");
        // Home: the title leads with the tagline and ends with the brand (og:title is the tagline alone,
        // the brand being og:site_name); the description is the site's.
        await expect(reader).toHaveTitle(`${next.tagline} | ${next.siteName}`);
        expect(await metaContent(reader, 'name="description"')).toBe(next.description);
        expect(await metaContent(reader, 'property="og:description"')).toBe(next.description);
        expect(await metaContent(reader, 'property="og:title"')).toBe(next.tagline);
        expect(await metaContent(reader, 'property="og:site_name"')).toBe(next.siteName);
        // Header: the name and the logo, linking home.
        const home = reader.getByRole("banner").getByRole("link", { name: `${next.siteName} home` });
        await expect(home).toContainText(next.siteName);
        await expect(home.locator("img")).toHaveAttribute("src", logoUrl);
        await expect(home.locator("img")).toBeVisible();
        // Footer: the footer text and the five social links.
        const footer = reader.locator("footer");
        await expect(footer).toContainText(next.footer);
        await expect(footer).toContainText(`© ${new Date().getFullYear()} ${next.siteName}. All rights reserved.`);
        const socialLinks = footer.getByRole("list", { name: "Social media" }).getByRole("link");
        await expect(socialLinks).toHaveCount(5);
        for (const { footer: name, url } of social) {
          await expect(footer.getByRole("link", { name, exact: true })).toHaveAttribute("href", url);
        }
        const logo = await reader.request.get(logoUrl);
        expect(logo.headers()["content-type"]).toBe("image/png");

        // An article: its own title, then the brand; the new favicon in the head; the name in the header.
        await reader.goto(await someArticlePath(reader.request));
        const articleTitle = (await reader.getByRole("heading", { level: 1 }).textContent())!.trim();
        await expect(reader).toHaveTitle(`${articleTitle} | ${next.siteName}`);
        await expect(reader.getByRole("banner")).toContainText(next.siteName);
        await expect(reader.locator('head link[rel="icon"]')).toHaveAttribute("href", faviconUrl);
        const favicon = await reader.request.get(faviconUrl);
        expect(favicon.status()).toBe(200);
        expect(favicon.headers()["content-type"]).toBe("image/png");

        // Contact: the e-mail and phone, as links.
        await reader.goto("/contact");
        await expect(reader).toHaveTitle(new RegExp(`\\| ${next.siteName}$`));
        await expect(reader.locator("main").getByRole("link", { name: next.email })).toHaveAttribute("href", `mailto:${next.email}`);
        await expect(reader.locator("main").getByRole("link", { name: next.phone })).toHaveAttribute("href", "tel:+12125550199");
      } finally {
        await anonymous.close();
      }

      // Put the site back as it was (other journeys expect the default name and no logo).
      await page.goto("/admin/settings", { waitUntil: "networkidle" });
      for (const label of fields) {
        const tab = { "Email": "Contact", "Phone": "Contact", "Facebook": "Social Media", "Twitter/X": "Social Media", "Instagram": "Social Media", "LinkedIn": "Social Media", "YouTube": "Social Media" }[label] ?? "General";
        await page.getByRole("tab", { name: tab }).click();
        await page.getByLabel(label, { exact: true }).fill(before[label]!);
      }
      await page.getByRole("tab", { name: "Branding" }).click();
      await page.getByRole("button", { name: "Remove Logo" }).click();
      await page.getByRole("button", { name: "Remove Favicon" }).click();
      await page.getByRole("button", { name: "Save Settings" }).click();
      await expect(toastWith(page, "Website settings have been updated successfully")).toBeVisible();
      expect(withoutUpdatedAt(await settingsRow())).toEqual(withoutUpdatedAt(original));
    } finally {
      // If the journey stopped half way, put the stored row back directly (the change still clears the page cache).
      const now = await settingsRow();
      if (JSON.stringify(withoutUpdatedAt(now)) !== JSON.stringify(withoutUpdatedAt(original))) {
        const columns = Object.keys(withoutUpdatedAt(original)).filter((c) => c !== "id");
        await query(
          `update website_settings set ${columns.map((c, i) => `${c} = $${i + 1}`).join(", ")}, updated_at = now() where id = 1`,
          columns.map((c) => original[c]),
        );
      }
    }
  });
});
