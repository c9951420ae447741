import fs from "node:fs";
import path from "node:path";
import { expect, test, type Locator } from "./fixtures";
import { signInAsAdmin, toastWith } from "./admin-session";
import { query } from "./db";
import { publishNow, expectStoryLive } from "./publish-panel";

// A valid 1×1 PNG: uploads are checked from their bytes, so it has to be a real image.
const PNG_1PX = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

// The demo video, a small real MP4 (uploads are checked from their bytes too).
const MP4 = fs.readFileSync(path.resolve(import.meta.dirname, "../../server/demo/demo-video.mp4"));

test.describe("admin content screens", () => {
  test.beforeEach(async ({ page }) => {
    await signInAsAdmin(page);
  });

  test("create a category, create an article with an image and a video, see them on the site, edit it, delete it", async ({ page }) => {
    // A long journey (two uploads, the image's alt text, five pages, edit and delete): on a loaded
    // machine it ran past 30 s near its end (the shared two cores had a load average of 9–12).
    test.slow();
    const run = Date.now().toString(36);
    const categoryName = `E2E Desk ${run}`;
    const categorySlug = `e2e-desk-${run}`;

    // Category: the slug follows the name; on success the dialog closes and the row appears.
    await page.goto("/admin/categories", { waitUntil: "networkidle" });
    await page.getByRole("button", { name: "New Category" }).click();
    const dialog = page.getByRole("dialog", { name: "Create New Category" });
    await dialog.getByLabel("Name *").fill(categoryName);
    await expect(dialog.getByLabel("Slug *")).toHaveValue(categorySlug);
    await dialog.getByRole("button", { name: "Create", exact: true }).click();
    await expect(toastWith(page, "Category created")).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("row", { name: new RegExp(categoryName) })).toBeVisible();

    // Article: blank required fields are refused with the spec's notice first.
    const title = `Harbour lights festival ${run} draws crowds`;
    const slug = `harbour-lights-festival-${run}-draws-crowds`;
    await page.goto("/admin/articles/new", { waitUntil: "networkidle" });
    await expect(page.getByRole("heading", { level: 1, name: "Create New Article" })).toBeVisible();
    await page.getByRole("button", { name: "Save Draft" }).click();
    await expect(toastWith(page, "Please fill in all required fields")).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/articles\/new$/);

    await page.getByLabel("Title *").fill(title);
    await expect(page.getByLabel("Slug *")).toHaveValue(slug);
    await page.getByLabel("Category").selectOption({ label: categoryName });
    // A free-text byline: the writer's own author, chosen by default when they have one, makes way for it (decision 0035).
    const chosenAuthors = page.getByRole("list", { name: "Chosen authors" }).getByRole("button", { name: /^Remove / });
    while ((await chosenAuthors.count()) > 0) await chosenAuthors.first().click();
    await page.getByLabel("Author Name").fill("E2E Reporter");
    await page.getByLabel("Excerpt").fill("Lanterns along the quay for three nights.");
    await page.getByLabel("Content *").fill("The festival opened on Friday.\nThousands walked the quay.");
    await page.getByLabel("Upload Image").setInputFiles({ name: "lantern.png", mimeType: "image/png", buffer: PNG_1PX });
    await expect(toastWith(page, "Featured image uploaded successfully")).toBeVisible();
    await expect(page.getByRole("img", { name: "Featured image preview" })).toHaveAttribute("src", /^\/media\/images\/\d+-[a-z0-9]+\.png$/);
    const imageUrl = (await page.getByRole("img", { name: "Featured image preview" }).getAttribute("src"))!;
    // With an image, its alt text is required (the form says why); caption and credit are optional.
    await expect(page.getByLabel("Alt text *")).toHaveAccessibleDescription(/Describes the image for readers who cannot see it/);
    await page.getByLabel("Alt text *").fill("Paper lanterns along the harbour wall");
    await page.getByLabel("Upload Video").setInputFiles({ name: "quay.mp4", mimeType: "video/mp4", buffer: MP4 });
    await expect(toastWith(page, "Video uploaded successfully")).toBeVisible();
    const videoPreview = page.getByRole("group", { name: "Video" }).locator("video");
    await expect(videoPreview).toHaveAttribute("src", /^\/media\/videos\/\d+-[a-z0-9]+\.mp4$/);
    const videoUrl = (await videoPreview.getAttribute("src"))!;
    await publishNow(page);
    await expectStoryLive(page);
    await page.getByTestId("story-live").getByRole("link", { name: "Back to articles" }).click();
    await expect(page).toHaveURL(/\/admin\/articles$/);
    await expect(toastWith(page, "Article published successfully")).toBeVisible();
    const row = page.getByRole("row", { name: new RegExp(title) });
    await expect(row).toContainText(categoryName);
    await expect(row).toContainText("E2E Reporter");
    // The list marks an article with a video by its icon, and only those.
    await expect(row.getByTitle("Has video").locator("svg")).toBeVisible();
    await expect(row.getByTitle("Has video")).toContainText("(has video)");
    const [{ n: withVideo }] = await query<{ n: number }>(
      `select count(video_url)::int as n from (select video_url from articles order by created_at desc limit 50) as first_page`,
    );
    await expect(page.getByRole("table").getByTitle("Has video")).toHaveCount(withVideo);

    // The reader site shows it: home and its category page as a card with the image (and the video
    // badge), its own page with the image and the video.
    const cardImage = (card: Locator) => card.locator(`img[src="${imageUrl}"]`);
    await page.goto("/");
    const homeCard = page.getByRole("article").filter({ has: page.getByRole("heading", { name: title }) });
    await expect(homeCard).toHaveCount(1);
    await expect(homeCard.getByRole("link")).toHaveAttribute("href", `/article/${slug}`);
    await expect(cardImage(homeCard)).toBeVisible();
    await expect(homeCard).toContainText("Video");
    await page.goto(`/category/${categorySlug}`);
    const categoryCard = page.getByRole("article").filter({ has: page.getByRole("heading", { name: title }) });
    await expect(categoryCard).toHaveCount(1);
    await expect(cardImage(categoryCard)).toBeVisible();
    await page.goto(`/article/${slug}`);
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page.locator(`main img[src="${imageUrl}"]`)).toBeVisible();
    await expect(page.locator(`main img[src="${imageUrl}"]`)).toHaveAttribute("alt", "Paper lanterns along the harbour wall");
    const video = page.locator(`main video[src="${videoUrl}"]`);
    await expect(video).toBeVisible();
    await expect(video).toHaveAttribute("controls", "");
    // The browser can play it: the file is served as a video and its metadata loads.
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(1);
    expect(await video.evaluate((v: HTMLVideoElement) => v.duration)).toBeGreaterThan(0);
    const served = await page.request.get(videoUrl);
    expect(served.status()).toBe(200);
    expect(served.headers()["content-type"]).toBe("video/mp4");

    // A slug another article uses is refused with a clear message, not a database error.
    await page.goto("/admin/articles/new", { waitUntil: "networkidle" });
    await page.getByLabel("Title *").fill(title);
    await page.getByLabel("Content *").fill("Duplicate");
    await page.getByRole("button", { name: "Save Draft" }).click();
    await expect(page.getByText("This slug is already used by another article.").first()).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/articles\/new$/);

    // The refused values are unsaved: leaving asks first (the browser's own prompt, accepted here).
    const leaving = new Promise<string>((resolve) =>
      page.once("dialog", (dialog) => {
        resolve(dialog.type());
        void dialog.accept();
      }),
    );
    // Edit: the form is filled with the stored values; the new title shows on the article page.
    await page.goto("/admin/articles", { waitUntil: "networkidle" });
    expect(await leaving).toBe("beforeunload");
    await page.getByRole("link", { name: `Edit “${title}”` }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Edit Article" })).toBeVisible();
    await expect(page.getByLabel("Content *")).toContainText("The festival opened on Friday");
    await expect(page.getByRole("img", { name: "Featured image preview" })).toHaveAttribute("src", imageUrl);
    await expect(page.getByLabel("Alt text *")).toHaveValue("Paper lanterns along the harbour wall");
    await expect(page.getByRole("group", { name: "Video" }).locator("video")).toHaveAttribute("src", videoUrl);
    const newTitle = `${title} (updated)`;
    await page.getByLabel("Title *").fill(newTitle);
    await page.getByLabel("Slug *").fill(slug); // the slug stays editable: keep the old address
    await page.getByRole("button", { name: "Update Article" }).click();
    await expect(page).toHaveURL(/\/admin\/articles$/);
    await expect(toastWith(page, "Article updated successfully")).toBeVisible();
    await page.goto(`/article/${slug}`);
    await expect(page.getByRole("heading", { level: 1, name: newTitle })).toBeVisible();
    await expect(page.locator(`main video[src="${videoUrl}"]`)).toBeVisible();

    // Delete, after the confirmation.
    await page.goto("/admin/articles", { waitUntil: "networkidle" });
    await page.getByRole("button", { name: `Delete “${newTitle}”` }).click();
    const confirm = page.getByRole("alertdialog");
    await expect(confirm).toContainText("Are you sure you want to delete this article?");
    await confirm.getByRole("button", { name: "Delete" }).click();
    await expect(toastWith(page, "The article has been deleted successfully.")).toBeVisible();
    await expect(page.getByRole("row", { name: new RegExp(newTitle.replace(/[()]/g, "\\$&")) })).toHaveCount(0);
    expect((await page.request.get(`/article/${slug}`)).status()).toBe(404);

    // And the category goes too.
    await page.goto("/admin/categories", { waitUntil: "networkidle" });
    await page.getByRole("button", { name: `Delete ${categoryName}` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await expect(toastWith(page, "Category deleted")).toBeVisible();
    await expect(page.getByRole("row", { name: new RegExp(categoryName) })).toHaveCount(0);
  });

  test("an unknown article id returns to the list with the spec's error", async ({ page }) => {
    await page.goto("/admin/articles/edit/00000000-0000-4000-8000-000000000000");
    await expect(page).toHaveURL(/\/admin\/articles$/);
    await expect(toastWith(page, "Failed to load article")).toBeVisible();
  });

  test("a moderator deletes a comment after confirming", async ({ page }) => {
    await page.goto("/admin/comments", { waitUntil: "networkidle" });
    await expect(page.getByRole("heading", { level: 1, name: "Moderate Comments" })).toBeVisible();
    const first = page.getByRole("listitem").filter({ has: page.getByRole("button", { name: /^Delete comment by / }) }).first();
    const text = (await first.locator("p").first().textContent())!.trim();
    await first.getByRole("button", { name: /^Delete comment by / }).click();
    const confirm = page.getByRole("alertdialog", { name: "Delete Comment" });
    await expect(confirm).toContainText("Are you sure you want to delete this comment? This action cannot be undone.");
    await confirm.getByRole("button", { name: "Delete" }).click();
    await expect(toastWith(page, "The comment has been removed successfully")).toBeVisible();
    await expect(page.getByText(text, { exact: true })).toHaveCount(0);
  });
});

test("the content screens refuse anonymous visitors", async ({ browser }) => {
  const anonymous = await browser.newContext();
  const page = await anonymous.newPage();
  for (const path of ["/admin/articles", "/admin/articles/new", "/admin/categories", "/admin/comments"]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/admin\/login$/);
  }
  const response = await anonymous.request.post("/admin/categories", {
    form: { intent: "create", name: "Intruder", slug: "intruder" },
    headers: { Origin: "http://localhost" },
  });
  expect([401, 403]).toContain(response.status());
  await anonymous.close();
});
