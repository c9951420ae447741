import { expect, test, type Page } from "./fixtures";

// Parts of a reader page below the first screen are hydrated a task after the rest
// (app/components/hydrate-later.tsx, decision 0030). They must end up hydrated all the same: their
// links navigate inside the running page, and nothing is rendered twice.

/** Marks the running document, so that a full page load (which would drop the mark) shows. */
const markDocument = (page: Page) => page.evaluate(() => Object.assign(window, { __sameDocument: true }));
const sameDocument = (page: Page) => page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument === true);

test("the footer and the home page's latest stories are hydrated: their links navigate without loading a new document", async ({ page }) => {
  await page.goto("/", { waitUntil: "networkidle" });
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  await expect(page.locator("footer")).toHaveCount(1);
  await expect(page.getByRole("heading", { name: "Latest Stories" })).toHaveCount(1);
  await markDocument(page);
  await page.locator("footer").getByRole("link", { name: "About Us" }).click();
  await expect(page).toHaveURL(/\/about$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("About");
  expect(await sameDocument(page)).toBe(true);

  // Back on home by a client-side navigation, the deferred parts render at once.
  await page.goBack();
  await expect(page.getByRole("heading", { name: "Latest Stories" })).toHaveCount(1);
  await expect(page.locator("footer")).toHaveCount(1);
  await page.getByRole("link", { name: "Read the latest news" }).click();
  await expect(page).toHaveURL(/\/category\/news$/);
  expect(await sameDocument(page)).toBe(true);
});

test("an article's comments and story lists are hydrated: a story card below the comments navigates in the page", async ({ page }) => {
  await page.goto("/category/news", { waitUntil: "networkidle" });
  const href = await page.locator('main a[href^="/article/"]').first().getAttribute("href");
  await page.goto(href!, { waitUntil: "networkidle" });
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Post Comment" })).toHaveCount(1);
  const cards = page.locator('section[aria-labelledby="more-from-category"], section[aria-labelledby="related-stories"]').locator('a[href^="/article/"]');
  await expect(cards.first()).toBeVisible();
  const target = await cards.first().getAttribute("href");
  await markDocument(page);
  await cards.first().click();
  await expect(page).toHaveURL(new RegExp(`${target}$`));
  expect(await sameDocument(page)).toBe(true);
});
