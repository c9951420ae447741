import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { importedStoryDocumentSchema, storyDocumentSchema, type StoryBlock, type StoryDocument } from "~/domain/articles/story-document.schema";
import { plainTextFromHtml, rewriteStoryUrls, storyFromHtml, type StoryFromHtmlOptions } from "./story-from-html.server";

const WP: StoryFromHtmlOptions = { source: "wordpress", baseUrl: "https://old.example.com" };
const GHOST: StoryFromHtmlOptions = { source: "ghost", baseUrl: "https://old.example.com" };

const blocks = (html: string, options = WP) => storyFromHtml(html, options).doc.content;
const p = (text: string) => ({ type: "paragraph", content: [{ type: "text", text }] });

/** Every image to one stored file, every link unchanged: what the property tests check against the schema. */
const rewriteAll = (doc: StoryDocument) => rewriteStoryUrls(doc, { image: () => ({ src: "/media/images/x.jpg" }), link: (href) => href });

/** Valid as an imported story: the editor's schema, but an image may lack alt text (issue 39). */
function expectValid(doc: StoryDocument) {
  const result = importedStoryDocumentSchema.safeParse(doc);
  if (!result.success) throw new Error(`${result.error.message}\n${JSON.stringify(doc).slice(0, 2000)}`);
}

describe("storyFromHtml: WordPress's paragraphs (wpautop)", () => {
  it("makes paragraphs of blank-line-separated text and line breaks of single newlines", () => {
    expect(blocks("First line\nsecond line\n\nNext paragraph\r\n\r\n\n\nLast")).toEqual([
      { type: "paragraph", content: [{ type: "text", text: "First line" }, { type: "hardBreak" }, { type: "text", text: "second line" }] },
      p("Next paragraph"),
      p("Last"),
    ]);
  });

  it("adds no line breaks next to block tags, nor inside pre", () => {
    const doc = blocks("<ul>\n<li>One</li>\n<li>Two</li>\n</ul>\nAfter\n<pre>a\n  b</pre>");
    expect(doc[0]).toEqual({
      type: "bulletList",
      content: [
        { type: "listItem", content: [p("One")] },
        { type: "listItem", content: [p("Two")] },
      ],
    });
    expect(doc[1]).toEqual(p("After"));
    expect(doc[2]).toEqual({ type: "paragraph", content: [{ type: "text", text: "a" }, { type: "hardBreak" }, { type: "text", text: "b" }] }); // indentation collapses on the reader page anyway
  });

  it("turns two <br>s into a paragraph break, and leaves Ghost and Gutenberg bodies alone", () => {
    expect(blocks("one<br><br />two")).toEqual([p("one"), p("two")]);
    expect(blocks("one\ntwo", GHOST)).toEqual([p("one two")]);
    expect(blocks("<!-- wp:paragraph -->\n<p>one\ntwo</p>\n<!-- /wp:paragraph -->")).toEqual([p("one two")]);
  });
});

