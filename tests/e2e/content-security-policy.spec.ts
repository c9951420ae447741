import { expect, test } from "./fixtures";
import { ADMIN, signInAsAdmin } from "./admin-session";
import { newContext, signIn } from "./accounts";
import { demoArticlePath } from "./db";

/** The nonce a policy allows scripts with, and every nonce the page's scripts and preloads carry. */
function noncesOf(policy: string, html: string) {
  const allowed = /script-src 'nonce-([A-Za-z0-9_-]+)' 'strict-dynamic'/.exec(policy)?.[1] ?? null;
  const carried = new Set([...html.matchAll(/<(?:script|link)\b[^>]*\bnonce="([^"]*)"/g)].map((m) => m[1]));
  const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]!);
  // Every script that can run carries a nonce (JSON-LD is data, not a script).
  const bare = scripts.filter((attributes) => !/\bnonce="/.test(attributes) && !/type="application\/ld\+json"/.test(attributes));
  return { allowed, carried: [...carried], bare };
}

test.describe("Content-Security-Policy", () => {
  test("every page answer carries the strict policy, and two readers of one cached page get different nonces", async ({ request }) => {
    const article = await demoArticlePath();
    for (const path of ["/", article, "/category/news", "/search?q=news", "/admin/login", "/no-such-page"]) {
      const seen: string[] = [];
      for (let reader = 0; reader < 2; reader++) {
        const response = await request.get(path);
        const policy = response.headers()["content-security-policy"] ?? "";
        expect(policy, path).toContain("object-src 'none'");
        expect(policy, path).toContain("base-uri 'none'");
        expect(policy, path).toContain("frame-ancestors 'self'");
        expect(policy, path).toContain("form-action 'self'");
        expect(policy, path).not.toContain("unsafe-eval");
        expect(/script-src[^;]*unsafe-inline/.test(policy), path).toBe(false);
        const { allowed, carried, bare } = noncesOf(policy, await response.text());
        expect(allowed, path).not.toBeNull();
        expect(carried, `${path}: the page's nonces are the answer's`).toEqual([allowed]);
        expect(bare, `${path}: scripts without a nonce`).toEqual([]);
        seen.push(allowed!);
        if (path === "/" && reader === 1) expect(response.headers()["x-cache"]).toBe("HIT");
      }
      expect(seen[0], `${path}: a nonce is never sent twice`).not.toBe(seen[1]);
    }
  });

  test("a cached page sent gzipped carries its reader's nonce too", async ({ request }) => {
    await request.get("/category/news");
    const response = await request.get("/category/news", { headers: { "Accept-Encoding": "gzip, br" } });
    expect(response.headers()["x-cache"]).toBe("HIT");
    expect(response.headers()["content-encoding"]).toBe("gzip");
    const { allowed, carried } = noncesOf(response.headers()["content-security-policy"]!, await response.text());
    expect(carried).toEqual([allowed]);
  });

  test("the back office carries it too, for a signed-in editor", async ({ baseURL }) => {
    const admin = await newContext(baseURL);
    await signIn(admin, ADMIN.email, ADMIN.password);
    for (const path of ["/admin", "/admin/articles/new", "/admin/settings"]) {
      const response = await admin.get(path);
      expect(response.status(), path).toBe(200);
      const { allowed, carried, bare } = noncesOf(response.headers()["content-security-policy"] ?? "", await response.text());
      expect(allowed, path).not.toBeNull();
      expect(carried, path).toEqual([allowed]);
      expect(bare, path).toEqual([]);
    }
    await admin.dispose();
  });

  test("a page whose scripts have no nonce is refused by the browser: the policy is enforced, not reported", async ({ page, cspViolations }) => {
    await page.goto("/");
    // An inline script added to the page without the nonce (as injected markup would be) does not run.
    const ran = await page.evaluate(async () => {
      const script = document.createElement("div");
      script.innerHTML = `<img src="x" onerror="window.__injected = true">`;
      document.body.append(script);
      await new Promise((resolve) => setTimeout(resolve, 300));
      return (window as unknown as { __injected?: boolean }).__injected === true;
    });
    expect(ran).toBe(false);
    await expect.poll(() => cspViolations.some((text) => text.includes("script-src-attr"))).toBe(true);
    // This test expects exactly that violation: the journey-wide check must not fail it.
    cspViolations.length = 0;
  });

  test("the reader and admin journeys hydrate under the policy (a hydrated page handles clicks)", async ({ page }) => {
    await page.goto("/", { waitUntil: "networkidle" });
    await signInAsAdmin(page);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  });
});
