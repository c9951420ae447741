import fs from "node:fs";
import { expect, test } from "./fixtures";
import { ADMIN } from "./admin-session";
import { newContext, signIn } from "./accounts";
import { demoArticlePath } from "./db";

// Issue 12: whatever bytes or methods a client sends, it gets a 4xx with a clear message, and nothing
// it sends makes the server write a stack trace (or a commenter's e-mail) to its log.

const NUL_REFUSED = "A field contains a NUL character (U+0000), which is not allowed. Remove it and try again.";
const EMAIL = "nul.commenter@example.com";

/** What the e2e server logged since `from` (its log is copied to E2E_LOG_FILE). */
const logSize = () => fs.statSync(process.env.E2E_LOG_FILE!).size;
const loggedSince = (from: number) => fs.readFileSync(process.env.E2E_LOG_FILE!).subarray(from).toString("utf8");

test.describe("bad input", () => {
  test("a NUL in a field of the comment form, the category, article, settings and sign-in forms answers 400 with a message; nothing is logged with a stack", async ({ request, baseURL }) => {
    const from = logSize();
    const article = await demoArticlePath();
    const slug = article.replace("/article/", "");
    const origin = { Origin: baseURL! };
    const comment = { authorName: "Nul", authorEmail: EMAIL, content: "a\0b" };

    const api = await request.post(`/api/articles/${slug}/comments`, { form: comment, headers: origin });
    expect(api.status()).toBe(400);
    expect((await api.json()).error).toBe(NUL_REFUSED);

    const page = await request.post(article, { form: { intent: "comment", ...comment }, headers: origin });
    expect(page.status()).toBe(400);
    expect(await page.text()).toContain(NUL_REFUSED);

    const signUp = await request.post("/api/auth/sign-up/email", { data: { email: EMAIL, password: "a-long-password-1", name: "a\0b" }, headers: origin });
    expect(signUp.status()).toBe(400);
    expect((await signUp.json()).message).toBe(NUL_REFUSED);

    const login = await request.post("/admin/login", { form: { mode: "signin", email: "a\0@example.com", password: "x" }, headers: origin });
    expect(login.status()).toBe(400);

    const admin = await newContext(baseURL);
    await signIn(admin, ADMIN.email, ADMIN.password);
    const forms: [string, Record<string, string>][] = [
      ["/admin/categories", { intent: "create", name: "Bad\0Bytes", description: "x" }],
      ["/admin/articles/new", { title: "Bad\0Bytes", slug: "bad-bytes", content: "a" }],
      ["/admin/settings", { siteName: "Bad\0Bytes" }],
    ];
    for (const [path, form] of forms) {
      const response = await admin.post(path, { form, headers: origin });
      expect(response.status(), path).toBe(400);
      expect(await response.text(), path).toContain(NUL_REFUSED);
    }
    await admin.dispose();

    // Nothing was stored, and the log holds no stack trace and not the commenter's e-mail.
    expect((await request.get(article)).status()).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const logged = loggedSince(from);
    expect(logged).not.toMatch(/"stack"|\n\s+at /);
    expect(logged).not.toContain(EMAIL);
  });

  test("TRACE answers 405 and an escaped NUL in the address 400, with no stack trace in the log", async ({ request }) => {
    const from = logSize();
    const trace = await request.fetch("/", { method: "TRACE" });
    expect(trace.status()).toBe(405);
    expect(trace.headers()["allow"]).toBe("GET, HEAD, POST, OPTIONS");
    for (const method of ["PROPFIND", "PUT", "DELETE"]) expect((await request.fetch("/article/x", { method })).status(), method).toBe(405);
    expect((await request.fetch("/", { method: "OPTIONS" })).status()).toBe(204);
    for (const path of ["/article/a%00b", "/search?q=a%00b", "/category/news?page=%00"]) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(400);
      expect(await response.text()).toContain("NUL");
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(loggedSince(from)).not.toMatch(/"stack"|\n\s+at /);
  });
});
