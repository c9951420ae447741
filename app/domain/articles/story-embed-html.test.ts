import { describe, expect, test } from "vitest";
import { embedPlaceholderDocument, renderEmbedTarget, type EmbedPoster } from "./story-embed-html";
import { renderStoryHtml } from "./story-html";
import { embedPlayerUrl, embedTargetOf, type EmbedTarget } from "./story-urls";

/** One level of the escaping our renderer does, undone (what an HTML parser does to an attribute value). */
const unescape = (html: string) =>
  html.replace(/&(quot|lt|gt|#39|amp);/g, (_, name: string) => ({ quot: '"', lt: "<", gt: ">", "#39": "'", amp: "&" })[name]!);

/** The srcdoc attribute's raw value: it ends at the first quote, which is why no value may hold one. */
const srcdocOf = (html: string) => /srcdoc="([^"]*)"/.exec(html)?.[1] ?? null;

/**
 * The start tags of the markup with their quoted values blanked (as a parser sees them: a value ends
 * at its closing quote, so a quote smuggled into a value would show here as a new attribute).
 */
const tagsOf = (html: string) => (html.match(/<[a-z](?:[^>"]|"[^"]*")*>/g) ?? []).map((tag) => tag.replace(/"[^"]*"/g, '""'));

const youtube = embedTargetOf("https://youtu.be/dQw4w9WgXcQ")!;
const post = embedTargetOf("https://x.com/frontpage/status/1234567890")!;

describe("click-to-load embeds", () => {
  test("a YouTube video without a poster: a lazy, sandboxed, titled frame of our own HTML whose play link is the nocookie player; no raw address anywhere", () => {
    const html = renderEmbedTarget(youtube);
    expect(html).toMatch(/^<figure class="story-embed" data-provider="youtube"><div class="story-embed-frame story-embed-frame-youtube"><iframe /);
    const iframe = /<iframe[^>]*>/.exec(html.replace(/ srcdoc="[^"]*"/, ""))![0];
    expect(iframe).toContain('title="YouTube video (press play to load it from YouTube)"');
    expect(iframe).toContain('loading="lazy"');
    expect(iframe).toContain('sandbox="allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox allow-presentation"');
    // No src: the frame holds our document until the reader's click.
    expect(iframe).not.toMatch(/ src=/);
    const inner = unescape(srcdocOf(html)!);
    expect(inner).toContain('<a href="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1">');
    expect(inner).not.toMatch(/<script|<iframe|<img|<link|@import|url\(|target=/);
    expect(inner).toContain("<title>YouTube video</title>");
    expect(inner).toContain('<span class="t">YouTube video</span>');
    // The titled placeholder, never the raw address (issue 41): not in the frame, not in the caption.
    expect(inner).not.toContain("youtube.com/watch");
    expect(html).toContain('<figcaption><a href="https://www.youtube.com/watch?v=dQw4w9WgXcQ" rel="noopener" class="story-embed-link">Watch on YouTube</a></figcaption>');
    expect(html.replace(/href="[^"]*"/g, "")).not.toContain("youtube.com/watch");
  });

  test("a YouTube video with its poster: our /media thumbnail with its variants, alt = the title, the title and Play video", () => {
    const poster: EmbedPoster = { title: "Harbour storm, live", author: "Coast Radio", text: null, posterUrl: "/media/images/1700000000000-abc.jpg", ready: true };
    const html = renderEmbedTarget(youtube, poster);
    expect(html).toContain('title="YouTube video: Harbour storm, live (press play to load it from YouTube)"');
    const inner = unescape(srcdocOf(html)!);
    expect(inner).toContain(
      '<img src="/media/images/1700000000000-abc.jpg" alt="Harbour storm, live" srcset="/media/images/1700000000000-abc.jpg?w=480 480w, /media/images/1700000000000-abc.jpg?w=960 960w, /media/images/1700000000000-abc.jpg?w=1280 1280w" sizes="100vw">',
    );
    expect(inner).toContain('<span class="t" aria-hidden="true">Harbour storm, live</span>');
    expect(inner).toContain("Play video");
    // Nothing from another host: the one image is ours, the one link the player (followed only on a click).
    expect(inner).not.toMatch(/ytimg|https:\/\/(?!www\.youtube-nocookie\.com\/embed\/)/);
  });

  test("a failed or pending poster, or one whose image is not ours, shows the titled placeholder", () => {
    const placeholder = renderEmbedTarget(youtube);
    expect(renderEmbedTarget(youtube, { title: null, author: null, text: null, posterUrl: null, ready: false })).toBe(placeholder);
    const foreign = unescape(srcdocOf(renderEmbedTarget(youtube, { title: "A", author: null, text: null, posterUrl: "javascript:alert(1)", ready: true }))!);
    expect(foreign).not.toContain("<img");
    expect(foreign).not.toContain("javascript:");
  });

  test("an X post with its poster: a card of the author and the post's text, escaped, and Show post", () => {
    const poster: EmbedPoster = { title: "Post by Ada <b>", author: "Ada <b>", text: 'Tides "high" & rising', posterUrl: null, ready: true };
    const inner = unescape(srcdocOf(renderEmbedTarget(post, poster))!);
    expect(inner).toContain('<span class="a">Ada &lt;b&gt;</span><span class="p">Tides &quot;high&quot; &amp; rising</span>');
    expect(inner).toContain("Show post");
    expect(inner).not.toContain("<b>");
    expect(renderEmbedTarget(post)).toContain('class="story-embed-link">Open the post on X</a>');
    expect(unescape(srcdocOf(renderEmbedTarget(post))!)).toContain('<span class="t">Post on X</span>');
  });

  test("an X post: the Tweet page of platform.twitter.com on click, with Do Not Track; its & escaped once inside, twice in the attribute", () => {
    expect(embedPlayerUrl(post)).toBe("https://platform.twitter.com/embed/Tweet.html?id=1234567890&dnt=true");
    const html = renderEmbedTarget(post);
    expect(srcdocOf(html)).toContain("href=&quot;https://platform.twitter.com/embed/Tweet.html?id=1234567890&amp;amp;dnt=true&quot;");
    expect(unescape(srcdocOf(html)!)).toContain('<a href="https://platform.twitter.com/embed/Tweet.html?id=1234567890&amp;dnt=true">');
    expect(html).toContain('href="https://x.com/frontpage/status/1234567890"');
  });

  test("an injected quote or <script> in any value stays text: escaped for the inner document, then again for the attribute", () => {
    const hostile = '"><script>alert(1)</script><img src=x onerror=alert(2)>\'';
    // …and the poster's texts carry it too.
    const poster: EmbedPoster = { title: hostile, author: hostile, text: hostile, posterUrl: null, ready: true };
    // A target built by hand, past the URL rules: only the id is checked again here, so the address carries the attack.
    const target: EmbedTarget = { provider: "youtube", id: "dQw4w9WgXcQ", url: `https://www.youtube.com/watch?v=${hostile}` };
    const html = renderEmbedTarget(target, poster);
    // The page: no element but ours, no attribute broken out of.
    expect(html).not.toMatch(/<script|<img/i);
    expect(tagsOf(html).filter((tag) => /onerror/i.test(tag))).toEqual([]);
    expect(tagsOf(html).map((tag) => tag.split(/[\s>]/)[0])).toEqual(["<figure", "<div", "<iframe", "<figcaption", "<a"]);
    const raw = srcdocOf(html)!;
    expect(raw).not.toMatch(/[<>"]/);
    // The frame's document (the attribute's value as the browser reads it): still no script, no img.
    const inner = unescape(raw);
    expect(inner).toBe(embedPlaceholderDocument(target, "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1", poster));
    expect(inner).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(inner).not.toMatch(/<script|<img/i);
    expect(tagsOf(inner).filter((tag) => /onerror/i.test(tag))).toEqual([]);
    // The address is never shown as text: it is the caption link's href, escaped there.
    expect(html).toContain('href="https://www.youtube.com/watch?v=&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;&#39;"');
  });

  test("an id that is not one gives no frame at all (no player address is built from it)", () => {
    for (const id of ['dQw4w9WgXc"', "<script>1</", "../../evil", "dQw4w9WgXcQQ"]) {
      expect(renderEmbedTarget({ provider: "youtube", id, url: "https://www.youtube.com/watch?v=x" })).toBe("");
    }
    expect(renderEmbedTarget({ provider: "x", id: "12a", url: "https://x.com/a/status/1" })).toBe("");
  });

  test("from a stored document: only YouTube or X addresses become players, in their canonical form", () => {
    const doc = (url: string) => ({ type: "doc", content: [{ type: "embed", attrs: { url } }] });
    expect(renderStoryHtml(doc("https://evil.example/watch?v=dQw4w9WgXcQ"))).toBe("");
    expect(renderStoryHtml(doc('https://www.youtube.com/watch?v=dQw4w9WgXcQ"><script>'))).toBe("");
    expect(renderStoryHtml(doc("https://m.youtube.com/watch?v=dQw4w9WgXcQ&t=1"))).toBe(renderEmbedTarget(youtube));
  });
});
