import { describe, expect, test } from "vitest";
import { articleImages, breadcrumbJsonLd, HEADLINE_MAX, homeJsonLd, newsArticleJsonLd, profilePageJsonLd, shareImage, type ArticleFacts } from "./structured-data";

// Each block against the fields Google documents (developers.google.com/search/docs/appearance/
// structured-data: Article, Organization, Sitelinks search box, Breadcrumb, Profile page): parsed back
// from JSON, as a crawler reads it.

const site = {
  name: "The Harbour",
  origin: "https://news.example",
  description: "Local news.",
  logoUrl: "/media/images/1-logo.png",
  sameAs: ["https://x.com/harbour", null, "https://www.facebook.com/harbour"],
};
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON, walked field by field below
const roundTrip = <T,>(value: T): any => JSON.parse(JSON.stringify(value));

const article: ArticleFacts = {
  title: "Ferry returns to the harbour",
  slug: "ferry-returns",
  description: "The crossing reopens after a year.",
  image: "/media/images/1700000000000-ferry.jpg",

  publishedAt: "2026-11-20T08:00:00.000Z",
  modifiedAt: "2026-11-21T09:30:00.000Z",
  authors: [
    { name: "Ann Lee", slug: "ann-lee" },
    { name: "Bo Park", slug: "bo-park" },
  ],
  authorName: "Newsroom",
  category: { name: "City", slug: "city" },
  corrections: [
    { kind: "correction", text: "The crossing takes 40 minutes, not 30.", createdAt: "2026-11-21T09:30:00.000Z" },
    { kind: "update", text: "Timetable added.", createdAt: "2026-11-21T10:00:00.000Z" },
  ],
  videoUrl: "/media/videos/1700000000000-ferry.mp4",
};

describe("NewsArticle", () => {
  const ld = roundTrip(newsArticleJsonLd(site, article));

  test("type, page and headline", () => {
    expect(ld["@context"]).toBe("https://schema.org");
    expect(ld["@type"]).toBe("NewsArticle");
    expect(ld.mainEntityOfPage).toEqual({ "@type": "WebPage", "@id": "https://news.example/article/ferry-returns" });
    expect(ld.headline).toBe("Ferry returns to the harbour");
    expect(ld.description).toBe("The crossing reopens after a year.");
    expect(ld.articleSection).toBe("City");
  });

  test("images: the 16:9, 4:3 and 1:1 crops, absolute", () => {
    expect(ld.image).toEqual([
      "https://news.example/media/images/1700000000000-ferry.jpg?crop=16x9",
      "https://news.example/media/images/1700000000000-ferry.jpg?crop=4x3",
      "https://news.example/media/images/1700000000000-ferry.jpg?crop=1x1",
    ]);
    // An image from elsewhere (or a GIF) cannot be cropped: it is given as it is.
    expect(articleImages("https://cdn.example/a.jpg", site.origin)).toEqual(["https://cdn.example/a.jpg"]);
    expect(articleImages("/media/images/1-a.gif", site.origin)).toEqual(["https://news.example/media/images/1-a.gif"]);
    expect(roundTrip(newsArticleJsonLd(site, { ...article, image: null })).image).toBeUndefined();
  });

  test("keywords: the story's tags, left out when it has none", () => {
    expect(roundTrip(newsArticleJsonLd(site, { ...article, keywords: ["Ferries", "Harbour life"] })).keywords).toEqual(["Ferries", "Harbour life"]);
    expect(ld.keywords).toBeUndefined();
  });

  test("dates in ISO 8601; dateModified falls back to the publication", () => {
    expect(ld.datePublished).toBe("2026-11-20T08:00:00.000Z");
    expect(ld.dateModified).toBe("2026-11-21T09:30:00.000Z");
    expect(roundTrip(newsArticleJsonLd(site, { ...article, modifiedAt: null })).dateModified).toBe("2026-11-20T08:00:00.000Z");
  });

  test("every author is a Person with a name and their page's URL", () => {
    expect(ld.author).toEqual([
      { "@type": "Person", name: "Ann Lee", url: "https://news.example/author/ann-lee" },
      { "@type": "Person", name: "Bo Park", url: "https://news.example/author/bo-park" },
    ]);
    // Without author records the free-text byline is the newsroom's, an Organization.
    expect(roundTrip(newsArticleJsonLd(site, { ...article, authors: [] })).author).toEqual([
      { "@type": "Organization", name: "Newsroom", url: "https://news.example/" },
    ]);
  });

  test("the publisher is the news organization with its logo", () => {
    expect(ld.publisher).toEqual({
      "@type": "NewsMediaOrganization",
      "@id": "https://news.example/#organization",
      name: "The Harbour",
      url: "https://news.example/",
      logo: { "@type": "ImageObject", url: "https://news.example/media/images/1-logo.png" },
      sameAs: ["https://x.com/harbour", "https://www.facebook.com/harbour"],
    });
    const noLogo = roundTrip(newsArticleJsonLd({ ...site, logoUrl: null }, article));
    expect(noLogo.publisher.logo).toEqual({ "@type": "ImageObject", url: "https://news.example/apple-touch-icon.png", width: 180, height: 180 });
  });

  test("corrections (not updates) as CorrectionComment", () => {
    expect(ld.correction).toEqual([
      { "@type": "CorrectionComment", text: "The crossing takes 40 minutes, not 30.", datePublished: "2026-11-21T09:30:00.000Z" },
    ]);
    expect(roundTrip(newsArticleJsonLd(site, { ...article, corrections: [] })).correction).toBeUndefined();
  });

  test("a video as VideoObject with name, description, thumbnail, upload date and content URL", () => {
    expect(ld.video).toEqual({
      "@type": "VideoObject",
      name: "Ferry returns to the harbour",
      description: "The crossing reopens after a year.",
      thumbnailUrl: ld.image,
      uploadDate: "2026-11-20T08:00:00.000Z",
      contentUrl: "https://news.example/media/videos/1700000000000-ferry.mp4",
    });
    expect(roundTrip(newsArticleJsonLd(site, { ...article, videoUrl: null })).video).toBeUndefined();
  });

  test("a headline over Google's 110 characters is cut for the markup", () => {
    const long = roundTrip(newsArticleJsonLd(site, { ...article, title: "x".repeat(150) }));
    expect(long.headline).toHaveLength(HEADLINE_MAX);
  });
});

