import { describe, expect, test } from "vitest";
import { articleSearchAndSocial, buildMeta, DEFAULT_KEYWORDS, describeArticle, INDEXABLE, NOINDEX } from "./seo";
import { articleImages } from "./structured-data";

const site = { siteName: "The Harbour", siteTagline: "News by the water", siteDescription: "Local news.", publicUrl: "https://news.example" };
const tag = (tags: ReturnType<typeof buildMeta>, key: string, value: string) =>
  tags.find((t) => (t as Record<string, unknown>)[key] === value) as Record<string, string> | undefined;

describe("page metadata", () => {
  test("every title ends with the site name; the home page leads with the tagline", () => {
    expect(tag(buildMeta({ path: "/" }, site), "title", "News by the water | The Harbour")).toBeDefined();
    expect(tag(buildMeta({ title: "About", path: "/about" }, site), "title", "About | The Harbour")).toBeDefined();
  });

  test("canonical and og:url use the public origin; images become absolute, the default share image otherwise", () => {
    const tags = buildMeta({ title: "News", path: "/category/news", image: "/media/images/1-a.png" }, site);
    expect(tag(tags, "rel", "canonical")?.href).toBe("https://news.example/category/news");
    expect(tag(tags, "property", "og:url")?.content).toBe("https://news.example/category/news");
    // Our own image is shared as its 16:9 crop, exactly 1200×675.
    expect(tag(tags, "property", "og:image")?.content).toBe("https://news.example/media/images/1-a.png?crop=16x9");
    expect(tag(tags, "property", "og:image:width")?.content).toBe("1200");
    expect(tag(tags, "property", "og:image:height")?.content).toBe("675");
    expect(tag(tags, "name", "twitter:image")?.content).toBe("https://news.example/media/images/1-a.png?crop=16x9");
    const home = buildMeta({ path: "/" }, site);
    expect(tag(home, "property", "og:image")?.content).toBe("https://news.example/share-default.png");
    expect(tag(home, "property", "og:image:width")?.content).toBe("1200");
    expect(tag(home, "property", "og:image:height")?.content).toBe("630");
    // An image from elsewhere: as it is, with no size we cannot vouch for.
    const outside = buildMeta({ title: "X", path: "/x", image: "https://cdn.example/p.jpg" }, site);
    expect(tag(outside, "property", "og:image")?.content).toBe("https://cdn.example/p.jpg");
    expect(tag(outside, "property", "og:image:width")).toBeUndefined();
  });

  test("og:title and twitter:title are the page's own title; <title> keeps the brand; og:locale is set", () => {
    const tags = buildMeta({ title: "Bridge reopens", path: "/article/bridge" }, site);
    expect(tag(tags, "title", "Bridge reopens | The Harbour")).toBeDefined();
    expect(tag(tags, "property", "og:title")?.content).toBe("Bridge reopens");
    expect(tag(tags, "name", "twitter:title")?.content).toBe("Bridge reopens");
    expect(tag(tags, "property", "og:locale")?.content).toBe("en_US");
    expect(tag(buildMeta({ path: "/" }, site), "property", "og:title")?.content).toBe("News by the water");
  });

  test("indexable pages allow large image previews; others say noindex", () => {
    expect(tag(buildMeta({ path: "/" }, site), "name", "robots")?.content).toBe(INDEXABLE);
    expect(INDEXABLE).toBe("max-image-preview:large");
    const search = buildMeta({ title: "Search", path: "/search", robots: NOINDEX }, site);
    expect(search.filter((t) => (t as Record<string, string>).name === "robots")).toEqual([{ name: "robots", content: "noindex, follow" }]);
  });

  test("the image's alt text goes to og:image:alt and twitter:image:alt", () => {
    const tags = buildMeta({ title: "X", path: "/x", image: "/media/images/1-a.png", imageAlt: "A ferry at dawn" }, site);
    expect(tag(tags, "property", "og:image:alt")?.content).toBe("A ferry at dawn");
    expect(tag(tags, "name", "twitter:image:alt")?.content).toBe("A ferry at dawn");
  });

  test("an article with a video has og:video and its type", () => {
    const tags = buildMeta({ title: "X", path: "/x", type: "article", video: "/media/videos/1-a.mp4" }, site);
    expect(tag(tags, "property", "og:video")?.content).toBe("https://news.example/media/videos/1-a.mp4");
    expect(tag(tags, "property", "og:video:type")?.content).toBe("video/mp4");
  });

  test("structured data blocks become ld+json scripts", () => {
    const tags = buildMeta({ path: "/", structuredData: [{ "@type": "WebSite" }, { "@type": "Organization" }] }, site);
    expect(tags.filter((t) => "script:ld+json" in t)).toEqual([{ "script:ld+json": { "@type": "WebSite" } }, { "script:ld+json": { "@type": "Organization" } }]);
  });

  test("description falls back to the site's; keywords to the default set; Twitter gets a large card", () => {
    const tags = buildMeta({ title: "Contact", path: "/contact" }, site);
    expect(tag(tags, "name", "description")?.content).toBe("Local news.");
    expect(tag(tags, "name", "keywords")?.content).toBe(DEFAULT_KEYWORDS.join(", "));
    expect(tag(tags, "name", "twitter:card")?.content).toBe("summary_large_image");
    expect(tag(tags, "property", "og:type")?.content).toBe("website");
  });

  test("an article page is of type article with every author, its section and its times", () => {
    const tags = buildMeta(
      {
        title: "A story",
        path: "/article/a",
        type: "article",
        authors: ["Ann Lee", "Bo Park"],
        section: "City",
        publishedTime: "2026-01-02T03:04:05.000Z",
        modifiedTime: "2026-01-03T00:00:00.000Z",
      },
      site,
    );
    expect(tag(tags, "property", "og:type")?.content).toBe("article");
    expect(tags.filter((t) => (t as Record<string, string>).property === "article:author").map((t) => (t as Record<string, string>).content)).toEqual(["Ann Lee", "Bo Park"]);
    expect(tag(tags, "name", "author")?.content).toBe("Ann Lee, Bo Park");
    expect(tag(tags, "property", "article:section")?.content).toBe("City");
    expect(tag(tags, "property", "article:published_time")?.content).toBe("2026-01-02T03:04:05.000Z");
    expect(tag(tags, "property", "article:modified_time")?.content).toBe("2026-01-03T00:00:00.000Z");
  });

  test("an article's description is its excerpt, else the first 160 characters of its content", () => {
    expect(describeArticle("  The excerpt. ", "Body")).toBe("The excerpt.");
    const content = `${"word ".repeat(50)}\n\nmore`;
    const described = describeArticle(null, content);
    expect(described).toHaveLength(160);
    expect(described).toBe(content.replace(/\s+/g, " ").slice(0, 160));
  });
});

