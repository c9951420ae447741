import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "./fixtures";
import { someArticlePath, STATIC_PAGES } from "./routes";

async function violationsOn(page: Page, path: string) {
  const response = await page.goto(path);
  expect(response?.status()).toBe(200);
  await page.waitForLoadState("networkidle");
  const results = await new AxeBuilder({ page }).analyze();
  // A readable failure: rule, impact and the offending elements.
  return results.violations.map((v) => ({
    rule: v.id,
    impact: v.impact,
    help: v.help,
    targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")),
  }));
}

test.describe("accessibility (axe finds no violations)", () => {
  for (const path of ["/", "/category/news", ...STATIC_PAGES]) {
    test(`${path} has no axe violations`, async ({ page }) => {
      expect(await violationsOn(page, path)).toEqual([]);
    });
  }

  test("an article page has no axe violations", async ({ page, request }) => {
    expect(await violationsOn(page, await someArticlePath(request))).toEqual([]);
  });

  test("the not-found page has no axe violations", async ({ page }) => {
    await page.goto("/no-such-page");
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((v) => v.id)).toEqual([]);
  });
});
