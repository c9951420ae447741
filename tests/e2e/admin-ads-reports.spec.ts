import { readFile } from "node:fs/promises";
import { signInAsAdmin } from "./admin-session";
import { query } from "./db";
import { expect, expectNoSidewaysScroll, test, waitForHydration } from "./fixtures";

// The ads reports as the newsroom uses them (issue 43): a campaign's report (totals, goal and pace,
// by day, by creative, the CSV), and the advertiser's printable report, on a desk and on a phone,
// and on paper without the back office's chrome.

const run = Date.now().toString(36);
const ids = {} as { advertiser: string; campaign: string };
const SHOTS = process.env.ADS_SHOTS_DIR;

async function shoot(page: import("@playwright/test").Page, name: string) {
  const body = await page.screenshot({ fullPage: true, ...(SHOTS ? { path: `${SHOTS}/${name}.png` } : {}) });
  await test.info().attach(name, { body, contentType: "image/png" });
}

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  // Dates on the site's clock (ad_days.day is a site day): the campaign runs from 6 days ago to 3 days ahead (10 days).
  const today = `(now() at time zone 'America/New_York')::date`;
  const [advertiser] = await query<{ id: string }>(`insert into advertisers (name, contact_name, contact_email) values ($1, 'Sam Quay', 'sam@garage.example') returning id`, [
    `Quay Garage ${run}`,
  ]);
  const [campaign] = await query<{ id: string }>(
    `insert into ad_campaigns (advertiser_id, name, starts_on, ends_on, slots, impression_goal) values ($1, $2, ${today} - 6, ${today} + 3, '{article,home-top}', 1000) returning id`,
    [advertiser!.id, `Spring sale ${run}`],
  );
  const creatives = await query<{ id: string }>(
    `insert into ad_creatives (campaign_id, size, kind, headline, body, link_url, archived) values
       ($1, 'box', 'text', 'Ten percent off every service', 'This week only', 'https://garage.example/', false),
       ($1, 'banner', 'text', 'Winter tyres fitted', '', 'https://garage.example/tyres', true)
     returning id`,
    [campaign!.id],
  );
  // 6 days ago: 300 served, 120 seen, 6 clicks; 2 days ago: 100 served but 150 "seen" (forged beacons: counts 100); today: 100, 40, 2. Viewable in all: 80 + 40 + 100 + 40.
  await query(
    `insert into ad_days (day, campaign_id, creative_id, slot, impressions, viewable, clicks) values
       (${today} - 6, $1, $2, 'article', 200, 80, 4),
       (${today} - 6, $1, $3, 'home-top', 100, 40, 2),
       (${today} - 2, $1, $2, 'article', 100, 150, 0),
       (${today}, $1, $2, 'article', 100, 40, 2)`,
    [campaign!.id, creatives[0]!.id, creatives[1]!.id],
  );
  ids.advertiser = advertiser!.id;
  ids.campaign = campaign!.id;
});

// The campaign runs today on every article and the home page: paused once the file is done, so the
// journeys after it (the front page's "no empty box when no ad is set") see no ad of it.
test.afterAll(async () => {
  if (ids.campaign) await query("update ad_campaigns set paused = true where id = $1", [ids.campaign]);
});

