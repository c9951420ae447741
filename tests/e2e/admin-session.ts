import type { Page } from "@playwright/test";

/** The administrator the e2e server (tests/setup/e2e-server.mjs) starts with, beside the demo content. */
export const ADMIN = { email: "admin@example.com", password: "admin-password-123" };

/** Signs in through the login page, once it is hydrated (the form is handled by the page's script), and lands on the dashboard. */
export async function signInWith(page: Page, account: { email: string; password: string }) {
  await page.goto("/admin/login", { waitUntil: "networkidle" });
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await page.waitForURL(/\/admin$/);
}

/** Signs in as the e2e server's administrator. */
export const signInAsAdmin = (page: Page) => signInWith(page, ADMIN);

/** The sonner toast holding `text` (title or description). */
export const toastWith = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });
