import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type Locator, type Page } from "@playwright/test";
import { someArticlePath } from "./routes";

// The e2e server (tests/setup/e2e-server.mjs) starts with these as its first admin.
const ADMIN_EMAIL = process.env.E2E_ADMIN_EMAIL ?? "admin@example.com";
const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD ?? "admin-password-123";

/** The spec's promise: counts refresh within 2 seconds of a change, with no page reload. */
const LIVE_REFRESH_BUDGET_MS = 2_000;

/** Resolves once React has hydrated the element (its handlers are attached). */
async function waitForHydration(locator: Locator) {
  await expect
    .poll(() => locator.evaluate((el) => Object.keys(el).some((key) => key.startsWith("__react"))))
    .toBe(true);
}

async function signIn(page: Page) {
  await page.goto("/admin/login");
  await waitForHydration(page.locator("form").first());
  await page.getByLabel("Email").fill(ADMIN_EMAIL);
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page).toHaveURL(/\/admin$/);
}

async function adminPage(browser: Browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page);
  return page;
}

/** Opens the dashboard, waits until its event stream is connected, and marks the document so a reload would show. */
async function openLiveDashboard(page: Page) {
  await page.goto("/admin");
  await expect(page.locator("[data-live-status]")).toHaveAttribute("data-live-status", "live");
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
}

async function readCount(locator: Locator) {
  return Number((await locator.innerText()).replace(/[^0-9]/g, ""));
}

async function expectNoReload(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
}

