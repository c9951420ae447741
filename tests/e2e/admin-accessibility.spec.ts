import AxeBuilder from "@axe-core/playwright";
import { query } from "./db";
import { expect, test, type Page, waitForHydration } from "./fixtures";

const ADMIN_EMAIL = "admin@example.com";
const ADMIN_PASSWORD = "admin-password-123";

/** axe's violations on what the page shows now, readable in a failure. */
async function violations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((v) => ({ rule: v.id, impact: v.impact, targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")) }));
}

async function open(page: Page, path: string) {
  const response = await page.goto(path, { waitUntil: "networkidle" });
  expect(response?.status(), path).toBe(200);
}

test.describe("accessibility of the back office (axe finds no violations)", () => {
  test("the sign-in page, in both modes", async ({ page }) => {
    await open(page, "/admin/login");
    expect(await violations(page)).toEqual([]);
    await waitForHydration(page.locator("form").first());
    await page.getByRole("button", { name: /sign up/i }).last().click();
    expect(await violations(page)).toEqual([]);
  });

  test("the article form of a story just published, with \"Your story is live\" at its top (issue 41)", async ({ page }) => {
    await page.goto("/admin/login");
    await waitForHydration(page.locator("form").first());
    await page.getByLabel("Email").fill(ADMIN_EMAIL);
    await page.getByLabel("Password").fill(ADMIN_PASSWORD);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page).toHaveURL(/\/admin$/);
    const [published] = await query<{ id: string }>(`select id from articles where status = 'published' and published_at <= now() order by published_at desc limit 1`);
    await open(page, `/admin/articles/edit/${published!.id}?published=1`);
    await expect(page.getByRole("region", { name: "Your story is live" })).toBeVisible();
    expect(await violations(page)).toEqual([]);
  });

  test("every admin screen, its tabs and its dialogs", async ({ page }) => {
    // Fourteen axe runs and more: about 22 s on an idle two-core machine, past 90 s when it is busy.
    test.setTimeout(180_000);
    await page.goto("/admin/login");
    await waitForHydration(page.locator("form").first());
    await page.getByLabel("Email").fill(ADMIN_EMAIL);
    await page.getByLabel("Password").fill(ADMIN_PASSWORD);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page).toHaveURL(/\/admin$/);

    for (const path of ["/admin", "/admin/articles", "/admin/articles/new", "/admin/categories", "/admin/authors", "/admin/comments", "/admin/comments?tab=pending", "/admin/profile"]) {
      await open(page, path);
      expect(await violations(page), path).toEqual([]);
    }

    await open(page, "/admin/articles");
    const editHref = await page.locator('a[href^="/admin/articles/edit/"]').first().getAttribute("href");
    await open(page, editHref!);
    expect(await violations(page), editHref!).toEqual([]);

    await open(page, "/admin/categories");
    await page.getByRole("button", { name: "New Category" }).click();
    await expect(page.getByRole("dialog", { name: "Create New Category" })).toBeVisible();
    expect(await violations(page), "category dialog").toEqual([]);
    await page.keyboard.press("Escape");

    await open(page, "/admin/media");
    for (const tab of ["Images", "Videos", "Files"]) {
      await page.getByRole("tab", { name: tab }).click();
      expect(await violations(page), `media ${tab}`).toEqual([]);
    }

    await open(page, "/admin/settings");
    for (const tab of ["General", "Branding", "Contact", "Social Media"]) {
      await page.getByRole("tab", { name: tab }).click();
      expect(await violations(page), `settings ${tab}`).toEqual([]);
    }
  });
});
