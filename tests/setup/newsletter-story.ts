import type { StoryBlock, StoryDocument } from "~/domain/articles/story-document.schema";
import { storyFromPlainText } from "~/domain/articles/story-document";
import { emailStoryOf, type EmailSite, type EmailStory } from "~/domain/newsletters/newsletter-email.server";
import type { Newsletter } from "~/domain/newsletters/newsletters.server";

// What the newsletter e-mail's tests render: a site, a newsletter row, and a story as an editor
// writes one (paragraphs with subheadings, a figure, a quote, a list, a link, a YouTube and an X embed).

export const EMAIL_SITE: EmailSite = {
  name: "The Marrowby Courier",
  publicUrl: "https://news.example",
  logoUrl: "https://news.example/media/images/logo.png",
  accentColor: "#1e40af",
  postalAddress: "1 Market Square\nMarrowby MB1 2CD",
  timeZone: "America/New_York",
};

export function newsletterRow(overrides: Partial<Newsletter> = {}): Newsletter {
  const now = new Date("2026-11-20T12:00:00Z");
  return {
    id: "11111111-2222-4333-8444-555555555555",
    name: "Morning Briefing",
    slug: "morning-briefing",
    description: "",
    isPublic: true,
    senderName: null,
    replyTo: null,
    kind: "stories",
    digestFrequency: null,
    digestWeekday: null,
    digestTime: null,
    digestCategoryIds: null,
    trackEngagement: false,
    position: 0,
    archivedAt: null,
    lastDigestAt: null,
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
}

export const storyText = (value: string, marks?: unknown[]) => ({ type: "text", text: value, ...(marks ? { marks } : {}) });
export const storyParagraph = (...content: unknown[]) => ({ type: "paragraph", content });
const image = (src: string, alt: string, caption = "", credit = "") => ({ type: "storyImage", attrs: { src, alt, caption, credit } });
const embed = (url: string) => ({ type: "embed", attrs: { url } });

/** A story of these paragraphs as an editor writes one, with a figure, embeds, a quote, a list and a link among them. */
export function richEmailStory(title: string, excerpt: string, paragraphs: string[]): EmailStory {
  const blocks: unknown[] = [];
  storyFromPlainText(paragraphs.join("\n\n")).content.forEach((block, i) => {
    if (i > 0 && i % 4 === 0) blocks.push({ type: "heading", attrs: { level: 2 }, content: [storyText(`Part ${i / 4 + 1}`)] });
    blocks.push(block);
    if (i === 1) blocks.push(image("/media/images/1700000000000-quay.jpg", "The quay at dusk, lanterns along the water", "The quay on Tuesday evening.", "Ana Photo"));
    if (i === 3) blocks.push(embed("https://youtu.be/dQw4w9WgXcQ"));
    if (i === 5) blocks.push({ type: "blockquote", content: [storyParagraph(storyText("It is a modest step, but one people asked for."))] });
  });
  blocks.push({ type: "bulletList", content: [{ type: "listItem", content: [storyParagraph(storyText("Route 4"))] }, { type: "listItem", content: [storyParagraph(storyText("Route 11"))] }] });
  blocks.push(storyParagraph(storyText("Read "), storyText("the council's report", [{ type: "link", attrs: { href: "https://council.example/report?a=1&b=2" } }]), storyText(".")));
  blocks.push(embed("https://x.com/marrowby/status/1234567890"));
  return emailStoryOf(
    {
      title,
      slug: "council-approves-late-night-buses",
      excerpt,
      contentDoc: { type: "doc", content: blocks as StoryBlock[] } satisfies StoryDocument,
      content: "",
      featuredImage: "/media/images/1700000000000-cover.jpg",
      featuredImageAlt: "A night bus at the Market Square stop",
      featuredImageCaption: "The 11 at Market Square.",
      featuredImageCredit: "Ben Ode",
      authorName: "Desk Writer",
      authors: [
        { name: "Priya Lindqvist", slug: "priya-lindqvist" },
        { name: "Tom Hale", slug: "tom-hale" },
      ],
      publishedAt: new Date("2026-11-20T14:00:00Z"),
    },
    EMAIL_SITE.publicUrl,
  );
}

export const RECIPIENT_LINKS = {
  unsubscribeUrl: "https://news.example/newsletter/unsubscribe/tok.en?x=1&y=2",
  preferencesUrl: "https://news.example/newsletter/preferences/tok.en",
};
