import { expect, request as playwrightRequest, test, type Page } from "./fixtures";

// The e2e server (tests/setup/e2e-server.mjs) starts with ADMIN_EMAIL/ADMIN_PASSWORD set to this account.
const ADMIN = { email: "admin@example.com", password: "admin-password-123" };

// No test here types a wrong password: five failures from one IP (every test runs from 127.0.0.1)
// would lock every account out for 15 minutes. The limit itself is covered by
// app/domain/accounts/login-limit.server.test.ts.

const toastWith = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

async function openLogin(page: Page) {
  // The form is handled by the page's script: wait for hydration.
  await page.goto("/admin/login", { waitUntil: "networkidle" });
}

async function signInAsAdmin(page: Page) {
  await openLogin(page);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await page.waitForURL(/\/admin$/);
}

test.describe("admin sign-in and the guard", () => {
  test("an anonymous GET /admin redirects to /admin/login, and admin answers are no-store", async ({ page, request }) => {
    const response = await request.get("/admin", { maxRedirects: 0 });
    expect(response.status()).toBe(302);
    expect(response.headers()["location"]).toBe("/admin/login");
    expect(response.headers()["cache-control"]).toBe("no-store");

    await page.goto("/admin/articles");
    await expect(page).toHaveURL(/\/admin\/login$/);
    await expect(page.getByRole("heading", { name: "Admin Login" })).toBeVisible();
  });

  test("anonymous state changes and admin API calls get 401 and change nothing", async ({ request }) => {
    expect((await request.post("/admin/articles", { form: { title: "x" }, maxRedirects: 0 })).status()).toBe(401);
    expect((await request.delete("/admin/categories", { maxRedirects: 0 })).status()).toBe(401);
    expect((await request.get("/api/admin/events", { maxRedirects: 0 })).status()).toBe(401);
  });

  test("blank fields show the spec's notice and send nothing", async ({ page }) => {
    await openLogin(page);
    let authCalls = 0;
    page.on("request", (r) => {
      if (r.url().includes("/api/auth/")) authCalls++;
    });
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(toastWith(page, "Missing fields")).toContainText("Please enter both email and password");
    expect(authCalls).toBe(0);
  });

  test("signing in with the ADMIN_EMAIL account reaches /admin; the login page then sends the admin on", async ({ page }) => {
    await signInAsAdmin(page);
    await expect(page).toHaveURL(/\/admin$/);
    await page.goto("/");
    await expect(page.getByRole("link", { name: "Admin dashboard" })).toBeVisible();
    await page.goto("/admin/login");
    await expect(page).toHaveURL(/\/admin$/);
  });

  test("after sign-out, replaying the old session cookie gets no admin access", async ({ page, baseURL }) => {
    await signInAsAdmin(page);
    const session = (await page.context().cookies()).find((c) => c.name.endsWith("better-auth.session_token"));
    expect(session, "the session cookie").toBeDefined();
    expect(session!.httpOnly).toBe(true);
    expect(session!.sameSite).toBe("Lax");

    await page.goto("/");
    await page.getByRole("button", { name: "Sign out" }).first().click();
    await expect(page).toHaveURL(new URL("/", baseURL).href);
    await expect(page.getByRole("button", { name: "Sign out" })).toHaveCount(0);

    const replay = await playwrightRequest.newContext({
      baseURL,
      extraHTTPHeaders: { cookie: `${session!.name}=${session!.value}` },
    });
    try {
      const pageAnswer = await replay.get("/admin", { maxRedirects: 0 });
      expect(pageAnswer.status()).toBe(302);
      expect(pageAnswer.headers()["location"]).toBe("/admin/login");
      expect((await replay.get("/api/admin/events", { maxRedirects: 0 })).status()).toBe(401);
      expect(await (await replay.get("/api/auth/get-session")).json()).toBeNull();
    } finally {
      await replay.dispose();
    }
  });

  test("sign-up makes an ordinary account: the spec's notice, back to sign-in mode, and no admin access", async ({ page }) => {
    const email = `reader-${Date.now().toString(36)}@example.com`;
    // Sign-ups are limited per client address; the e2e server trusts X-Forwarded-For from loopback.
    await page.setExtraHTTPHeaders({ "X-Forwarded-For": `198.19.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` });
    await openLogin(page);
    await page.getByRole("button", { name: "Don't have an account? Sign Up" }).click();
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("short");
    await page.getByRole("button", { name: "Sign Up", exact: true }).click();
    await expect(toastWith(page, "Signup failed")).toContainText("Password too short");

    await page.getByLabel("Password").fill("reader-password-1");
    await page.getByRole("button", { name: "Sign Up", exact: true }).click();
    await expect(toastWith(page, "Account created!")).toContainText("Please contact an admin to grant you admin access.");
    await expect(page.getByRole("button", { name: "Sign In", exact: true })).toBeVisible();

    await page.getByLabel("Password").fill("reader-password-1");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    // Signed in, but not an admin: the dashboard sends the user back to the login page.
    await expect(page).toHaveURL(/\/admin\/login$/);
    await expect(page.getByText(`You are signed in as ${email}, but this account does not have admin access.`)).toBeVisible();
    expect((await page.request.post("/admin/articles", { form: { title: "x" }, headers: { Origin: new URL(page.url()).origin }, maxRedirects: 0 })).status()).toBe(403);
  });

  test("without JavaScript the form still signs in (the password never goes into the URL)", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto("/admin/login");
      await page.getByLabel("Email").fill(ADMIN.email);
      await page.getByLabel("Password").fill(ADMIN.password);
      await page.getByRole("button", { name: "Sign In", exact: true }).click();
      await expect(page).toHaveURL(/\/admin$/);
      expect(page.url()).not.toContain("password");
    } finally {
      await context.close();
    }
  });

  test("a cross-site form post is refused", async ({ request }) => {
    const response = await request.post("/auth/sign-out", { headers: { Origin: "https://evil.example" }, maxRedirects: 0 });
    expect(response.status()).toBe(403);
  });
});
