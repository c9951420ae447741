import { expect, type Page } from "@playwright/test";

// The article form's publish panel (decision 0033), as the browser journeys use it.

/**
 * What publishing needs beside the story (decision 0033): a category and a byline. A new story has the
 * signed-in writer's own byline (their author record); without one (or once it is removed) the
 * free-text Author Name is the byline, filled here.
 */
export async function fillPublishingDetails(page: Page, { category = "News", byline = "Newsroom Desk" } = {}) {
  // On a phone the story's settings are a sheet opened by "Settings" (decision 0035).
  const sheetButton = page.getByRole("button", { name: "Settings", exact: true });
  const sheet = (await sheetButton.isVisible()) ? page.getByRole("dialog", { name: "Story settings" }) : null;
  if (sheet) {
    await sheetButton.click();
    await expect(sheet).toBeVisible();
  }
  await page.getByLabel("Category").selectOption({ label: category });
  const authorName = page.getByLabel("Author Name");
  if (await authorName.isVisible()) await authorName.fill(byline);
  if (sheet) {
    await sheet.getByRole("button", { name: "Done" }).click();
    await expect(sheet).toBeHidden();
  }
}

/** "Publish…" → "Publish now": the story goes public at once. */
export async function publishNow(page: Page) {
  await page.getByRole("button", { name: "Publish…" }).click();
  const panel = page.getByRole("dialog", { name: "Publish this story" });
  await expect(panel).toBeVisible();
  await panel.getByRole("button", { name: "Publish now" }).click();
}

/**
 * After "Publish now" (issue 41): the story's edit page with "Your story is live" at its top, its link
 * the story's public address. Answers that link.
 */
export async function expectStoryLive(page: Page): Promise<string> {
  await expect(page).toHaveURL(/\/admin\/articles\/edit\/[0-9a-f-]{36}\?published=1$/);
  const panel = page.getByRole("region", { name: "Your story is live" });
  await expect(panel).toBeVisible();
  return (await panel.getByTestId("story-live-url").getAttribute("href"))!;
}

/** "Publish…" (or "Reschedule…") → "Schedule" at `wallClock` (a datetime-local value in the site's time zone). */
export async function scheduleAt(page: Page, wallClock: string) {
  const open = page.getByRole("button", { name: /^(Publish|Reschedule)…$/ });
  await open.click();
  const panel = page.getByRole("dialog", { name: /^(Publish|Reschedule) this story$/ });
  await expect(panel).toBeVisible();
  await panel.getByLabel("Schedule").check();
  await panel.getByLabel("Publish at").fill(wallClock);
  await panel.getByRole("button", { name: "Schedule", exact: true }).click();
}