describe("home, breadcrumbs, author pages", () => {
  test("home: the organization and the website's search action", () => {
    const [organization, website] = roundTrip(homeJsonLd(site));
    expect(organization["@type"]).toBe("NewsMediaOrganization");
    expect(organization.name).toBe("The Harbour");
    expect(organization.url).toBe("https://news.example/");
    expect(organization.logo.url).toBe("https://news.example/media/images/1-logo.png");
    expect(organization.description).toBe("Local news.");
    expect(website["@type"]).toBe("WebSite");
    expect(website.url).toBe("https://news.example/");
    expect(website.potentialAction).toEqual({
      "@type": "SearchAction",
      target: { "@type": "EntryPoint", urlTemplate: "https://news.example/search?q={search_term_string}" },
      "query-input": "required name=search_term_string",
    });
  });

  test("BreadcrumbList: Home → Category → Article, positions from 1, absolute items", () => {
    const ld = roundTrip(
      breadcrumbJsonLd(site, [
        { name: "Home", path: "/" },
        { name: "City", path: "/category/city" },
        { name: "Ferry returns", path: "/article/ferry-returns" },
      ]),
    );
    expect(ld["@type"]).toBe("BreadcrumbList");
    expect(ld.itemListElement).toEqual([
      { "@type": "ListItem", position: 1, name: "Home", item: "https://news.example/" },
      { "@type": "ListItem", position: 2, name: "City", item: "https://news.example/category/city" },
      { "@type": "ListItem", position: 3, name: "Ferry returns", item: "https://news.example/article/ferry-returns" },
    ]);
  });

  test("ProfilePage about a Person", () => {
    const ld = roundTrip(
      profilePageJsonLd(site, {
        name: "Ann Lee",
        slug: "ann-lee",
        roleTitle: "City editor",
        bio: "Covers the waterfront.",
        photoUrl: "/media/images/1-ann.jpg",
        links: ["https://ann.example", null, "https://www.linkedin.com/in/ann"],
      }),
    );
    expect(ld["@type"]).toBe("ProfilePage");
    expect(ld.mainEntity).toEqual({
      "@type": "Person",
      "@id": "https://news.example/author/ann-lee#person",
      name: "Ann Lee",
      url: "https://news.example/author/ann-lee",
      image: "https://news.example/media/images/1-ann.jpg",
      description: "Covers the waterfront.",
      jobTitle: "City editor",
      sameAs: ["https://ann.example", "https://www.linkedin.com/in/ann"],
      worksFor: { "@id": "https://news.example/#organization" },
    });
  });

  test("the share image: our crop with its size, the default image's real size, an outside image without one", () => {
    expect(shareImage("/media/images/1-a.png")).toEqual({ url: "/media/images/1-a.png?crop=16x9", width: 1200, height: 675 });
    expect(shareImage(null)).toEqual({ url: "/share-default.png", width: 1200, height: 630 });
    expect(shareImage("https://cdn.example/a.jpg")).toEqual({ url: "https://cdn.example/a.jpg" });
  });
});
