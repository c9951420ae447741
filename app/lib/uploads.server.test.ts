import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeEach, describe, expect, test } from "vitest";
import { media } from "~/db/schema";
import { createTestDatabase } from "../../tests/setup/test-database";
import { createLocalStorage } from "./storage.server";
import { AppError } from "./app-error";
import { receiveUpload, removeStaleUploadParts, STALE_UPLOAD_PART_MS } from "./uploads.server";

const MB = 1024 * 1024;
const { db } = await createTestDatabase();
const root = await fs.mkdtemp(path.join(os.tmpdir(), "frontpage-uploads-"));
const storage = createLocalStorage(root);

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 200, g: 30, b: 30 } } })
  .png()
  .toBuffer();

/** A valid PNG followed by padding up to `size` bytes (decoders ignore bytes after IEND). */
function paddedPng(size: number): Buffer {
  const buffer = Buffer.alloc(size);
  png.copy(buffer);
  return buffer;
}

function uploadRequest(body: Buffer | string, fileName: string, type: string): Request {
  const form = new FormData();
  const bytes = typeof body === "string" ? body : new Uint8Array(body);
  form.append("file", new File([bytes], fileName, { type }));
  return new Request("http://localhost/api/uploads/comment", { method: "POST", body: form });
}

async function filesUnder(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const entries = await fs.readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("receiveUpload", () => {
  beforeEach(async () => {
    await fs.rm(root, { recursive: true, force: true });
    await fs.mkdir(root, { recursive: true });
    await db.delete(media);
  });

  test("a real PNG is stored under a generated name, recorded, and written to disk", async () => {
    const stored = await receiveUpload({
      request: uploadRequest(png, "My Holiday Photo.png", "image/png"),
      db,
      storage,
      kind: "image",
      source: "comment",
    });
    expect(stored.name).toMatch(/^\d+-[a-z0-9]+\.png$/);
    expect(stored.bucket).toBe("images");
    expect(stored.contentType).toBe("image/png");
    expect(stored.originalName).toBe("My Holiday Photo.png");
    expect(stored.size).toBe(png.length);
    expect(stored.url).toBe(`/media/images/${stored.name}`);

    const rows = await db.select().from(media).where(eq(media.name, stored.name));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ bucket: "images", contentType: "image/png", size: png.length, source: "comment" });

    const onDisk = await fs.readFile(path.join(root, "images", stored.name));
    expect(onDisk.equals(png)).toBe(true);
    expect(await filesUnder(storage.tempDir)).toEqual([]);
  });

  test("the type comes from the bytes: a PNG named photo.jpg is stored as .png", async () => {
    const stored = await receiveUpload({ request: uploadRequest(png, "photo.jpg", "image/jpeg"), db, storage, kind: "image", source: "comment" });
    expect(stored.contentType).toBe("image/png");
    expect(stored.name).toMatch(/^\d+-[a-z0-9]+\.png$/);
  });

  test("a small file holding a huge image (16000 × 16000 pixels) is refused and leaves no file behind", async () => {
    const huge = await sharp({ create: { width: 16000, height: 16000, channels: 3, background: "#ffffff" } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(huge.length).toBeLessThan(10 * MB);
    const error = await rejection(receiveUpload({ request: uploadRequest(huge, "big.png", "image/png"), db, storage, kind: "image", source: "comment" }));
    expect(error.status).toBe(413);
    expect(error.message).toContain("16000 × 16000 pixels");
    expect(await filesUnder(root)).toEqual([]);
  });

  test("bytes that look like a PNG but do not decode are refused", async () => {
    const broken = Buffer.concat([png.subarray(0, 24), Buffer.alloc(200, 7)]);
    const error = await rejection(receiveUpload({ request: uploadRequest(broken, "broken.png", "image/png"), db, storage, kind: "image", source: "comment" }));
    expect(error.status).toBe(415);
    expect(await filesUnder(root)).toEqual([]);
  });

  test("an HTML file named photo.jpg is refused with 415 and leaves no file behind", async () => {
    const htmlPage = "<!doctype html><html><body><script>alert(1)</script></body></html>";
    const error = await rejection(
      receiveUpload({ request: uploadRequest(htmlPage, "photo.jpg", "image/jpeg"), db, storage, kind: "image", source: "comment" }),
    );
    expect(error.status).toBe(415);
    expect(error.message).toBe("Only JPEG, PNG, GIF and WebP images are accepted.");
    expect(await filesUnder(root)).toEqual([]);
    expect(await filesUnder(storage.tempDir)).toEqual([]);
    expect(await db.select().from(media)).toHaveLength(0);
  });

  test("an image one byte over 10 MB is refused with 413 and leaves no file behind", async () => {
    const error = await rejection(
      receiveUpload({ request: uploadRequest(paddedPng(10 * MB + 1), "big.png", "image/png"), db, storage, kind: "image", source: "comment" }),
    );
    expect(error.status).toBe(413);
    expect(error.message).toBe("Image is larger than the 10 MB limit.");
    expect(await filesUnder(root)).toEqual([]);
    expect(await filesUnder(storage.tempDir)).toEqual([]);
    expect(await db.select().from(media)).toHaveLength(0);
  });

  test("a body declared far over the limit is read to its end, then refused with 413, leaving no file", async () => {
    const form = uploadRequest(paddedPng(11 * MB), "huge.png", "image/png");
    const length = (await form.clone().arrayBuffer()).byteLength;
    let read = 0;
    const counted = form.body!.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          read += chunk.byteLength;
          controller.enqueue(chunk);
        },
      }),
    );
    const request = new Request(form.url, {
      method: "POST",
      headers: { "content-type": form.headers.get("content-type")!, "content-length": String(length) },
      body: counted,
      duplex: "half",
    } as RequestInit);
    const error = await rejection(receiveUpload({ request, db, storage, kind: "image", source: "comment" }));
    expect(error.status).toBe(413);
    expect(error.message).toBe("Image is larger than the 10 MB limit.");
    // Read whole (a connection closed under a client still sending is reset before it sees the answer).
    expect(read).toBe(length);
    expect(await filesUnder(root)).toEqual([]);
    expect(await db.select().from(media)).toHaveLength(0);
  });

  test("an image of exactly 10 MB passes the size check and is stored", async () => {
    const stored = await receiveUpload({
      request: uploadRequest(paddedPng(10 * MB), "exact.png", "image/png"),
      db,
      storage,
      kind: "image",
      source: "comment",
    });
    expect(stored.size).toBe(10 * MB);
    expect((await fs.stat(path.join(root, "images", stored.name))).size).toBe(10 * MB);
  });

  test("an empty file is refused with 400", async () => {
    const error = await rejection(
      receiveUpload({ request: uploadRequest(Buffer.alloc(0), "empty.png", "image/png"), db, storage, kind: "image", source: "comment" }),
    );
    expect(error.status).toBe(400);
    expect(await filesUnder(root)).toEqual([]);
  });

  test("a request that is not multipart is refused with 400", async () => {
    const request = new Request("http://localhost/api/uploads/comment", { method: "POST", body: "hello", headers: { "content-type": "text/plain" } });
    const error = await rejection(receiveUpload({ request, db, storage, kind: "image", source: "comment" }));
    expect(error.status).toBe(400);
  });

  test("an MP4 with the M4V brand (read as video/x-m4v) is accepted and stored as video/mp4", async () => {
    const mp4 = await fs.readFile(path.join(import.meta.dirname, "../../server/demo/demo-video.mp4"));
    const m4v = Buffer.from(mp4);
    expect(m4v.subarray(4, 8).toString("latin1")).toBe("ftyp");
    m4v.write("M4V ", 8, "latin1");
    const stored = await receiveUpload({ request: uploadRequest(m4v, "clip.m4v", "video/x-m4v"), db, storage, kind: "video", source: "comment" });
    expect(stored.contentType).toBe("video/mp4");
    expect(stored.url).toMatch(/\.m4v$/);
  });

  test("a video upload refuses an image with the video message", async () => {
    const error = await rejection(
      receiveUpload({ request: uploadRequest(png, "clip.mp4", "video/mp4"), db, storage, kind: "video", source: "comment" }),
    );
    expect(error.status).toBe(415);
    expect(error.message).toBe("Only MP4, WebM and QuickTime videos are accepted.");
  });
});

