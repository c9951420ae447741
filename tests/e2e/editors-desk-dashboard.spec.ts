import { expect, expectNoSidewaysScroll, test, type Browser, type Page } from "./fixtures";
import { accountWithRole } from "./accounts";
import { signInWith } from "./admin-session";
import { categoryId, query, withDb } from "./db";

// Issue 27, section 4: the dashboard starts with work by role (an author's and an editor's lists, then
// the counters), greets by name and is titled after the site; its view figures are labelled, one measure
// a row, and agree; the article list shows full titles, authors, status with review state and the last
// save, filters to "Mine" and acts on selected rows, each refused on the server for what the role may not do.

const SHOTS = process.env.DASH_SHOTS_DIR;


/** At 390 and 1280 px: nothing scrolls sideways; a full-page screenshot is attached (and saved when DASH_SHOTS_DIR is set). */
async function shots(page: Page, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page, `${name} at ${width}`);
    const body = await page.screenshot({ fullPage: true });
    await test.info().attach(`${name}-${width}`, { body, contentType: "image/png" });
    if (SHOTS) await page.screenshot({ fullPage: true, path: `${SHOTS}/${name}-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function signedInPage(browser: Browser, account: { email: string; password: string }) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signInWith(page, account);
  return page;
}

const userIdOf = async (email: string) => (await query<{ id: string }>(`select id from "user" where lower(email) = lower($1)`, [email]))[0]!.id;

interface Story {
  title: string;
  status: "draft" | "published" | "scheduled";
  createdBy: string;
  /** Published long ago, so the story never leads a page other specs read. */
  publishedAt?: string;
  reviewNote?: string;
  reviewRequested?: boolean;
  category?: string | null;
}

/** Stories written straight to the database (not through the form), with a clean-up. */
async function insertStories(run: string, stories: Story[]) {
  const ids: string[] = [];
  await withDb(async (db) => {
    for (const [i, s] of stories.entries()) {
      const { rows } = await db.query<{ id: string }>(
        `insert into articles (title, slug, content, status, created_by_id, published_at, review_note, review_note_by_name, review_note_at,
                               review_requested_at, review_requested_by_id, category_id)
         values ($1, $2, 'Written by the dashboard test.', $3, $4, $5, $6, case when $6::text is null then null else 'Desk Editor' end,
                 case when $6::text is null then null else now() end, case when $7 then now() end, case when $7 then $4 end, $8)
         returning id`,
        [s.title, `desk-${run}-${i}`, s.status, s.createdBy, s.publishedAt ?? null, s.reviewNote ?? null, Boolean(s.reviewRequested), s.category ?? null],
      );
      ids.push(rows[0]!.id);
    }
  });
  return { ids, cleanUp: () => query(`delete from articles where slug like $1`, [`desk-${run}-%`]) };
}

const LONG_AGO = "2001-02-03T12:00:00Z";

// Each journey takes screenshots at two widths on a shared machine.
test.describe.configure({ timeout: 180_000 });

test.describe("the dashboard by role", () => {
  test("an author's dashboard: their drafts, what was sent back, scheduled, published recently; then the counters", async ({ browser, baseURL }) => {
    const run = Date.now().toString(36);
    const author = await accountWithRole(baseURL, `desk-author-${run}`, "author");
    const authorId = await userIdOf(author.email);
    const other = await accountWithRole(baseURL, `desk-other-${run}`, "author");
    const otherId = await userIdOf(other.email);
    const { cleanUp } = await insertStories(run, [
      { title: `A draft about the harbour that keeps its whole long headline on the dashboard ${run}`, status: "draft", createdBy: authorId },
      { title: `Sent back story ${run}`, status: "draft", createdBy: authorId, reviewNote: "Add a second source." },
      { title: `Published feature ${run}`, status: "published", createdBy: authorId, publishedAt: LONG_AGO },
      { title: `Somebody else's draft ${run}`, status: "draft", createdBy: otherId },
    ]);
    try {
      const page = await signedInPage(browser, author);
      const [{ site_name: siteName }] = await query<{ site_name: string }>(`select site_name from website_settings limit 1`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(siteName);
      await expect(page).toHaveTitle(siteName);
      await expect(page.getByRole("heading", { name: "Admin Dashboard" })).toHaveCount(0);
      const name = author.email.split("@")[0]!;
      await expect(page.getByText(new RegExp(`^(Good (morning|afternoon|evening)|Welcome), ${name}$`))).toBeVisible();
      await expect(page.getByRole("main")).not.toContainText(author.email);

      const drafts = page.getByRole("region", { name: "My drafts (1)" });
      await expect(drafts.getByRole("link", { name: new RegExp(`A draft about the harbour .* ${run}`) })).toHaveAttribute("href", /^\/admin\/articles\/edit\//);
      await expect(drafts).toContainText(/Saved [A-Z][a-z]{2} \d{1,2}, \d{4} at \d{1,2}:\d{2} [AP]M/);
      const sentBack = page.getByRole("region", { name: "Sent back to me (1)" });
      await expect(sentBack.getByRole("link", { name: `Sent back story ${run}` })).toBeVisible();
      await expect(sentBack).toContainText("by Desk Editor");
      await expect(page.getByRole("region", { name: "Scheduled (0)" })).toContainText("None of your stories is scheduled.");
      await expect(page.getByRole("region", { name: "Published recently (1)" }).getByRole("link", { name: `Published feature ${run}` })).toHaveAttribute(
        "href",
        `/article/desk-${run}-2`,
      );
      await expect(page.getByRole("main")).not.toContainText(`Somebody else's draft ${run}`);
      // No editor's lists for an author.
      await expect(page.getByRole("region", { name: /^Waiting for review/ })).toHaveCount(0);

      // Work first, the counters after.
      const order = await page.evaluate(() => {
        const work = document.querySelector("[data-work]")!;
        const stats = document.getElementById("stats-heading")!;
        return Boolean(work.compareDocumentPosition(stats) & Node.DOCUMENT_POSITION_FOLLOWING);
      });
      expect(order).toBe(true);
      await shots(page, "dashboard-author");
      await page.context().close();
    } finally {
      await cleanUp();
    }
  });

  test("an editor's dashboard: waiting for review, scheduled, recently published; the view figures are labelled and agree", async ({ browser, baseURL }) => {
    const run = Date.now().toString(36);
    const editor = await accountWithRole(baseURL, `desk-editor-${run}`, "editor");
    const writer = await accountWithRole(baseURL, `desk-writer-${run}`, "author");
    const writerId = await userIdOf(writer.email);
    const { ids, cleanUp } = await insertStories(run, [{ title: `Waiting story ${run}`, status: "draft", createdBy: writerId, reviewRequested: true }]);
    try {
      const page = await signedInPage(browser, editor);
      const queue = page.getByRole("region", { name: /^Waiting for review \(\d+\)$/ });
      await expect(queue.getByRole("link", { name: `Waiting story ${run}` })).toHaveAttribute("href", `/admin/articles/edit/${ids[0]}`);
      await expect(queue).toContainText(`by desk-writer-${run}`);
      await expect(page.getByRole("region", { name: /^Scheduled \(\d+\)$/ })).toBeVisible();
      await expect(page.getByRole("region", { name: /^Recently published \(\d+\)$/ }).getByRole("link").first()).toBeVisible();
      await expect(page.getByRole("region", { name: /^My drafts/ })).toHaveCount(0);

      // Each row of figures is one measure, named on every figure; along the row they never decrease.
      const pageViews = page.getByRole("region", { name: "Page views" });
      for (const label of ["Page Views Today", "Page Views This Month", "Page Views This Year", "Page Views All Time"]) {
        await expect(pageViews.getByText(label, { exact: true })).toBeVisible();
      }
      const values = await Promise.all(
        ["today", "month", "year", "allTime"].map(async (p) => Number(await pageViews.getByTestId(`views-${p}`).getAttribute("data-value"))),
      );
      expect(values).toEqual([...values].sort((a, b) => a - b));
      const [{ n }] = await query<{ n: string }>(`select count(*) as n from page_views`);
      expect(values[3]).toBeGreaterThanOrEqual(Number(n) - 50); // beacons may land while the page loads
      await expect(page.getByText("Total Site Views")).toHaveCount(0);
      await expect(page.getByRole("button", { name: /Article Views/ })).toBeVisible();
      const [{ sum }] = await query<{ sum: string }>(`select coalesce(sum(views), 0) as sum from articles`);
      expect(Number((await page.getByTestId("stat-article-views").innerText()).replace(/,/g, ""))).toBeLessThanOrEqual(Number(sum));
      await shots(page, "dashboard-editor");
      await page.context().close();
    } finally {
      await cleanUp();
    }
  });
});

