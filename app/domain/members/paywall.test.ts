import { describe, expect, test } from "vitest";
import type { StoryDocument } from "~/domain/articles/story-document.schema";
import { splitAtPaywall, withoutPaywall } from "./paywall";

const p = (text: string) => ({ type: "paragraph" as const, content: [{ type: "text" as const, text }] });
const doc = (...content: unknown[]) => ({ type: "doc", content }) as StoryDocument;
const texts = (d: StoryDocument) => d.content.map((b) => ("content" in b && b.content?.[0] && "text" in b.content[0] ? b.content[0].text : b.type));

describe("where a gated story is cut", () => {
  test("at the first Paywall here block, which is in neither part", () => {
    const parts = splitAtPaywall(doc(p("one"), { type: "paywall" }, p("two"), { type: "paywall" }, p("three")), 3);
    expect(texts(parts.free)).toEqual(["one"]);
    expect(texts(parts.gated)).toEqual(["two", "three"]);
  });

  test("without one, after the setting's number of paragraphs (headings and images do not count)", () => {
    const parts = splitAtPaywall(doc({ type: "heading", attrs: { level: 2 }, content: [{ type: "text", text: "h" }] }, p("one"), { type: "horizontalRule" }, p("two"), p("three")), 2);
    expect(texts(parts.free)).toEqual(["h", "one", "horizontalRule", "two"]);
    expect(texts(parts.gated)).toEqual(["three"]);
  });

  test("a short story keeps everything free; 0 paragraphs gates everything", () => {
    expect(texts(splitAtPaywall(doc(p("one")), 3).gated)).toEqual([]);
    expect(texts(splitAtPaywall(doc(p("one"), p("two")), 0).free)).toEqual([]);
  });

  test("the whole story drops its paywall blocks", () => {
    expect(texts(withoutPaywall(doc(p("one"), { type: "paywall" }, p("two"))))).toEqual(["one", "two"]);
  });
});