describe("storyFromHtml: the allow-list", () => {
  it("maps h1/h2 to level 2 and h3–h6 to level 3", () => {
    expect(blocks("<h1>A</h1><h2>B</h2><h3>C</h3><h5>D</h5>")).toEqual([
      { type: "heading", attrs: { level: 2 }, content: [{ type: "text", text: "A" }] },
      { type: "heading", attrs: { level: 2 }, content: [{ type: "text", text: "B" }] },
      { type: "heading", attrs: { level: 3 }, content: [{ type: "text", text: "C" }] },
      { type: "heading", attrs: { level: 3 }, content: [{ type: "text", text: "D" }] },
    ]);
    expect(blocks("<h4>a<br>b</h4>", GHOST)).toEqual([
      { type: "heading", attrs: { level: 3 }, content: [{ type: "text", text: "a" }, { type: "hardBreak" }, { type: "text", text: "b" }] },
    ]);
  });

  it("keeps bold, italic and links as marks", () => {
    expect(blocks('<p><strong>a</strong> <em>b <b>c</b></em> <a href="https://x.org/">d</a></p>', GHOST)).toEqual([
      {
        type: "paragraph",
        content: [
          { type: "text", text: "a", marks: [{ type: "bold" }] },
          { type: "text", text: " " },
          { type: "text", text: "b ", marks: [{ type: "italic" }] },
          { type: "text", text: "c", marks: [{ type: "bold" }, { type: "italic" }] },
          { type: "text", text: " " },
          { type: "text", text: "d", marks: [{ type: "link", attrs: { href: "https://x.org/" } }] },
        ],
      },
    ]);
  });

  it("resolves a relative link against the old site, and drops javascript: links keeping their text", () => {
    expect(blocks('<p><a href="/2019/01/post/">old</a> <a href="javascript:alert(1)">bad</a> <a href="mailto:a@b.org">mail</a></p>')).toEqual([
      {
        type: "paragraph",
        content: [
          { type: "text", text: "old", marks: [{ type: "link", attrs: { href: "https://old.example.com/2019/01/post/" } }] },
          { type: "text", text: " bad " },
          { type: "text", text: "mail", marks: [{ type: "link", attrs: { href: "mailto:a@b.org" } }] },
        ],
      },
    ]);
    // No site address: a relative link cannot be resolved, its text stays.
    expect(blocks('<p><a href="/x">t</a></p>', { source: "ghost", baseUrl: null })).toEqual([p("t")]);
  });

  it("keeps nested lists, an ordered list's start, quotes and rules", () => {
    expect(blocks('<ol start="3"><li>a<ul><li>b</li></ul></li></ol><blockquote><p>q</p></blockquote><hr>', GHOST)).toEqual([
      {
        type: "orderedList",
        attrs: { start: 3 },
        content: [{ type: "listItem", content: [p("a"), { type: "bulletList", content: [{ type: "listItem", content: [p("b")] }] }] }],
      },
      { type: "blockquote", content: [p("q")] },
      { type: "horizontalRule" },
    ]);
  });

  it("collapses whitespace as a browser does and drops empty paragraphs", () => {
    expect(blocks("<p>  a \n\t b  </p><p>&nbsp;</p><p> </p><p><br></p>", GHOST)).toEqual([p("a b")]);
  });
});

describe("storyFromHtml: images", () => {
  it("hoists an image out of its paragraph, splitting it", () => {
    const story = storyFromHtml('<p>Before <img src="/wp-content/uploads/a.jpg" alt="A cat"> after</p>', WP);
    expect(story.doc.content).toEqual([
      p("Before"),
      { type: "storyImage", attrs: { src: "https://old.example.com/wp-content/uploads/a.jpg", alt: "A cat", caption: "", credit: "" } },
      p("after"),
    ]);
    expect(story.images).toEqual([{ src: "https://old.example.com/wp-content/uploads/a.jpg", alt: "A cat", caption: "" }]);
  });

  it("reads Ghost's image card, its __GHOST_URL__ addresses resolved against the old site", () => {
    const html =
      '<figure class="kg-card kg-image-card kg-card-hascaption"><img src="__GHOST_URL__/content/images/2020/01/a.jpg" class="kg-image" alt loading="lazy"><figcaption>Photo by <a href="__GHOST_URL__/author/x/">X</a></figcaption></figure>';
    expect(storyFromHtml(html, GHOST).images).toEqual([{ src: "https://old.example.com/content/images/2020/01/a.jpg", alt: "", caption: "Photo by X" }]);
    expect(blocks('<p><a href="__GHOST_URL__/tag/news/">news</a></p>', GHOST)).toEqual([
      { type: "paragraph", content: [{ type: "text", text: "news", marks: [{ type: "link", attrs: { href: "https://old.example.com/tag/news/" } }] }] },
    ]);
  });

  it("reads WordPress's [caption] with its caption text", () => {
    const story = storyFromHtml(
      '[caption id="attachment_6" align="alignright" width="300"]<a href="https://old.example.com/a.jpg"><img class="size-medium wp-image-6" src="https://old.example.com/a.jpg" alt="Boat" width="300" /></a> The <em>boat</em> at dawn[/caption]\n\nText after.',
      WP,
    );
    expect(story.doc.content).toEqual([
      { type: "storyImage", attrs: { src: "https://old.example.com/a.jpg", alt: "Boat", caption: "The boat at dawn", credit: "" } },
      p("Text after."),
    ]);
    expect(story.unconverted).toEqual([]);
  });

  it("reads the old caption attribute", () => {
    expect(blocks('[caption id="a" caption="From the attribute"]<img src="https://o.org/b.jpg" alt="">[/caption]')).toEqual([
      { type: "storyImage", attrs: { src: "https://o.org/b.jpg", alt: "", caption: "From the attribute", credit: "" } },
    ]);
  });

  it("reads figure and figcaption (Gutenberg's wp:image block)", () => {
    const html =
      '<!-- wp:image {"id":7} -->\n<figure class="wp-block-image"><img src="https://old.example.com/c.jpg" alt="Hills" class="wp-image-7"/><figcaption>Green <strong>hills</strong></figcaption></figure>\n<!-- /wp:image -->';
    expect(blocks(html)).toEqual([{ type: "storyImage", attrs: { src: "https://old.example.com/c.jpg", alt: "Hills", caption: "Green hills", credit: "" } }]);
  });

  it("turns [gallery ids] into one image per attachment, and [gallery] into one placeholder", () => {
    const story = storyFromHtml('[gallery columns="2" ids="770, 771"]\n\n[gallery]', WP);
    expect(story.doc.content.map((b) => (b.type === "storyImage" ? b.attrs.src : b.type))).toEqual(["wp-attachment:770", "wp-attachment:771", "wp-gallery:"]);
    expect(story.images.map((i) => i.src)).toEqual(["wp-attachment:770", "wp-attachment:771", "wp-gallery:"]);
  });
});