test("a campaign's report shows its totals, its goal behind pace, every day, its creatives, and downloads its CSV; it fits a phone", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInAsAdmin(page);
  await page.goto(`/admin/ads/campaigns/${ids.campaign}/report`);
  await waitForHydration(page.locator("body"));
  await expect(page.getByRole("heading", { level: 1, name: `Report: Spring sale ${run}` })).toBeVisible();
  await expect(page.getByTestId("campaign-impressions")).toHaveText("500");
  await expect(page.getByTestId("campaign-viewable")).toHaveText("260");
  await expect(page.getByText("52.0% viewability")).toBeVisible();
  await expect(page.getByTestId("campaign-clicks")).toHaveText("8");
  await expect(page.getByTestId("campaign-ctr")).toHaveText("1.60%");
  // 500 of 1000 on day 7 of 10: an even pace expects 700.
  await expect(page.getByTestId("goal-progress")).toHaveText("500 of 1,000 (50%)");
  await expect(page.getByTestId("goal-pace")).toHaveText("Behind pace: 700 expected by today");
  // Seven days, zeros included, and the total.
  const days = page.getByRole("region", { name: "The campaign's figures by day" }).locator("tbody tr");
  await expect(days).toHaveCount(8);
  await expect(days.nth(1)).toContainText("0");
  await expect(days.last()).toContainText("500");
  const creatives = page.getByRole("region", { name: "The campaign's figures by creative" });
  await expect(creatives.getByRole("row", { name: /Ten percent off every service/ })).toContainText("400");
  await expect(creatives.getByRole("row", { name: /Winter tyres fitted/ })).toContainText("Archived");
  await expect(page.getByTestId("ad-report-chart")).toBeVisible();
  await shoot(page, "ads-campaign-report-1280");

  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download CSV" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(new RegExp(`^ads-quay-garage-${run}-spring-sale-${run}-\\d{4}-\\d{2}-\\d{2}-to-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
  const csv = (await readFile((await file.path())!, "utf8")).split("\r\n");
  expect(csv[0]).toBe("date,campaign,advertiser,creative,slot,impressions,viewable,clicks,ctr_percent");
  expect(csv.filter(Boolean)).toHaveLength(5);
  expect(csv.some((line) => line.endsWith(",article,100,100,0,0"))).toBe(true);

  // A period that ends before it starts: refused with the reason, nothing else shown.
  const refused = await page.goto(`/admin/ads/campaigns/${ids.campaign}/report?from=2026-11-10&to=2026-11-01`);
  expect(refused?.status()).toBe(400);
  await expect(page.getByRole("alert")).toContainText("The period ends before it starts");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/admin/ads/campaigns/${ids.campaign}/report`);
  await expect(page.getByTestId("campaign-impressions")).toHaveText("500");
  await expectNoSidewaysScroll(page, "campaign report at 390 px");
  await shoot(page, "ads-campaign-report-390");
});

test("the advertiser's printable report names the newsroom, the period and each campaign, and prints without the back office's chrome", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInAsAdmin(page);
  await page.goto(`/admin/ads/advertisers/${ids.advertiser}/report`);
  await waitForHydration(page.locator("body"));
  const report = page.getByTestId("advertiser-report");
  await expect(report.getByRole("heading", { name: `Advertising report: Quay Garage ${run}` })).toBeVisible();
  const [settings] = await query<{ site_name: string }>(`select site_name from website_settings limit 1`);
  await expect(page.getByTestId("report-newsroom")).toHaveText(settings!.site_name);
  await expect(page.getByTestId("report-period")).toContainText("(30 days)");
  await expect(page.getByTestId("advertiser-impressions")).toHaveText("500");
  await expect(page.getByTestId("report-campaign")).toHaveCount(1);
  await expect(report.getByRole("heading", { name: `Spring sale ${run}` })).toBeVisible();
  await expect(page.getByRole("button", { name: "Print" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Admin" })).toBeVisible();
  await shoot(page, "ads-advertiser-report-1280");

  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("navigation", { name: "Admin" })).toBeHidden();
  await expect(page.locator("aside")).toBeHidden();
  await expect(page.getByRole("form", { name: "Report period" })).toBeHidden();
  await expect(page.getByRole("button", { name: "Print" })).toBeHidden();
  await expect(report.getByRole("heading", { name: `Advertising report: Quay Garage ${run}` })).toBeVisible();
  await shoot(page, "ads-advertiser-report-print");
  await page.emulateMedia({ media: "screen" });

  // The period form: one day with nothing counted.
  await page.getByLabel("From", { exact: true }).fill("2026-01-01");
  await page.getByLabel("To", { exact: true }).fill("2026-01-01");
  await page.getByRole("button", { name: "Show period" }).click();
  await expect(page).toHaveURL(/from=2026-01-01&to=2026-01-01/);
  await expect(page.getByTestId("report-period")).toHaveText("Jan 1, 2026 (1 day)");
  await expect(page.getByText("No campaign of this advertiser ran in this period.")).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/admin/ads/advertisers/${ids.advertiser}/report`);
  await expect(page.getByTestId("advertiser-impressions")).toHaveText("500");
  await expectNoSidewaysScroll(page, "advertiser report at 390 px");
  await shoot(page, "ads-advertiser-report-390");
});
