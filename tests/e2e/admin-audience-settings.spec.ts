import { expect, test, waitForHydration } from "./fixtures";
import { signInAsAdmin, toastWith } from "./admin-session";
import { query } from "./db";

// Issue 42: how long raw audience events are kept, an admin's setting, checked by the server.
test.describe("Keep raw audience events for (days)", () => {
  test.afterAll(async () => {
    await query(`update website_settings set audience_retention_days = 90`);
  });

  test("an admin sets it on the Audience tab; the server refuses a number out of 1-3650", async ({ page }, testInfo) => {
    await signInAsAdmin(page);
    await page.goto("/admin/settings");
    await waitForHydration(page.locator("body"));
    await page.getByRole("tab", { name: "Audience" }).click();
    const field = page.getByLabel("Keep raw audience events for (days)");
    await expect(field).toHaveValue("90");
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: testInfo.outputPath(`audience-settings-${width}.png`), fullPage: true });
    }

    // Past the browser's own check (a crafted request): the server answers with the field's message.
    await page.locator("form").last().evaluate((form) => form.setAttribute("novalidate", ""));
    await field.fill("0");
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expect(page.getByText("Keep raw audience events for (days) must be a whole number from 1 to 3650").first()).toBeVisible();
    expect((await query<{ days: number }>(`select audience_retention_days as days from website_settings`))[0]?.days ?? 90).toBe(90);

    await field.fill("30");
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expect(toastWith(page, "Settings updated")).toBeVisible();
    expect((await query<{ days: number }>(`select audience_retention_days as days from website_settings`))[0]!.days).toBe(30);
  });
});
