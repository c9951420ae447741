import { describe, expect, test } from "vitest";
import { AppError } from "~/lib/app-error";
import { parseForm } from "~/lib/forms";
import { articleSaveSchema } from "./article-admin.server";
import { REQUIRED_ARTICLE_FIELDS, type ArticleFieldName } from "./articles.schema";
import { readingMinutes, storyFromPlainText, storyPlainText, wordCount } from "./story-document";
import { renderStoryHtml } from "./story-html";
import { storyDocumentSchema, type StoryBlock } from "./story-document.schema";
import { embedTargetOf, isAllowedImageSrc, isAllowedLinkHref } from "./story-urls";

const doc = (...content: unknown[]) => ({ type: "doc", content });
const p = (...content: unknown[]) => ({ type: "paragraph", content });
const text = (t: string, marks?: unknown[]) => ({ type: "text", text: t, ...(marks ? { marks } : {}) });
const link = (href: string) => ({ type: "link", attrs: { href } });
const image = (attrs: Record<string, unknown>) => ({ type: "storyImage", attrs: { alt: "A quay at night", caption: "", credit: "", ...attrs } });

const rich = doc(
  { type: "heading", attrs: { level: 2 }, content: [text("The quay")] },
  p(text("Read "), text("the report", [link("https://example.com/report?a=1&b=2")]), text(" and "), text("this", [{ type: "bold" }, { type: "italic" }])),
  { type: "bulletList", content: [{ type: "listItem", content: [p(text("One"))] }, { type: "listItem", content: [p(text("Two"))] }] },
  { type: "orderedList", attrs: { start: 3 }, content: [{ type: "listItem", content: [p(text("Three"))] }] },
  { type: "blockquote", content: [p(text("A quote"))] },
  { type: "horizontalRule" },
  image({ src: "/media/images/1700000000000-abc123.png", caption: "Lanterns", credit: "Ana Photo" }),
  { type: "embed", attrs: { url: "https://youtu.be/dQw4w9WgXcQ" } },
);

