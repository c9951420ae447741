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

/**
 * Signs `account` in through the auth API of the process at `base` (a test's own server, outside the
 * browser), sent as from `origin` (the site's PUBLIC_URL): answers the sign-in's response and the
 * session cookie for the requests that follow.
 */
export async function signInThroughApi(base: string, origin: string, account: { email: string; password: string } = ADMIN): Promise<{ response: Response; cookie: string }> {
  const response = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: origin },
    body: JSON.stringify(account),
  });
  const cookie = response.headers
    .getSetCookie()
    .map((value) => value.split(";")[0])
    .join("; ");
  return { response, cookie };
}
