import AxeBuilder from "@axe-core/playwright";
import type { BrowserContext, Page } from "@playwright/test";
import { expect, test, waitForHydration } from "./fixtures";
import { signInAsAdmin, toastWith } from "./admin-session";
import { query } from "./db";

// Issue 43: the ad network (AdSense) loads only after the reader's consent where the site asks for it,
// through the site's own banner; the choice lives in the browser, so cached pages stay the same for all.
const CLIENT_ID = "ca-pub-1234567890123456";
const NETWORK = /googlesyndication\.com/;
const BANNER = { name: "Ads and cookies." };

/** Every request leaving the site is refused and recorded (the test never reaches Google). */
async function recordOutside(context: BrowserContext, baseURL: string): Promise<string[]> {
  const outside: string[] = [];
  const origin = new URL(baseURL).origin;
  await context.route(
    (url) => url.origin !== origin,
    (route) => {
      outside.push(route.request().url());
      return route.abort();
    },
  );
  return outside;
}

/** Sets the two settings in the database and waits until reader pages show them (the change notice clears the page cache). */
async function setAds(page: Page, clientId: string | null, consentRequired: boolean) {
  await query(`update website_settings set ad_client_id = $1, ad_consent_required = $2`, [clientId, consentRequired]);
  // The root's data in the page names the client id once the change reached the cached pages.
  await expect.poll(async () => (await (await page.request.get("/")).text()).includes(CLIENT_ID)).toBe(Boolean(clientId));
}

const networkCalls = (outside: string[]) => outside.filter((url) => NETWORK.test(url));

