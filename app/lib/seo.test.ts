import { describe, expect, test } from "vitest";
import { buildMeta, DEFAULT_KEYWORDS, describeArticle } from "./seo";

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
    expect(tag(tags, "property", "og:image")?.content).toBe("https://news.example/media/images/1-a.png");
    expect(tag(tags, "name", "twitter:image")?.content).toBe("https://news.example/media/images/1-a.png");
    expect(tag(buildMeta({ path: "/" }, site), "property", "og:image")?.content).toBe("https://news.example/share-default.png");
  });

  test("description falls back to the site's; keywords to the default set; Twitter gets a large card", () => {
    const tags = buildMeta({ title: "Contact", path: "/contact" }, site);
    expect(tag(tags, "name", "description")?.content).toBe("Local news.");
    expect(tag(tags, "name", "keywords")?.content).toBe(DEFAULT_KEYWORDS.join(", "));
    expect(tag(tags, "name", "twitter:card")?.content).toBe("summary_large_image");
    expect(tag(tags, "property", "og:type")?.content).toBe("website");
  });

  test("an article page is of type article with its author and published time", () => {
    const tags = buildMeta({ title: "A story", path: "/article/a", type: "article", author: "Ann Lee", publishedTime: "2026-01-02T03:04:05.000Z" }, site);
    expect(tag(tags, "property", "og:type")?.content).toBe("article");
    expect(tag(tags, "property", "article:author")?.content).toBe("Ann Lee");
    expect(tag(tags, "property", "article:published_time")?.content).toBe("2026-01-02T03:04:05.000Z");
  });

  test("an article's description is its excerpt, else the first 160 characters of its content", () => {
    expect(describeArticle("  The excerpt. ", "Body")).toBe("The excerpt.");
    const content = `${"word ".repeat(50)}\n\nmore`;
    const described = describeArticle(null, content);
    expect(described).toHaveLength(160);
    expect(described).toBe(content.replace(/\s+/g, " ").slice(0, 160));
  });
});