test.describe("the article list", () => {
  test("an editor selects rows and unpublishes, moves and deletes them, each confirmed; what is refused is said, with why", async ({ browser, baseURL }) => {
    const run = Date.now().toString(36);
    const editor = await accountWithRole(baseURL, `list-editor-${run}`, "editor");
    const writer = await accountWithRole(baseURL, `list-writer-${run}`, "author");
    const writerId = await userIdOf(writer.email);
    const longTitle = `Council approves the harbour wall after a decade of floods and a long night of argument ${run}`;
    const { ids, cleanUp } = await insertStories(run, [
      { title: longTitle, status: "published", createdBy: writerId, publishedAt: LONG_AGO },
      { title: `Second story ${run}`, status: "published", createdBy: writerId, publishedAt: LONG_AGO },
      { title: `Waiting draft ${run}`, status: "draft", createdBy: writerId, reviewRequested: true },
    ]);
    try {
      const page = await signedInPage(browser, editor);
      await page.goto(`/admin/articles?q=${run}`, { waitUntil: "networkidle" });
      const rows = page.getByRole("table").getByRole("row");
      await expect(rows).toHaveCount(4);
      // The whole title, wrapped, never cut; the byline; the status with its review state; the last save.
      const first = page.getByRole("row", { name: new RegExp(`Council approves`) });
      await expect(first.getByRole("cell", { name: longTitle, exact: true })).toBeVisible();
      const titleCell = first.getByRole("cell", { name: longTitle, exact: true });
      expect(await titleCell.evaluate((td) => td.scrollWidth <= td.clientWidth && getComputedStyle(td).textOverflow !== "ellipsis")).toBe(true);
      await expect(page.getByRole("row", { name: new RegExp(`Waiting draft ${run}`) }).getByRole("cell", { name: "In review", exact: true })).toBeVisible();
      await expect(first).toContainText(/Updated [A-Z][a-z]{2} \d{1,2}, \d{4} at/);

      await page.getByLabel("Select all on this page").check();
      const bar = page.getByRole("region", { name: "Bulk actions" });
      await expect(bar).toContainText("3 selected");
      await shots(page, "list-editor-selected");

      await bar.getByRole("button", { name: "Unpublish" }).click();
      const dialog = page.getByRole("alertdialog", { name: "Unpublish stories" });
      await expect(dialog).toContainText("Unpublish 3 stories?");
      await dialog.getByRole("button", { name: "Unpublish 3 stories" }).click();
      const report = page.getByRole("region", { name: /stories unpublished/ });
      await expect(report).toContainText("2 stories unpublished; 1 refused.");
      await expect(report).toContainText(`Waiting draft ${run}: This article is already a draft.`);
      await shots(page, "list-editor-report");
      expect((await query<{ status: string }>(`select status from articles where id = any($1) order by title`, [ids.slice(0, 2)])).map((r) => r.status)).toEqual(["draft", "draft"]);

      // Move: the dialog asks which category; nothing moves without one.
      await page.getByLabel("Select all on this page").check();
      await bar.getByRole("button", { name: "Move to category…" }).click();
      const move = page.getByRole("alertdialog", { name: "Move to category" });
      await move.getByRole("button", { name: "Move 3 stories" }).click();
      await expect(move).toContainText("Choose the category to move the stories to.");
      await move.getByLabel("Category").selectOption({ label: "Sports" });
      await move.getByRole("button", { name: "Move 3 stories" }).click();
      await expect(page.getByRole("region", { name: "3 stories moved." })).toBeVisible();
      const sports = await categoryId("sport");
      expect((await query<{ category_id: string }>(`select category_id from articles where id = any($1)`, [ids])).every((r) => r.category_id === sports)).toBe(true);

      await page.getByLabel("Select all on this page").check();
      await bar.getByRole("button", { name: "Delete" }).click();
      const del = page.getByRole("alertdialog", { name: "Delete stories" });
      await expect(del).toContainText("Delete 3 stories? This cannot be undone");
      await del.getByRole("button", { name: "Cancel" }).click();
      expect(await query(`select id from articles where id = any($1)`, [ids])).toHaveLength(3);
      await bar.getByRole("button", { name: "Delete" }).click();
      await del.getByRole("button", { name: "Delete 3 stories" }).click();
      await expect(page.getByRole("region", { name: "3 stories deleted." })).toBeVisible();
      expect(await query(`select id from articles where id = any($1)`, [ids])).toHaveLength(0);
      await page.context().close();
    } finally {
      await cleanUp();
    }
  });

  test("an author's Mine shows their own stories; deleting is refused for what is not theirs to delete, and Unpublish is not offered", async ({ browser, baseURL }) => {
    const run = Date.now().toString(36);
    const author = await accountWithRole(baseURL, `mine-author-${run}`, "author");
    const authorId = await userIdOf(author.email);
    const other = await accountWithRole(baseURL, `mine-other-${run}`, "author");
    const { ids, cleanUp } = await insertStories(run, [
      { title: `My own draft ${run}`, status: "draft", createdBy: authorId },
      { title: `My published story ${run}`, status: "published", createdBy: authorId, publishedAt: LONG_AGO },
      { title: `Not mine ${run}`, status: "draft", createdBy: await userIdOf(other.email) },
    ]);
    try {
      const page = await signedInPage(browser, author);
      await page.goto("/admin/articles", { waitUntil: "networkidle" });
      await page.getByRole("checkbox", { name: "Mine", exact: true }).check();
      await page.getByRole("button", { name: "Filter" }).click();
      await expect(page).toHaveURL(/mine=1/);
      await expect(page.getByRole("table").getByRole("row")).toHaveCount(3);
      await expect(page.getByRole("table")).not.toContainText(`Not mine ${run}`);
      await shots(page, "list-author-mine");

      await page.getByLabel("Select all on this page").check();
      const bar = page.getByRole("region", { name: "Bulk actions" });
      await expect(bar.getByRole("button", { name: "Unpublish" })).toHaveCount(0);
      await bar.getByRole("button", { name: "Delete" }).click();
      await page.getByRole("alertdialog", { name: "Delete stories" }).getByRole("button", { name: "Delete 2 stories" }).click();
      const report = page.getByRole("region", { name: "1 story deleted; 1 refused." });
      await expect(report).toContainText(`My published story ${run}: You can only change your own drafts. Ask an editor.`);
      expect((await query<{ id: string }>(`select id from articles where id = any($1)`, [ids])).map((r) => r.id).sort()).toEqual([ids[1], ids[2]].sort());
      // What was refused stays selected.
      await expect(bar).toContainText("1 selected");
      await page.context().close();
    } finally {
      await cleanUp();
    }
  });
});
