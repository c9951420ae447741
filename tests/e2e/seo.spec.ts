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

  test("an article page is typed article, with its author, published time, title and excerpt", async ({ request }) => {
    const path = await someArticlePath(request);
    const html = await (await request.get(path)).text();
    const heading = /<h1[^>]*>([^<]+)<\/h1>/.exec(html)?.[1];
    expect(/<title>([^<]+)<\/title>/.exec(html)?.[1]).toBe(`${heading} | Frontpage`);
    expect(metaContent(html, "property", "og:type")).toBe("article");
    // The byline's text: the linked authors' names (decision 0015) or the Author Name.
    const byline = /data-testid="byline"[^>]*>(.*?)<\/span>/.exec(html)?.[1]?.replace(/<[^>]+>/g, "");
    expect(metaContent(html, "property", "article:author")).toBe(byline);
    const published = metaContent(html, "property", "article:published_time");
    expect(published).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    // HTML attribute names are case-insensitive; React writes this one as dateTime.
    expect(html.toLowerCase()).toContain(`<time datetime="${published!.toLowerCase()}"`);
  });
});

async function checkMetadata(request: import("@playwright/test").APIRequestContext, path: string) {
  const origin = new URL(test.info().project.use.baseURL!).origin;
  const response = await request.get(path);
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("text/html");
  const html = await response.text();

  const title = /<title>([^<]+)<\/title>/.exec(html)?.[1];
  // Every title ends with the brand (the site name from settings).
  expect(title, "<title>").toMatch(/^.+ \| Frontpage$/);
  expect(metaContent(html, "property", "og:title"), "og:title").toBe(title);
  expect(metaContent(html, "name", "twitter:title"), "twitter:title").toBe(title);
  const description = metaContent(html, "name", "description");
  expect(description?.length, "meta description").toBeGreaterThan(20);
  expect(metaContent(html, "property", "og:description"), "og:description").toBe(description);
  expect(metaContent(html, "name", "keywords"), "keywords").toMatch(/^news, /);
  expect(metaContent(html, "name", "twitter:card"), "twitter:card").toBe("summary_large_image");
  const image = metaContent(html, "property", "og:image");
  expect(image, "og:image").toMatch(new RegExp(`^${origin}/`));
  expect(metaContent(html, "name", "twitter:image"), "twitter:image").toBe(image);

  const canonical = /<link\b[^>]*\brel="canonical"[^>]*>/.exec(html)?.[0];
  expect(canonical, "link rel=canonical").toBeTruthy();
  const href = /\bhref="([^"]+)"/.exec(canonical!)?.[1];
  // PUBLIC_URL's origin (the e2e server's own, where PUBLIC_URL is unset), and the page's path.
  expect(href).toBe(`${origin}${new URL(path, origin).pathname}`);
  expect(metaContent(html, "property", "og:url"), "og:url").toBe(href);
}
