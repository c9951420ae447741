import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { inArray, sql } from "drizzle-orm";
import type { Db } from "../app/db/client.server";
import { articleAuthors, articles, authors, categories, comments, DEFAULT_AUTHOR_NAME, media } from "../app/db/schema";
import { slugify } from "../app/lib/slugs";
import { UPLOAD_RULES, type AcceptedType } from "../app/lib/upload-rules";
import type { Logger } from "../app/lib/logger.server";
import type { Bucket, Storage } from "../app/lib/storage.server";
import { generateFileName } from "../app/lib/uploads.server";
import { DEMO_ARTICLES, type DemoArticle, type DemoComment } from "./demo/articles";
import { coverAlt, createRng, hashString, writeCoverJpeg } from "./demo/cover-art";
import { ROOT } from "./root";

const DEMO_VIDEO = path.join(ROOT, "server", "demo", "demo-video.mp4");
const IMAGE_CONCURRENCY = 4;
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

function acceptedType(kind: "image" | "video", mime: string): AcceptedType {
  const type = UPLOAD_RULES[kind].types.find((t) => t.mime === mime);
  if (!type) throw new Error(`no upload rule accepts ${mime}`);
  return type;
}
const JPEG = acceptedType("image", "image/jpeg");
const MP4 = acceptedType("video", "video/mp4");

interface PlannedArticle {
  demo: DemoArticle;
  slug: string;
  createdAt: Date;
  views: number;
}

/**
 * Publication times, newest first: the first a little over three hours ago, then roughly every two
 * and a half days with a deterministic jitter, so the list spans about sixty days and no two match.
 */
function planArticles(now: number): PlannedArticle[] {
  const count = DEMO_ARTICLES.length;
  const span = 59 * 24; // hours between the newest and the oldest, before jitter
  const step = span / Math.max(count - 1, 1);
  return DEMO_ARTICLES.map((demo, index) => {
    const slug = slugify(demo.title);
    const rng = createRng(hashString(slug));
    const jitterHours = index === 0 ? 0 : rng() * step * 0.4;
    const hoursAgo = 3.2 + index * step + jitterHours;
    // Whole minutes, plus a few seconds, look like real publishing times.
    const createdAt = new Date(Math.floor((now - hoursAgo * HOUR_MS) / MINUTE_MS) * MINUTE_MS - Math.floor(rng() * 50) * 1000);
    // Older stories have had time to collect readers; the rest is the story's own luck.
    const views = Math.round(40 + Math.sqrt(hoursAgo) * 75 + rng() * 1800 + (rng() < 0.2 ? rng() * 5000 : 0));
    return { demo, slug, createdAt, views };
  });
}

/**
 * Runs `task` over `items` with at most `limit` at a time. After a failure no new item starts, and it
 * waits for the running ones to settle before rethrowing, so the caller can clean up everything.
 */
