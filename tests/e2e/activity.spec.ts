import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./fixtures";
import { newContext } from "./accounts";
import { ADMIN, signInAsAdmin } from "./admin-session";

// The activity log (acceptance 4 and 6 of the people issue): a failed sign-in is recorded with the
// e-mail tried; the filters work without JavaScript; axe finds nothing; it fits a phone.

test("a failed sign-in shows as 'Sign-in failed'; the kind filter works without JavaScript; no axe violations; fits 390 px", async ({ browser, baseURL }) => {
  // A wrong password from an address of its own (the sign-in limit counts per address).
  const stranger = await newContext(baseURL);
  const refused = await stranger.post("/api/auth/sign-in/email", {
    data: { email: ADMIN.email, password: "not-the-password" },
    headers: { "X-Forwarded-For": `198.18.200.${Math.floor(Math.random() * 250)}` },
  });
  expect(refused.status()).toBe(401);
  await stranger.dispose();

  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  // Without JavaScript the login form posts to the page's action.
  await page.goto("/admin/login");
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await page.waitForURL(/\/admin$/);

  await page.goto("/admin/activity");
  await page.getByLabel("What").selectOption({ label: "Sign-in failed" });
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/kind=sign_in\.failure/);
  const entries = page.getByRole("list", { name: "Activity, newest first" }).getByRole("listitem");
  await expect(entries.first()).toContainText("Sign-in failed");
  await expect(entries.first()).toContainText(ADMIN.email);
  for (const kind of await entries.evaluateAll((items) => items.map((i) => i.getAttribute("data-kind")))) expect(kind).toBe("sign_in.failure");
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  await test.info().attach("activity-390", { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
  await context.close();
});

test("the activity screen at 1280 px: the admin's sign-in is listed, filtered by person, and axe finds nothing", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInAsAdmin(page);
  await page.goto("/admin/activity", { waitUntil: "networkidle" });
  await page.getByLabel("Person").selectOption({ label: `admin (${ADMIN.email})` });
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/person=/);
  const entries = page.getByRole("list", { name: "Activity, newest first" }).getByRole("listitem");
  await expect(entries.filter({ hasText: "Signed in" }).first()).toBeVisible();
  for (const who of await entries.evaluateAll((items) => items.map((i) => i.textContent ?? ""))) expect(who).toContain(ADMIN.email);
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => v.id)).toEqual([]);
  await test.info().attach("activity-1280", { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
});