describe("storyFromHtml: embeds", () => {
  const youtube = { type: "embed", attrs: { url: "https://www.youtube.com/watch?v=ex8fMxXJDJw" } };

  it("embeds a YouTube URL alone on a line", () => {
    expect(blocks("Look:\nhttps://youtu.be/ex8fMxXJDJw\nNice.")).toEqual([p("Look:"), youtube, p("Nice.")]);
    expect(blocks("<p>https://x.com/jack/status/20</p>", GHOST)).toEqual([{ type: "embed", attrs: { url: "https://x.com/jack/status/20" } }]);
  });

  it("reads [embed], [youtube URL] and [youtube=URL]", () => {
    expect(blocks("[embed]https://www.youtube.com/watch?v=ex8fMxXJDJw[/embed]")).toEqual([youtube]);
    expect(blocks("[youtube https://www.youtube.com/watch?v=ex8fMxXJDJw]")).toEqual([youtube]);
    expect(blocks("[youtube=http://www.youtube.com/watch?v=ex8fMxXJDJw&amp;w=640&amp;h=385]")).toEqual([youtube]);
  });

  it("reads Gutenberg's wp:embed block, once, its caption a paragraph", () => {
    const html =
      '<!-- wp:core-embed/youtube {"url":"https://youtu.be/ex8fMxXJDJw","type":"video"} -->\n<figure class="wp-block-embed-youtube wp-block-embed"><div class="wp-block-embed__wrapper">\nhttps://youtu.be/ex8fMxXJDJw\n</div><figcaption>A video</figcaption></figure>\n<!-- /wp:core-embed/youtube -->';
    expect(blocks(html)).toEqual([youtube, { type: "paragraph", content: [{ type: "text", text: "A video", marks: [{ type: "italic" }] }] }]);
    // The comment alone (no HTML inside) still gives the embed.
    expect(blocks('<!-- wp:embed {"url":"https://youtu.be/ex8fMxXJDJw"} -->\n<!-- /wp:embed -->')).toEqual([youtube]);
  });

  it("keeps any other embed as a link, reported", () => {
    const story = storyFromHtml("[embed]https://vimeo.com/123[/embed]", WP);
    expect(story.doc.content).toEqual([
      { type: "paragraph", content: [{ type: "text", text: "https://vimeo.com/123", marks: [{ type: "link", attrs: { href: "https://vimeo.com/123" } }] }] },
    ]);
    expect(story.unconverted).toEqual(["embed of vimeo.com (kept as a link)"]);
  });

  it("embeds a YouTube iframe, and an X blockquote", () => {
    expect(blocks('<iframe src="https://www.youtube-nocookie.com/embed/ex8fMxXJDJw?rel=0"></iframe>', GHOST)).toEqual([youtube]);
    expect(
      blocks('<blockquote class="twitter-tweet"><p>Hi</p>&mdash; J (@jack) <a href="https://twitter.com/jack/status/20">March 21, 2006</a></blockquote><script async src="https://platform.twitter.com/widgets.js"></script>', GHOST),
    ).toEqual([{ type: "embed", attrs: { url: "https://x.com/jack/status/20" } }]);
  });
});

