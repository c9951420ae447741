import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "./fixtures";
import { query } from "./db";
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

  test("a search results page and author pages (with a photo and without) have no axe violations (issue 41)", async ({ page, request }) => {
    // Three pages checked by axe.
    test.slow();
    expect(await violationsOn(page, "/search?q=council")).toEqual([]);
    expect(await page.getByTestId("search-snippet").count()).toBeGreaterThan(0);
    const articlePage = await (await request.get(await someArticlePath(request))).text();
    const author = /href="(\/author\/[^"?#]+)"/.exec(articlePage)![1]!;
    expect(await violationsOn(page, author)).toEqual([]);
    // A new team member who skipped the welcome step: the initials stand in for the photo.
    const [slug] = await query<{ slug: string }>(`insert into authors (name, slug) values ('Ida Initials', 'ida-initials-' || substr(md5(random()::text), 1, 8)) returning slug`);
    try {
      expect(await violationsOn(page, `/author/${slug!.slug}`)).toEqual([]);
      await expect(page.getByTestId("author-initials")).toHaveText("II");
    } finally {
      await query(`delete from authors where slug = $1`, [slug!.slug]);
    }
  });

  test("the not-found page has no axe violations", async ({ page }) => {
    await page.goto("/no-such-page");
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((v) => v.id)).toEqual([]);
  });
});