/** A 40 × 20 JPEG saved sideways (EXIF orientation 6) with a GPS position and a camera model. */
  const gpsJpeg = await sharp({ create: { width: 40, height: 20, channels: 3, background: { r: 10, g: 120, b: 200 } } })
  .jpeg()
  .withExif({
    IFD0: { Make: "PhoneMaker", Model: "Phone 12" },
    IFD3: { GPSLatitudeRef: "N", GPSLatitude: "40/1 42/1 46/1", GPSLongitudeRef: "W", GPSLongitude: "74/1 0/1 21/1" },
  })
  .withMetadata({ orientation: 6 })
  .toBuffer();

describe("uploaded photos lose their metadata (issue 12: a reader's photo must not publish where it was taken)", () => {
  beforeEach(async () => {
    await db.delete(media);
  });


  test("a JPEG with GPS and camera EXIF comes back with no EXIF at all, turned as its orientation said", async () => {
    const before = await sharp(gpsJpeg).metadata();
    expect(before.exif, "the fixture carries EXIF").toBeDefined();
    expect(before.exif!.includes(Buffer.from("Phone 12"))).toBe(true);
    // The GPSInfo tag (0x8825, little-endian in sharp's EXIF): the position is there before the upload.
    expect(before.exif!.includes(Buffer.from([0x25, 0x88]))).toBe(true);
    expect(before.orientation).toBe(6);

    const stored = await receiveUpload({ request: uploadRequest(gpsJpeg, "IMG_0001.jpg", "image/jpeg"), db, storage, kind: "image", source: "comment" });
    const bytes = await fs.readFile(path.join(root, "images", stored.name));
    const after = await sharp(bytes).metadata();
    expect(after.format).toBe("jpeg");
    expect(after.exif).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(after.iptc).toBeUndefined();
    expect(after.orientation).toBeUndefined();
    // Orientation 6 is a quarter turn: the pixels are now 20 wide and 40 high.
    expect([after.width, after.height]).toEqual([20, 40]);
    expect(bytes.includes(Buffer.from("Phone 12"))).toBe(false);
    expect(bytes.includes(Buffer.from("PhoneMaker"))).toBe(false);
    // What was recorded is what is stored.
    expect(stored.size).toBe(bytes.length);
    expect(await filesUnder(storage.tempDir)).toEqual([]);
  });

  test("an animated GIF with XMP stays animated and loses the XMP", async () => {
    const frame = (r: number) => sharp({ create: { width: 12, height: 12, channels: 3, background: { r, g: 0, b: 0 } } }).png().toBuffer();
    const animated = await sharp([await frame(255), await frame(30)], { join: { animated: true } })
      .gif()
      .withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" dc:creator="Secret Photographer"/></rdf:RDF></x:xmpmeta>')
      .toBuffer();
    const before = await sharp(animated, { animated: true }).metadata();
    expect(before.pages).toBe(2);

    const stored = await receiveUpload({ request: uploadRequest(animated, "dance.gif", "image/gif"), db, storage, kind: "image", source: "comment" });
    const bytes = await fs.readFile(path.join(root, "images", stored.name));
    const after = await sharp(bytes, { animated: true }).metadata();
    expect(after.format).toBe("gif");
    expect(after.pages).toBe(2);
    expect(after.xmp).toBeUndefined();
    expect(bytes.includes(Buffer.from("Secret Photographer"))).toBe(false);
  });
});

