import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "./fixtures";
import { signInAsAdmin, toastWith } from "./admin-session";
import { query } from "./db";
import { fillPublishingDetails, publishNow, expectStoryLive } from "./publish-panel";

// Issue 9: the featured image's alt text, caption and credit, and click-to-load embeds (no request
// to YouTube or X before the reader's click, and a readable story without JavaScript).

// A valid 1×1 PNG: uploads are checked from their bytes, so it has to be a real image.
const PNG_1PX = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

const ALT = "Ferry passengers waving from the upper deck";
const CAPTION = "The first night crossing in three years";
const CREDIT = "Ana Photo";
const VIDEO = "https://www.youtube.com/watch?v=dQw4w9WgXcQ";
const POST = "https://x.com/frontpage/status/1234567890";
const THIRD_PARTY = /youtube|ytimg|googlevideo|twitter|twimg|x\.com/;

/** Where the story's embeds would load from: every request of the page, by URL. */
function recordRequests(page: Page) {
  const urls: string[] = [];
  page.on("request", (request) => urls.push(request.url()));
  return urls;
}

async function embed(page: Page, address: string) {
  await page.getByRole("button", { name: "Embed video or post" }).click();
  const dialog = page.getByRole("dialog", { name: "Embed a video or post" });
  await dialog.getByLabel("YouTube or X address").fill(address);
  await dialog.getByRole("button", { name: "Embed", exact: true }).click();
  await expect(dialog).toBeHidden();
}

let slug = "";

test.describe.configure({ mode: "serial" });

