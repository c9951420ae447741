import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { expect, request as playwrightRequest, test, type APIRequestContext, type APIResponse } from "./fixtures";
import { newContext, PNG, signIn, signUpAndSignIn, uniqueEmail } from "./accounts";
import { dataDir, snapshot, withDb } from "./db";

// Acceptance 3, 7 and 8 of the accounts issue, checked against the e2e server's own database:
// - an anonymous visitor and a signed-up ordinary user sweep every admin page, action and resource
//   route with every method, get a redirect to /admin/login, 401 or 403, and nothing changes;
// - an admin's session cookie replayed after sign-out opens nothing;
// - `npm run admin -- grant|revoke` while the server runs counts from the user's very next request.
//
// No test here types a wrong password: the sign-in limit counts failures per IP, and every test
// file runs from 127.0.0.1.

const ROOT = path.resolve(import.meta.dirname, "../..");
const ADMIN = { email: "admin@example.com", password: "admin-password-123" };
const run = promisify(execFile);

interface RealIds {
  articleId: string;
  articleSlug: string;
  categoryId: string;
  commentId: string;
  media: { bucket: string; name: string };
  commenterEmails: string[];
}

async function realIds(): Promise<RealIds> {
  return withDb(async (db) => {
    const article = (await db.query<{ id: string; slug: string }>(`select id, slug from articles order by created_at desc limit 1`)).rows[0];
    const category = (await db.query<{ id: string }>(`select id from categories order by created_at limit 1`)).rows[0];
    const comment = (await db.query<{ id: string }>(`select id from comments order by created_at desc limit 1`)).rows[0];
    const media = (await db.query<{ bucket: string; name: string }>(`select bucket, name from media order by created_at limit 1`)).rows[0];
    const emails = (await db.query<{ author_email: string }>(`select distinct author_email from comments limit 20`)).rows;
    expect(article, "the demo content has an article").toBeDefined();
    expect(category, "the demo content has a category").toBeDefined();
    return {
      articleId: article.id,
      articleSlug: article.slug,
      categoryId: category.id,
      // The demo content may hold no comments or media: made-up ids are refused just the same.
      commentId: comment?.id ?? "5b0c7a5e-3f7e-4a53-9d8e-1f0b3d7c2a11",
      media: media ?? { bucket: "images", name: "1700000000000-photo.png" },
      commenterEmails: emails.map((r) => r.author_email),
    };
  });
}

async function isAdminInDb(email: string): Promise<boolean> {
  return withDb(async (db) => {
    const { rows } = await db.query(
      `select 1 from user_roles r join "user" u on u.id = r.user_id where lower(u.email) = lower($1) and r.role = 'admin'`,
      [email],
    );
    return rows.length > 0;
  });
}

// ------------------------------------------------------------------ accounts

async function sessionCookie(context: APIRequestContext) {
  const cookie = (await context.storageState()).cookies.find((c) => c.name.endsWith("better-auth.session_token"));
  expect(cookie, "the session cookie").toBeDefined();
  return cookie!;
}

function adminCli(...args: string[]) {
  return run("npm", ["run", "--silent", "admin", "--", ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir(), DATABASE_URL: "", LOG_LEVEL: "warn" },
    timeout: 60_000,
  });
}

// ------------------------------------------------------------------ the sweep

const ADMIN_PAGES = (ids: RealIds) => [
  "/admin",
  "/admin/articles",
  "/admin/articles/new",
  `/admin/articles/edit/${ids.articleId}`,
  "/admin/articles/edit/0f8f5b1e-7d1c-4a4b-9c55-3b2a1e6d9f00",
  `/admin/articles/preview/${ids.articleId}`,
  // The edit form's History (a resource route): its list, and one revision's fields.
  `/admin/articles/edit/${ids.articleId}/history`,
  "/admin/categories",
  "/admin/authors",
  "/admin/media",
  "/admin/comments",
  "/admin/settings",
  "/admin/activity",
  "/admin/team",
  "/admin/profile",
];

/** The URLs React Router's client asks for a page's data and posts its forms to. */
const dataUrl = (page: string) => (page === "/admin" ? "/admin.data" : `${page}.data`);

type Body = { form: Record<string, string> } | { multipart: Record<string, string | { name: string; mimeType: string; buffer: Buffer }> };

