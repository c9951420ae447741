import { expect, test } from "./fixtures";
import { accountWithRole } from "./accounts";
import { signInAsAdmin } from "./admin-session";
import { query } from "./db";
import { fillPublishingDetails, publishNow, expectStoryLive } from "./publish-panel";
import { asReader } from "./readers";

// Issue 40, the story side of the paywall, as a newsroom and a reader meet it: an admin marks a story
// Paid with "Paywall here" after its second paragraph through the editor; an anonymous reader gets
// its first two paragraphs and "Subscribe", and its third paragraph is in none of the page's HTML, its
// `.data`, the feeds, search and the JSON-LD; a signed-in editor reads it whole.

const run = Date.now().toString(36);
const FREE_1 = `The harbour council met on Tuesday night ${run}.`;
const FREE_2 = "Members argued for three hours about the ferry timetable.";
const GATED_WORD = `quixoticledger${run}`;
const GATED = `The treasurer admitted the ${GATED_WORD} had been forged.`;
const GATED_2 = "Nobody has yet explained where the zeppelin fund went.";
const title = `Harbour council ledger ${run}`;
const slug = `harbour-council-ledger-${run}`;

test.describe.configure({ mode: "serial" });

test("an admin marks a story Paid with Paywall here after its second paragraph", async ({ page }) => {
  test.slow();
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInAsAdmin(page);
  await page.goto("/admin/articles/new", { waitUntil: "networkidle" });
  await expect(page.getByRole("toolbar", { name: "Story formatting" })).toBeVisible();
  await page.getByLabel("Title *").fill(title);
  const content = page.getByLabel("Content *");
  await content.click();
  await page.keyboard.type(FREE_1);
  await page.keyboard.press("Enter");
  await page.keyboard.type(FREE_2);
  await page.keyboard.press("Enter");
  // The insert menu's "Paywall here", found by "/pay".
  await page.keyboard.type("/pay");
  const menu = page.getByRole("listbox", { name: "Insert block" });
  await expect(menu.getByRole("option")).toHaveText([/^Paywall here/]);
  await page.keyboard.press("Enter");
  await expect(content.locator("[data-paywall]")).toHaveText("Paywall here");
  await page.keyboard.type(GATED);
  await page.keyboard.press("Enter");
  await page.keyboard.type(GATED_2);

  const settings = page.getByRole("region", { name: "Story settings" });
  await settings.getByRole("radio", { name: "Paid" }).check();
  await expect(settings.getByLabel("Tier")).toHaveValue("");
  await expect(settings.getByLabel("Tier").locator("option").first()).toHaveText("Any paid tier");
  await fillPublishingDetails(page);
  await publishNow(page);
  await expectStoryLive(page);
  await expect.poll(async () => (await query<{ access: string }>("select access from articles where slug = $1", [slug]))[0]?.access).toBe("paid");
  const [row] = await query<{ free_content: string; content_doc: { content: { type: string }[] } }>("select free_content, content_doc from articles where slug = $1", [slug]);
  expect(row!.free_content).toBe(`${FREE_1}\n\n${FREE_2}`);
  expect(row!.content_doc.content.map((b) => b.type)).toEqual(["paragraph", "paragraph", "paywall", "paragraph", "paragraph"]);
});

test("an anonymous reader gets the first two paragraphs and Subscribe, and the third is in no answer", async ({ browser, request }) => {
  const path = `/article/${slug}`;
  const html = await (await request.get(path)).text();
  expect(html).toContain(FREE_2);
  expect(html).not.toContain(GATED_WORD);
  expect(html).not.toContain("zeppelin");
  const data = await (await request.get(`${path}.data`)).text();
  expect(data).toContain(FREE_2);
  expect(data).not.toContain(GATED_WORD);
  for (const feed of ["/rss.xml", "/category/news/rss.xml"]) {
    const xml = await (await request.get(feed)).text();
    expect(xml, feed).toContain(FREE_2);
    expect(xml, feed).not.toContain(GATED_WORD);
    expect(xml, feed).toContain("Subscribe to read the whole story");
  }
  const search = await (await request.get(`/search?q=${GATED_WORD}`)).text();
  expect(search).not.toContain(path);
  expect(search).not.toContain(GATED);
  // A word of its free part finds it, quoted from the free part.
  expect(await (await request.get(`/search?q=timetable+${run}`)).text()).toContain(path);

  const jsonLd = [...html.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>);
  const article = jsonLd.flat().find((block) => block["@type"] === "NewsArticle")!;
  expect(article.isAccessibleForFree).toBe(false);
  expect(article.hasPart).toEqual({ "@type": "WebPageElement", isAccessibleForFree: false, cssSelector: ".paywalled-content" });
  expect(String(article.articleBody)).toContain(FREE_2);
  expect(JSON.stringify(jsonLd)).not.toContain(GATED_WORD);

  await asReader(browser, async (page) => {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(path, { waitUntil: "networkidle" });
      const box = page.locator(".paywalled-content");
      await expect(box.getByRole("heading", { name: "This story is for paying subscribers. Subscribe to keep reading." })).toBeVisible();
      await expect(box.getByRole("link", { name: "Subscribe" })).toHaveAttribute("href", "/subscribe");
      await expect(box.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", `/account/sign-in?next=${encodeURIComponent(path)}`);
      await expect(page.getByText(GATED_WORD)).toHaveCount(0);
      await box.scrollIntoViewIfNeeded();
      const shot = await page.screenshot({ fullPage: width === 390, path: test.info().outputPath(`paywall-teaser-${width}.png`) });
      await test.info().attach(`paywall-teaser-${width}`, { body: shot, contentType: "image/png" });
    }
  });
});

test("a signed-in editor reads the whole story, its paid part marked for the JSON-LD", async ({ baseURL }) => {
  const editor = await accountWithRole(baseURL, "paywall-editor", "editor");
  try {
    const html = await (await editor.context.get(`/article/${slug}`)).text();
    expect(html).toContain(GATED_WORD);
    expect(html).toMatch(new RegExp(`<div class="paywalled-content"><p>${GATED.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}</p>`));
    expect(html).not.toContain('data-testid="paywall"');
  } finally {
    await editor.context.dispose();
  }
});
