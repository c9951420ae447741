import { describe, expect, it } from "vitest";
import type { StoryBlock, StoryDocument } from "~/domain/articles/story-document.schema";
import { storyFromPlainText } from "~/domain/articles/story-document";
import { DEMO_ARTICLES } from "../../../server/demo/articles";
import { digestEmail, emailStoryOf, personalizeEmail, storyEmail, type EmailSite, type EmailStory } from "./newsletter-email.server";
import { trackedRecipientOf } from "./newsletter-tracking.server";
import type { Newsletter } from "./newsletters.server";

// The newsletter e-mail (issue 30): built from the story document through the page's allow-list,
// under Gmail's 102 KB clipping for a typical story, with its footer, plain-text part and per-recipient
// links filled in without rendering again.

const SITE: EmailSite = {
  name: "The Marrowby Courier",
  publicUrl: "https://news.example",
  logoUrl: "https://news.example/media/images/logo.png",
  accentColor: "#1e40af",
  postalAddress: "1 Market Square\nMarrowby MB1 2CD",
  timeZone: "America/New_York",
};
const SECRET = "a-session-secret-of-at-least-32-characters!";
const SEND = "6f1c8f0e-8a4b-4c1e-9d51-3f3c1b2a7e10";
const READER = "0b5a5a6e-2c1d-4e8f-9a3b-7c6d5e4f3a21";

