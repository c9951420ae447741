import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeEach, describe, expect, test } from "vitest";
import { articleAuthors, articleRevisions, articles, auditEvents, authors, categories, comments, media, user, websiteSettings } from "~/db/schema";
import { actorOf } from "~/domain/accounts/actor";
import { createLocalStorage } from "~/lib/storage.server";
import { AppError } from "~/lib/app-error";
import { receiveUpload } from "~/lib/uploads.server";
import { createTestDatabase } from "../../../tests/setup/test-database";
import { FEATURED_IMAGE_ALT_REQUIRED, PUBLISH_BLOCKERS } from "~/domain/articles/articles.schema";
import { publishMediaSchema } from "./media-publish.schema";
import { FOCAL_POINT_INVALID, focalPointSchema } from "./media-focal-point.schema";
import {
  deleteMedia,
  FOCAL_POINT_IMAGES_ONLY,
  findMediaUsage,
  listMedia,
  listReaderUploads,
  publishMediaArticle,
  rasteriseSvgLogo,
  READER_UPLOAD_NOT_PUBLISHABLE,
  setFocalPoint,
} from "./media.server";
import { parseForm } from "~/lib/forms";
import { refusal } from "../../../tests/setup/refusal";

const { db } = await createTestDatabase();
const root = await fs.mkdtemp(path.join(os.tmpdir(), "frontpage-media-"));
const storage = createLocalStorage(root);
afterAll(() => fs.rm(root, { recursive: true, force: true }));

const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#c33" } }).png().toBuffer();

function uploadRequest(body: Buffer | string, fileName: string, type: string) {
  const form = new FormData();
  form.append("file", new File([typeof body === "string" ? body : new Uint8Array(body)], fileName, { type }));
  return new Request("http://localhost/api/admin/uploads/x", { method: "POST", body: form });
}

async function storeFile(bucket: "images" | "videos" | "files", name: string, contentType: string) {
  const tmp = path.join(root, `tmp-${name}`);
  await fs.writeFile(tmp, "x");
  await storage.put(bucket, name, tmp, contentType);
  await db.insert(media).values({ bucket, name, originalName: name, contentType, size: 1 });
  return storage.publicUrl(bucket, name);
}


beforeEach(async () => {
  await db.delete(comments);
  await db.delete(articles);
  await db.delete(categories);
  await db.delete(media);
  await db.delete(websiteSettings);
});

describe("listMedia", () => {
  test("lists one bucket's files newest first, with their URLs and the bucket's total", async () => {
    await db.insert(media).values([
      { bucket: "images", name: "1-old.png", originalName: "old.png", contentType: "image/png", size: 1, createdAt: new Date("2026-01-01") },
      { bucket: "images", name: "2-new.png", originalName: "new.png", contentType: "image/png", size: 1, createdAt: new Date("2026-02-01") },
      { bucket: "videos", name: "3-clip.mp4", originalName: "clip.mp4", contentType: "video/mp4", size: 1 },
    ]);
    const { items, total } = await listMedia(db, storage, "images");
    expect(total).toBe(2);
    expect(items.map((i) => i.name)).toEqual(["2-new.png", "1-old.png"]);
    expect(items[0].url).toBe("/media/images/2-new.png");
  });

  test("the newsroom's lists leave readers' comment attachments out; the reader uploads list has them alone, images and videos, newest first", async () => {
    await db.insert(media).values([
      { bucket: "images", name: "1-ours.png", originalName: "ours.png", contentType: "image/png", size: 1, source: "library", createdAt: new Date("2026-01-01") },
      { bucket: "images", name: "2-logo.png", originalName: "logo.png", contentType: "image/png", size: 1, source: "branding", createdAt: new Date("2026-01-02") },
      { bucket: "images", name: "3-reader.jpg", originalName: "selfie.jpg", contentType: "image/jpeg", size: 1, source: "comment", createdAt: new Date("2026-01-03") },
      { bucket: "videos", name: "4-reader.mp4", originalName: "clip.mp4", contentType: "video/mp4", size: 1, source: "comment", createdAt: new Date("2026-01-04") },
      { bucket: "videos", name: "5-ours.mp4", originalName: "ours.mp4", contentType: "video/mp4", size: 1, source: "library", createdAt: new Date("2026-01-05") },
    ]);
    const images = await listMedia(db, storage, "images");
    expect(images.items.map((i) => i.name)).toEqual(["2-logo.png", "1-ours.png"]);
    expect(images.total).toBe(2);
    const videos = await listMedia(db, storage, "videos");
    expect(videos.items.map((i) => i.name)).toEqual(["5-ours.mp4"]);
    expect(videos.total).toBe(1);
    const readers = await listReaderUploads(db, storage);
    expect(readers.total).toBe(2);
    expect(readers.items.map((i) => [i.bucket, i.name, i.url])).toEqual([
      ["videos", "4-reader.mp4", "/media/videos/4-reader.mp4"],
      ["images", "3-reader.jpg", "/media/images/3-reader.jpg"],
    ]);
  });

  test("caps the list and still reports the full total", async () => {
    await db.insert(media).values(
      Array.from({ length: 5 }, (_, i) => ({ bucket: "files", name: `${i}-f.pdf`, originalName: "f.pdf", contentType: "application/pdf", size: 1 })),
    );
    const { items, total } = await listMedia(db, storage, "files", 3);
    expect(items).toHaveLength(3);
    expect(total).toBe(5);
  });
});