function bodiesFor(page: string, ids: RealIds): Body[] {
  const article = {
    title: "Sweep Article",
    slug: "sweep-article",
    excerpt: "An article nobody may create",
    content: "Body text of an article nobody may create.",
    categoryId: ids.categoryId,
    authorName: "Intruder",
    featuredImage: "",
    videoUrl: "",
  };
  const settings = {
    siteName: "Hijacked",
    siteTagline: "Hijacked tagline",
    siteDescription: "Hijacked description",
    footerText: "Hijacked footer",
    logoUrl: "",
    faviconUrl: "",
    contactEmail: "intruder@example.com",
    contactPhone: "+1 555 0100",
    facebookUrl: "https://evil.example/fb",
    twitterUrl: "",
    instagramUrl: "",
    linkedinUrl: "",
    youtubeUrl: "",
  };
  const deletes: Body[] = [
    { form: { intent: "delete", id: ids.articleId } },
    { form: { intent: "delete", id: ids.categoryId } },
    { form: { intent: "delete", id: ids.commentId } },
  ];
  const base = page.replace(/\.data$/, "");
  if (base === "/admin" || base === "/admin/articles") return deletes;
  if (base === "/admin/articles/new" || base.startsWith("/admin/articles/edit/")) {
    return [
      { form: { ...article, intent: "save" } },
      { form: { ...article, intent: "draft", publishAt: "2030-01-01T00:00" } },
      { form: { intent: "unpublish" } },
      { multipart: { ...article, imageFile: { name: "photo.png", mimeType: "image/png", buffer: PNG } } },
      { form: { intent: "delete", id: ids.articleId } },
    ];
  }
  if (base === "/admin/categories") {
    return [
      { form: { intent: "create", name: "Sweep Category", slug: "sweep-category" } },
      { form: { intent: "update", id: ids.categoryId, name: "Renamed", slug: "renamed" } },
      { form: { intent: "delete", id: ids.categoryId } },
    ];
  }
  if (base === "/admin/authors") {
    return [
      { form: { intent: "create", name: "Sweep Author", slug: "sweep-author", websiteUrl: "https://evil.example/" } },
      { form: { intent: "update", id: ids.categoryId, name: "Renamed", slug: "renamed" } },
      { form: { intent: "delete", id: ids.categoryId } },
    ];
  }
  if (base === "/admin/media") {
    return [
      { form: { intent: "delete", ...ids.media } },
      { form: { intent: "publish", ...ids.media, title: "Published by nobody", categoryId: ids.categoryId, excerpt: "", content: "x" } },
    ];
  }
  if (base === "/admin/comments") return [{ form: { intent: "delete", id: ids.commentId } }, ...deletes];
  if (base === "/admin/settings") return [{ form: settings }, { multipart: settings }];
  if (base === "/admin/team") return [{ form: { intent: "invite", email: "intruder@example.com", role: "admin" } }, { form: { intent: "role", userId: "x", role: "admin" } }];
  if (base === "/admin/profile") return [{ form: { intent: "sign-out-everywhere" } }, { form: { intent: "change-password", currentPassword: "x", newPassword: "y", confirmPassword: "y" } }];
  return deletes;
}

const STATE_METHODS = ["POST", "PUT", "PATCH", "DELETE"] as const;
const UPLOAD_KINDS = ["image", "video", "file", "logo", "favicon"] as const;

interface Refusal {
  method: string;
  url: string;
  status: number;
  detail: string;
}

/**
 * Sends every admin request as `who` and returns every answer that was NOT a refusal: empty means
 * each page GET was redirected to /admin/login and every other request got `deniedStatus`.
 */