describe("storyFromHtml: what never passes, and what is reported", () => {
  it("drops Gutenberg comments", () => {
    const story = storyFromHtml("<!-- wp:paragraph -->\n<p>Hello</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:separator -->\n<hr class=\"wp-block-separator\"/>\n<!-- /wp:separator -->", WP);
    expect(story.doc.content).toEqual([p("Hello"), { type: "horizontalRule" }]);
    expect(story.unconverted).toEqual([]);
  });

  it("lets no script, foreign iframe, style or event attribute through", () => {
    const story = storyFromHtml(
      '<p style="color:red" onclick="alert(1)">Text<script>alert(2)</script></p><iframe src="https://evil.example/x"></iframe><style>p{}</style><img src="https://o.org/i.jpg" alt="x" onerror="alert(3)">',
      WP,
    );
    const json = JSON.stringify(story.doc);
    expect(json).not.toMatch(/alert|evil|color|onclick|onerror|style/);
    expect(story.doc.content).toEqual([p("Text"), { type: "storyImage", attrs: { src: "https://o.org/i.jpg", alt: "x", caption: "", credit: "" } }]);
    expect(story.unconverted).toEqual(["element <script> (removed)", "element <iframe> (removed)", "element <style> (removed)"]);
  });

  it("keeps an unknown shortcode's text and reports it; leaves [sic] as text", () => {
    const story = storyFromHtml('Call us [contact-form-7 id="1" title="Contact"]\n\n[foo bar="1"]Inner text[/foo] and [sic].', WP);
    expect(story.doc.content).toEqual([p("Call us"), p("Inner text and [sic].")]);
    expect(story.unconverted).toEqual(["shortcode [contact-form-7]", "shortcode [foo]"]);
  });

  it("keeps a table's rows as text and reports unknown elements once each", () => {
    const story = storyFromHtml("<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td><code>2</code></td></tr></table><p><code>x</code> and <code>y</code></p>", GHOST);
    expect(story.doc.content).toEqual([p("A | B"), p("1 | 2"), p("x and y")]);
    expect(story.unconverted).toEqual(["element <table>", "element <code>"]);
  });
});

