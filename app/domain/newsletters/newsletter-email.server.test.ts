import { describe, expect, it } from "vitest";
import type { StoryDocument } from "~/domain/articles/story-document.schema";
import { digestEmail, personalizeEmail, storyEmail, type EmailStory } from "./newsletter-email.server";
import { trackedRecipientOf } from "./newsletter-tracking.server";
import { EMAIL_SITE as SITE, newsletterRow as newsletter, RECIPIENT_LINKS as links, richEmailStory, storyParagraph as p, storyText as text } from "../../../tests/setup/newsletter-story";

// The newsletter e-mail (issue 30): built from the story document through the page's allow-list,
// with its footer, plain-text part and per-recipient links filled in without rendering again. (The
// demo's longest story under Gmail's 102 KB: server/demo-newsletter-email.test.ts.)

const SECRET = "a-session-secret-of-at-least-32-characters!";
const SEND = "6f1c8f0e-8a4b-4c1e-9d51-3f3c1b2a7e10";
const READER = "0b5a5a6e-2c1d-4e8f-9a3b-7c6d5e4f3a21";
/** The campaign tags of a link to the site in the Morning Briefing's e-mails (issue 42). */
const TAGS = "utm_source=newsletter&utm_medium=email&utm_campaign=morning-briefing";

const image = (src: string, alt: string) => ({ type: "storyImage", attrs: { src, alt, caption: "", credit: "" } });
const embed = (url: string) => ({ type: "embed", attrs: { url } });

/** A story of eight paragraphs with the figures, embeds, quote, list and link a story carries. */
function demoStory(): EmailStory {
  const paragraphs = Array.from(
    { length: 8 },
    (_, i) => `Paragraph ${i + 1}: the council voted nine to two on Tuesday evening to fund a six-month trial of late-night buses on three of the town's busiest routes.`,
  );
  return richEmailStory("Marrowby council approves late-night bus pilot on three routes", "Buses on three routes will run until 2 a.m. on weekends.", paragraphs);
}

