import { expect, expectNoSidewaysScroll, test, type Browser, type Page } from "./fixtures";
import { accountWithRole } from "./accounts";
import { signInWith, toastWith } from "./admin-session";
import { withDb } from "./db";
import { fillPublishingDetails, publishNow, expectStoryLive } from "./publish-panel";

// Acceptance 2 of the people issue (the review side): an author writes and submits a draft, cannot
// publish it (not in the form, and not by a crafted POST: 403, nothing changes); an editor sends it
// back with a note from the queue, the author sees the note and resubmits, the editor publishes it.


async function shots(page: Page, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    if (width === 390) await expectNoSidewaysScroll(page, name);
    await test.info().attach(`${name}-${width}`, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
  }
}

async function signedInPage(browser: Browser, account: { email: string; password: string }) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInWith(page, account);
  return page;
}

test("an author submits a draft, an editor sends it back with a note, the author resubmits, the editor publishes", async ({ browser, baseURL }) => {
  test.slow();
  const author = await accountWithRole(baseURL, "review-author", "author");
  const editor = await accountWithRole(baseURL, "review-editor", "editor");
  const title = `Review journey ${Date.now().toString(36)}`;

  // The author writes: the form offers Save Draft and Submit for review, nothing that publishes.
  const writer = await signedInPage(browser, author);
  await writer.goto("/admin/articles/new", { waitUntil: "networkidle" });
  await expect(writer.getByRole("button", { name: "Publish…" })).toHaveCount(0);
  await expect(writer.getByLabel("Publish at")).toHaveCount(0);
  await writer.getByLabel("Title *").fill(title);
  await writer.getByLabel("Content *").fill("An author's first draft.\n\nWith a second paragraph.");
  await writer.getByRole("button", { name: "Submit for review" }).click();
  await expect(toastWith(writer, "Submitted for review")).toBeVisible();
  await expect(writer).toHaveURL(/\/admin\/articles\/edit\//);
  await expect(writer.getByRole("heading", { name: /In review since/ })).toBeVisible();
  await expect(writer.getByRole("button", { name: "Update Article" })).toHaveCount(0);
  await expect(writer.getByRole("button", { name: "Unpublish" })).toHaveCount(0);
  await shots(writer, "author-form-waiting");
  const id = writer.url().split("/").pop()!;

  // A crafted POST that publishes: refused with 403, and the row is exactly as it was.
  const before = await withDb(async (db) => (await db.query(`select * from articles where id = $1`, [id])).rows[0]);
  const crafted = await author.context.post(`/admin/articles/edit/${id}`, {
    form: { title, slug: before.slug, content: "Published behind the editor's back", intent: "publish" },
    headers: { Origin: new URL(baseURL!).origin },
    maxRedirects: 0,
  });
  expect(crafted.status()).toBe(403);
  expect(await withDb(async (db) => (await db.query(`select * from articles where id = $1`, [id])).rows[0])).toEqual(before);

  // The editor finds it in the queue on the dashboard and sends it back with a note.
  const desk = await signedInPage(browser, editor);
  const queue = desk.getByRole("region", { name: /Waiting for review \(\d+\)/ });
  await expect(queue).toBeVisible();
  await shots(desk, "editor-dashboard-queue");
  await queue.getByRole("link", { name: title }).click();
  await expect(desk.getByRole("heading", { name: /In review since/ })).toBeVisible();
  await desk.getByLabel("Note for the author").fill("Please add a quote from the council.");
  await desk.getByRole("button", { name: "Send back" }).click();
  await expect(toastWith(desk, "Sent back")).toBeVisible();

  // The author sees the note on the draft, edits and resubmits.
  await writer.setViewportSize({ width: 1280, height: 900 });
  await writer.reload({ waitUntil: "networkidle" });
  await expect(writer.getByRole("heading", { name: /^Sent back by review-editor/ })).toBeVisible();
  await expect(writer.getByText("Please add a quote from the council.")).toBeVisible();
  await shots(writer, "author-form-sent-back");
  await writer.getByRole("button", { name: "Submit for review" }).click();
  await expect(toastWith(writer, "Submitted for review")).toBeVisible();

  // The editor publishes it from the form; it leaves the queue and is public.
  await desk.goto(`/admin/articles/edit/${id}`, { waitUntil: "networkidle" });
  await fillPublishingDetails(desk);
  await publishNow(desk);
  await expectStoryLive(desk);
  const row = await withDb(async (db) => (await db.query(`select slug, status, review_requested_at from articles where id = $1`, [id])).rows[0]);
  expect([row.status, row.review_requested_at]).toEqual(["published", null]);
  const reader = await browser.newPage();
  const response = await reader.goto(`/article/${row.slug}`);
  expect(response?.status()).toBe(200);
  await expect(reader.getByRole("heading", { level: 1, name: title })).toBeVisible();

  // Acceptance 4: the activity log names the writer's submit and the editor's publish, with times.
  await desk.goto(`/admin/activity`, { waitUntil: "networkidle" });
  const log = desk.getByRole("list", { name: "Activity, newest first" });
  const submitted = log.getByRole("listitem").filter({ hasText: "Submitted for review" }).filter({ hasText: title });
  const publishedEntry = log.getByRole("listitem").filter({ hasText: "Article published" }).filter({ hasText: title });
  await expect(submitted.first()).toContainText(author.email);
  await expect(publishedEntry.first()).toContainText(editor.email);
  await expect(publishedEntry.first().locator("time")).toHaveAttribute("datetime", /^\d{4}-\d\d-\d\dT/);
  await expect(log.getByRole("listitem").filter({ hasText: "Sent back to the author" }).filter({ hasText: title }).first()).toContainText(editor.email);
  await shots(desk, "editor-activity");

  // Published: the author may no longer open it for editing.
  const refused = await writer.goto(`/admin/articles/edit/${id}`);
  expect(refused?.status()).toBe(403);
});