describe("deleteMedia", () => {
  test("deletes an unused file's row and its bytes", async () => {
    await storeFile("images", "10-free.png", "image/png");
    await deleteMedia(db, storage, "images", "10-free.png");
    expect(await db.select().from(media)).toHaveLength(0);
    expect(existsSync(path.join(root, "images", "10-free.png"))).toBe(false);
  });

  test("refuses to delete an article's featured image and names the article", async () => {
    const url = await storeFile("images", "11-cover.png", "image/png");
    await db.insert(articles).values({ title: "Harbour Lights", slug: "harbour-lights", content: "c", featuredImage: url });
    const error = await refusal(deleteMedia(db, storage, "images", "11-cover.png"));
    expect(error.code).toBe("in_use");
    expect(error.status).toBe(409);
    expect(error.message).toBe("This file is used by the article “Harbour Lights”. Remove it there first.");
    expect(await db.select().from(media)).toHaveLength(1);
    expect(existsSync(path.join(root, "images", "11-cover.png"))).toBe(true);
  });

  test("refuses to delete an image a story from the editor shows inline", async () => {
    const url = await storeFile("images", "13-inline.png", "image/png");
    const contentDoc = { type: "doc", content: [{ type: "storyImage", attrs: { src: url, alt: "A", caption: "", credit: "" } }] };
    await db.insert(articles).values({ title: "Inline", slug: "inline", content: "c", contentDoc });
    const error = await refusal(deleteMedia(db, storage, "images", "13-inline.png"));
    expect(error.code).toBe("in_use");
    expect(error.message).toContain("“Inline”");
  });

  test("refuses to delete an article's video, also when the article stored an absolute URL", async () => {
    const url = await storeFile("videos", "12-clip.mp4", "video/mp4");
    await db.insert(articles).values({ title: "Clip", slug: "clip", content: "c", videoUrl: `https://news.example${url}` });
    const error = await refusal(deleteMedia(db, storage, "videos", "12-clip.mp4"));
    expect(error.message).toContain("“Clip”");
  });

  test("refuses to delete a comment's attachment", async () => {
    const url = await storeFile("images", "13-att.png", "image/png");
    const [article] = await db.insert(articles).values({ title: "Town Hall", slug: "town-hall", content: "c" }).returning();
    await db.insert(comments).values({ articleId: article.id, authorName: "Ada", authorEmail: "ada@example.com", content: "hi", imageUrl: url });
    const error = await refusal(deleteMedia(db, storage, "images", "13-att.png"));
    expect(error.message).toBe("This file is attached to a comment by Ada on “Town Hall”. Delete that comment first.");
  });

  test("refuses to delete the website logo or favicon", async () => {
    const logo = await storeFile("images", "14-logo.png", "image/png");
    const favicon = await storeFile("images", "15-fav.png", "image/png");
    await db.insert(websiteSettings).values({ id: 1, siteName: "Site", logoUrl: logo, faviconUrl: favicon });
    expect((await refusal(deleteMedia(db, storage, "images", "14-logo.png"))).message).toBe(
      "This file is the website logo. Remove it in Website Settings first.",
    );
    expect((await refusal(deleteMedia(db, storage, "images", "15-fav.png"))).message).toBe(
      "This file is the website favicon. Remove it in Website Settings first.",
    );
  });

  test("a file whose name only starts like a used one is not considered used", async () => {
    const used = await storeFile("images", "16-a.png", "image/png");
    await storeFile("images", "116-a.png", "image/png");
    await db.insert(articles).values({ title: "A", slug: "a", content: "c", featuredImage: used });
    expect(await findMediaUsage(db, storage, "images", "116-a.png")).toBeNull();
  });

  test("an unknown file is a 404", async () => {
    const error = await refusal(deleteMedia(db, storage, "images", "17-missing.png"));
    expect(error.status).toBe(404);
  });
});

