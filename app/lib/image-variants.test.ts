import { describe, expect, test } from "vitest";
import { focalCropRect, focalParam, imageCropUrl, parseFocalParams } from "./image-variants";

describe("imageCropUrl", () => {
  test("a crop without a focal point is cut around the centre of interest, as before", () => {
    expect(imageCropUrl("/media/images/a.jpg", "16x9")).toBe("/media/images/a.jpg?crop=16x9");
    expect(imageCropUrl("/media/images/a.jpg", "16x9", null)).toBe("/media/images/a.jpg?crop=16x9");
  });

  test("a focal point travels in the URL, rounded to 2 decimals and clamped to the image", () => {
    expect(imageCropUrl("/media/images/a.jpg", "1x1", { x: 0.7234, y: 0.815 })).toBe("/media/images/a.jpg?crop=1x1&fx=0.72&fy=0.82");
    expect(imageCropUrl("/media/images/a.jpg", "4x3", { x: 1.3, y: -0.2 })).toBe("/media/images/a.jpg?crop=4x3&fx=1&fy=0");
  });

  test("outside images and GIFs are not cropped, focal point or not", () => {
    expect(imageCropUrl("https://elsewhere.example/a.jpg", "16x9", { x: 0.9, y: 0.9 })).toBeNull();
    expect(imageCropUrl("/media/images/a.gif", "16x9", { x: 0.9, y: 0.9 })).toBeNull();
  });
});

describe("parseFocalParams", () => {
  test("reads both coordinates from 0 to 1 with at most 2 decimals", () => {
    expect(parseFocalParams("0.9", "0.25")).toEqual({ x: 0.9, y: 0.25 });
    expect(parseFocalParams("0", "1")).toEqual({ x: 0, y: 1 });
    expect(parseFocalParams(focalParam(0.5), focalParam(1))).toEqual({ x: 0.5, y: 1 });
  });

  test("ignores one without the other, more decimals, values outside 0..1 and anything not a number", () => {
    for (const [fx, fy] of [
      ["0.9", undefined],
      [undefined, "0.9"],
      ["0.123", "0.5"],
      ["1.2", "0.5"],
      ["-0.1", "0.5"],
      ["1e-1", "0.5"],
      [" 0.5", "0.5"],
      ["NaN", "0.5"],
      [["0.1", "0.2"], "0.5"],
    ]) {
      expect(parseFocalParams(fx, fy)).toBeNull();
    }
  });
});

describe("focalCropRect", () => {
  const square = { width: 1200, height: 1200 };

  test("a landscape image is scaled to the crop's height and cut around the point", () => {
    // 4000×2000 → 2400×1200; the point at 90% across is x = 2160, so the 1200-wide window would end past the edge: pushed back.
    expect(focalCropRect({ width: 4000, height: 2000 }, square, { x: 0.9, y: 0.9 })).toEqual({
      resizeWidth: 2400,
      resizeHeight: 1200,
      left: 1200,
      top: 0,
      width: 1200,
      height: 1200,
    });
    // A point in the middle third: the window is centred on it.
    expect(focalCropRect({ width: 4000, height: 2000 }, square, { x: 0.5, y: 0.5 }).left).toBe(600);
    expect(focalCropRect({ width: 4000, height: 2000 }, square, { x: 0.4, y: 0.5 }).left).toBe(360);
    // At the left edge: the window starts at the edge, never before it.
    expect(focalCropRect({ width: 4000, height: 2000 }, square, { x: 0, y: 0 }).left).toBe(0);
  });

  test("a portrait image is scaled to the crop's width and cut around the point's height", () => {
    const rect = focalCropRect({ width: 1000, height: 3000 }, { width: 1200, height: 675 }, { x: 0.2, y: 0.75 });
    expect(rect).toMatchObject({ resizeWidth: 1200, resizeHeight: 3600, left: 0 });
    // 0.75 × 3600 = 2700; the 675-high window centred on it starts at 2362.5 → 2363.
    expect(rect.top).toBe(2363);
  });

  test("a small image is enlarged to cover the crop, and the window always lies inside the scaled image", () => {
    for (const source of [
      { width: 300, height: 200 },
      { width: 1201, height: 677 },
      { width: 3333, height: 1111 },
      { width: 640, height: 4000 },
    ]) {
      for (const focus of [
        { x: 0, y: 0 },
        { x: 1, y: 1 },
        { x: 0.33, y: 0.77 },
      ]) {
        const rect = focalCropRect(source, { width: 1200, height: 900 }, focus);
        expect(rect.left).toBeGreaterThanOrEqual(0);
        expect(rect.top).toBeGreaterThanOrEqual(0);
        expect(rect.left + rect.width).toBeLessThanOrEqual(rect.resizeWidth);
        expect(rect.top + rect.height).toBeLessThanOrEqual(rect.resizeHeight);
      }
    }
  });
});