describe("rewriteStoryUrls", () => {
  it("moves images and links to the new site, and replaces an image that could not be had by a link", () => {
    const { doc } = storyFromHtml(
      '<p><a href="https://old.example.com/2019/01/post/">old post</a></p><img src="https://old.example.com/a.jpg" alt=""><img src="https://old.example.com/gone.jpg" alt="Gone"><p>[gallery ids="5"]</p>[gallery]',
      WP,
    );
    const rewritten = rewriteStoryUrls(doc, {
      image: (src) =>
        src === "https://old.example.com/a.jpg"
          ? { src: "/media/images/a.jpg", alt: "From the library", caption: "Cap" }
          : src === "wp-gallery:"
            ? [{ type: "storyImage", attrs: { src: "/media/images/g1.jpg", alt: "G1", caption: "", credit: "" } }]
            : null,
      link: (href) => (href === "https://old.example.com/2019/01/post/" ? "https://new.example.com/news/post" : href),
    });
    expect(rewritten.content).toEqual<StoryBlock[]>([
      { type: "paragraph", content: [{ type: "text", text: "old post", marks: [{ type: "link", attrs: { href: "https://new.example.com/news/post" } }] }] },
      { type: "storyImage", attrs: { src: "/media/images/a.jpg", alt: "From the library", caption: "Cap", credit: "" } },
      { type: "paragraph", content: [{ type: "text", text: "Gone", marks: [{ type: "link", attrs: { href: "https://old.example.com/gone.jpg" } }] }] },
      { type: "storyImage", attrs: { src: "/media/images/g1.jpg", alt: "G1", caption: "", credit: "" } },
    ]);
    expectValid(rewritten);
    expect(doc.content[1]).toMatchObject({ attrs: { src: "https://old.example.com/a.jpg" } }); // input left as it was
  });

  it("keeps an image without alt text without one (no made-up word), and its caption as alt when it has one", () => {
    const { doc } = storyFromHtml('[gallery ids="5,6,7"]', WP);
    const gallery = new Map([
      ["wp-attachment:5", { src: "/media/images/g5.jpg" }],
      ["wp-attachment:6", { src: "/media/images/g6.jpg", caption: "The pier" }],
      ["wp-attachment:7", { src: "/media/images/g7.jpg", alt: "A gull" }],
    ]);
    const rewritten = rewriteStoryUrls(doc, { image: (src) => gallery.get(src) ?? null, link: (href) => href });
    expect(rewritten.content.map((b) => (b.type === "storyImage" ? b.attrs.alt : b.type))).toEqual(["", "The pier", "A gull"]);
    expectValid(rewritten);
    // What a save checks still asks for it: the editor's next save of the story.
    expect(storyDocumentSchema.safeParse(rewritten).success).toBe(false);
  });

  it("puts a link to its old address in place of a gallery image that could not be had", () => {
    const { doc } = storyFromHtml("[gallery]", WP);
    const rewritten = rewriteStoryUrls(doc, {
      image: () => [
        { type: "storyImage", attrs: { src: "/media/images/g1.jpg", alt: "G1", caption: "", credit: "" } },
        { missing: "https://old.example.com/wp-content/uploads/g2.jpg", alt: "", caption: "Second" },
      ],
      link: (href) => href,
    });
    expect(rewritten.content).toEqual<StoryBlock[]>([
      { type: "storyImage", attrs: { src: "/media/images/g1.jpg", alt: "G1", caption: "", credit: "" } },
      { type: "paragraph", content: [{ type: "text", text: "Second", marks: [{ type: "link", attrs: { href: "https://old.example.com/wp-content/uploads/g2.jpg" } }] }] },
    ]);
  });
});

describe("plainTextFromHtml", () => {
  it("keeps paragraphs as blank lines, decodes entities and drops tags", () => {
    expect(plainTextFromHtml("<p>Hello &amp; <b>welcome</b></p><p>Line one<br>line two</p><script>x()</script>")).toBe("Hello & welcome\n\nLine one\nline two");
    expect(plainTextFromHtml("Plain comment\nwith a break\n\n\n\nand a paragraph &lt;3")).toBe("Plain comment\nwith a break\n\nand a paragraph <3");
  });
});

