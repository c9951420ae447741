import { expect, test } from "@playwright/test";
import { CATEGORIES, someArticlePath, STATIC_PAGES } from "./routes";

test.describe("the reader site", () => {
  test("the home page shows the hero, the topics and the latest stories", async ({ page }) => {
    const response = await page.goto("/");
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1, name: "Stay Informed, Stay Connected" })).toBeVisible();

    const topics = page.locator("section", { has: page.getByRole("heading", { name: "Explore Topics" }) });
    await expect(topics.getByRole("heading", { name: "Explore Topics" })).toBeVisible();
    for (const category of CATEGORIES) {
      await expect(topics.getByRole("link", { name: category.name, exact: true })).toHaveAttribute("href", `/category/${category.slug}`);
    }

    const latest = page.locator("section", { has: page.getByRole("heading", { name: "Latest Stories" }) });
    await expect(latest.getByRole("heading", { name: "Latest Stories" })).toBeVisible();
    await expect(latest.getByRole("article").first()).toBeVisible();
  });

  test("a topic on the home page leads to its category page", async ({ page }) => {
    await page.goto("/");
    const topics = page.locator("section", { has: page.getByRole("heading", { name: "Explore Topics" }) });
    await topics.getByRole("link", { name: "Technology", exact: true }).click();
    await expect(page).toHaveURL(/\/category\/technology$/);
    await expect(page.getByRole("heading", { level: 1, name: "Technology" })).toBeVisible();
  });

  test("the News category page shows its heading and article cards", async ({ page }) => {
    const response = await page.goto("/category/news");
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1, name: "News" })).toBeVisible();
    const cards = page.getByRole("main").getByRole("article");
    await expect(cards.first()).toBeVisible();
    // Every card links to an article.
    const hrefs = await cards.getByRole("link").evaluateAll((links) => links.map((a) => a.getAttribute("href")));
    expect(hrefs.length).toBeGreaterThan(0);
    for (const href of hrefs) expect(href).toMatch(/^\/article\/[a-z0-9-]+$/);
  });

  test("an article card opens the article with its title as the page heading", async ({ page }) => {
    await page.goto("/category/news");
    const card = page.getByRole("main").getByRole("article").first();
    const title = (await card.getByRole("heading").textContent())!.trim();
    await card.getByRole("link").click();
    await expect(page).toHaveURL(/\/article\/[a-z0-9-]+$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  });

  test("an unknown path answers 404 with the not-found page and a way home", async ({ page }) => {
    const response = await page.goto("/this/page/does-not-exist");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
    const home = page.getByRole("link", { name: "Return to Home" });
    await expect(home).toHaveAttribute("href", "/");
    await home.click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { name: "Stay Informed, Stay Connected" })).toBeVisible();
  });

  test("an unknown article answers 404 with \"Article not found\"", async ({ page }) => {
    const response = await page.goto("/article/does-not-exist");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Article not found" })).toBeVisible();
    await expect(page.getByText("The article you're looking for doesn't exist.")).toBeVisible();
  });

  test("an unknown category answers 404", async ({ page, request }) => {
    const raw = await request.get("/category/nope");
    expect(raw.status()).toBe(404);
    const response = await page.goto("/category/nope");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("link", { name: "Return to Home" })).toBeVisible();
  });

  test("a known article answers 200", async ({ request }) => {
    const path = await someArticlePath(request);
    expect((await request.get(path)).status()).toBe(200);
  });

  for (const path of STATIC_PAGES) {
    test(`the static page ${path} answers 200 and has a main heading`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
      await expect(page.getByRole("heading", { level: 1 })).not.toBeEmpty();
    });
  }
});