test.describe("the ad network's consent banner", () => {
  test.afterAll(async () => {
    await query(`update website_settings set ad_client_id = null, ad_consent_required = true`);
  });

  test("an admin sets the ad network's client id and asking consent on Settings → Advertising; a wrong id is refused", async ({ page }, testInfo) => {
    await signInAsAdmin(page);
    await page.goto("/admin/settings");
    await waitForHydration(page.locator("body"));
    await page.getByRole("tab", { name: "Advertising" }).click();
    const field = page.getByLabel("Ad network client id");
    const consent = page.getByLabel("Ask readers’ consent before loading the ad network");
    await expect(consent).toBeChecked();
    await field.fill("pub-123");
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expect(page.getByText("Ad network client id must look like ca-pub-1234567890123456").first()).toBeVisible();
    expect((await query<{ id: string | null }>(`select ad_client_id as id from website_settings`))[0]?.id ?? null).toBeNull();

    await field.fill(CLIENT_ID);
    await consent.uncheck();
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expect(toastWith(page, "Settings updated")).toBeVisible();
    expect(await query(`select ad_client_id, ad_consent_required from website_settings`)).toEqual([{ ad_client_id: CLIENT_ID, ad_consent_required: false }]);
    await consent.check();
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expect.poll(() => query(`select ad_client_id, ad_consent_required from website_settings`)).toEqual([{ ad_client_id: CLIENT_ID, ad_consent_required: true }]);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: testInfo.outputPath(`ad-settings-${width}.png`), fullPage: true });
    }
  });

  test("consent required: the banner asks after load; “No thanks” loads nothing; “Ad choices” asks again; “Accept” loads the network", async ({ page, context, baseURL }, testInfo) => {
    await setAds(page, CLIENT_ID, true);
    const outside = await recordOutside(context, baseURL!);
    // The server's HTML never holds the banner (a cached page is the same for every reader).
    expect(await (await page.request.get("/")).text()).not.toContain("data-ad-consent-banner");

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/");
    await waitForHydration(page.locator("body"));
    const banner = page.getByRole("region", BANNER);
    await expect(banner).toBeVisible();
    await expect(banner).toContainText("Our ad network may set cookies");
    await expect(banner.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", "/privacy-policy");
    // A bottom sheet, not a cover: small, at the window's bottom edge.
    const box = (await banner.boundingBox())!;
    expect(box.height).toBeLessThan(844 / 4);
    expect(Math.round(box.y + box.height)).toBe(844);
    await page.screenshot({ path: testInfo.outputPath("ad-consent-banner-390.png") });
    const axe = await new AxeBuilder({ page }).include("[data-ad-consent-banner]").include("footer").analyze();
    expect(axe.violations.map((v) => ({ rule: v.id, targets: v.nodes.map((n) => n.target.join(" ")) }))).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });
    await expect(banner).toBeVisible();
    expect((await banner.boundingBox())!.height).toBeLessThan(100);
    await page.screenshot({ path: testInfo.outputPath("ad-consent-banner-1280.png") });
    expect(networkCalls(outside)).toEqual([]);

    // By keyboard: "No thanks" hides the banner, and nothing of the network loads, now or on the next page.
    await banner.getByRole("button", { name: "No thanks" }).focus();
    await page.keyboard.press("Enter");
    await expect(banner).toHaveCount(0);
    expect(await page.evaluate(() => localStorage.getItem("frontpage:ad-consent"))).toMatch(/^denied:\d+$/);
    expect(await page.context().cookies()).toEqual([]);
    await page.reload();
    await waitForHydration(page.locator("body"));
    await page.waitForTimeout(500);
    await expect(page.getByRole("region", BANNER)).toHaveCount(0);
    expect(networkCalls(outside)).toEqual([]);

    // "Ad choices" in the footer forgets the answer: the banner asks again, its first button focused.
    await page.getByRole("contentinfo").getByRole("button", { name: "Ad choices" }).click();
    await expect(banner).toBeVisible();
    await expect(banner.getByRole("button", { name: "Accept ads cookies" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(banner).toHaveCount(0);
    await expect.poll(() => networkCalls(outside).some((url) => url.includes(`adsbygoogle.js?client=${CLIENT_ID}`))).toBe(true);

    // Accepted: the next page loads the network at once, without asking.
    outside.length = 0;
    await page.reload();
    await waitForHydration(page.locator("body"));
    await expect.poll(() => networkCalls(outside).length).toBeGreaterThan(0);
    await expect(page.getByRole("region", BANNER)).toHaveCount(0);
  });

  test("another tab's answer is heard: accepting in one hides the banner in the other", async ({ page, context, baseURL }) => {
    await setAds(page, CLIENT_ID, true);
    const outside = await recordOutside(context, baseURL!);
    await page.goto("/");
    await waitForHydration(page.locator("body"));
    const other = await context.newPage();
    await other.goto("/about");
    await waitForHydration(other.locator("body"));
    await expect(other.getByRole("region", BANNER)).toBeVisible();
    await page.getByRole("region", BANNER).getByRole("button", { name: "Accept ads cookies" }).click();
    await expect(other.getByRole("region", BANNER)).toHaveCount(0);
    await expect.poll(() => networkCalls(outside).length).toBeGreaterThan(0);
    await other.close();
  });

  test("consent not required: no banner, no “Ad choices”, and the network loads", async ({ page, context, baseURL }) => {
    await setAds(page, CLIENT_ID, false);
    const outside = await recordOutside(context, baseURL!);
    await page.goto("/");
    await waitForHydration(page.locator("body"));
    await expect.poll(() => networkCalls(outside).length).toBeGreaterThan(0);
    await expect(page.getByRole("region", BANNER)).toHaveCount(0);
    await expect(page.getByRole("contentinfo").getByRole("button", { name: "Ad choices" })).toHaveCount(0);
  });

  test("no ad network: no banner, no “Ad choices”, and nothing of the network loads", async ({ page, context, baseURL }) => {
    await setAds(page, null, true);
    const outside = await recordOutside(context, baseURL!);
    await page.goto("/");
    await waitForHydration(page.locator("body"));
    await page.waitForTimeout(500);
    await expect(page.getByRole("region", BANNER)).toHaveCount(0);
    await expect(page.getByRole("contentinfo")).toBeVisible();
    await expect(page.getByRole("contentinfo").getByRole("button", { name: "Ad choices" })).toHaveCount(0);
    expect(networkCalls(outside)).toEqual([]);
  });
});