async function forEachLimit<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async () => {
    while (!failure && next < items.length) {
      const item = items[next++];
      try {
        await task(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw (failure as { error: unknown }).error;
}

interface StoredFile {
  bucket: Bucket;
  name: string;
  originalName: string;
  contentType: string;
  size: number;
  createdAt: Date;
}

/** Writes a file into storage the way uploads do: a temporary file first, then a move under its final name. */
async function storeFile(
  storage: Storage,
  bucket: Bucket,
  type: AcceptedType,
  originalName: string,
  createdAt: Date,
  write: (tempFile: string) => Promise<void>,
): Promise<StoredFile> {
  const tempFile = path.join(storage.tempDir, `demo-${Date.now()}-${randomBytes(6).toString("hex")}`);
  try {
    await write(tempFile);
    const { size } = await fs.stat(tempFile);
    const name = generateFileName(originalName, type);
    await storage.put(bucket, name, tempFile, type.mime);
    return { bucket, name, originalName, contentType: type.mime, size, createdAt };
  } finally {
    await fs.rm(tempFile, { force: true });
  }
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;

function commentTime(article: Date, minutesAfter: number, notBefore: Date, now: number): Date {
  const wanted = article.getTime() + minutesAfter * MINUTE_MS;
  // Never in the future, and always after what it follows.
  const latest = now - MINUTE_MS;
  const earliest = notBefore.getTime() + MINUTE_MS;
  return new Date(Math.max(Math.min(wanted, latest), earliest));
}

/**
 * Demo articles, cover pictures, a video and comments for a new site. Files are generated and stored
 * first, then every row goes in one transaction; articles whose slug already exists are skipped, so a
 * second run adds nothing instead of failing.
 */
export async function seedDemoContent(options: { db: Db; storage: Storage; log: Logger }) {
  const { db, storage, log } = options;
  const started = performance.now();
  const now = Date.now();
  const planned = planArticles(now);

  const existing = await db
    .select({ slug: articles.slug })
    .from(articles)
    .where(inArray(articles.slug, planned.map((p) => p.slug)));
  const taken = new Set(existing.map((row) => row.slug));
  const todo = planned.filter((p) => !taken.has(p.slug));
  if (todo.length === 0) {
    log.info("demo content is already present; nothing added");
    return;
  }

  const categoryRows = await db.select({ id: categories.id, slug: categories.slug }).from(categories);
  const categoryIds = new Map(categoryRows.map((row) => [row.slug, row.id]));

  await fs.mkdir(storage.tempDir, { recursive: true });
  const stored: StoredFile[] = [];
  try {
    const withImage = todo.filter((p) => p.demo.image !== false);
    const images = new Map<string, StoredFile>();
    await forEachLimit(withImage, IMAGE_CONCURRENCY, async (p) => {
      const file = await storeFile(storage, "images", JPEG, `${p.slug}.jpg`, p.createdAt, (temp) =>
        writeCoverJpeg(p.demo.category, p.slug, temp).then(() => undefined),
      );
      stored.push(file);
      images.set(p.slug, file);
    });

    const videos = new Map<string, StoredFile>();
    for (const p of todo.filter((a) => a.demo.video)) {
      const file = await storeFile(storage, "videos", MP4, `${p.slug}.mp4`, p.createdAt, (temp) => fs.copyFile(DEMO_VIDEO, temp));
      stored.push(file);
      videos.set(p.slug, file);
    }

    const counts = await db.transaction(async (tx) => {
      if (stored.length > 0) {
        await tx.insert(media).values(stored.map((file) => ({ ...file, source: "library" })));
      }
      const inserted = await tx
        .insert(articles)
        .values(
          todo.map((p) => {
            const image = images.get(p.slug);
            const video = videos.get(p.slug);
            return {
              title: p.demo.title,
              slug: p.slug,
              excerpt: p.demo.excerpt,
              content: p.demo.paragraphs.join("\n\n"),
              featuredImage: image ? storage.publicUrl("images", image.name) : null,
              featuredImageAlt: image ? coverAlt(p.demo.category) : null,
              videoUrl: video ? storage.publicUrl("videos", video.name) : null,
              // Omitted author: the column's default byline.
              ...(p.demo.author ? { authorName: p.demo.author } : {}),
              categoryId: categoryIds.get(p.demo.category) ?? null,
              views: p.views,
              createdAt: p.createdAt,
              updatedAt: p.createdAt,
            };
          }),
        )
        .onConflictDoNothing({ target: articles.slug })
        .returning({ id: articles.id, slug: articles.slug });
      const articleIds = new Map(inserted.map((row) => [row.slug, row.id]));
      // Every byline is an author with a page of their own (decision 0015), as migration 0009 made
      // them for articles written before authors existed.
      const names = [...new Set(todo.map((p) => p.demo.author ?? DEFAULT_AUTHOR_NAME))];
      if (names.length > 0) {
        await tx
          .insert(authors)
          .values(names.map((name) => ({ name, slug: slugify(name) })))
          .onConflictDoNothing({ target: authors.slug });
        const rows = await tx.select({ id: authors.id, slug: authors.slug }).from(authors).where(inArray(authors.slug, names.map(slugify)));
        const authorIds = new Map(rows.map((row) => [row.slug, row.id]));
        const links = todo.flatMap((p) => {
          const articleId = articleIds.get(p.slug);
          const authorId = authorIds.get(slugify(p.demo.author ?? DEFAULT_AUTHOR_NAME));
          return articleId && authorId ? [{ articleId, authorId, position: 0 }] : [];
        });
        if (links.length > 0) await tx.insert(articleAuthors).values(links).onConflictDoNothing();
      }
      // The page views behind each story's count, spread from its publication to now (most of them
      // early on), so the dashboard's today / month / year figures tell the same story as the counts.
      await tx.execute(sql`
        insert into page_views (path, viewed_at)
        select '/article/' || a.slug, a.created_at + (now() - a.created_at) * power(random(), 3)
        from articles a cross join lateral generate_series(1, a.views)
        where a.id = any(${sql.param(inserted.map((row) => row.id))}::uuid[])`);

      const row = (articleId: string, c: Omit<DemoComment, "replies">, createdAt: Date, parentCommentId: string | null) => ({
        articleId,
        parentCommentId,
        authorName: c.name,
        authorEmail: c.email,
        content: c.text,
        createdAt,
      });
      let commentCount = 0;
      for (const p of todo) {
        const articleId = articleIds.get(p.slug);
        if (!articleId || !p.demo.comments?.length) continue;
        for (const top of p.demo.comments) {
          const topAt = commentTime(p.createdAt, top.minutesAfter, p.createdAt, now);
          const [parent] = await tx.insert(comments).values(row(articleId, top, topAt, null)).returning({ id: comments.id });
          commentCount++;
          let previous = topAt;
          for (const reply of top.replies ?? []) {
            previous = commentTime(p.createdAt, reply.minutesAfter, previous, now);
            await tx.insert(comments).values(row(articleId, reply, previous, parent.id));
            commentCount++;
          }
        }
      }
      return { articles: inserted.length, comments: commentCount };
    });

    log.info(
      {
        articles: counts.articles,
        images: images.size,
        videos: videos.size,
        comments: counts.comments,
        ms: Math.round(performance.now() - started),
      },
      `demo content: ${plural(counts.articles, "article")}, ${plural(images.size, "image")}, ${plural(videos.size, "video")}, ${plural(counts.comments, "comment")}`,
    );
  } catch (error) {
    // Nothing was recorded: remove the files so none is left without its row.
    await Promise.all(stored.map((file) => storage.delete(file.bucket, file.name).catch(() => {})));
    throw error;
  }
}
