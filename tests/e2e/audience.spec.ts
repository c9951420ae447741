import AxeBuilder from "@axe-core/playwright";
import { request as playwrightRequest, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { accountWithRole } from "./accounts";
import { signInAsAdmin } from "./admin-session";
import { categoryId, query } from "./db";
import { expect, expectNoSidewaysScroll, test, waitForHydration } from "./fixtures";

// Audience analytics as the newsroom sees it (issue 42): loads counted at the door show up on
// /admin/audience (and live in "Right now"), utm tags as campaigns, a browser's reading as read-to-end
// and engaged time on the story's report; an author sees their own stories only.

/** Three readers' browsers (isbot counts HeadlessChrome as a bot, rightly). */
const AGENTS = [
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15",
];
const REFERRERS = ["https://www.google.com/", "https://t.co/Ab12Cd34", null];

const run = Date.now().toString(36);
let author: { email: string; password: string; state: Awaited<ReturnType<BrowserContext["storageState"]>> };
const stories = { loads: `audience-loads-${run}`, reading: `audience-reading-${run}` };
const ids = {} as { loads: string; reading: string; others: string };

/** A story of `authorId` with enough text to scroll through. */
async function insertStory(slug: string, title: string, authorId: string): Promise<string> {
  const body = Array.from({ length: 60 }, (_, i) => `Paragraph ${i + 1} of a story long enough to be read to its end, one screen at a time.`).join("\n\n");
  const [row] = await query<{ id: string }>(
    `insert into articles (title, slug, content, category_id, status, published_at) values ($1, $2, $3, $4, 'published', now() - interval '2 minutes') returning id`,
    [title, slug, body, await categoryId("news")],
  );
  await query(`insert into article_authors (article_id, author_id, position) values ($1, $2, 0)`, [row!.id, authorId]);
  return row!.id;
}

async function asAuthor(browser: Browser, viewport = { width: 1280, height: 900 }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ storageState: author.state, viewport });
  return { context, page: await context.newPage() };
}

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ baseURL }) => {
  const account = await accountWithRole(baseURL, "audience-author", "author");
  const [user] = await query<{ id: string }>(`select id from "user" where email = $1`, [account.email]);
  const [record] = await query<{ id: string }>(`insert into authors (name, slug, user_id) values ($1, $2, $3) returning id`, [`Audience Author ${run}`, `audience-author-${run}`, user!.id]);
  ids.loads = await insertStory(stories.loads, `Thirty loads ${run}`, record!.id);
  ids.reading = await insertStory(stories.reading, `Read to the end ${run}`, record!.id);
  const [others] = await query<{ id: string }>(
    `select a.id from articles a where a.status = 'published' and a.id not in ($1, $2) and coalesce(a.created_by_id, '') <> $3 order by a.published_at desc limit 1`,
    [ids.loads, ids.reading, user!.id],
  );
  ids.others = others!.id;
  author = { email: account.email, password: account.password, state: await account.context.storageState() };
  await account.context.dispose();
});

test("30 loads from 3 browsers (search, social, direct) show as 3 visitors and 30 views, the three sources and the story on top; Right now shows them live", async ({ browser, baseURL }) => {
  const { context, page } = await asAuthor(browser);
  // The screen is open first: "Right now" must change without a reload.
  await page.goto("/admin/audience");
  await waitForHydration(page.locator("body"));
  const rightNow = page.getByTestId("right-now");
  await expect(page.getByTestId("right-now-visitors")).toHaveText("0");

  for (let i = 0; i < AGENTS.length; i++) {
    const reader = await playwrightRequest.newContext({ baseURL, userAgent: AGENTS[i], extraHTTPHeaders: REFERRERS[i] ? { referer: REFERRERS[i]! } : {} });
    for (let n = 0; n < 10; n++) expect((await reader.get(`/article/${stories.loads}`)).status()).toBe(200);
    await reader.dispose();
  }

  await expect(page.getByTestId("right-now-visitors")).toHaveText("3", { timeout: 10_000 });
  await expect(rightNow.getByRole("link", { name: `Thirty loads ${run}` })).toBeVisible();
  await expect(page.getByTestId("right-now-sources")).toContainText("Search");
  await expect(page.getByTestId("right-now-sources")).toContainText("Social");
  await expect(page.getByTestId("right-now-sources")).toContainText("Direct");

  // The author's own figures (their stories only): exactly these loads.
  await page.reload();
  await expect(page.getByTestId("audience-visitors")).toHaveText("3");
  await expect(page.getByTestId("audience-views")).toHaveText("30");
  const top = page.getByRole("region", { name: "Top stories" }).getByRole("row").nth(1);
  await expect(top.getByRole("rowheader")).toHaveText(`Thirty loads ${run}`);
  await expect(top.getByRole("cell").nth(1)).toHaveText("30");
  await expect(top.getByRole("cell").nth(2)).toHaveText("3");
  const sources = page.getByRole("region", { name: "Top sources" });
  for (const [source, host] of [
    ["Search", /^(www\.)?google\.com$/],
    ["Social", /^t\.co$/],
    ["Direct", /^—$/],
  ] as const) {
    const row = sources.getByRole("row").filter({ has: page.getByRole("rowheader", { name: source }) });
    await expect(row.getByRole("cell").first()).toHaveText(host);
    await expect(row.getByRole("cell").nth(1)).toHaveText("10");
  }
  await context.close();
});