describe("publishMediaArticle", () => {
  // Publishing needs a category (decision 0033): each test's stories go to "Desk" unless it names another.
  let desk = "";
  beforeEach(async () => {
    const [row] = await db.insert(categories).values({ name: "Desk", slug: "desk" }).returning({ id: categories.id });
    desk = row!.id;
  });
  const input = (bucket: "images" | "videos" | "files", name: string, extra: Record<string, string> = {}) =>
    publishMediaSchema.parse({
      bucket,
      name,
      title: "Storm Over The Bay!",
      categoryId: desk,
      excerpt: "",
      content: "Body",
      featuredImageAlt: bucket === "images" ? "Waves breaking over the harbour wall" : "",
      ...extra,
    });

  test("a reader's comment attachment is refused, and nothing is written", async () => {
    await storeFile("images", "19-reader.png", "image/png");
    await db.update(media).set({ source: "comment" }).where(eq(media.name, "19-reader.png"));
    const error = await refusal(publishMediaArticle(db, storage, input("images", "19-reader.png")));
    expect(error.message).toBe(READER_UPLOAD_NOT_PUBLISHABLE);
    expect(await db.select().from(articles)).toHaveLength(0);
  });

  test("an image sets the featured image only; an empty excerpt becomes null; the system's byline is the newsroom's", async () => {
    const url = await storeFile("images", "20-pic.png", "image/png");
    const article = await publishMediaArticle(db, storage, input("images", "20-pic.png"));
    expect(article.slug).toBe("storm-over-the-bay");
    const [row] = await db.select().from(articles).where(eq(articles.id, article.id));
    expect(row).toMatchObject({
      featuredImage: url,
      featuredImageAlt: "Waves breaking over the harbour wall",
      videoUrl: null,
      categoryId: desk,
      excerpt: null,
      content: "Body",
      authorName: "Frontpage Newsroom",
    });
    // Its first revision is written with it (decision 0011); no account named: "System".
    const revisions = await db.select().from(articleRevisions).where(eq(articleRevisions.articleId, article.id));
    expect(revisions).toEqual([expect.objectContaining({ title: "Storm Over The Bay!", featuredImage: url, status: "published", savedByName: "System" })]);
  });

  test("an image without alt text is refused on the alt field (400) and nothing is inserted", async () => {
    await storeFile("images", "27-pic.png", "image/png");
    for (const alt of ["", "   "]) {
      const error = await refusal(publishMediaArticle(db, storage, input("images", "27-pic.png", { featuredImageAlt: alt })));
      expect(error.code).toBe("invalid_input");
      expect(error.status).toBe(400);
      expect(error.field).toBe("featuredImageAlt");
      expect(error.message).toBe(FEATURED_IMAGE_ALT_REQUIRED);
    }
    expect(await db.select().from(articles)).toHaveLength(0);
  });

  test("alt text longer than 250 characters is refused by the form schema", () => {
    const result = publishMediaSchema.safeParse({
      bucket: "images",
      name: "a.png",
      title: "T",
      categoryId: "",
      excerpt: "",
      content: "C",
      featuredImageAlt: "a".repeat(251),
    });
    expect(result.error?.issues.map((i) => [i.path[0], i.message])).toEqual([["featuredImageAlt", "Alt text must be at most 250 characters"]]);
  });

  test("a video sets the video only, and the chosen category is kept", async () => {
    const url = await storeFile("videos", "21-v.mp4", "video/mp4");
    const [category] = await db.insert(categories).values({ name: "News", slug: "news" }).returning();
    const article = await publishMediaArticle(db, storage, input("videos", "21-v.mp4", { categoryId: category.id, excerpt: "Short" }));
    const [row] = await db.select().from(articles).where(eq(articles.id, article.id));
    expect(row).toMatchObject({ featuredImage: null, videoUrl: url, categoryId: category.id, excerpt: "Short" });
  });

  test("a document sets neither the featured image nor the video", async () => {
    await storeFile("files", "22-doc.pdf", "application/pdf");
    const article = await publishMediaArticle(db, storage, input("files", "22-doc.pdf"));
    const [row] = await db.select().from(articles).where(eq(articles.id, article.id));
    expect(row).toMatchObject({ featuredImage: null, videoUrl: null });
  });

  test("a favicon (.ico) in the images tab cannot become a featured image; nothing is inserted", async () => {
    await storeFile("images", "25-fav.ico", "image/x-icon");
    const error = await refusal(publishMediaArticle(db, storage, input("images", "25-fav.ico")));
    expect(error.status).toBe(400);
    expect(error.message).toBe("Only JPEG, PNG, GIF and WebP images are accepted.");
    expect(await db.select().from(articles)).toHaveLength(0);
  });

  test("a title longer than a slug may be still publishes, under a slug cut to 200 characters", async () => {
    await storeFile("images", "26-pic.png", "image/png");
    const title = "The longest headline the newsroom ever wrote about the harbour ".repeat(4).trim();
    const article = await publishMediaArticle(db, storage, input("images", "26-pic.png", { title }));
    expect(article.slug.length).toBeLessThanOrEqual(200);
    expect(article.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  test("a taken slug is refused with a clear message and nothing is inserted", async () => {
    await storeFile("images", "23-pic.png", "image/png");
    await db.insert(articles).values({ title: "Old", slug: "storm-over-the-bay", content: "c" });
    const error = await refusal(publishMediaArticle(db, storage, input("images", "23-pic.png")));
    expect(error.code).toBe("slug_taken");
    expect(error.message).toBe("An article with the slug “storm-over-the-bay” already exists. Choose a different title.");
    expect(await db.select().from(articles)).toHaveLength(1);
  });

  test("without a category it is refused beside the category (publishing's blocker) and nothing is inserted", async () => {
    await storeFile("images", "28-pic.png", "image/png");
    const error = await refusal(publishMediaArticle(db, storage, input("images", "28-pic.png", { categoryId: "" })));
    expect(error).toMatchObject({ status: 400, field: "categoryId", message: PUBLISH_BLOCKERS.categoryId });
    expect(await db.select().from(articles)).toHaveLength(0);
  });

  test("a person's story carries their own byline: their author record, made on first use", async () => {
    await storeFile("images", "29-pic.png", "image/png");
    await db.insert(user).values({ id: "media-editor", name: "Mia Desk", email: "mia@example.com" }).onConflictDoNothing();
    const article = await publishMediaArticle(db, storage, input("images", "29-pic.png"), actorOf({ id: "media-editor", name: "Mia Desk", email: "mia@example.com", role: "editor" }));
    const [row] = await db.select({ authorName: articles.authorName }).from(articles).where(eq(articles.id, article.id));
    expect(row!.authorName).toBe("Mia Desk");
    const byline = await db.select({ name: authors.name, userId: authors.userId }).from(articleAuthors).innerJoin(authors, eq(authors.id, articleAuthors.authorId)).where(eq(articleAuthors.articleId, article.id));
    expect(byline).toEqual([{ name: "Mia Desk", userId: "media-editor" }]);
  });

  test("an unknown category or media file is refused", async () => {
    await storeFile("images", "24-pic.png", "image/png");
    const unknownCategory = await refusal(
      publishMediaArticle(db, storage, input("images", "24-pic.png", { categoryId: "00000000-0000-4000-8000-000000000000" })),
    );
    expect(unknownCategory.code).toBe("unknown_category");
    expect((await refusal(publishMediaArticle(db, storage, input("images", "25-gone.png")))).status).toBe(404);
  });

  test("the form schema requires title and content", () => {
    const result = publishMediaSchema.safeParse({ bucket: "images", name: "a.png", title: " ", categoryId: "", excerpt: "", content: "", featuredImageAlt: "" });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual(expect.arrayContaining(["Title is required", "Content is required"]));
  });
});

describe("logo uploads", () => {
  test("an SVG logo is rasterised and stored as a PNG, never as SVG", async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><script>alert(1)</script><rect width="120" height="40" fill="#036"/></svg>`;
    const stored = await receiveUpload({
      request: uploadRequest(svg, "brand.svg", "image/svg+xml"),
      db,
      storage,
      kind: "logo",
      source: "branding",
      transform: rasteriseSvgLogo,
    });
    expect(stored.contentType).toBe("image/png");
    expect(stored.name).toMatch(/^\d+-[a-z0-9]+\.png$/);
    const bytes = await fs.readFile(path.join(root, "images", stored.name));
    const meta = await sharp(bytes).metadata();
    expect(meta.format).toBe("png");
    expect(meta.width).toBeGreaterThanOrEqual(120);
    expect(bytes.includes("<script")).toBe(false);
    const [row] = await db.select().from(media).where(eq(media.name, stored.name));
    expect(row.contentType).toBe("image/png");
  });

  test("a PNG logo is stored unchanged", async () => {
    const stored = await receiveUpload({
      request: uploadRequest(png, "logo.png", "image/png"),
      db,
      storage,
      kind: "logo",
      source: "branding",
      transform: rasteriseSvgLogo,
    });
    expect(stored.contentType).toBe("image/png");
    expect(stored.size).toBe(png.length);
  });

  test("a broken SVG logo is refused with 415 and leaves nothing behind", async () => {
    const error = await receiveUpload({
      request: uploadRequest("<svg xmlns='http://www.w3.org/2000/svg'><rect", "bad.svg", "image/svg+xml"),
      db,
      storage,
      kind: "logo",
      source: "branding",
      transform: rasteriseSvgLogo,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(415);
    expect(await db.select().from(media)).toHaveLength(0);
  });
});

describe("setFocalPoint (issue 41)", () => {
  const editor = actorOf({ id: "focal-editor", name: "Fern Desk", email: "fern@example.com", role: "editor" });
  const point = (name: string, focalX: string, focalY: string) => parseForm(focalPointSchema, { bucket: "images", name, focalX, focalY });
  const articleWith = async (slug: string, featuredImage: string | null) =>
    (await db.insert(articles).values({ title: slug, slug, content: "Body", featuredImage, featuredImageAlt: featuredImage ? "Alt" : null }).returning({ id: articles.id }))[0]!.id;
  const focusOf = async (id: string) =>
    (await db.select({ x: articles.featuredImageFocalX, y: articles.featuredImageFocalY }).from(articles).where(eq(articles.id, id)))[0];

  test("sets the image's point and, in the same write, the point of every story whose featured image it is, with an audit entry", async () => {
    const url = await storeFile("images", "40-corner.png", "image/png");
    const other = await storeFile("images", "41-other.png", "image/png");
    const shown = await articleWith("shows-it", url);
    const elsewhere = await articleWith("shows-another", other);
    const result = await setFocalPoint(db, storage, point("40-corner.png", "0.9", "0.85"), editor);
    expect(result).toEqual({ focus: { x: 0.9, y: 0.85 }, articles: 1 });
    const [row] = await db.select({ x: media.focalX, y: media.focalY }).from(media).where(eq(media.name, "40-corner.png"));
    expect(row!.x).toBeCloseTo(0.9, 5);
    expect(row!.y).toBeCloseTo(0.85, 5);
    expect((await focusOf(shown))!.x).toBeCloseTo(0.9, 5);
    expect(await focusOf(elsewhere)).toEqual({ x: null, y: null });
    const [entry] = await db.select({ kind: auditEvents.kind, objectId: auditEvents.objectId }).from(auditEvents).where(eq(auditEvents.kind, "media.focal_point"));
    expect(entry).toEqual({ kind: "media.focal_point", objectId: "images/40-corner.png" });
    // The list shows it; "Centre" (both blank) clears it everywhere.
    expect((await listMedia(db, storage, "images")).items.find((i) => i.name === "40-corner.png")!.focus!.x).toBeCloseTo(0.9, 5);
    await setFocalPoint(db, storage, point("40-corner.png", "", ""), editor);
    expect(await focusOf(shown)).toEqual({ x: null, y: null });
  });

  test("a story saved with the image takes its point (published from the media library here)", async () => {
    await storeFile("images", "42-pic.png", "image/png");
    await setFocalPoint(db, storage, point("42-pic.png", "0.2", "0.3"), editor);
    const [desk] = await db.insert(categories).values({ name: "Focal desk", slug: "focal-desk" }).returning({ id: categories.id });
    const published = await publishMediaArticle(
      db,
      storage,
      publishMediaSchema.parse({ bucket: "images", name: "42-pic.png", title: "Focal story", categoryId: desk!.id, excerpt: "", content: "Body", featuredImageAlt: "Alt" }),
    );
    const focus = await focusOf(published.id);
    expect(focus!.x).toBeCloseTo(0.2, 5);
    expect(focus!.y).toBeCloseTo(0.3, 5);
  });

  test("half a point, or one outside the image, is refused by the schema with one message", () => {
    for (const [x, y] of [
      ["0.5", ""],
      ["", "0.5"],
      ["1.2", "0.5"],
      ["-0.1", "0.5"],
      ["abc", "0.5"],
    ]) {
      expect(() => point("a.png", x!, y!)).toThrow(FOCAL_POINT_INVALID);
    }
  });

  test("an author may not move a point; a file that is not an image of ours has none; an unknown file is 404", async () => {
    await storeFile("images", "43-pic.png", "image/png");
    const author = actorOf({ id: "focal-author", name: "Ann", email: "ann@example.com", role: "author" });
    expect((await refusal(setFocalPoint(db, storage, point("43-pic.png", "0.5", "0.5"), author))).status).toBe(403);
    await storeFile("images", "44-logo.ico", "image/x-icon");
    expect(await refusal(setFocalPoint(db, storage, point("44-logo.ico", "0.5", "0.5"), editor))).toMatchObject({ message: FOCAL_POINT_IMAGES_ONLY });
    expect((await refusal(setFocalPoint(db, storage, point("45-gone.png", "0.5", "0.5"), editor))).status).toBe(404);
    const [row] = await db.select({ x: media.focalX }).from(media).where(eq(media.name, "43-pic.png"));
    expect(row!.x).toBeNull();
  });
});
