import { describe, expect, test } from "vitest";
import { HEADLINE_MAX, liveBlogPostingJsonLd, liveUpdateHeadline, type ArticleFacts, type LiveUpdateFacts } from "./structured-data";

// A live story's LiveBlogPosting (issue 31), parsed back from JSON as a crawler reads it: the fields
// Google's live blog markup reads (coverageStartTime, coverageEndTime, liveBlogUpdate as BlogPostings)
// besides the article's own.

const site = { name: "The Harbour", origin: "https://news.example" };
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON, walked field by field below
const roundTrip = <T,>(value: T): any => JSON.parse(JSON.stringify(value));

const article: ArticleFacts = {
  title: "Storm over the harbour: live",
  slug: "storm-live",
  description: "Wind and rain through the night.",
  image: "/media/images/1700000000000-storm.jpg",
  publishedAt: "2026-11-20T08:00:00.000Z",
  modifiedAt: "2026-11-20T08:30:00.000Z",
  authors: [{ name: "Ann Lee", slug: "ann-lee" }],
  authorName: "Newsroom",
  category: { name: "City", slug: "city" },
};

const updates: LiveUpdateFacts[] = [
  { id: "u3", headline: null, text: "The ferry   is cancelled for the night.\nMore soon.", author: null, createdAt: "2026-11-20T11:00:00.000Z" },
  {
    id: "u2",
    headline: "Power cut on the east side",
    text: "About 2,000 homes are without power.",
    author: { name: "Bo Park", slug: "bo-park" },
    createdAt: "2026-11-20T10:00:00.000Z",
    editedAt: "2026-11-20T12:15:00.000Z",
  },
  { id: "u1", headline: "Warning issued", text: "The weather service warns of gusts.", author: { name: "Ann Lee", slug: "ann-lee" }, createdAt: "2026-11-20T09:00:00.000Z" },
];

describe("LiveBlogPosting", () => {
  test("the article's fields under the live blog's type, with its coverage start and no end while live", () => {
    const ld = roundTrip(liveBlogPostingJsonLd(site, article, { startedAt: "2026-11-20T08:45:00.000Z", endedAt: null }, updates));
    expect(ld["@context"]).toBe("https://schema.org");
    expect(ld["@type"]).toBe("LiveBlogPosting");
    expect(ld.headline).toBe("Storm over the harbour: live");
    expect(ld.description).toBe("Wind and rain through the night.");
    expect(ld.image[0]).toBe("https://news.example/media/images/1700000000000-storm.jpg?crop=16x9");
    expect(ld.author).toEqual([{ "@type": "Person", name: "Ann Lee", url: "https://news.example/author/ann-lee" }]);
    expect(ld.publisher["@type"]).toBe("NewsMediaOrganization");
    expect(ld.datePublished).toBe("2026-11-20T08:00:00.000Z");
    expect(ld.coverageStartTime).toBe("2026-11-20T08:45:00.000Z");
    expect(ld).not.toHaveProperty("coverageEndTime");
    // The latest change among the updates (an edit at 12:15), later than the article's own.
    expect(ld.dateModified).toBe("2026-11-20T12:15:00.000Z");
  });

  test("coverage starts at the publication when the story was made live before it; ends once ended", () => {
    const ld = roundTrip(liveBlogPostingJsonLd(site, article, { startedAt: "2026-11-19T20:00:00.000Z", endedAt: "2026-11-20T13:00:00.000Z" }, updates));
    expect(ld.coverageStartTime).toBe("2026-11-20T08:00:00.000Z");
    expect(ld.coverageEndTime).toBe("2026-11-20T13:00:00.000Z");
  });

  test("the updates as BlogPostings at their anchors, newest first, with headline, times, text and author", () => {
    const ld = roundTrip(liveBlogPostingJsonLd(site, article, { startedAt: "2026-11-20T08:45:00.000Z", endedAt: null }, updates));
    expect(ld.liveBlogUpdate).toHaveLength(3);
    const [newest, edited, oldest] = ld.liveBlogUpdate;
    expect(newest).toEqual({
      "@type": "BlogPosting",
      "@id": "https://news.example/article/storm-live#update-u3",
      url: "https://news.example/article/storm-live#update-u3",
      // No headline of its own: the start of its text, spaces folded.
      headline: "The ferry is cancelled for the night. More soon.",
      datePublished: "2026-11-20T11:00:00.000Z",
      articleBody: "The ferry   is cancelled for the night.\nMore soon.",
      // Its author was deleted since: the site's newsroom.
      author: { "@type": "Organization", name: "The Harbour", url: "https://news.example/" },
    });
    expect(edited.headline).toBe("Power cut on the east side");
    expect(edited.dateModified).toBe("2026-11-20T12:15:00.000Z");
    expect(edited.author).toEqual({ "@type": "Person", name: "Bo Park", url: "https://news.example/author/bo-park" });
    expect(oldest).not.toHaveProperty("dateModified");
  });

  test("without updates the article's own modification stands", () => {
    const ld = roundTrip(liveBlogPostingJsonLd(site, article, { startedAt: "2026-11-20T08:45:00.000Z", endedAt: null }, []));
    expect(ld.liveBlogUpdate).toEqual([]);
    expect(ld.dateModified).toBe("2026-11-20T08:30:00.000Z");
  });

  test("a long text is cut at a word within the headline limit", () => {
    const text = `${"word ".repeat(60)}end`;
    const headline = liveUpdateHeadline({ headline: null, text });
    expect(headline.length).toBeLessThanOrEqual(HEADLINE_MAX);
    expect(headline).toMatch(/^word( word)+…$/);
    expect(liveUpdateHeadline({ headline: "  Own  ", text })).toBe("Own");
  });
});