function newsletter(overrides: Partial<Newsletter> = {}): Newsletter {
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

const text = (value: string, marks?: unknown[]) => ({ type: "text", text: value, ...(marks ? { marks } : {}) });
const p = (...content: unknown[]) => ({ type: "paragraph", content });
const image = (src: string, alt: string, caption = "", credit = "") => ({ type: "storyImage", attrs: { src, alt, caption, credit } });
const embed = (url: string) => ({ type: "embed", attrs: { url } });

/** The demo content's longest article, as an editor's document with the figures and embeds a story carries. */
function demoStory(): EmailStory {
  const longest = [...DEMO_ARTICLES].sort((a, b) => b.paragraphs.join("").length - a.paragraphs.join("").length)[0]!;
  const paragraphs = storyFromPlainText(longest.paragraphs.join("\n\n")).content;
  const blocks: unknown[] = [];
  paragraphs.forEach((block, i) => {
    if (i > 0 && i % 4 === 0) blocks.push({ type: "heading", attrs: { level: 2 }, content: [text(`Part ${i / 4 + 1}`)] });
    blocks.push(block);
    if (i === 1) blocks.push(image("/media/images/1700000000000-quay.jpg", "The quay at dusk, lanterns along the water", "The quay on Tuesday evening.", "Ana Photo"));
    if (i === 3) blocks.push(embed("https://youtu.be/dQw4w9WgXcQ"));
    if (i === 5) blocks.push({ type: "blockquote", content: [p(text("It is a modest step, but one people asked for."))] });
  });
  blocks.push({ type: "bulletList", content: [{ type: "listItem", content: [p(text("Route 4"))] }, { type: "listItem", content: [p(text("Route 11"))] }] });
  blocks.push(p(text("Read "), text("the council's report", [{ type: "link", attrs: { href: "https://council.example/report?a=1&b=2" } }]), text(".")));
  blocks.push(embed("https://x.com/marrowby/status/1234567890"));
  return emailStoryOf(
    {
      title: longest.title,
      slug: "council-approves-late-night-buses",
      excerpt: longest.excerpt,
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
    SITE.publicUrl,
  );
}

const links = { unsubscribeUrl: "https://news.example/newsletter/unsubscribe/tok.en?x=1&y=2", preferencesUrl: "https://news.example/newsletter/preferences/tok.en" };

describe("a story's e-mail", () => {
  it("a demo-size story is under Gmail's 102 KB, with alt texts, absolute images, the byline, the footer, and nothing mail clients block", async () => {
    const story = demoStory();
    const email = await storyEmail(SITE, newsletter(), story);
    expect(email.subject).toBe(story.title);
    expect(Buffer.byteLength(email.html, "utf8")).toBeLessThan(102_400);

    const html = email.html;
    expect(html).toContain('alt="The quay at dusk, lanterns along the water"');
    expect(html).toContain('alt="A night bus at the Market Square stop"');
    expect(html).toContain('src="https://news.example/media/images/1700000000000-quay.jpg"');
    expect(html).toContain('src="https://news.example/media/images/1700000000000-cover.jpg"');
    expect(html).toContain('src="https://news.example/media/images/logo.png"');
    for (const [, src] of html.matchAll(/<img[^>]* src="([^"]*)"/g)) expect(src).toMatch(/^https:\/\//);
    for (const tag of html.match(/<img[^>]*>/g)!) expect(tag).toMatch(/ width="\d+"/);
    expect(html).toContain("The quay on Tuesday evening.");
    expect(html).toContain("Ana Photo");
    expect(html).toContain("By Priya Lindqvist and Tom Hale · November 20, 2026");
    expect(html).toContain("<h2");
    expect(html).toContain("<blockquote");
    expect(html).toContain("<li");
    expect(html).not.toMatch(/<(script|iframe|video|audio|form|input|object|embed|link|style)\b/i);
    expect(html).not.toMatch(/ (on\w+|srcset|class)=/i);

    // Embeds are links: "Watch on YouTube", the provider's name for X.
    expect(html).toMatch(/<a href="https:\/\/www\.youtube\.com\/watch\?v=dQw4w9WgXcQ"[^>]*>▶ Watch on YouTube<\/a>/);
    expect(html).toMatch(/<a href="https:\/\/x\.com\/marrowby\/status\/1234567890"[^>]*>Open the post on X<\/a>/);
    expect(html).toContain('href="https://council.example/report?a=1&amp;b=2"');

    // "View in your browser" is the article; the footer says why and has the postal address.
    expect(html).toMatch(/<a href="https:\/\/news\.example\/article\/council-approves-late-night-buses"[^>]*>View in your browser<\/a>/);
    expect(html).toContain("You are receiving this because you subscribed to Morning Briefing at The Marrowby Courier.");
    expect(html).toContain("1 Market Square<br/>Marrowby MB1 2CD");
    expect(html).toMatch(/>Unsubscribe<\/a>/);
    expect(html).toMatch(/>Manage preferences<\/a>/);
    // Tracking is off by default: no pixel, no redirect.
    expect(html).not.toContain("/newsletter/open/");
    expect(html).not.toContain("/newsletter/click/");

    // The plain-text part says the same.
    expect(email.text).toContain(story.title);
    expect(email.text).toContain("Watch on YouTube https://www.youtube.com/watch?v=dQw4w9WgXcQ");
    expect(email.text).toContain("You are receiving this because you subscribed to Morning Briefing at The Marrowby Courier.");
    expect(email.text).toContain("1 Market Square\nMarrowby MB1 2CD");
    expect(email.text).not.toMatch(/<[a-z]/i);

    // One recipient's links: every placeholder replaced, in the HTML and the text.
    const mine = personalizeEmail(email, links);
    for (const part of [mine.html, mine.text]) expect(part).not.toMatch(/%%FP/);
    expect(mine.html).toContain('href="https://news.example/newsletter/unsubscribe/tok.en?x=1&amp;y=2"');
    expect(mine.html).toContain('href="https://news.example/newsletter/preferences/tok.en"');
    expect(mine.text).toContain("Unsubscribe https://news.example/newsletter/unsubscribe/tok.en?x=1&y=2");
    expect(mine.text).toContain("Manage preferences https://news.example/newsletter/preferences/tok.en");
    expect(mine.subject).toBe(email.subject);
  });

  it("what a story holds beyond the allow-list never reaches the e-mail (script, frames, handlers, bad addresses)", async () => {
    const story: EmailStory = {
      ...demoStory(),
      title: "<script>alert(1)</script> Title",
      document: {
        type: "doc",
        content: [
          { type: "script", content: [text("alert(1)")] },
          { type: "iframe", attrs: { src: "https://evil.example" } },
          { type: "html", html: "<iframe src=x></iframe>" },
          p(text("<img src=x onerror=alert(1)> <iframe src=x></iframe>"), text("bad", [{ type: "link", attrs: { href: "javascript:alert(1)" } }])),
          image("https://example.com/a.png", '" onerror="alert(1)'),
          image("data:image/png;base64,AAAA", "data"),
          embed("https://evil.example/watch?v=dQw4w9WgXcQ"),
          { type: "heading", attrs: { level: "1><script>" }, content: [text("H")] },
        ],
      } as unknown as StoryDocument,
    };
    const { html, text: plain } = await storyEmail(SITE, newsletter(), story);
    expect(html).not.toMatch(/<script|<iframe|javascript:|data:image|onerror="|evil\.example/i);
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt; &lt;iframe src=x&gt;&lt;/iframe&gt;");
    expect(html).toMatch(/(<!-- -->)?bad<\/p>/);
    expect(html).toContain('alt="&quot; onerror=&quot;alert(1)"');
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; Title");
    expect(html).toMatch(/<h2[^>]*>H<\/h2>/);
    expect(plain).not.toContain("javascript:");
  });

  it("a story that spells a placeholder out gets no one's link in its place", async () => {
    const story: EmailStory = { ...demoStory(), document: { type: "doc", content: [p(text("Say %%FP-UNSUBSCRIBE%% and %%FP-TOKEN%%"))] } as StoryDocument };
    const mine = personalizeEmail(await storyEmail(SITE, newsletter({ trackEngagement: true }), story), { ...links, tracking: { secret: SECRET, sendId: SEND, subscriberId: READER } });
    expect(mine.html).not.toContain(`Say ${links.unsubscribeUrl}`);
    expect(mine.html).toMatch(/Say %%FP&#8288;-UNSUBSCRIBE%%/);
    expect(mine.text).toContain("Say %%FP\u2060-UNSUBSCRIBE%% and %%FP\u2060-TOKEN%%");
  });
});

describe("tracking (only when the newsletter turns it on)", () => {
  it("a tracked e-mail has a pixel and every link through a redirect signed for that address; without tracking details, plain links", async () => {
    const email = await storyEmail(SITE, newsletter({ trackEngagement: true }), demoStory());
    const mine = personalizeEmail(email, { ...links, tracking: { secret: SECRET, sendId: SEND, subscriberId: READER } });
    for (const part of [mine.html, mine.text]) expect(part).not.toMatch(/%%FP/);

    const pixel = /<img src="https:\/\/news\.example\/newsletter\/open\/([^"]+)\.gif" width="1" height="1" alt=""/.exec(mine.html);
    expect(pixel).not.toBeNull();
    expect(trackedRecipientOf(SECRET, "open", pixel![1]!)).toEqual({ sendId: SEND, subscriberId: READER });

    const hrefs = [...mine.html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]!.replaceAll("&amp;", "&"));
    const clicks = hrefs.filter((href) => href.startsWith("https://news.example/newsletter/click/"));
    // Every link but the footer's two (which must work as they are) goes through the redirect.
    expect(hrefs.length - clicks.length).toBe(2);
    expect(clicks.length).toBeGreaterThan(5);
    const targets = clicks.map((href) => {
      const url = new URL(href);
      const token = url.pathname.split("/").pop()!;
      const target = url.searchParams.get("u")!;
      expect(trackedRecipientOf(SECRET, "click", token, target)).toEqual({ sendId: SEND, subscriberId: READER });
      // The same token for another address is refused: the redirect goes only where the e-mail pointed.
      expect(trackedRecipientOf(SECRET, "click", token, "https://evil.example/")).toBeNull();
      return target;
    });
    expect(targets).toEqual(
      expect.arrayContaining(["https://news.example/article/council-approves-late-night-buses", "https://www.youtube.com/watch?v=dQw4w9WgXcQ", "https://council.example/report?a=1&b=2"]),
    );
    // The text part's links are the same signed ones.
    const textClicks = mine.text.match(/https:\/\/news\.example\/newsletter\/click\/[^\s]+/g)!;
    expect(textClicks.length).toBeGreaterThan(3);
    for (const href of textClicks) {
      const url = new URL(href);
      expect(trackedRecipientOf(SECRET, "click", url.pathname.split("/").pop()!, url.searchParams.get("u")!)).not.toBeNull();
    }

    // Another recipient's tokens are theirs.
    const theirs = personalizeEmail(email, { ...links, tracking: { secret: SECRET, sendId: SEND, subscriberId: "3c0a6a47-9f21-4d63-a1a6-0b8f0c7e2d11" } });
    expect(theirs.html).not.toBe(mine.html);

    // Without tracking details (a test e-mail, the browser view): the plain addresses and no pixel.
    const plain = personalizeEmail(email, links);
    expect(plain.html).not.toContain("/newsletter/click/");
    expect(plain.html).not.toContain("/newsletter/open/");
    expect(plain.text).not.toContain("/newsletter/click/");
    expect(plain.html).toContain('href="https://council.example/report?a=1&amp;b=2"');
    expect(plain.text).toContain("https://www.youtube.com/watch?v=dQw4w9WgXcQ");
  });

  it("an edited token, another purpose, another secret or another address is refused", () => {
    const recipient = { sendId: SEND, subscriberId: READER };
    const url = "https://council.example/report?a=1&b=2";
    const email = personalizeEmail({ subject: "s", html: `<a href="${"https://news.example/newsletter/click/%%FP-TOKEN%%?u="}${encodeURIComponent(url)}">x</a>`, text: "" }, { ...links, tracking: { secret: SECRET, ...recipient } });
    const token = /click\/([^?]+)\?/.exec(email.html)![1]!;
    expect(trackedRecipientOf(SECRET, "click", token, url)).toEqual(recipient);
    expect(trackedRecipientOf(SECRET, "click", token, `${url}#x`)).toBeNull();
    expect(trackedRecipientOf(SECRET, "open", token)).toBeNull();
    expect(trackedRecipientOf("another-secret-of-at-least-32-characters!!", "click", token, url)).toBeNull();
    const [send, subscriber, signature] = token.split(".");
    expect(trackedRecipientOf(SECRET, "click", `${send}.${READER.replace("0b5a", "0b5b")}.${signature}`, url)).toBeNull();
    expect(trackedRecipientOf(SECRET, "click", `${send}.${subscriber}.${signature!.slice(0, -1)}${signature!.endsWith("A") ? "B" : "A"}`, url)).toBeNull();
    expect(trackedRecipientOf(SECRET, "click", `${send}.${subscriber}`, url)).toBeNull();
    expect(trackedRecipientOf(SECRET, "click", "not-a-token", url)).toBeNull();
  });
});

describe("a digest's e-mail", () => {
  it("lists the stories newest first as given, with its subject, date and the send's browser view", async () => {
    const first = demoStory();
    const second: EmailStory = { ...first, title: "Second story", url: "https://news.example/article/second", featuredImage: null, dek: null, byline: "" };
    const viewUrl = `https://news.example/newsletter/view/${SEND}`;
    const email = await digestEmail(SITE, newsletter({ kind: "digest", name: "Daily Digest" }), [first, second], viewUrl, new Date("2026-11-21T12:00:00Z"));
    expect(email.subject).toBe("Daily Digest: November 21, 2026");
    expect(email.html).toMatch(new RegExp(`<a href="${viewUrl}"[^>]*>View in your browser</a>`));
    expect(email.html.indexOf(first.title)).toBeLessThan(email.html.indexOf("Second story"));
    expect(email.html).toContain('href="https://news.example/article/second"');
    expect(email.html).toContain("You are receiving this because you subscribed to Daily Digest at The Marrowby Courier.");
    // A digest lists the stories, not their whole bodies.
    expect(email.html).not.toContain("Part 2");
    expect(Buffer.byteLength(email.html)).toBeLessThan(102_400);
  });
});

describe("personalizing is fast enough for 500 messages a second", () => {
  it("fills 2,000 recipients of a tracked demo-size story in well under a second", async () => {
    const email = await storyEmail(SITE, newsletter({ trackEngagement: true }), demoStory());
    personalizeEmail(email, { ...links, tracking: { secret: SECRET, sendId: SEND, subscriberId: READER } });
    const started = performance.now();
    for (let i = 0; i < 2000; i++) {
      const id = `0b5a5a6e-2c1d-4e8f-9a3b-${String(i).padStart(12, "0")}`;
      const mine = personalizeEmail(email, { unsubscribeUrl: `${links.unsubscribeUrl}${i}`, preferencesUrl: links.preferencesUrl, tracking: { secret: SECRET, sendId: SEND, subscriberId: id } });
      if (mine.html.length < email.html.length) throw new Error("not filled");
    }
    // 2,000 at 500 a second is 4 s of sending; the filling must be a small part of it.
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