describe("the document schema", () => {
  test("accepts every allowed node and mark, and makes embed addresses canonical", () => {
    const parsed = storyDocumentSchema.parse(rich);
    expect(parsed.content).toHaveLength(8);
    expect(parsed.content[7]).toEqual({ type: "embed", attrs: { url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ" } });
  });

  const refusal = (value: unknown) => {
    const result = storyDocumentSchema.safeParse(value);
    expect(result.success).toBe(false);
    return result.error!.issues[0]!.message;
  };

  test("refuses unknown node and mark types, naming them", () => {
    expect(refusal(doc({ type: "script", content: [text("x")] }))).toMatch(/does not allow \(“script”\)/);
    expect(refusal(doc(p({ type: "iframe" })))).toMatch(/“iframe”/);
    expect(refusal(doc(p(text("x", [{ type: "code" }]))))).toMatch(/text style .*“code”/);
    expect(refusal({ type: "html", content: [] })).toMatch(/not an editor document/);
    expect(refusal(doc({ type: "heading", attrs: { level: 1 }, content: [text("x")] }))).toMatch(/level 2 or 3/);
  });

  test("refuses javascript:, data: and relative links", () => {
    for (const href of ["javascript:alert(1)", " JavaScript:alert(1)", "data:text/html,<script>alert(1)</script>", "/relative", "vbscript:x"]) {
      expect(refusal(doc(p(text("x", [link(href)]))))).toMatch(/Links must start with http:\/\/, https:\/\/ or mailto:/);
    }
    expect(storyDocumentSchema.safeParse(doc(p(text("x", [link("mailto:desk@example.com")])))).success).toBe(true);
  });

  test("refuses images outside our media or https, and images without alt text", () => {
    for (const src of ["data:image/png;base64,AAAA", "http://example.com/a.png", "javascript:alert(1)", "/media/videos/a.mp4", "/media/images/../secrets.json", "//evil.example/a.png"]) {
      expect(refusal(doc(image({ src })))).toMatch(/media library or an https address/);
    }
    expect(refusal(doc(image({ src: "https://example.com/a.png", alt: " " })))).toMatch(/needs alt text/);
    expect(storyDocumentSchema.safeParse(doc(image({ src: "https://cdn.example.com/a.png" }))).success).toBe(true);
  });

  test("extra attributes (onerror, style) are dropped, not kept", () => {
    const parsed = storyDocumentSchema.parse(doc(image({ src: "https://example.com/a.png", onerror: "alert(1)" })));
    expect((parsed.content[0] as StoryBlock & { attrs: object }).attrs).not.toHaveProperty("onerror");
  });

  test("refuses embeds that are not YouTube or X", () => {
    for (const url of ["https://vimeo.com/1234", "https://evil.example/watch?v=dQw4w9WgXcQ", "javascript:alert(1)", "https://www.youtube.com/watch?v=short"]) {
      expect(refusal(doc({ type: "embed", attrs: { url } }))).toMatch(/Only YouTube videos and X posts/);
    }
  });

  test("refuses a document nested too deeply", () => {
    let node: unknown = p(text("deep"));
    for (let i = 0; i < 60; i++) node = { type: "blockquote", content: [node] };
    expect(refusal(doc(node))).toMatch(/nested too deeply/);
  });

  test("the URL rules", () => {
    expect(isAllowedLinkHref("https://example.com")).toBe(true);
    expect(isAllowedLinkHref("https://example.com/\" onmouseover=\"x")).toBe(false);
    expect(isAllowedImageSrc("/media/images/1700000000000-abc123.png")).toBe(true);
    expect(embedTargetOf("https://twitter.com/frontpage/status/12345?s=20")).toEqual({ provider: "x", id: "12345", url: "https://x.com/frontpage/status/12345" });
    expect(embedTargetOf("https://www.youtube.com/shorts/dQw4w9WgXcQ")?.url).toBe("https://www.youtube.com/watch?v=dQw4w9WgXcQ");
    expect(embedTargetOf("https://x.com/frontpage")).toBeNull();
  });
});

describe("the renderer", () => {
  test("renders the allowed nodes and marks", () => {
    const html = renderStoryHtml(storyDocumentSchema.parse(rich));
    expect(html).toContain("<h2>The quay</h2>");
    expect(html).toContain('<a href="https://example.com/report?a=1&amp;b=2" rel="noopener">the report</a>');
    expect(html).toContain("<strong><em>this</em></strong>");
    expect(html).toContain("<ul><li><p>One</p></li><li><p>Two</p></li></ul>");
    expect(html).toContain('<ol start="3"><li><p>Three</p></li></ol>');
    expect(html).toContain("<blockquote><p>A quote</p></blockquote>");
    expect(html).toContain("<hr>");
    expect(html).toMatch(/<figure class="story-image"><img src="\/media\/images\/1700000000000-abc123.png" alt="A quay at night" loading="lazy"[^>]*>/);
    expect(html).toContain('<figcaption><span class="story-caption">Lanterns</span> <span class="story-credit">Ana Photo</span></figcaption>');
    // The embed is a click-to-load frame of our own HTML (no src: nothing loads from YouTube) and a plain link.
    expect(html).toContain('<a href="https://www.youtube.com/watch?v=dQw4w9WgXcQ" rel="noopener" class="story-embed-link">');
    expect(html).toMatch(/<iframe title="YouTube video[^"]*" loading="lazy"[^>]* srcdoc="/);
    expect(html).not.toMatch(/<iframe[^>]* src=|<script/);
  });

  test("what a writer types never becomes markup", () => {
    const html = renderStoryHtml(doc(p(text("<script>alert(1)</script> <img src=x onerror=alert(1)> & \"quotes\" 'single'"))));
    expect(html).toBe("<p>&lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror=alert(1)&gt; &amp; &quot;quotes&quot; &#39;single&#39;</p>");
  });

  test("escapes attributes and drops what is not on the allow-list, even from an unchecked document", () => {
    const html = renderStoryHtml(
      doc(
        { type: "script", content: [text("alert(1)")] },
        { type: "html", html: "<b>x</b>" },
        p(text("bad", [link("javascript:alert(1)")]), text("onerror", [{ type: "link", attrs: { href: 'https://e.com/"onerror="alert(1)' } }])),
        image({ src: "data:image/png;base64,AAAA" }),
        image({ src: "https://example.com/a.png", alt: '" onerror="alert(1)', onerror: "alert(1)" }),
        { type: "embed", attrs: { url: "https://evil.example/x" } },
        { type: "heading", attrs: { level: "1><script>" }, content: [text("H")] },
      ),
    );
    expect(html).not.toMatch(/<script|javascript:|<b>|data:image|onerror="/);
    expect(html).toContain("<p>badonerror</p>");
    expect(html).toContain('alt="&quot; onerror=&quot;alert(1)"');
    expect(html).toContain("<h2>H</h2>");
  });

  test("nothing for a value that is not a document", () => {
    expect(renderStoryHtml(null)).toBe("");
    expect(renderStoryHtml("<script>")).toBe("");
    expect(renderStoryHtml({ type: "paragraph" })).toBe("");
  });
});

describe("plain text, legacy conversion and counts", () => {
  test("the plain text keeps each block's text, separated by blank lines", () => {
    expect(storyPlainText(storyDocumentSchema.parse(rich))).toBe("The quay\n\nRead the report and this\n\nOne\n\nTwo\n\nThree\n\nA quote\n\nLanterns");
  });

  test("a plain-text story converts losslessly: paragraphs with their exact text, line breaks kept", () => {
    const legacy = "Plain words and <b>bold</b> markup.\nA second line right under it.\n\n\nA new paragraph <script>window.__ran = true</script>.";
    const converted = storyFromPlainText(legacy);
    expect(converted).toEqual({
      type: "doc",
      content: [
        {
          type: "paragraph",
          content: [text("Plain words and <b>bold</b> markup."), { type: "hardBreak" }, text("A second line right under it.")],
        },
        { type: "paragraph", content: [text("A new paragraph <script>window.__ran = true</script>.")] },
      ],
    });
    expect(storyDocumentSchema.safeParse(converted).success).toBe(true);
    // Back to text: the same paragraphs and lines the reader page showed.
    expect(storyPlainText(converted)).toBe("Plain words and <b>bold</b> markup.\nA second line right under it.\n\nA new paragraph <script>window.__ran = true</script>.");
    // And its markup stays text when rendered.
    expect(renderStoryHtml(converted)).toContain("&lt;b&gt;bold&lt;/b&gt;");
    expect(storyFromPlainText("Windows\r\nline\r\n\r\nends")).toEqual(storyFromPlainText("Windows\nline\n\nends"));
    expect(storyFromPlainText("  ")).toEqual({ type: "doc", content: [{ type: "paragraph" }] });
  });

  test("word count and reading time (200 words a minute, at least 1)", () => {
    expect(wordCount("It's a well-known fact — 3 ducks, 2 geese.")).toBe(8);
    expect(wordCount("")).toBe(0);
    expect(readingMinutes(0)).toBe(1);
    expect(readingMinutes(250)).toBe(1);
    expect(readingMinutes(800)).toBe(4);
  });
});

describe("the article form with a document", () => {
  const values = (over: Partial<Record<ArticleFieldName, string>> = {}): Record<ArticleFieldName, string> => ({
    title: "Title",
    slug: "title",
    categoryId: "",
    authorName: "",
    authorIds: "",
    tags: "",
    access: "",
    accessTierId: "",
    excerpt: "",
    content: "whatever the browser sent",
    contentDoc: JSON.stringify(rich),
    featuredImage: "",
    featuredImageAlt: "",
    featuredImageCaption: "",
    featuredImageCredit: "",
    videoUrl: "",
    seoTitle: "",
    seoDescription: "",
    socialImage: "",
    publishAt: "",
    intent: "",
    showAsUpdated: "",
    takeOverSlug: "",
    ...over,
  });
  const parse = (v: Record<ArticleFieldName, string>) => parseForm(articleSaveSchema, v, { required: REQUIRED_ARTICLE_FIELDS });

  test("derives the plain text from the document on the server", () => {
    const input = parse(values());
    expect(input.content).toBe(storyPlainText(input.contentDoc));
    expect(input.contentDoc?.content).toHaveLength(8);
  });

  test("a blank document field is a plain-text story", () => {
    expect(parse(values({ contentDoc: "", content: "Just text" }))).toMatchObject({ content: "Just text", contentDoc: null });
  });

  test("refuses bad documents with the rule's message on the contentDoc field", () => {
    const refused = (contentDoc: string) => {
      try {
        parse(values({ contentDoc }));
      } catch (error) {
        expect(error).toBeInstanceOf(AppError);
        expect((error as AppError).code).toBe("invalid_input");
        expect((error as AppError).field).toBe("contentDoc");
        return (error as AppError).message;
      }
      throw new Error("not refused");
    };
    expect(refused("{not json")).toMatch(/could not be read/);
    expect(refused(JSON.stringify(doc(p(text("x", [link("javascript:alert(1)")])))))).toMatch(/Links must start with/);
    expect(refused(JSON.stringify(doc({ type: "script" })))).toMatch(/“script”/);
  });

  test("a document without text is refused as missing content", () => {
    expect(() => parse(values({ contentDoc: JSON.stringify(doc({ type: "horizontalRule" })) }))).toThrow(/Content is required/);
  });
});
