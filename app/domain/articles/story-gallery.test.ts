import { describe, expect, test } from "vitest";
import { storyPlainText } from "./story-document";
import { GALLERY_COUNT_MESSAGE, storyDocumentSchema, type StoryDocument } from "./story-document.schema";
import { hasGallery, renderStoryHtml } from "./story-html";

const picture = (n: number, extra: Record<string, unknown> = {}) => ({ src: `/media/images/1700000000000-pic${n}.jpg`, alt: `Picture ${n}`, caption: `Caption ${n}`, ...extra });
const gallery = (images: unknown[]) => ({ type: "doc", content: [{ type: "gallery", attrs: { images } }] });

const refusal = (value: unknown) => {
  const result = storyDocumentSchema.safeParse(value);
  expect(result.success).toBe(false);
  return result.error!.issues[0]!.message;
};

describe("the gallery block's rules (checked on every save)", () => {
  test("2 to 12 pictures of our media, each with alt text, are accepted; captions are optional and trimmed", () => {
    const parsed = storyDocumentSchema.parse(gallery([picture(1), { src: "/media/images/1700000000000-pic2.jpg", alt: " Two " }]));
    expect(parsed.content[0]).toEqual({
      type: "gallery",
      attrs: { images: [picture(1), { src: "/media/images/1700000000000-pic2.jpg", alt: "Two", caption: "" }] },
    });
    expect(storyDocumentSchema.safeParse(gallery(Array.from({ length: 12 }, (_, i) => picture(i)))).success).toBe(true);
  });

  test("fewer than 2 or more than 12 pictures are refused with one clear message", () => {
    expect(refusal(gallery([picture(1)]))).toBe(GALLERY_COUNT_MESSAGE);
    expect(refusal(gallery([]))).toBe(GALLERY_COUNT_MESSAGE);
    expect(refusal(gallery(Array.from({ length: 13 }, (_, i) => picture(i))))).toBe(GALLERY_COUNT_MESSAGE);
    expect(GALLERY_COUNT_MESSAGE).toBe("A gallery holds 2 to 12 images.");
  });

  test("a picture without alt text is refused, with the story's alt-text message", () => {
    expect(refusal(gallery([picture(1), picture(2, { alt: "  " })]))).toBe("Every image in the story needs alt text (a description for people who cannot see it).");
  });

  test("a picture from anywhere but our media library is refused, naming it", () => {
    for (const src of ["https://elsewhere.example/a.jpg", "javascript:alert(1)", "/media/images/../secrets", "/media/files/a.pdf", "//evil.example/a.jpg"]) {
      expect(refusal(gallery([picture(1), picture(2, { src })]))).toMatch(/^Every image in a gallery must come from this site's Media Library \(not /);
    }
  });
});

describe("the gallery on the reader page", () => {
  const doc = storyDocumentSchema.parse(gallery([picture(1), picture(2), picture(3), { src: "/media/images/1700000000000-pic4.gif", alt: "Moving", caption: "" }])) as StoryDocument;
  const html = renderStoryHtml(doc);

  test("a labelled grid of figures, each picture a link to the whole image with its variants and its caption", () => {
    expect(html).toMatch(/^<div class="story-gallery" data-story-gallery data-count="4" role="group" aria-label="Gallery of 4 images"><ul><li><figure>/);
    expect(html).toContain(
      '<a href="/media/images/1700000000000-pic1.jpg" class="story-gallery-link" data-index="0"><img src="/media/images/1700000000000-pic1.jpg?w=640" alt="Picture 1" loading="lazy" decoding="async" srcset="/media/images/1700000000000-pic1.jpg?w=320 320w, /media/images/1700000000000-pic1.jpg?w=640 640w" sizes="(min-width: 896px) 216px, 50vw"></a><figcaption>Caption 1</figcaption>',
    );
    // A GIF has no variants: the file itself, no caption element when there is none.
    expect(html).toContain('<a href="/media/images/1700000000000-pic4.gif" class="story-gallery-link" data-index="3"><img src="/media/images/1700000000000-pic4.gif" alt="Moving" loading="lazy" decoding="async"></a></figure>');
    expect(hasGallery(html)).toBe(true);
    expect(hasGallery(renderStoryHtml({ type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text: "data-story-gallery" }] }] }))).toBe(false);
  });

  test("texts are escaped, and a stored picture that fails the image rule is left out (the renderer's second line)", () => {
    const stored = gallery([picture(1, { alt: '"><script>x</script>', caption: "<b>bold</b> & co" }), picture(2, { src: "javascript:alert(1)" })]);
    const out = renderStoryHtml(stored);
    expect(out).not.toMatch(/<script|<b>|javascript:/);
    expect(out).toContain('alt="&quot;&gt;&lt;script&gt;x&lt;/script&gt;"');
    expect(out).toContain("<figcaption>&lt;b&gt;bold&lt;/b&gt; &amp; co</figcaption>");
    expect(out).toContain('data-count="1"');
    expect(renderStoryHtml(gallery([{ src: "javascript:alert(1)", alt: "x" }]))).toBe("");
  });

  test("its captions are part of the story's plain text (search, excerpts)", () => {
    expect(storyPlainText(doc)).toBe("Caption 1\n\nCaption 2\n\nCaption 3");
  });
});
