import { expect, type Page } from "@playwright/test";

// The article form's publish panel (decision 0033), as the browser journeys use it.

/**
 * What publishing needs beside the story (decision 0033): a category and a byline. The byline is the
 * Author Name here (the signed-in test accounts may have no author record of their own).
 */
export async function fillPublishingDetails(page: Page, { category = "News", byline = "Newsroom Desk" } = {}) {
  await page.getByLabel("Category").selectOption({ label: category });
  await page.getByLabel("Author Name").fill(byline);
}

/** "Publish…" → "Publish now": the story goes public at once. */
export async function publishNow(page: Page) {
  await page.getByRole("button", { name: "Publish…" }).click();
  const panel = page.getByRole("dialog", { name: "Publish this story" });
  await expect(panel).toBeVisible();
  await panel.getByRole("button", { name: "Publish now" }).click();
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