async function sweep(context: APIRequestContext, ids: RealIds, deniedStatus: 401 | 403): Promise<{ failures: Refusal[]; count: number }> {
  const failures: Refusal[] = [];
  let count = 0;
  const secrets = [ADMIN.email, ...ids.commenterEmails];

  const record = async (method: string, url: string, response: APIResponse, ok: boolean, why: string) => {
    count++;
    const body = method === "HEAD" ? "" : await response.text();
    const leaked = secrets.find((s) => body.includes(s));
    if (leaked) failures.push({ method, url, status: response.status(), detail: `the answer holds ${leaked}` });
    else if (!ok) failures.push({ method, url, status: response.status(), detail: `${why}; got ${response.headers()["location"] ?? body.slice(0, 160)}` });
    const cacheControl = response.headers()["cache-control"];
    if (cacheControl !== "no-store") failures.push({ method, url, status: response.status(), detail: `Cache-Control is ${cacheControl}` });
  };

  for (const page of ADMIN_PAGES(ids)) {
    // Page GETs (and HEADs): a redirect to the login page, and nothing of the screen.
    for (const method of ["GET", "HEAD"] as const) {
      const response = await context.fetch(page, { method, maxRedirects: 0 });
      await record(
        method,
        page,
        response,
        response.status() === 302 && response.headers()["location"] === "/admin/login",
        "expected 302 to /admin/login",
      );
    }
    // The client's data request: a redirect to the login page (React Router answers .data redirects
    // with 202 and the target in the body) or 401/403 — never the loader's data.
    for (const url of [dataUrl(page), `${dataUrl(page)}?_routes=routes/admin/layout,${encodeURIComponent("routes/admin/dashboard")}`]) {
      const response = await context.get(url, { maxRedirects: 0 });
      const status = response.status();
      const text = await response.text();
      const redirected =
        (status >= 300 && status < 400 && response.headers()["location"] === "/admin/login") ||
        (status === 202 && text.includes("/admin/login") && !text.includes(ids.articleId));
      count++;
      if (!(redirected || status === 401 || status === 403)) {
        failures.push({ method: "GET", url, status, detail: `expected a redirect to /admin/login or 401/403; got ${text.slice(0, 160)}` });
      }
      const cacheControl = response.headers()["cache-control"];
      if (cacheControl !== "no-store") failures.push({ method: "GET", url, status, detail: `Cache-Control is ${cacheControl}` });
    }
    // Every state-changing method with plausible bodies, on the page and on its data URL.
    for (const url of [page, dataUrl(page), `${page}?index`]) {
      for (const method of STATE_METHODS) {
        for (const body of bodiesFor(page, ids)) {
          const response = await context.fetch(url, { method, maxRedirects: 0, ...body });
          await record(method, url, response, response.status() === deniedStatus, `expected ${deniedStatus}`);
        }
      }
    }
  }

  // Admin resource routes: uploads (a real PNG), the event stream, and anything else under /api/admin.
  for (const kind of UPLOAD_KINDS) {
    const url = `/api/admin/uploads/${kind}`;
    for (const method of ["GET", "HEAD", ...STATE_METHODS]) {
      const response = await context.fetch(url, {
        method,
        maxRedirects: 0,
        ...(method === "GET" || method === "HEAD" ? {} : { multipart: { file: { name: "pixel.png", mimeType: "image/png", buffer: PNG } } }),
      });
      await record(method, url, response, response.status() === deniedStatus, `expected ${deniedStatus}`);
    }
  }
  for (const url of ["/api/admin/events", "/api/admin/events.data", "/api/admin/uploads/unknown", "/api/admin/media", "/api/admin/settings", "/api/admin"]) {
    for (const method of ["GET", "HEAD", ...STATE_METHODS]) {
      const response = await context.fetch(url, {
        method,
        maxRedirects: 0,
        ...(method === "GET" || method === "HEAD" ? {} : { form: { intent: "delete", ...ids.media } }),
      });
      await record(method, url, response, response.status() === deniedStatus, `expected ${deniedStatus}`);
    }
  }

  // Spellings that slip past a prefix match but may still reach a route (React Router matches paths
  // case-insensitively): whatever answers, it must be a refusal.
  for (const url of ["/ADMIN/settings", "/Admin/articles", "/admin//settings", "/admin/settings/", "/API/ADMIN/uploads/image"]) {
    for (const method of STATE_METHODS) {
      const body: Body = url.toLowerCase().includes("uploads")
        ? { multipart: { file: { name: "pixel.png", mimeType: "image/png", buffer: PNG } } }
        : { form: { siteName: "Hijacked", intent: "delete", id: ids.articleId } };
      const response = await context.fetch(url, { method, maxRedirects: 0, ...body });
      count++;
      const status = response.status();
      if (status < 400) failures.push({ method, url, status, detail: `expected a refusal; got ${(await response.text()).slice(0, 160)}` });
    }
  }
  return { failures, count };
}

