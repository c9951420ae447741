import { expect, test } from "./fixtures";
import { CATEGORIES } from "./routes";

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test.describe("the mobile menu", () => {
  test("it lists all six categories, About Us and Contact, then the reader's Sign in (issue 40: not in the phone's header bar)", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("button", { name: "Open menu" }).click();
    const drawer = page.getByRole("dialog");
    await expect(drawer).toBeVisible();
    const links = drawer.getByRole("link");
    await expect(links).toHaveText([...CATEGORIES.map((c) => c.name), "About Us", "Contact", "Sign in"]);
    for (const category of CATEGORIES) {
      await expect(drawer.getByRole("link", { name: category.name, exact: true })).toHaveAttribute("href", `/category/${category.slug}`);
    }
    await expect(drawer.getByRole("link", { name: "About Us" })).toHaveAttribute("href", "/about");
    await expect(drawer.getByRole("link", { name: "Contact" })).toHaveAttribute("href", "/contact");
    await expect(drawer.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/account/sign-in");
  });

  test("choosing a category closes the menu and opens that category", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("button", { name: "Open menu" }).click();
    const drawer = page.getByRole("dialog");
    await drawer.getByRole("link", { name: "Schools", exact: true }).click();
    await expect(drawer).toBeHidden();
    await expect(page).toHaveURL(/\/category\/schools$/);
    await expect(page.getByRole("heading", { level: 1, name: "Schools" })).toBeVisible();
  });

  test("choosing Contact closes the menu and opens the contact page", async ({ page }) => {
    await page.goto("/category/news");
    await page.getByRole("button", { name: "Open menu" }).click();
    const drawer = page.getByRole("dialog");
    await drawer.getByRole("link", { name: "Contact" }).click();
    await expect(drawer).toBeHidden();
    await expect(page).toHaveURL(/\/contact$/);
  });

  test("the desktop navigation is hidden on a phone", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
  });
});
