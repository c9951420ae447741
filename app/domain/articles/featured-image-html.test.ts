import { describe, expect, test } from "vitest";
import { renderFeaturedImageHtml } from "./featured-image-html";

const IMAGE = "/media/images/1700000000000-abc123.png";
const figure = (over: Partial<Parameters<typeof renderFeaturedImageHtml>[0]> = {}) =>
  renderFeaturedImageHtml({ featuredImage: IMAGE, featuredImageAlt: "A quay at night", featuredImageCaption: null, featuredImageCredit: null, ...over });

describe("the featured image on the article page", () => {
  test("the image with its alt text and resized variants; no figcaption without caption or credit", () => {
    expect(figure()).toBe(
      `<img src="${IMAGE}" srcset="${IMAGE}?w=640 640w, ${IMAGE}?w=960 960w, ${IMAGE}?w=1280 1280w, ${IMAGE}?w=1600 1600w" sizes="(min-width: 896px) 864px, 100vw"` +
        ` alt="A quay at night" width="1200" height="675" fetchpriority="high" class="aspect-video w-full rounded-xl object-cover">`,
    );
  });

  test("caption and credit: “Caption — Photo: Credit”, either alone without the dash", () => {
    expect(figure({ featuredImageCaption: "Lanterns", featuredImageCredit: "Ana Photo" })).toMatch(
      /<figcaption>Lanterns — <span class="featured-credit">Photo: Ana Photo<\/span><\/figcaption>$/,
    );
    expect(figure({ featuredImageCaption: "Lanterns" })).toMatch(/<figcaption>Lanterns<\/figcaption>$/);
    expect(figure({ featuredImageCredit: "Ana Photo" })).toMatch(/<figcaption><span class="featured-credit">Photo: Ana Photo<\/span><\/figcaption>$/);
  });

  test("an older article without alt text keeps its image, as decoration (alt=\"\"); no image, nothing", () => {
    expect(figure({ featuredImageAlt: null })).toContain(' alt="" ');
    expect(renderFeaturedImageHtml({ featuredImage: null, featuredImageAlt: "x", featuredImageCaption: "y", featuredImageCredit: "z" })).toBeNull();
  });

  test("every value is escaped: a quote or markup in the alt text, caption or credit stays text", () => {
    const html = figure({
      featuredImageAlt: '" onerror="alert(1)',
      featuredImageCaption: "<script>alert(2)</script>",
      featuredImageCredit: "<img src=x onerror=alert(3)>",
    })!;
    expect(html).not.toMatch(/<script|<img src=x|onerror="/);
    expect(html).toContain('alt="&quot; onerror=&quot;alert(1)"');
    expect(html).toContain("&lt;script&gt;alert(2)&lt;/script&gt; — ");
    expect(html).toContain("Photo: &lt;img src=x onerror=alert(3)&gt;");
  });
});
