import sharp from "sharp";
import { expect, test, type Page } from "./fixtures";
import { signInAsAdmin, toastWith } from "./admin-session";
import { query } from "./db";

/** The media card (a list item of the grid) that shows `fileName`. */
const card = (page: Page, fileName: string) => page.getByRole("listitem").filter({ hasText: fileName });

/** A white picture with its subject, a red square, in the lower-right corner. */
const cornerImage = () =>
  sharp({ create: { width: 1200, height: 800, channels: 3, background: "#ffffff" } })
    .composite([{ input: { create: { width: 200, height: 200, channels: 3, background: "#ff0000" } }, left: 1000, top: 600 }])
    .png()
    .toBuffer();

const ogImage = (page: Page) => page.locator('meta[property="og:image"]').getAttribute("content");

test.describe("focal points and the search and social preview (issue 41)", () => {
  test.beforeEach(async ({ page }) => {
    await signInAsAdmin(page);
  });

  test("a focal point clicked at the lower right is saved, reaches the story's crops, and the desk's SEO title becomes the page's title", async ({ page }) => {
    test.slow();
    const run = Date.now().toString(36);
    const imageName = `corner-${run}.png`;
    await page.goto("/admin/media", { waitUntil: "networkidle" });
    await page.getByLabel("Select image (JPEG, PNG, GIF, WebP - Max 10MB)").setInputFiles({ name: imageName, mimeType: "image/png", buffer: await cornerImage() });
    await expect(card(page, imageName)).toBeVisible();

    // Click the subject in the lower right; the arrow keys move the point 5% a press.
    await card(page, imageName).getByRole("button", { name: `Set focal point of ${imageName}` }).click();
    const dialog = page.getByRole("dialog", { name: "Set focal point" });
    const picker = dialog.getByTestId("focal-point-picker");
    await expect(picker).toHaveAccessibleName(/the centre/);
    await expect(dialog.getByTestId("focal-preview-1x1")).toHaveCSS("object-position", "50% 50%");
    const box = (await picker.locator("img").boundingBox())!;
    await picker.click({ position: { x: box.width * 0.9, y: box.height * 0.9 } });
    await expect(dialog.getByText("Focal point: 90% across, 90% down")).toBeVisible();
    await picker.press("ArrowLeft");
    await expect(dialog.getByText("Focal point: 85% across, 90% down")).toBeVisible();
    await picker.press("ArrowRight");
    await expect(picker).toHaveAccessibleName(`Focal point of ${imageName}: 90% across, 90% down. Click the subject, or use the arrow keys.`);
    // The crops' previews show what readers will see.
    await expect(dialog.getByTestId("focal-preview-1x1")).toHaveCSS("object-position", "90% 90%");
    await dialog.getByRole("button", { name: "Save focal point" }).click();
    await expect(toastWith(page, "Focal point saved")).toBeVisible();
    await expect(dialog).toBeHidden();

    const [row] = await query<{ focal_x: number; focal_y: number }>("select focal_x, focal_y from media where original_name = $1", [imageName]);
    expect(row!.focal_x).toBeCloseTo(0.9, 2);
    expect(row!.focal_y).toBeCloseTo(0.9, 2);

    // A story with the image as its featured image takes its point.
    const title = `Corner story ${run}`;
    await card(page, imageName).getByRole("button", { name: "Publish", exact: true }).click();
    const publish = page.getByRole("dialog", { name: "Publish Article with Media" });
    await publish.getByLabel("Title *").fill(title);
    await publish.getByLabel("Category").selectOption({ label: "News" });
    await publish.getByLabel("Excerpt").fill("The subject sits in the corner.");
    await publish.getByLabel("Content *").fill("A story whose picture has its subject in the lower right.");
    await publish.getByLabel("Alt text *").fill("A red square in the corner of a white picture");
    await publish.getByRole("button", { name: "Publish Article" }).click();
    await expect(publish).toBeHidden();
    const [article] = await query<{ id: string; slug: string; featured_image_focal_x: number; featured_image_focal_y: number }>(
      "select id, slug, featured_image_focal_x, featured_image_focal_y from articles where title = $1",
      [title],
    );
    expect(article!.featured_image_focal_x).toBeCloseTo(0.9, 2);

    // The story's social image is its 16:9 crop around the point, and that crop keeps the corner.
    await page.goto(`/article/${article!.slug}`);
    const shared = new URL((await ogImage(page))!);
    expect(shared.searchParams.get("crop")).toBe("16x9");
    expect(Number(shared.searchParams.get("fx"))).toBeCloseTo(0.9, 2);
    expect(Number(shared.searchParams.get("fy"))).toBeCloseTo(0.9, 2);
    const crop = await page.request.get(shared.pathname + shared.search);
    expect(crop.headers()["content-type"]).toBe("image/webp");
    const { data, info } = await sharp(await crop.body()).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => {
      const i = (Math.floor(y * info.height) * info.width + Math.floor(x * info.width)) * info.channels;
      return { red: data[i]!, green: data[i + 1]! };
    };
    // 1200×800 scaled to cover 1200×675 stays 1200×800: the window is its lowest 675 rows, where the square is.
    expect(pixel(0.95, 0.95).red).toBeGreaterThan(200);
    expect(pixel(0.95, 0.95).green).toBeLessThan(60);

    // Moving the point again moves the story's crops with it (the page cache drops the page).
    await page.goto("/admin/media", { waitUntil: "networkidle" });
    await card(page, imageName).getByRole("button", { name: `Set focal point of ${imageName}` }).click();
    await expect(dialog.getByText("Focal point: 90% across, 90% down")).toBeVisible();
    await dialog.getByRole("button", { name: "Centre" }).click();
    await expect(dialog.getByText("Focal point: the centre")).toBeVisible();
    await dialog.getByRole("button", { name: "Save focal point" }).click();
    await expect(toastWith(page, "Its story shows it at once")).toBeVisible();
    await expect
      .poll(async () => {
        await page.goto(`/article/${article!.slug}`);
        return ogImage(page);
      })
      .toMatch(/\?crop=16x9$/);

    // The settings' preview follows the SEO title as it is typed; saved, it is the page's title, not its headline.
    await page.goto(`/admin/articles/edit/${article!.id}`, { waitUntil: "networkidle" });
    const preview = page.getByTestId("search-preview-title");
    await expect(preview).toHaveText(new RegExp(`^${title}`));
    await page.getByLabel("SEO title").fill("Red corner: the subject stays in frame");
    await expect(preview).toHaveText(/^Red corner: the subject stays in frame/);
    await expect(page.getByTestId("social-preview-title")).toHaveText("Red corner: the subject stays in frame");
    await expect(page.getByText("38/70 characters")).toBeVisible();
    await page.getByLabel("SEO description").fill("Why the crops keep the red square.");
    await expect(page.getByTestId("search-preview-description")).toHaveText("Why the crops keep the red square.");
    await page.getByRole("button", { name: "Update Article" }).click();
    await expect(toastWith(page, "Article updated successfully")).toBeVisible();
    const [saved] = await query<{ seo_title: string; seo_description: string }>("select seo_title, seo_description from articles where id = $1", [article!.id]);
    expect(saved).toEqual({ seo_title: "Red corner: the subject stays in frame", seo_description: "Why the crops keep the red square." });

    await page.goto(`/article/${article!.slug}`);
    await expect(page).toHaveTitle(/^Red corner: the subject stays in frame \| /);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", "Red corner: the subject stays in frame");
    await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", "Why the crops keep the red square.");
  });

  test("a focal point outside the image, or half of one, is refused with a clear message and changes nothing", async ({ page }) => {
    const [image] = await query<{ name: string }>("select name from media where bucket = 'images' and content_type = 'image/png' and source <> 'comment' limit 1");
    test.skip(!image, "needs an image in the library");
    await page.goto("/admin/media", { waitUntil: "networkidle" });
    const before = await query("select focal_x, focal_y from media where name = $1", [image!.name]);
    for (const [focalX, focalY] of [
      ["1.5", "0.5"],
      ["0.5", ""],
      ["abc", "0.2"],
    ]) {
      const answer = await page.request.post("/admin/media", {
        form: { intent: "focal-point", bucket: "images", name: image!.name, focalX: focalX!, focalY: focalY! },
        headers: { Origin: new URL(page.url()).origin },
      });
      expect(answer.status()).toBe(400);
      expect(await answer.text()).toContain("The focal point must be two numbers from 0 to 1");
    }
    expect(await query("select focal_x, focal_y from media where name = $1", [image!.name])).toEqual(before);
  });
});
