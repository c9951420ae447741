import { describe, expect, it } from "vitest";
import { personalizeEmail, storyEmail } from "~/domain/newsletters/newsletter-email.server";
import { EMAIL_SITE as SITE, newsletterRow, RECIPIENT_LINKS as links, richEmailStory } from "../tests/setup/newsletter-story";
import { DEMO_ARTICLES } from "./demo/articles";

// Issue 30: "under 102 KB of HTML for a typical story (Gmail clips beyond that)". The typical story is
// the demo content's longest, written as an editor would (subheadings, a figure, embeds, a quote, a
// list, a link), rendered as the newsletter e-mail.

const longest = [...DEMO_ARTICLES].sort((a, b) => b.paragraphs.join("").length - a.paragraphs.join("").length)[0]!;
const newsletter = () => newsletterRow();

describe("the demo's longest story as a newsletter e-mail", () => {
  it("a demo-size story is under Gmail's 102 KB, with alt texts, absolute images, the byline, the footer, and nothing mail clients block", async () => {
    const story = richEmailStory(longest.title, longest.excerpt, longest.paragraphs);
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
    // (Links to the site say which newsletter they came from: issue 42.)
    expect(html).toMatch(/<a href="https:\/\/news\.example\/article\/council-approves-late-night-buses\?utm_source=newsletter&amp;utm_medium=email&amp;utm_campaign=morning-briefing"[^>]*>View in your browser<\/a>/);
    expect(html).toContain("You subscribed to Morning Briefing at The Marrowby Courier.");
    expect(html).toContain("1 Market Square<br/>Marrowby MB1 2CD");
    expect(html).toMatch(/>Unsubscribe<\/a>/);
    expect(html).toMatch(/>Manage preferences<\/a>/);
    // Tracking is off by default: no pixel, no redirect.
    expect(html).not.toContain("/newsletter/open/");
    expect(html).not.toContain("/newsletter/click/");

    // The plain-text part says the same.
    expect(email.text).toContain(story.title);
    expect(email.text).toContain("Watch on YouTube https://www.youtube.com/watch?v=dQw4w9WgXcQ");
    expect(email.text).toContain("You subscribed to Morning Briefing at The Marrowby Courier.");
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


  it("stays under 102 KB at ten times the demo's longest story, tracked", async () => {
    const paragraphs = Array.from({ length: 10 }, () => longest.paragraphs).flat();
    const email = await storyEmail(SITE, newsletterRow({ trackEngagement: true }), richEmailStory(longest.title, longest.excerpt, paragraphs));
    const mine = personalizeEmail(email, { ...links, tracking: { secret: "a-session-secret-of-at-least-32-characters!", sendId: "6f1c8f0e-8a4b-4c1e-9d51-3f3c1b2a7e10", subscriberId: "0b5a5a6e-2c1d-4e8f-9a3b-7c6d5e4f3a21" } });
    expect(Buffer.byteLength(mine.html, "utf8")).toBeLessThan(102_400);
  });
});