test.describe("the admin dashboard", () => {
  test("an anonymous visitor is sent to the login page and gets no event stream", async ({ page, request }) => {
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/admin\/login$/);
    const events = await request.get("/api/admin/events");
    expect(events.status()).toBe(401);
  });

  test("shows the welcome line, the cards, the dialogs, the activity tabs and the management links", async ({ browser }) => {
    const page = await adminPage(browser);
    await openLiveDashboard(page);

    await expect(page.getByRole("heading", { level: 1, name: "Admin Dashboard" })).toBeVisible();
    await expect(page.getByText(`Welcome back, ${ADMIN_EMAIL}`)).toBeVisible();
    await expect(page.getByRole("link", { name: "View Site" })).toHaveAttribute("href", "/");
    await expect(page.getByRole("button", { name: "Logout" })).toBeVisible();

    for (const label of ["Views Today", "Views This Month", "Views This Year", "Categories"]) {
      await expect(page.getByText(label, { exact: true })).toBeVisible();
    }

    // Total Site Views: totals and the top 10 articles, most viewed first.
    await page.getByRole("button", { name: /Total Site Views/ }).click();
    const views = page.getByRole("dialog", { name: "Site Views" });
    for (const label of ["All Time", "Today", "This Month", "This Year"]) await expect(views.getByText(label, { exact: true })).toBeVisible();
    const top = views.getByRole("listitem");
    const topCount = await top.count();
    expect(topCount).toBeGreaterThan(0);
    expect(topCount).toBeLessThanOrEqual(10);
    const topViews = await top.evaluateAll((items) => items.map((li) => Number(li.textContent!.match(/([\d,]+) views$/)![1]!.replace(/,/g, ""))));
    expect(topViews).toEqual([...topViews].sort((a, b) => b - a));
    expect(await new AxeBuilder({ page }).analyze().then((r) => r.violations)).toEqual([]);
    await page.keyboard.press("Escape");
    await expect(views).toBeHidden();

    // Total Articles: each with a view and an edit link.
    await page.getByRole("button", { name: /Total Articles/ }).click();
    const all = page.getByRole("dialog", { name: "All Articles" });
    await expect(all.getByRole("link", { name: /^View / }).first()).toHaveAttribute("href", /^\/article\/[a-z0-9-]+$/);
    await expect(all.getByRole("link", { name: /^Edit / }).first()).toHaveAttribute("href", /^\/admin\/articles\/edit\/[0-9a-f-]{36}$/);
    await all.getByRole("button", { name: "Close" }).click();

    // Total Comments: the latest comments with the article they are on.
    await page.getByRole("button", { name: /Total Comments/ }).click();
    const comments = page.getByRole("dialog", { name: "Recent Comments" });
    const commentItems = comments.getByRole("listitem");
    expect(await commentItems.count()).toBeLessThanOrEqual(50);
    if ((await commentItems.count()) > 0) await expect(comments.getByRole("link", { name: /^On: / }).first()).toHaveAttribute("href", /^\/article\//);
    else await expect(comments.getByText("No comments yet. Comments will appear here once users start engaging with your content.")).toBeVisible();
    await page.keyboard.press("Escape");

    // The activity panel: Today by default; the year tab lists at most 15 comments.
    const tabs = page.getByRole("tablist", { name: "Activity period" });
    await expect(tabs.getByRole("tab", { name: "Today" })).toHaveAttribute("aria-selected", "true");
    await tabs.getByRole("tab", { name: "This Year" }).click();
    const yearPanel = page.getByRole("tabpanel", { name: "This Year" });
    await expect(yearPanel.getByText("Articles", { exact: true })).toBeVisible();
    expect(await yearPanel.getByRole("link", { name: /^On: / }).count()).toBeLessThanOrEqual(15);
    await tabs.getByRole("tab", { name: "This Month" }).click();
    expect(await page.getByRole("tabpanel", { name: "This Month" }).getByRole("link", { name: /^On: / }).count()).toBeLessThanOrEqual(10);

    const manage = page.getByRole("navigation", { name: "Manage" });
    for (const href of ["/admin/articles/new", "/admin/articles", "/admin/categories", "/admin/media", "/admin/comments", "/admin/settings"]) {
      await expect(manage.locator(`a[href="${href}"]`)).toBeVisible();
    }

    expect(await new AxeBuilder({ page }).analyze().then((r) => r.violations)).toEqual([]);
    await page.context().close();
  });

  test("a second browser sees the article count change within 2 s when an article is created, without a reload", async ({ browser }) => {
    const watcher = await adminPage(browser);
    const editor = await adminPage(browser);
    await openLiveDashboard(watcher);
    const totalArticles = watcher.getByTestId("stat-total-articles");
    const before = await readCount(totalArticles);
    const todayPanel = watcher.getByRole("tabpanel", { name: "Today" });
    const todayBefore = await readCount(todayPanel.getByTestId("activity-articles"));

    const title = `Live dashboard check ${Date.now()}`;
    await editor.goto("/admin/articles/new");
    await waitForHydration(editor.locator("form").first());
    await editor.getByLabel("Title *").fill(title);
    await expect(editor.getByLabel("Slug *")).not.toHaveValue("");
    await editor.getByLabel("Content *").fill("Written to see the dashboard update by itself.");
    await editor.getByRole("button", { name: "Create Article" }).click();
    await expect(editor).toHaveURL(/\/admin\/articles(\?.*)?$/);

    await expect(totalArticles).toHaveText(String(before + 1).replace(/\B(?=(\d{3})+(?!\d))/g, ","), { timeout: LIVE_REFRESH_BUDGET_MS });
    await expect(todayPanel.getByRole("link", { name: title })).toBeVisible({ timeout: LIVE_REFRESH_BUDGET_MS });
    expect(await readCount(todayPanel.getByTestId("activity-articles"))).toBe(todayBefore + 1);
    await expectNoReload(watcher);

    await watcher.context().close();
    await editor.context().close();
  });

  test("a second browser sees the comment count change within 2 s when a reader posts a comment", async ({ browser, request }) => {
    const watcher = await adminPage(browser);
    await openLiveDashboard(watcher);
    const totalComments = watcher.getByTestId("stat-total-comments");
    const before = await readCount(totalComments);

    const text = `Checking that the dashboard keeps up (${Date.now()}).`;
    const reader = await (await browser.newContext()).newPage();
    await reader.goto(await someArticlePath(request));
    await waitForHydration(reader.getByRole("button", { name: "Post Comment" }));
    await reader.getByLabel("Name *").first().fill("Dashboard Watcher");
    await reader.getByLabel("Email *").first().fill("watcher@example.com");
    await reader.getByLabel("Comment *").fill(text);
    await reader.getByRole("button", { name: "Post Comment" }).click();
    await expect(reader.getByText("Comment posted!")).toBeVisible();

    await expect(totalComments).toHaveText(String(before + 1).replace(/\B(?=(\d{3})+(?!\d))/g, ","), { timeout: LIVE_REFRESH_BUDGET_MS });
    await expect(watcher.getByRole("tabpanel", { name: "Today" }).getByText(text)).toBeVisible({
      timeout: LIVE_REFRESH_BUDGET_MS,
    });
    await expectNoReload(watcher);

    await watcher.context().close();
    await reader.context().close();
  });

  test("Logout ends the session and goes to the home page", async ({ browser }) => {
    const page = await adminPage(browser);
    await page.goto("/admin");
    await page.getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/admin\/login$/);
    await page.context().close();
  });
});