describe("partial files of interrupted uploads (issue 12, item 9)", () => {
  test("files not written for 10 minutes are removed; an upload being written is left alone", async () => {
    await fs.mkdir(storage.tempDir, { recursive: true });
    const partial = path.join(storage.tempDir, "upload-1700000000000-abandoned");
    const live = path.join(storage.tempDir, "upload-1700000000001-live");
    await fs.writeFile(partial, Buffer.alloc(20 * 1024));
    await fs.writeFile(live, Buffer.alloc(1024));
    const old = new Date(Date.now() - STALE_UPLOAD_PART_MS - 60_000);
    await fs.utimes(partial, old, old);

    expect(await removeStaleUploadParts(storage)).toBe(1);
    expect(existsSync(partial)).toBe(false);
    expect(existsSync(live)).toBe(true);
    // An hour later the live one, never finished, goes too.
    expect(await removeStaleUploadParts(storage, STALE_UPLOAD_PART_MS, Date.now() + 60 * 60 * 1000)).toBe(1);
    expect(await filesUnder(storage.tempDir)).toEqual([]);
  });

  test("a partial file is readable by its owner only (600), in a folder only its owner can open (issue 28, item 7)", async () => {
    await fs.rm(storage.tempDir, { recursive: true, force: true });
    const boundary = "----partial";
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`;
    let sender!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        sender = controller;
        controller.enqueue(new Uint8Array(Buffer.from(head)));
        controller.enqueue(new Uint8Array(paddedPng(256 * 1024)));
      },
    });
    const request = new Request("http://localhost/api/uploads/comment", {
      method: "POST",
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
      body,
      duplex: "half",
    } as RequestInit);
    const upload = receiveUpload({ request, db, storage, kind: "image", source: "comment" }).catch((e: unknown) => e);
    let partial: string[] = [];
    for (let i = 0; i < 100 && partial.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      partial = await filesUnder(storage.tempDir);
    }
    expect(partial).toHaveLength(1);
    expect((await fs.stat(partial[0]!)).mode & 0o777).toBe(0o600);
    expect((await fs.stat(path.dirname(partial[0]!))).mode & 0o777).toBe(0o700);
    // The client goes away: the partial file goes with it.
    sender.error(new Error("client went away"));
    await upload;
    expect(await filesUnder(storage.tempDir)).toEqual([]);
  });

  test("what a process that has ended left is removed at once, however fresh; a running process's is kept (issue 28, item 7)", async () => {
    await fs.rm(storage.tempDir, { recursive: true, force: true });
    // A process killed in the middle of an upload: its folder holds a fresh partial file.
    const ended = spawnSync(process.execPath, ["-e", ""]).pid;
    const killed = path.join(storage.tempDir, `${os.hostname()}-${ended}-a1b2c3`, "upload-1700000000000-killed");
    // Another process still running on this machine (this one), and one on another machine.
    const running = path.join(storage.tempDir, `${os.hostname()}-${process.pid}-d4e5f6`, "upload-1700000000001-live");
    const elsewhere = path.join(storage.tempDir, `another-host-${ended}-a1b2c3`, "upload-1700000000002-live");
    for (const file of [killed, running, elsewhere]) {
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, Buffer.alloc(62 * 1024));
    }

    expect(await removeStaleUploadParts(storage)).toBe(1);
    expect(existsSync(path.dirname(killed))).toBe(false);
    expect(existsSync(running)).toBe(true);
    expect(existsSync(elsewhere)).toBe(true);
    // Files not written for 10 minutes go wherever they are.
    expect(await removeStaleUploadParts(storage, STALE_UPLOAD_PART_MS, Date.now() + 60 * 60 * 1000)).toBe(2);
    expect(await filesUnder(storage.tempDir)).toEqual([]);
  });

  test("no temporary folder yet: nothing to do", async () => {
    expect(await removeStaleUploadParts({ tempDir: path.join(root, "never-made") })).toBe(0);
  });
});
