import { expect, test } from "./fixtures";
import sharp from "sharp";
import { demoArticlePath, query } from "./db";
import { someArticlePath, STATIC_PAGES } from "./routes";

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#x27": "'", "#39": "'" };
const decode = (text: string) => text.replace(/&(amp|lt|gt|quot|#x27|#39);/g, (_, name: string) => ENTITIES[name]!);

/** The values of every meta tag with this name/property in raw HTML, whatever the attribute order. */
function metaContents(html: string, attribute: "name" | "property", key: string): string[] {
  return (html.match(/<meta\b[^>]*>/g) ?? [])
    .filter((tag) => new RegExp(`\\b${attribute}="${key}"`).test(tag))
    .map((tag) => decode(/\bcontent="([^"]*)"/.exec(tag)?.[1] ?? ""));
}

/** The value of a meta tag in raw HTML, whatever the attribute order. */
function metaContent(html: string, attribute: "name" | "property", key: string): string | null {
  return metaContents(html, attribute, key)[0] ?? null;
}

/** Every JSON-LD block of a page, parsed as a crawler parses it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON, walked field by field
function jsonLd(html: string): Record<string, any>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!));
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
    const path = await demoArticlePath();
    const html = await (await request.get(path)).text();
    const heading = /<h1[^>]*>([^<]+)<\/h1>/.exec(html)?.[1];
    expect(/<title>([^<]+)<\/title>/.exec(html)?.[1]).toBe(`${heading} | Frontpage`);
    expect(metaContent(html, "property", "og:type")).toBe("article");
    // The byline's text: the linked authors' names (decision 0015) or the Author Name.
    const byline = /data-testid="byline"[^>]*>(.*?)<\/span>/.exec(html)?.[1]?.replace(/<[^>]+>/g, "");
    // One article:author per author, in byline order.
    const authors = metaContents(html, "property", "article:author");
    expect(authors.length).toBeGreaterThan(0);
    expect(byline).toBe(authors.length > 1 ? `${authors.slice(0, -1).join(", ")} and ${authors.at(-1)}` : authors[0]);
    expect(metaContent(html, "property", "article:modified_time")).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(metaContent(html, "property", "article:section")).toBeTruthy();
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

  const title = decode(/<title>([^<]+)<\/title>/.exec(html)?.[1] ?? "");
  // Every title ends with the brand (the site name from settings); the social title is the page's own.
  expect(title, "<title>").toMatch(/^.+ \| Frontpage$/);
  expect(metaContent(html, "property", "og:title"), "og:title").toBe(title.replace(/ \| Frontpage$/, ""));
  expect(metaContent(html, "name", "twitter:title"), "twitter:title").toBe(title.replace(/ \| Frontpage$/, ""));
  expect(metaContent(html, "property", "og:locale"), "og:locale").toBe("en_US");
  expect(metaContents(html, "name", "robots"), "robots").toEqual(["max-image-preview:large"]);
  expect(Number(metaContent(html, "property", "og:image:width")), "og:image:width").toBeGreaterThanOrEqual(1200);
  expect(Number(metaContent(html, "property", "og:image:height")), "og:image:height").toBeGreaterThan(600);
  expect(metaContent(html, "property", "og:image:alt"), "og:image:alt").toBeTruthy();
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

test.describe("structured data (JSON-LD) in the server-rendered HTML", () => {
  test("an article page: NewsArticle with every documented field, and Home → Category → Article", async ({ request }) => {
    const origin = new URL(test.info().project.use.baseURL!).origin;
    const path = await demoArticlePath();
    const html = await (await request.get(path)).text();
    const blocks = jsonLd(html);
    const article = blocks.find((b) => b["@type"] === "NewsArticle")!;
    expect(article, "NewsArticle").toBeTruthy();
    const heading = decode(/<h1[^>]*>([^<]+)<\/h1>/.exec(html)?.[1] ?? "");
    expect(article.headline).toBe(heading);
    expect(article.description).toBe(metaContent(html, "name", "description"));
    expect(article.mainEntityOfPage).toEqual({ "@type": "WebPage", "@id": `${origin}${path}` });
    expect(article.datePublished).toBe(metaContent(html, "property", "article:published_time"));
    expect(article.dateModified).toBe(metaContent(html, "property", "article:modified_time"));
    expect(article.articleSection).toBe(metaContent(html, "property", "article:section"));
    expect(article.author.map((a: { name: string }) => a.name)).toEqual(metaContents(html, "property", "article:author"));
    for (const author of article.author) {
      expect(author["@type"]).toBe("Person");
      expect(author.url).toMatch(new RegExp(`^${origin}/author/`));
      expect((await request.get(author.url.slice(origin.length))).status()).toBe(200);
    }
    expect(article.publisher["@type"]).toBe("NewsMediaOrganization");
    expect(article.publisher.name).toBe("Frontpage");
    expect(article.publisher.logo.url).toMatch(new RegExp(`^${origin}/`));
    // The three crops, each served at 1200 px wide in its ratio.
    expect(article.image.map((u: string) => new URL(u).searchParams.get("crop"))).toEqual(["16x9", "4x3", "1x1"]);
    const ratios = { "16x9": 675, "4x3": 900, "1x1": 1200 } as Record<string, number>;
    for (const url of article.image as string[]) {
      const response = await request.get(url.slice(origin.length));
      expect(response.status(), url).toBe(200);
      expect(response.headers()["content-type"]).toBe("image/webp");
      const { width, height } = await sharp(await response.body()).metadata();
      expect({ width, height }).toEqual({ width: 1200, height: ratios[new URL(url).searchParams.get("crop")!] });
    }

    const breadcrumb = blocks.find((b) => b["@type"] === "BreadcrumbList")!;
    expect(breadcrumb.itemListElement.map((i: { name: string }) => i.name)).toEqual(["Home", article.articleSection, heading]);
    expect(breadcrumb.itemListElement.at(-1).item).toBe(`${origin}${path}`);
  });

  test("home: Organization and WebSite with a SearchAction that works", async ({ request }) => {
    const origin = new URL(test.info().project.use.baseURL!).origin;
    const blocks = jsonLd(await (await request.get("/")).text());
    expect(blocks.map((b) => b["@type"])).toEqual(["NewsMediaOrganization", "WebSite"]);
    const template: string = blocks[1]!.potentialAction.target.urlTemplate;
    expect(template).toBe(`${origin}/search?q={search_term_string}`);
    expect((await request.get(template.slice(origin.length).replace("{search_term_string}", "council"))).status()).toBe(200);
  });

  test("a category page: Home → Category; an author page: ProfilePage of a Person", async ({ request }) => {
    const category = jsonLd(await (await request.get("/category/news")).text());
    expect(category.find((b) => b["@type"] === "BreadcrumbList")!.itemListElement.map((i: { name: string }) => i.name)).toEqual(["Home", "News"]);
    const articleHtml = await (await request.get(await demoArticlePath())).text();
    const authorPath = /href="(\/author\/[^"?#]+)"/.exec(articleHtml)?.[1];
    expect(authorPath, "a byline links an author").toBeTruthy();
    const profile = jsonLd(await (await request.get(authorPath!)).text()).find((b) => b["@type"] === "ProfilePage")!;
    expect(profile.mainEntity["@type"]).toBe("Person");
    expect(profile.mainEntity.url).toMatch(new RegExp(`${authorPath}$`));
  });

  test("the static pages carry their breadcrumb, Home → the page", async ({ request }) => {
    for (const path of STATIC_PAGES) {
      const blocks = jsonLd(await (await request.get(path)).text());
      const breadcrumb = blocks.find((b) => b["@type"] === "BreadcrumbList");
      expect(breadcrumb, path).toBeTruthy();
      expect(breadcrumb!.itemListElement.map((i: { item: string }) => new URL(i.item).pathname)).toEqual(["/", path]);
    }
  });

  test("no field can close the script element: a hostile title stays data", async ({ request }) => {
    const slug = `ld-escape-${Date.now().toString(36)}`;
    const title = `</script><script>alert(1)</script> & "quotes" \u2028`;
    await query(`insert into articles (title, slug, content, status, published_at) values ($1, $2, 'Body.', 'published', timestamptz '2001-01-01 12:00:00+00')`, [title, slug]);
    try {
      const html = await (await request.get(`/article/${slug}`)).text();
      expect(html).not.toContain("<script>alert(1)</script>");
      const article = jsonLd(html).find((b) => b["@type"] === "NewsArticle")!;
      expect(article.headline).toBe(title);
    } finally {
      await query(`delete from articles where slug = $1`, [slug]);
    }
  });

  test("noindex on search results and 404 pages (previews: noindex, nofollow, in their own tests)", async ({ request }) => {
    for (const path of ["/search?q=council", "/no-such-page-anywhere", "/article/no-such-article"]) {
      const html = await (await request.get(path)).text();
      expect(metaContents(html, "name", "robots"), path).toEqual(["noindex, follow"]);
    }
  });
});
