import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";

// The e2e server (tests/setup/e2e-server.mjs) starts with this admin and the demo content.
const ADMIN = { email: "admin@example.com", password: "admin-password-123" };

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

async function signIn(page: Page) {
  // Wait for hydration: the sign-in form is handled by the page's script.
  await page.goto("/admin/login", { waitUntil: "networkidle" });
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await page.waitForURL(/\/admin$/);
}

/** The sonner toast holding `text` (title or description). */
const toastWith = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

/** The media card (a list item of the grid) that shows `fileName`. */
const card = (page: Page, fileName: string) => page.getByRole("listitem").filter({ hasText: fileName });

test.describe("media library", () => {
  test.beforeEach(async ({ page, context, baseURL }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
    await signIn(page);
  });

  test("upload to each tab, copy a URL, publish an article from an image, and refuse to delete a file in use", async ({ page }) => {
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

    // Publish an article from the image: the button waits for title and content.
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
    await expect(publish).toBeEnabled();
    await publish.click();
    await expect(toastWith(page, "Article published successfully")).toBeVisible();
    await expect(dialog).toBeHidden();

    // Publishing the same title again is refused: the slug is taken.
    await card(page, imageName).getByRole("button", { name: "Publish", exact: true }).click();
    await expect(dialog.getByLabel("Title *")).toHaveValue("");
    await dialog.getByLabel("Title *").fill(title);
    await dialog.getByLabel("Content *").fill("Again.");
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
  });
});

test.describe("website settings", () => {
  test("every tab's changes appear on the public pages at once", async ({ page, browser, baseURL }) => {
    await signIn(page);
    const run = Date.now().toString(36);
    const siteName = `Harbour Times ${run}`;
    await page.goto("/admin/settings", { waitUntil: "networkidle" });
    await expect(page.getByRole("heading", { level: 1, name: "Website Settings" })).toBeVisible();
    await expect(page.getByText("Manage your website configuration and appearance")).toBeVisible();

    // Keep what the site had, to put it back for the other journeys.
    const fields = ["Site Name *", "Tagline", "Description", "Footer Text", "Email", "Phone", "Facebook", "Twitter/X", "Instagram", "LinkedIn", "YouTube"];
    const before: Record<string, string> = {};
    for (const label of fields) before[label] = await page.getByLabel(label, { exact: true }).inputValue();

    // A bad value is refused on its tab, with the spec's error toast, and nothing is saved.
    await page.getByRole("tab", { name: "Social Media" }).click();
    await page.getByLabel("YouTube").fill("javascript:alert(1)");
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expect(toastWith(page, "Error").filter({ hasText: "YouTube URL must be a link starting with http:// or https://" })).toBeVisible();

    // General.
    await page.getByRole("tab", { name: "General" }).click();
    await page.getByLabel("Site Name *").fill(siteName);
    await page.getByLabel("Tagline").fill(`Tide tables and town news ${run}`);
    await page.getByLabel("Footer Text").fill(`Printed on the quay since 2024 ${run}`);
    // Branding: an SVG logo is converted to a PNG; a PNG favicon.
    await page.getByRole("tab", { name: "Branding" }).click();
    await page.getByLabel("Upload Logo").setInputFiles({ name: "logo.svg", mimeType: "image/svg+xml", buffer: SVG_LOGO });
    await expect(page.getByRole("img", { name: "Logo preview" })).toHaveAttribute("src", /^\/media\/images\/\d+-[a-z0-9]+\.png$/);
    await page.getByLabel("Upload Favicon").setInputFiles({ name: "favicon.png", mimeType: "image/png", buffer: PNG_1PX });
    await expect(page.getByRole("img", { name: "Favicon preview" })).toBeVisible();
    const logoUrl = (await page.getByRole("img", { name: "Logo preview" }).getAttribute("src"))!;
    const faviconUrl = (await page.getByRole("img", { name: "Favicon preview" }).getAttribute("src"))!;
    // Contact.
    await page.getByRole("tab", { name: "Contact" }).click();
    await expect(page.getByLabel("Email", { exact: true })).toHaveAttribute("type", "email");
    await expect(page.getByLabel("Phone")).toHaveAttribute("type", "tel");
    await page.getByLabel("Email", { exact: true }).fill(`desk-${run}@harbour.example`);
    await page.getByLabel("Phone").fill("+1 (212) 555-0199");
    // Social Media.
    await page.getByRole("tab", { name: "Social Media" }).click();
    await expect(page.getByLabel("YouTube")).toHaveAttribute("type", "url");
    await page.getByLabel("YouTube").fill(`https://www.youtube.com/@harbour${run}`);

    await page.getByRole("button", { name: "Save Settings" }).click();
    await expect(toastWith(page, "Website settings have been updated successfully")).toBeVisible();

    // The public pages show it straight away (the page cache is cleared by the settings change).
    const anonymous = await browser.newContext({ baseURL });
    try {
      const reader = await anonymous.newPage();
      await reader.goto("/");
      // Every title ends with the brand.
      await expect(reader).toHaveTitle(new RegExp(`\\| ${siteName}$`));
      await expect(reader.locator("header")).toContainText(siteName);
      await expect(reader.locator("header img").first()).toHaveAttribute("src", logoUrl);
      await expect(reader.locator('link[rel="icon"]')).toHaveAttribute("href", faviconUrl);
      await expect(reader.locator("footer")).toContainText(`Printed on the quay since 2024 ${run}`);
      await expect(reader.locator("footer").getByRole("link", { name: /YouTube/ })).toHaveAttribute("href", `https://www.youtube.com/@harbour${run}`);
      const logo = await reader.request.get(logoUrl);
      expect(logo.headers()["content-type"]).toBe("image/png");
      await reader.goto("/contact");
      await expect(reader.locator("main")).toContainText(`desk-${run}@harbour.example`);
      await expect(reader.locator("main")).toContainText("+1 (212) 555-0199");
    } finally {
      await anonymous.close();
    }

    // Put the site back as it was (other journeys expect the default name and no logo).
    await page.goto("/admin/settings", { waitUntil: "networkidle" });
    for (const label of fields) {
      const tab = { "Email": "Contact", "Phone": "Contact", "Facebook": "Social Media", "Twitter/X": "Social Media", "Instagram": "Social Media", "LinkedIn": "Social Media", "YouTube": "Social Media" }[label] ?? "General";
      await page.getByRole("tab", { name: tab }).click();
      await page.getByLabel(label, { exact: true }).fill(before[label]);
    }
    await page.getByRole("tab", { name: "Branding" }).click();
    await page.getByRole("button", { name: "Remove Logo" }).click();
    await page.getByRole("button", { name: "Remove Favicon" }).click();
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expect(toastWith(page, "Website settings have been updated successfully")).toBeVisible();
  });
});