test.describe("featured image texts and click-to-load embeds", () => {
  test("an image needs alt text; with caption and credit the article page shows a figure, and embeds load nothing before a click", async ({
    page,
  }) => {
    test.slow();
    await signInAsAdmin(page);
    const run = Date.now().toString(36);
    const title = `Night ferry figure ${run}`;
    slug = `night-ferry-figure-${run}`;
    await page.goto("/admin/articles/new", { waitUntil: "networkidle" });
    await expect(page.getByRole("toolbar", { name: "Story formatting" })).toBeVisible();
    await page.getByLabel("Title *").fill(title);
    const content = page.getByLabel("Content *");
    await content.click();
    await page.keyboard.type("The night ferry is back on the harbour route.");
    await page.keyboard.press("Enter");
    await embed(page, "https://youtu.be/dQw4w9WgXcQ");
    await content.press("Control+End");
    await embed(page, POST);
    await content.press("Control+End");
    await page.keyboard.type("Tickets are on sale at the quay.");

    // No alt text field before there is an image; with one, it is required and says why.
    await expect(page.getByLabel("Alt text *")).toHaveCount(0);
    await page.getByLabel("Upload Image").setInputFiles({ name: "ferry.png", mimeType: "image/png", buffer: PNG_1PX });
    await expect(toastWith(page, "Featured image uploaded successfully")).toBeVisible();
    const imageUrl = (await page.getByRole("img", { name: "Featured image preview" }).getAttribute("src"))!;
    const alt = page.getByLabel("Alt text *");
    await expect(alt).toHaveAccessibleDescription(
      "Describes the image for readers who cannot see it (screen readers, slow connections). Required with an image.",
    );
    // The browser's check: refused without a round trip, the field marked and focused (even for a draft).
    await page.getByRole("button", { name: "Save Draft" }).click();
    await expect(toastWith(page, "Alt text is required with an image")).toBeVisible();
    await expect(alt).toBeFocused();
    await expect(alt).toHaveAttribute("aria-invalid", "true");
    await expect(page).toHaveURL(/\/admin\/articles\/new$/);

    // The server's rule, whatever the browser does: 400 on the alt field, nothing saved.
    const refused = await page.request.post("/admin/articles/new", {
      headers: { Origin: new URL(page.url()).origin },
      form: { title: `${title} refused`, slug: `${slug}-refused`, content: "x", featuredImage: imageUrl, featuredImageAlt: " " },
    });
    expect(refused.status()).toBe(400);
    expect(await query("select 1 from articles where slug = $1", [`${slug}-refused`])).toEqual([]);

    await alt.fill(ALT);
    await page.getByLabel("Caption").fill(CAPTION);
    await page.getByLabel("Credit").fill(CREDIT);
    await fillPublishingDetails(page);
    await publishNow(page);
    await expectStoryLive(page);
    const [stored] = await query<{ featured_image_alt: string; featured_image_caption: string; featured_image_credit: string }>(
      "select featured_image_alt, featured_image_caption, featured_image_credit from articles where slug = $1",
      [slug],
    );
    expect(stored).toEqual({ featured_image_alt: ALT, featured_image_caption: CAPTION, featured_image_credit: CREDIT });

    // The reader's page: the figure with its alt text and caption, the embeds as placeholders.
    const requests = recordRequests(page);
    await page.goto(`/article/${slug}`, { waitUntil: "networkidle" });
    const figure = page.locator("figure.featured-figure");
    await expect(figure.getByRole("img", { name: ALT })).toHaveAttribute("src", imageUrl);
    await expect(figure.locator("figcaption")).toHaveText(`${CAPTION} — Photo: ${CREDIT}`);
    const youtube = page.locator('.story-embed[data-provider="youtube"]');
    const post = page.locator('.story-embed[data-provider="x"]');
    await expect(youtube.getByRole("link", { name: /Watch on YouTube/ })).toHaveAttribute("href", VIDEO);
    await expect(post.getByRole("link", { name: /Open the post on X/ })).toHaveAttribute("href", POST);
    await youtube.scrollIntoViewIfNeeded();
    await post.scrollIntoViewIfNeeded();
    const youtubeFrame = page.frameLocator('.story-embed[data-provider="youtube"] iframe');
    const play = youtubeFrame.getByRole("link", { name: /Play video/ });
    await expect(play).toBeVisible();
    await expect(youtubeFrame.locator("body")).toContainText("YouTube video");
    await expect(page.frameLocator('.story-embed[data-provider="x"] iframe').getByRole("link", { name: /Show post/ })).toBeVisible();
    await expect(youtube.locator("iframe")).toHaveAttribute("title", /YouTube video/);
    await expect(page.locator(".story-embed iframe[src]")).toHaveCount(0);
    await expect(page.locator("script[src*=youtube], script[src*=twitter]")).toHaveCount(0);
    expect(requests.filter((url) => THIRD_PARTY.test(url))).toEqual([]);
    const policy = (await page.request.get(`/article/${slug}`)).headers()["content-security-policy"] ?? "";
    expect(policy.split(";").find((directive) => directive.startsWith("frame-src"))).toBe(
      "frame-src 'self' https://www.youtube-nocookie.com https://platform.twitter.com",
    );
    const axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations.map((v) => ({ rule: v.id, targets: v.nodes.map((n) => n.target.join(" ")) }))).toEqual([]);

    // Screenshots for review (390 px and 1280 px): the figure and a placeholder.
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await figure.screenshot({ path: `/tmp/figures/figure-${width}.png` });
      await youtube.screenshot({ path: `/tmp/figures/embed-youtube-${width}.png` });
      await post.screenshot({ path: `/tmp/figures/embed-x-${width}.png` });
    }

    // The click loads the privacy-enhanced player in the frame itself (answered here: no network in tests).
    await page.route("https://www.youtube-nocookie.com/**", (route) =>
      route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>player</title><p>The player</p>" }),
    );
    await play.click();
    await expect(youtubeFrame.getByText("The player")).toBeVisible();
    expect(requests.filter((url) => THIRD_PARTY.test(url))).toEqual(["https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1"]);
    expect(page.url()).toMatch(new RegExp(`/article/${slug}$`));
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the story is readable, the figure has its caption, and each embed has its plain link", async ({ page }) => {
      expect(slug, "the first test created the article").not.toBe("");
      const requests = recordRequests(page);
      await page.goto(`/article/${slug}`);
      await expect(page.locator(".story-body")).toContainText("The night ferry is back on the harbour route.");
      await expect(page.locator(".story-body")).toContainText("Tickets are on sale at the quay.");
      await expect(page.getByRole("img", { name: ALT })).toBeVisible();
      await expect(page.locator("figure.featured-figure").locator("figcaption")).toHaveText(`${CAPTION} — Photo: ${CREDIT}`);
      await expect(page.getByRole("link", { name: /Watch on YouTube/ })).toHaveAttribute("href", VIDEO);
      await expect(page.getByRole("link", { name: /Open the post on X/ })).toHaveAttribute("href", POST);
      // The placeholder needs no script either: it is our HTML in the frame, its play link a plain link.
      await page.locator('.story-embed[data-provider="youtube"]').scrollIntoViewIfNeeded();
      await expect(page.frameLocator('.story-embed[data-provider="youtube"] iframe').getByRole("link", { name: /Play video/ })).toHaveAttribute(
        "href",
        "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1",
      );
      expect(requests.filter((url) => THIRD_PARTY.test(url))).toEqual([]);
      await page.setViewportSize({ width: 390, height: 900 });
      await page.screenshot({ path: "/tmp/figures/article-nojs-390.png", fullPage: true });
    });
  });
});