describe("a story's e-mail", () => {
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

  it("the footer names the site once: a newsletter named after the site says only 'You subscribed to {site}'", async () => {
    const footerOf = async (name: string) => {
      const { html, text } = await storyEmail(SITE, newsletter({ name }), demoStory());
      const footer = text.slice(text.lastIndexOf("You subscribed"));
      return { html, footer, sites: footer.split(SITE.name).length - 1 };
    };
    const same = await footerOf(SITE.name);
    expect(same.html).toContain(`You subscribed to ${SITE.name}.`);
    expect(same.sites).toBe(1);
    const containing = await footerOf(`${SITE.name} Weekend`);
    expect(containing.html).toContain(`You subscribed to ${SITE.name} Weekend.`);
    expect(containing.sites).toBe(1);
    const other = await footerOf("Morning Briefing");
    expect(other.html).toContain(`You subscribed to Morning Briefing at ${SITE.name}.`);
    expect(other.sites).toBe(1);
  });

  it("lays out at a phone's width: a viewport, and long addresses break inside the one column", async () => {
    const long = `https://example.com/${"a-very-long-path-segment/".repeat(8)}`;
    const { html } = await storyEmail(SITE, newsletter(), { ...demoStory(), document: { type: "doc", content: [p(text(`See ${long}`))] } as StoryDocument });
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1"/>');
    expect(html).toMatch(/max-width:600px;[^"]*word-break:break-word;overflow-wrap:anywhere/);
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
      expect.arrayContaining([`https://news.example/article/council-approves-late-night-buses?${TAGS}`, "https://www.youtube.com/watch?v=dQw4w9WgXcQ", "https://council.example/report?a=1&b=2"]),
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
    expect(trackedRecipientOf(SECRET, "click", `${send}.${subscriber}.${signature!.startsWith("A") ? "B" : "A"}${signature!.slice(1)}`, url)).toBeNull();
    expect(trackedRecipientOf(SECRET, "click", `${send}.${subscriber}`, url)).toBeNull();
    expect(trackedRecipientOf(SECRET, "click", "not-a-token", url)).toBeNull();
  });
});

describe("where its links say they came from (issue 42)", () => {
  it("tags every link to the site with the newsletter's campaign, keeps their queries, and leaves other sites' links alone", async () => {
    const story: EmailStory = {
      ...demoStory(),
      document: {
        type: "doc",
        content: [
          p(
            text("See "),
            text("the timetable", [{ type: "link", attrs: { href: "https://news.example/search?q=buses#top" } }]),
            text(", "),
            text("the partner's page", [{ type: "link", attrs: { href: "https://news.example/article/bus-map?utm_source=partner" } }]),
            text(" and "),
            text("the report", [{ type: "link", attrs: { href: "https://council.example/report?a=1&b=2" } }]),
          ),
        ],
      } as unknown as StoryDocument,
    };
    const { html, text: plain } = personalizeEmail(await storyEmail(SITE, newsletter(), story), links);
    const hrefs = [...html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]!.replaceAll("&amp;", "&"));
    expect(hrefs).toEqual(
      expect.arrayContaining([
        // View in your browser, the site's name, the headline and "Read it on …".
        `https://news.example/article/council-approves-late-night-buses?${TAGS}`,
        `https://news.example/?${TAGS}`,
        `https://news.example/search?q=buses&${TAGS}#top`,
        // Already tagged by the editor: never twice.
        "https://news.example/article/bus-map?utm_source=partner",
        "https://council.example/report?a=1&b=2",
      ]),
    );
    expect(hrefs.filter((href) => href === `https://news.example/article/council-approves-late-night-buses?${TAGS}`)).toHaveLength(3);
    // Every link to the site says so, but the footer's own (unsubscribe, preferences); no link to another site does.
    const own = hrefs.filter((href) => href.startsWith("https://news.example/"));
    expect(own.filter((href) => !href.includes("utm_source=")).sort()).toEqual([links.preferencesUrl, links.unsubscribeUrl].sort());
    expect(hrefs.filter((href) => !href.startsWith("https://news.example/")).every((href) => !href.includes("utm_campaign=morning-briefing"))).toBe(true);
    expect(plain).toContain(`https://news.example/article/council-approves-late-night-buses?${TAGS}`);
  });

  it("a tracked link's redirect leads to the tagged address, signed for it", async () => {
    const mine = personalizeEmail(await storyEmail(SITE, newsletter({ trackEngagement: true }), demoStory()), { ...links, tracking: { secret: SECRET, sendId: SEND, subscriberId: READER } });
    const targets = [...mine.html.matchAll(/href="https:\/\/news\.example\/newsletter\/click\/([^"?]+)\?u=([^"]+)"/g)].map((m) => ({ token: m[1]!, u: decodeURIComponent(m[2]!) }));
    const headline = targets.find((t) => t.u.startsWith("https://news.example/article/council-approves-late-night-buses"));
    expect(headline?.u).toBe(`https://news.example/article/council-approves-late-night-buses?${TAGS}`);
    expect(trackedRecipientOf(SECRET, "click", headline!.token, headline!.u)).not.toBeNull();
  });
});

describe("a digest's e-mail", () => {
  it("lists the stories newest first as given, with its subject, date and the send's browser view", async () => {
    const first = demoStory();
    const second: EmailStory = { ...first, title: "Second story", url: "https://news.example/article/second", featuredImage: null, dek: null, byline: "" };
    const viewUrl = `https://news.example/newsletter/view/${SEND}`;
    const email = await digestEmail(SITE, newsletter({ kind: "digest", name: "Daily Digest", slug: "daily-digest" }), [first, second], viewUrl, new Date("2026-11-21T12:00:00Z"));
    const tags = "utm_source=newsletter&amp;utm_medium=email&amp;utm_campaign=daily-digest";
    expect(email.subject).toBe("Daily Digest: November 21, 2026");
    expect(email.html).toMatch(new RegExp(`<a href="${viewUrl}\\?${tags}"[^>]*>View in your browser</a>`));
    expect(email.html.indexOf(first.title)).toBeLessThan(email.html.indexOf("Second story"));
    expect(email.html).toContain(`href="https://news.example/article/second?${tags}"`);
    expect(email.html).toContain("You subscribed to Daily Digest at The Marrowby Courier.");
    // A digest lists the stories, not their whole bodies.
    expect(email.html).not.toContain("Part 2");
    expect(Buffer.byteLength(email.html)).toBeLessThan(102_400);
  });
});