describe("search and social overrides (issue 41)", () => {
  const story = {
    title: "Council approves the new harbour bridge after a decade of debate",
    featuredImage: "/media/images/1-bridge.jpg",
    featuredImageAlt: "The bridge at dusk",
    featuredImageFocus: { x: 0.9, y: 0.85 },
    description: "The standfirst.",
  };
  const metaOf = (overrides: Partial<Parameters<typeof articleSearchAndSocial>[0]>) => {
    const social = articleSearchAndSocial({ ...story, ...overrides });
    return buildMeta({ ...social, type: "article", path: "/article/bridge" }, site);
  };

  test("without overrides: the headline, the description, the featured image cut around its focal point", () => {
    const tags = metaOf({});
    expect(tag(tags, "title", `${story.title} | The Harbour`)).toBeDefined();
    expect(tag(tags, "property", "og:title")?.content).toBe(story.title);
    expect(tag(tags, "name", "description")?.content).toBe("The standfirst.");
    expect(tag(tags, "property", "og:image")?.content).toBe("https://news.example/media/images/1-bridge.jpg?crop=16x9&fx=0.9&fy=0.85");
    expect(tag(tags, "name", "twitter:image")?.content).toBe("https://news.example/media/images/1-bridge.jpg?crop=16x9&fx=0.9&fy=0.85");
    expect(tag(tags, "property", "og:image:alt")?.content).toBe("The bridge at dusk");
  });

  test("the SEO title and description replace the headline and description in <title>, og, twitter and the meta description", () => {
    const tags = metaOf({ seoTitle: "Harbour bridge approved", seoDescription: "After ten years, a yes." });
    expect(tag(tags, "title", "Harbour bridge approved | The Harbour")).toBeDefined();
    expect(tag(tags, "property", "og:title")?.content).toBe("Harbour bridge approved");
    expect(tag(tags, "name", "twitter:title")?.content).toBe("Harbour bridge approved");
    expect(tag(tags, "name", "description")?.content).toBe("After ten years, a yes.");
    expect(tag(tags, "property", "og:description")?.content).toBe("After ten years, a yes.");
    expect(tag(tags, "name", "twitter:description")?.content).toBe("After ten years, a yes.");
  });

  test("blank overrides count as none", () => {
    const tags = metaOf({ seoTitle: "  ", seoDescription: "", socialImage: "" });
    expect(tag(tags, "property", "og:title")?.content).toBe(story.title);
    expect(tag(tags, "name", "description")?.content).toBe("The standfirst.");
    expect(tag(tags, "property", "og:image")?.content).toContain("/media/images/1-bridge.jpg?crop=16x9&fx=");
  });

  test("a social image replaces the featured image in og:image and twitter:image, cut without the featured image's point or alt text", () => {
    const tags = metaOf({ socialImage: "/media/images/2-card.png" });
    expect(tag(tags, "property", "og:image")?.content).toBe("https://news.example/media/images/2-card.png?crop=16x9");
    expect(tag(tags, "name", "twitter:image")?.content).toBe("https://news.example/media/images/2-card.png?crop=16x9");
    expect(tag(tags, "property", "og:image:alt")).toBeUndefined();
  });

  test("the structured data's crops of the featured image keep its focal point", () => {
    expect(articleImages("/media/images/1-bridge.jpg", "https://news.example", { x: 0.9, y: 0.85 })).toEqual([
      "https://news.example/media/images/1-bridge.jpg?crop=16x9&fx=0.9&fy=0.85",
      "https://news.example/media/images/1-bridge.jpg?crop=4x3&fx=0.9&fy=0.85",
      "https://news.example/media/images/1-bridge.jpg?crop=1x1&fx=0.9&fy=0.85",
    ]);
    expect(articleImages("/media/images/1-bridge.jpg", "https://news.example")[0]).toBe("https://news.example/media/images/1-bridge.jpg?crop=16x9");
  });
});
