import zlib from "node:zlib";
import { describe, expect, test } from "vitest";
import { NoncedBody, slotMarker } from "./nonced-body";
import { EMPTY_FRAGMENT, keptFragments, SlotFragment, slotFragment } from "../app/lib/slot-fragment.server";

describe("slot fragments (issue 43)", () => {
  test("a fragment is compressed once, when a page first puts it in a slot, and then serves every answer of every page it fills", () => {
    const ad = new SlotFragment('<a href="/ads/click/t"><img alt="Theatre Royal" src="/media/t.webp"></a>');
    const pages = ["one", "two"].map((word) => new NoncedBody(Buffer.from(`<p>${word}</p>${slotMarker("article")}<p>end</p>`), "Nonce_0123456789abcdef"));
    expect(ad.isCompressed).toBe(false);
    pages[0]!.answer("Nonce_fedcba9876543210", false, { article: ad });
    expect(ad.isCompressed).toBe(true);
    const deflated = ad.deflated;
    pages[0]!.answer("Nonce_fedcba9876543210", true, { article: ad });
    const gzip = pages[1]!.answer("Nonce_fedcba9876543210", true, { article: ad });
    expect(ad.deflated).toBe(deflated);
    expect(zlib.gunzipSync(gzip.body).toString()).toBe(`<p>two</p>${ad.bytes.toString()}<p>end</p>`);
  });

  test("its deflated form ends on a byte boundary and is not final: raw inflate of it alone gives its bytes back", () => {
    const ad = new SlotFragment("<p>Smith's Garage, Mill Lane</p>".repeat(10));
    expect(ad.deflated.subarray(-4)).toEqual(Buffer.from([0, 0, 0xff, 0xff]));
    expect(zlib.inflateRawSync(ad.deflated, { finishFlush: zlib.constants.Z_SYNC_FLUSH }).toString()).toBe(ad.bytes.toString());
    expect(EMPTY_FRAGMENT.deflated.length).toBe(0);
  });

  test("a short fragment that deflate would make longer is kept as one stored block (5 bytes of header)", () => {
    const ad = new SlotFragment("<a href='/ads/click/x'><img alt='Garage' src='/m/g.webp'></a>");
    expect(ad.deflated.length).toBe(ad.length + 5);
    expect(ad.deflated.subarray(5)).toEqual(ad.bytes);
    expect(zlib.inflateRawSync(ad.deflated, { finishFlush: zlib.constants.Z_SYNC_FLUSH }).toString()).toBe(ad.bytes.toString());
    const page = new NoncedBody(Buffer.from(`<p>a</p>${slotMarker("a")}<p>b</p>`), "Nonce_0123456789abcdef");
    expect(zlib.gunzipSync(page.answer("Nonce_fedcba9876543210", true, { a: ad }).body).toString()).toBe(`<p>a</p>${ad.bytes.toString()}<p>b</p>`);
    expect(EMPTY_FRAGMENT.length).toBe(0);
  });

  test("the same HTML gives the same kept fragment; the cache keeps at most 1,024 of them", () => {
    const html = "<p>kept</p>";
    expect(slotFragment(html)).toBe(slotFragment(html));
    expect(slotFragment("")).toBe(EMPTY_FRAGMENT);
    for (let i = 0; i < 1100; i++) slotFragment(`<p>ad ${i}</p>`);
    expect(keptFragments()).toBeLessThanOrEqual(1024);
    // The oldest went first; the latest are still kept.
    expect(slotFragment("<p>ad 1099</p>")).toBe(slotFragment("<p>ad 1099</p>"));
  });

  test("each fragment has an id of its own (the page's table of answers tells fragments apart by it)", () => {
    const ids = new Set(Array.from({ length: 100 }, () => new SlotFragment("<p>same</p>").id));
    expect(ids.size).toBe(100);
  });
});
