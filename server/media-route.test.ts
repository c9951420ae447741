import fs from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import express from "express";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { media } from "~/db/schema";
import { createLocalStorage } from "~/lib/storage.server";
import { createTestDatabase } from "../tests/setup/test-database";
import { mediaRouter } from "./media-route";

const { db } = await createTestDatabase();
const root = await fs.mkdtemp(path.join(os.tmpdir(), "frontpage-media-route-"));
const storage = createLocalStorage(path.join(root, "store"));
const variants = path.join(root, "variants");
let origin = "";
let close: () => Promise<void> = async () => {};

// A large white image with a red square in its lower-right corner.
const NAME = "1-corner.png";
beforeAll(async () => {
  const red = await sharp({ create: { width: 300, height: 300, channels: 3, background: "#ff0000" } }).png().toBuffer();
  const image = await sharp({ create: { width: 2000, height: 1000, channels: 3, background: "#ffffff" } })
    .composite([{ input: red, left: 1700, top: 700 }])
    .png()
    .toBuffer();
  const tmp = path.join(root, "upload.png");
  await fs.writeFile(tmp, image);
  await storage.put("images", NAME, tmp, "image/png");
  await db.insert(media).values({ bucket: "images", name: NAME, originalName: "corner.png", contentType: "image/png", size: image.length });
  const app = express();
  app.use("/media", mediaRouter(db, storage, variants));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((resolve) => server.close(() => resolve()));
});
afterAll(async () => {
  await close();
  await fs.rm(root, { recursive: true, force: true });
});

async function crop(query: string) {
  const response = await fetch(`${origin}/media/images/${NAME}?${query}`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("image/webp");
  const { data, info } = await sharp(Buffer.from(await response.arrayBuffer())).raw().toBuffer({ resolveWithObject: true });
  const pixel = (x: number, y: number) => {
    const i = (Math.floor(y * info.height) * info.width + Math.floor(x * info.width)) * info.channels;
    return [data[i], data[i + 1], data[i + 2]];
  };
  return { info, isRed: (x: number, y: number) => { const [r, g, b] = pixel(x, y); return r! > 200 && g! < 60 && b! < 60; }, data };
}

describe("crops around a focal point", () => {
  test("a focal point at the lower right keeps the red corner in the 1:1 crop's lower right", async () => {
    const { info, isRed } = await crop("crop=1x1&fx=0.9&fy=0.9");
    expect({ width: info.width, height: info.height }).toEqual({ width: 1200, height: 1200 });
    // 2000×1000 scaled to 2400×1200: the window is the right half, where the square is x 840–1200, y 840–1200.
    expect(isRed(0.9, 0.9)).toBe(true);
    expect(isRed(0.75, 0.75)).toBe(true);
    expect(isRed(0.5, 0.5)).toBe(false);
    expect(isRed(0.1, 0.9)).toBe(false);
  });

  test("a focal point at the upper left leaves the corner out of the crop", async () => {
    const { isRed } = await crop("crop=1x1&fx=0.1&fy=0.1");
    expect(isRed(0.9, 0.9)).toBe(false);
    expect(isRed(0.99, 0.99)).toBe(false);
  });

  test("each focal point is a variant file of its own, named by its point", async () => {
    const files = await fs.readdir(variants);
    expect(files).toContain(`${NAME}.c1x1.f0.9x0.9.webp`);
    expect(files).toContain(`${NAME}.c1x1.f0.1x0.1.webp`);
  });

  test("without a focal point the crop is the centre-of-interest crop it always was", async () => {
    const { info, data } = await crop("crop=16x9");
    expect({ width: info.width, height: info.height }).toEqual({ width: 1200, height: 675 });
    const source = await fs.readFile(storage.localPath("images", NAME)!);
    const expected = await sharp(await sharp(source).rotate().resize({ width: 1200, height: 675, fit: "cover", position: sharp.strategy.attention }).webp({ quality: 78 }).toBuffer())
      .raw()
      .toBuffer();
    expect(Buffer.compare(data, expected)).toBe(0);
    expect(await fs.readdir(variants)).toContain(`${NAME}.c16x9.webp`);
  });

  test("a bad focal point is ignored as a bad width is: the plain crop, no variant of its own", async () => {
    const plain = await crop("crop=16x9");
    for (const query of ["crop=16x9&fx=0.9", "crop=16x9&fx=0.123&fy=0.5", "crop=16x9&fx=2&fy=0.5", "crop=16x9&fx=abc&fy=0.5"]) {
      const { data } = await crop(query);
      expect(Buffer.compare(data, plain.data)).toBe(0);
    }
    expect((await fs.readdir(variants)).filter((f) => f.includes(".c16x9.f"))).toEqual([]);
  });
});