test.describe("admin authorization", () => {
  test("anonymous visitors and ordinary users are refused by every admin page, action and resource route, and nothing changes", async ({
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const ids = await realIds();
    const before = await snapshot();

    const anonymous = await newContext(baseURL);
    const reader = await newContext(baseURL);
    try {
      const anon = await sweep(anonymous, ids, 401);
      expect(anon.failures, `anonymous: ${anon.failures.length} of ${anon.count} requests were not refused`).toEqual([]);

      const email = uniqueEmail("reader");
      await signUpAndSignIn(reader, email, "reader-password-1");
      expect(await isAdminInDb(email)).toBe(false);
      const user = await sweep(reader, ids, 403);
      expect(user.failures, `ordinary user: ${user.failures.length} of ${user.count} requests were not refused`).toEqual([]);
      test.info().annotations.push({ type: "sweep", description: `${anon.count} anonymous and ${user.count} ordinary-user requests refused` });
      // Still signed in: the refusals were for lack of the role, not for a lost session.
      expect((await (await reader.get("/api/auth/get-session")).json())?.user?.email).toBe(email);
    } finally {
      await anonymous.dispose();
      await reader.dispose();
    }

    expect(await snapshot()).toEqual(before);
  });

  test("after sign-out, the admin's old session cookie opens nothing", async ({ baseURL }) => {
    const admin = await newContext(baseURL);
    let replay: APIRequestContext | null = null;
    try {
      await signIn(admin, ADMIN.email, ADMIN.password);
      expect((await admin.get("/admin", { maxRedirects: 0 })).status()).toBe(200);
      // The admin's own answers, pages and data alike, are never stored (the dashboard's data URL too).
      for (const url of ["/admin", "/admin.data", "/admin/settings.data", "/ADMIN/settings"]) {
        const answer = await admin.get(url, { maxRedirects: 0 });
        expect(answer.status(), url).toBe(200);
        expect(answer.headers()["cache-control"], url).toBe("no-store");
      }
      const cookie = await sessionCookie(admin);

      const signOut = await admin.post("/auth/sign-out", { headers: { Origin: new URL(baseURL!).origin }, maxRedirects: 0 });
      expect(signOut.status()).toBe(302);
      expect(signOut.headers()["location"]).toBe("/");
      // The session is gone on the server, not only from the browser.
      const token = decodeURIComponent(cookie.value).split(".")[0];
      expect(await withDb(async (db) => (await db.query(`select 1 from session where token = $1`, [token])).rows.length)).toBe(0);

      const before = await snapshot();
      replay = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { cookie: `${cookie.name}=${cookie.value}`, Origin: new URL(baseURL!).origin } });
      const page = await replay.get("/admin", { maxRedirects: 0 });
      expect(page.status()).toBe(302);
      expect(page.headers()["location"]).toBe("/admin/login");
      const events = await replay.get("/api/admin/events", { maxRedirects: 0 });
      expect(events.status()).toBe(401);
      expect((await replay.post("/admin/settings", { form: { siteName: "Replayed" }, maxRedirects: 0 })).status()).toBe(401);
      const upload = await replay.post("/api/admin/uploads/image", {
        multipart: { file: { name: "pixel.png", mimeType: "image/png", buffer: PNG } },
        maxRedirects: 0,
      });
      expect(upload.status()).toBe(401);
      expect(await (await replay.get("/api/auth/get-session")).json()).toBeNull();
      expect(await snapshot()).toEqual(before);
    } finally {
      await replay?.dispose();
      await admin.dispose();
    }
  });

  test("`npm run admin -- grant` makes a signed-in user an admin on the next request, and `revoke` takes it away", async ({ baseURL }) => {
    test.setTimeout(180_000);
    const email = uniqueEmail("editor");
    const user = await newContext(baseURL);
    try {
      await signUpAndSignIn(user, email, "editor-password-1");
      const cookieBefore = await sessionCookie(user);
      const refused = await user.get("/admin", { maxRedirects: 0 });
      expect(refused.status()).toBe(302);
      expect(refused.headers()["location"]).toBe("/admin/login");
      expect((await user.get("/api/admin/events", { maxRedirects: 0 })).status()).toBe(403);

      const granted = await adminCli("grant", email);
      expect(granted.stdout).toContain(`${email} is now an admin.`);
      expect(await isAdminInDb(email)).toBe(true);

      // The same session, no new sign-in: the very next request is an admin's.
      const dashboard = await user.get("/admin", { maxRedirects: 0 });
      expect(dashboard.status()).toBe(200);
      expect(await dashboard.text()).toContain(email);
      expect((await user.get("/admin/settings.data", { maxRedirects: 0 })).status()).toBe(200);
      expect((await sessionCookie(user)).value).toBe(cookieBefore.value);

      const revoked = await adminCli("revoke", email);
      expect(revoked.stdout).toContain(`${email} is no longer an admin.`);
      expect(await isAdminInDb(email)).toBe(false);

      const before = await snapshot();
      const again = await user.get("/admin", { maxRedirects: 0 });
      expect(again.status()).toBe(302);
      expect(again.headers()["location"]).toBe("/admin/login");
      expect((await user.post("/admin/settings", { form: { siteName: "Revoked" }, maxRedirects: 0 })).status()).toBe(403);
      expect((await user.get("/api/admin/events", { maxRedirects: 0 })).status()).toBe(403);
      expect(await snapshot()).toEqual(before);
    } finally {
      await user.dispose();
    }
  });
});