describe("every output passes the server's schema after a rewrite", () => {
  const nasty = [
    "",
    "   \n\n  ",
    "<",
    "<<<>>>[[[]]]",
    "[caption]",
    "[/caption]",
    "[gallery ids=\"\"]",
    "[embed][/embed]",
    "[youtube]",
    "<img>",
    '<img src="data:image/png;base64,AAAA" alt="">',
    '<img src="javascript:alert(1)">',
    '<img src="   " alt="   ">',
    `<img src="https://o.org/${"a".repeat(3000)}.jpg" alt="${"b".repeat(900)}">`,
    `<figure><img src="https://o.org/a.jpg"><figcaption>${"c".repeat(5000)}</figcaption></figure>`,
    "<ul></ul><ol start=\"-5\"><li></li></ol><ol start=\"99999999\"><li>x</li></ol><blockquote></blockquote>",
    "<h1></h1><h6><img src='https://o.org/a.jpg' alt='in a heading'>after</h6>",
    "<ul><li><img src='https://o.org/a.jpg' alt='first'></li><li><hr></li></ul>",
    "<li>stray</li><td>cell</td><tr><td>row</td></tr>",
    '<a href="https://o.org/' + "x".repeat(2500) + '">long link</a>',
    "<a href='  https://o.org/ok  '>padded</a><a href='https://o.org/a b'>space</a><a href='http://'>empty</a>",
    "\u0000nul\u0007bell\uD800lone",
    "&#0;&#xD800;&#x1F600;&amp;&bogus;",
    "<div>".repeat(2000) + "deep" + "</div>".repeat(2000),
    "<blockquote>".repeat(60) + "deep quote" + "</blockquote>".repeat(60),
    "<ul><li>".repeat(30) + "deep list" + "</li></ul>".repeat(30),
    "<b>".repeat(500) + "bold" + "</b>".repeat(500),
    "x".repeat(250_000),
    "a<br>".repeat(12_000),
    "<ul>" + "<li>i</li>".repeat(1200) + "</ul>",
    "<blockquote>" + "<p>q</p>".repeat(700) + "</blockquote>",
    "<ul><li>" + "<p>p</p>".repeat(450) + "</li></ul>",
    "<p>p</p>".repeat(5100),
    "[gallery ids=\"" + Array.from({ length: 300 }, (_, i) => i + 1).join(",") + "\"]",
    "<p>[caption id=\"x\"]<img src='a.jpg'>[/caption] [gallery] [foo]</p>",
    "<svg><script>alert(1)</script></svg><math><mi>x</mi></math><object data='x'></object><form><input value='x'></form>",
    "<pre>\n\n</pre><pre></pre><code></code>",
    "<!-- wp:embed {\"url\":\"javascript:alert(1)\"} -->\n<!-- /wp:embed --><!-- wp:embed {broken -->",
    "[embed]javascript:alert(1)[/embed][embed]https://youtu.be/short[/embed]",
    "<p>https://youtu.be/ex8fMxXJDJw<br>https://x.com/a/status/1<br>https://vimeo.com/1</p>",
    "<p><a href='https://youtu.be/ex8fMxXJDJw'>https://youtu.be/ex8fMxXJDJw</a></p>",
    "<table><tr><td><table><tr><td>inner</td></tr></table></td></tr></table>",
    "<video src='https://o.org/v.mp4'>fallback</video><audio><source src='x.mp3'></audio>",
    "<p>" + "<a href='https://o.org/'>l</a>".repeat(11_000) + "</p>",
  ];

  it.each(nasty.map((html, i) => [i, html] as const))("nasty input %i", (_i, html) => {
    for (const options of [WP, GHOST, { source: "wordpress", baseUrl: null } as const, { source: "wordpress", baseUrl: "not a url" } as const]) {
      const story = storyFromHtml(html, options);
      expectValid(rewriteAll(story.doc));
      // And when no image could be had.
      expectValid(rewriteStoryUrls(story.doc, { image: () => null, link: (href) => href }));
      // And when the engine maps links to something the schema refuses.
      expectValid(rewriteStoryUrls(story.doc, { image: () => ({ src: "http://not-allowed/x.jpg" }), link: () => "javascript:alert(1)" }));
    }
  });

  const wxr = ["/tmp/themeunittestdata.wordpress.xml", "tests/fixtures/import/themeunittestdata.wordpress.xml"].find((file) => existsSync(file));
  it.skipIf(!wxr)("converts every body of WordPress's theme unit test data", () => {
    const xml = readFileSync(wxr!, "utf8");
    const bodies = [...xml.matchAll(/<content:encoded><!\[CDATA\[([\s\S]*?)\]\]><\/content:encoded>/g)].map((m) => m[1]!);
    expect(bodies.length).toBeGreaterThan(50);
    const reported = new Set<string>();
    for (const body of bodies) {
      const story = storyFromHtml(body, { source: "wordpress", baseUrl: "https://wpthemetestdata.wordpress.com" });
      expectValid(rewriteAll(story.doc));
      story.unconverted.forEach((u) => reported.add(u));
    }
    expect(reported.size).toBeGreaterThan(0);
  });
});