// The whole site, as an editor or admin sees it: the story's row holds the same figures and links to its report.
test("an admin sees the story among the site's top stories and opens its report from there", async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto("/admin/audience?period=today");
  const row = page.getByRole("region", { name: "Top stories" }).getByRole("row").filter({ hasText: `Thirty loads ${run}` });
  await expect(row.getByRole("cell").nth(1)).toHaveText("30");
  await expect(row.getByRole("cell").nth(2)).toHaveText("3");
  await row.getByRole("link", { name: `Thirty loads ${run}` }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/audience/story/${ids.loads}$`));
  await expect(page.getByTestId("story-views")).toHaveText("30");
  await expect(page.getByTestId("story-visitors")).toHaveText("3");
});

test("a link with utm_source=newsletter&utm_campaign=morning is counted under that campaign", async ({ baseURL, browser }) => {
  const reader = await playwrightRequest.newContext({ baseURL, userAgent: AGENTS[0] });
  expect((await reader.get(`/article/${stories.reading}?utm_source=newsletter&utm_campaign=morning`)).status()).toBe(200);
  await reader.dispose();
  const { context, page } = await asAuthor(browser);
  await expect(async () => {
    await page.goto(`/admin/audience/story/${ids.reading}?period=today`);
    const campaign = page.getByRole("region", { name: "The story's campaigns (utm tags)" }).getByRole("row").filter({ has: page.getByRole("rowheader", { name: "morning" }) });
    await expect(campaign.getByRole("cell").first()).toHaveText("newsletter", { timeout: 1_000 });
    await expect(campaign.getByRole("cell").nth(2)).toHaveText("1", { timeout: 1_000 });
  }).toPass({ timeout: 10_000 });
  await context.close();
});

test("an author opens their own story's report; another's report and a crafted export of it are 403", async ({ browser }) => {
  const { context, page } = await asAuthor(browser);
  expect((await page.goto(`/admin/audience/story/${ids.loads}`))?.status()).toBe(200);
  expect((await page.goto(`/admin/audience/story/${ids.others}`))?.status()).toBe(403);
  await expect(page.getByRole("heading", { name: "You don't have access to this page" })).toBeVisible();
  expect((await page.request.get(`/admin/audience/export?story=${ids.others}&table=sources&period=30d`)).status()).toBe(403);
  const own = await page.request.get(`/admin/audience/export?story=${ids.loads}&table=sources&period=today`);
  expect(own.status()).toBe(200);
  expect(own.headers()["content-type"]).toContain("text/csv");
  expect(own.headers()["content-disposition"]).toMatch(new RegExp(`filename="audience-${stories.loads}-sources-\\d{4}-\\d{2}-\\d{2}\\.csv"`));
  expect(await own.text()).toMatch(/^search,(www\.)?google\.com,10,1\r$/m);
  await context.close();
});

test("a browser reading a story to its end shows a read-to-end count of 1 and an engaged time on the story's report", async ({ browser }) => {
  const readerContext = await browser.newContext({ userAgent: AGENTS[2], viewport: { width: 1280, height: 800 } });
  const reader = await readerContext.newPage();
  await reader.goto(`/article/${stories.reading}`);
  await waitForHydration(reader.locator("body"));
  // Read it one screen at a time, to its last paragraph, and stay a few seconds.
  for (let i = 0; i < 30; i++) {
    await reader.mouse.wheel(0, 600);
    await reader.waitForTimeout(150);
  }
  await reader.getByText("Paragraph 60 of a story").scrollIntoViewIfNeeded();
  await reader.waitForTimeout(3_000);
  // Leaving the page hides it: the page's script sends its last report with sendBeacon.
  await reader.goto("about:blank");
  await readerContext.close();

  const { context, page } = await asAuthor(browser);
  await expect(async () => {
    await page.goto(`/admin/audience/story/${ids.reading}?period=today`);
    await expect(page.getByTestId("story-read-to-end")).toHaveText("1 (100%)", { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await expect(page.getByTestId("story-engaged")).toHaveText(/^\d+ s$|^\d+ min/);
  await expect(page.getByTestId("depth-100")).toContainText("1 (100%)");
  await context.close();
});

test("the screens at 390 and 1280 px: no sideways scroll, tables behind the charts, axe clean", async ({ page }, testInfo) => {
  // Four screens, each checked by axe and photographed whole: more than a journey's minute on two busy cores.
  test.setTimeout(180_000);
  await signInAsAdmin(page);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    for (const path of ["/admin/audience?period=7d", `/admin/audience/story/${ids.loads}`]) {
      await page.goto(path);
      await waitForHydration(page.locator("body"));
      await expectNoSidewaysScroll(page, `${path} at ${width} px`);
      await page.getByText("Show as table").click();
      await expect(page.getByRole("table", { name: /as a table/ })).toBeVisible();
      const violations = (await new AxeBuilder({ page }).analyze()).violations.map((v) => ({ rule: v.id, targets: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) }));
      expect(violations, `${path} at ${width} px`).toEqual([]);
      await page.screenshot({ path: testInfo.outputPath(`${path.includes("story") ? "story" : "audience"}-${width}.png`), fullPage: true });
    }
  }
  // A chosen range the wrong way round: the field's message, status 400, nothing else.
  const response = await page.goto("/admin/audience?period=range&from=2026-11-10&to=2026-11-01");
  expect(response?.status()).toBe(400);
  await expect(page.locator("#range-to-error")).toHaveText(/\w/);
  await expect(page.getByLabel("To")).toHaveAttribute("aria-invalid", "true");
});

test.afterAll(async () => {
  await query(`delete from articles where slug in ($1, $2)`, [stories.loads, stories.reading]);
});
