import { expect, expectNoSidewaysScroll, test, type Page } from "./fixtures";
import { accountWithRole } from "./accounts";
import { signInWith, toastWith } from "./admin-session";
import { query } from "./db";

// Pages (issue 29): an editor writes a standalone page in the story editor and publishes it with a
// footer link; readers find it at /{slug} and in the footer at phone and desktop widths; an address the
// site uses itself is refused beside the slug field; an author may not open /admin/pages.

/** The page form with the story editor loaded (its toolbar shows once the editor's code has arrived). */
async function openPageEditor(page: Page, path: string) {
  await page.goto(path, { waitUntil: "networkidle" });
  await expect(page.getByRole("toolbar", { name: "Story formatting" })).toBeVisible();
  return page.getByLabel("Content *");
}

const VIEWPORTS = [
  { name: "390", width: 390, height: 844 },
  { name: "1280", width: 1280, height: 900 },
] as const;

test.describe("pages", () => {
  test("an editor writes and publishes a page with a footer link; readers see it at its address and in the footer; unpublishing takes it off", async ({
    page,
    browser,
    baseURL,
  }) => {
    test.slow();
    const run = Date.now().toString(36);
    const title = `Ethics Policy ${run}`;
    const slug = `ethics-policy-${run}`;
    const editor = await accountWithRole(baseURL, "pages-editor", "editor");
    await editor.context.dispose();
    await signInWith(page, editor);

    // The list, then a new page written in the story editor.
    await page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Pages", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Manage Pages" })).toBeVisible();
    await page.getByRole("link", { name: "New Page" }).click();
    await expect(page).toHaveURL(/\/admin\/pages\/new$/);
    const content = await openPageEditor(page, "/admin/pages/new");
    await page.getByLabel("Title *").fill(title);
    await expect(page.getByLabel("Slug *")).toHaveValue(slug);
    await content.click();
    await page.keyboard.type("We check facts before we publish.");
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Subheading", exact: true }).click();
    await expect(content.locator("h2")).toHaveCount(1);
    await expect(content).toBeFocused();
    await page.keyboard.type("Corrections");
    await page.keyboard.press("Enter");
    await page.keyboard.type("We correct mistakes openly.");
    await page.getByLabel("Show in footer").check();
    await page.getByLabel("Footer position").fill("1");
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    await expect(toastWith(page, "Page published")).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/pages\/edit\/[0-9a-f-]+$/);
    await expect(page.getByTestId("page-status")).toContainText("Published");

    // History lists the save.
    await page.getByRole("button", { name: "History" }).click();
    await expect(page.getByTestId("revision-list").getByRole("listitem")).toHaveCount(1);
    await page.keyboard.press("Escape");

    // Readers, at a phone's and a desktop's width: the page at its address and its link in the footer.
    for (const vp of VIEWPORTS) {
      const reader = await browser.newPage({ viewport: { width: vp.width, height: vp.height } });
      const response = await reader.goto(`/${slug}`, { waitUntil: "networkidle" });
      expect(response?.status()).toBe(200);
      await expect(reader.getByRole("heading", { level: 1, name: title })).toBeVisible();
      await expect(reader.getByRole("heading", { level: 2, name: "Corrections" })).toBeVisible();
      await expect(reader.getByText("We correct mistakes openly.")).toBeVisible();
      await expect(reader.locator('link[rel="canonical"]')).toHaveAttribute("href", new RegExp(`/${slug}$`));
      await expect(reader.locator('meta[name="description"]')).toHaveAttribute("content", /We check facts before we publish/);
      const footerLink = reader.getByRole("contentinfo").getByRole("link", { name: title });
      await footerLink.scrollIntoViewIfNeeded();
      await expect(footerLink).toBeVisible();
      await expect(footerLink).toHaveAttribute("href", `/${slug}`);
      // The fixed pages stay where they were.
      await expect(reader.getByRole("contentinfo").getByRole("link", { name: "About Us" })).toBeVisible();
      await expectNoSidewaysScroll(reader, `/${slug} at ${vp.width} px`);
      // From the top: the sticky header would otherwise be drawn where the footer link scrolled it.
      await reader.evaluate(() => window.scrollTo(0, 0));
      await reader.screenshot({ path: `/tmp/pages-${vp.name}.png`, fullPage: true });
      // Every page's footer has it (the home page too).
      await reader.goto("/", { waitUntil: "domcontentloaded" });
      await expect(reader.getByRole("contentinfo").getByRole("link", { name: title })).toHaveAttribute("href", `/${slug}`);
      await reader.close();
    }
    const sitemap = await (await page.request.get("/sitemaps/pages.xml")).text();
    expect(sitemap).toContain(`/${slug}</loc>`);

    // Unpublish asks first; then the page, its footer link and its sitemap entry are gone at once.
    await page.getByRole("button", { name: "Unpublish" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Unpublish this page?" });
    await expect(confirm).toBeVisible();
    await confirm.getByRole("button", { name: "Unpublish" }).click();
    await expect(toastWith(page, "Page unpublished")).toBeVisible();
    await expect(page.getByTestId("page-status")).toContainText("Draft");
    const anonymous = await browser.newPage();
    expect((await anonymous.goto(`/${slug}`))?.status()).toBe(404);
    await expect(anonymous.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
    await anonymous.goto("/", { waitUntil: "domcontentloaded" });
    await expect(anonymous.getByRole("contentinfo").getByRole("link", { name: title })).toHaveCount(0);
    await anonymous.close();
  });

  test("an address the site uses itself is refused beside the slug field, and nothing is saved", async ({ page, baseURL }) => {
    const editor = await accountWithRole(baseURL, "pages-slug-editor", "editor");
    await editor.context.dispose();
    await signInWith(page, editor);
    const content = await openPageEditor(page, "/admin/pages/new");
    await page.getByLabel("Title *").fill("Search help");
    await page.getByLabel("Slug *").fill("search");
    await content.click();
    await page.keyboard.type("How to search the archive.");
    const answer = page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/admin/pages/new"));
    await page.getByRole("button", { name: "Save draft" }).click();
    expect((await answer).status()).toBe(400);
    const slugField = page.getByLabel("Slug *");
    await expect(slugField).toHaveAttribute("aria-invalid", "true");
    await expect(page.locator("#slug-error")).toHaveText("The address /search is used by the site itself. Choose another slug.");
    await expect(slugField).toHaveAccessibleDescription("The address /search is used by the site itself. Choose another slug.");
    expect(await query("select id from pages where slug = 'search'")).toEqual([]);
  });

  test("an author gets 403 at /admin/pages", async ({ baseURL }) => {
    const author = await accountWithRole(baseURL, "pages-author", "author");
    const screen = await author.context.get("/admin/pages", { maxRedirects: 0 });
    expect(screen.status()).toBe(403);
    const create = await author.context.post("/admin/pages/new", {
      form: { intent: "publish", title: "Author page", slug: "author-page-attempt", content: "x", contentDoc: "", showInFooter: "", footerPosition: "" },
      maxRedirects: 0,
    });
    expect(create.status()).toBe(403);
    expect(await query("select id from pages where slug = 'author-page-attempt'")).toEqual([]);
    await author.context.dispose();
  });
});
