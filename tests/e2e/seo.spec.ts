import { expect, test } from "@playwright/test";
import { someArticlePath, STATIC_PAGES } from "./routes";

/** The value of a meta tag in raw HTML, whatever the attribute order. */
function metaContent(html: string, attribute: "name" | "property", key: string): string | null {
  for (const tag of html.match(/<meta\b[^>]*>/g) ?? []) {
    if (new RegExp(`\\b${attribute}="${key}"`).test(tag)) {
      return /\bcontent="([^"]*)"/.exec(tag)?.[1] ?? null;
    }
  }
  return null;
}

test.describe("search-engine metadata in the server-rendered HTML", () => {
  const paths = ["/", "/category/news", ...STATIC_PAGES];

  for (const path of paths) {
    test(`${path} carries a title, a description, Open Graph tags and a canonical link without JavaScript`, async ({ request }) => {
      await checkMetadata(request, path);
    });
  }

  test("an article page carries a title, a description, Open Graph tags and a canonical link without JavaScript", async ({ request }) => {
    await checkMetadata(request, await someArticlePath(request));
  });
});

async function checkMetadata(request: import("@playwright/test").APIRequestContext, path: string) {
  const response = await request.get(path);
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("text/html");
  const html = await response.text();

  const title = /<title>([^<]+)<\/title>/.exec(html)?.[1];
  expect(title, "a non-empty <title>").toBeTruthy();
  expect(metaContent(html, "name", "description"), "meta description").toBeTruthy();
  expect(metaContent(html, "property", "og:title"), "og:title").toBeTruthy();
  expect(metaContent(html, "property", "og:image"), "og:image").toMatch(/^https?:\/\//);

  const canonical = /<link\b[^>]*\brel="canonical"[^>]*>/.exec(html)?.[0];
  expect(canonical, "link rel=canonical").toBeTruthy();
  const href = /\bhref="([^"]+)"/.exec(canonical!)?.[1];
  expect(new URL(href!).pathname).toBe(new URL(path, "http://x").pathname);
}
