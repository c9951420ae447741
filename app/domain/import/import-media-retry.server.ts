import { asc, count, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { articlePendingVersions, articles, importMissingImages, pages } from "~/db/schema";
import type { Actor } from "~/domain/accounts/actor";
import { recordRevision, revisionSourceColumns } from "~/domain/articles/article-revisions.server";
import { storyPlainText } from "~/domain/articles/story-document";
import type { StoryBlock, StoryDocument, StoryListItem } from "~/domain/articles/story-document.schema";
import { reviseImportedPage } from "~/domain/pages/pages.server";
import type { Storage } from "~/lib/storage.server";
import { createMediaImporter } from "./import-media.server";

// "Retry missing images" (issue 39). An import remembers each image it could not have with its story
// (import_missing_images): the story shows a paragraph linking to the image's old address in its place,
// a featured image is left out. A retry fetches each again (from the web, or from a folder of the old
// site's uploads) through the upload pipeline, and puts what it gets where the link stands: the link
// to the old host becomes the image, the featured image is set if the story still has none. Each story
// changes in one transaction, with a revision; what is placed is forgotten, what still fails stays for
// the next retry. It runs as an import of the queue (imports.retry_media), so never beside an import.

/** The images an imported site's stories still lack. */
export async function missingImageCount(db: Db, source: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(importMissingImages).where(eq(importMissingImages.source, source));
  return row?.n ?? 0;
}

/** An image brought in, by the old address it stands for. */
export interface PlacedImage {
  src: string;
  alt: string;
  caption: string;
}

/**
 * Puts each image in `images` where a paragraph stands that links to its old address (the paragraph
 * the import made in its place: its first text carries the link). Answers the new document and the
 * addresses placed; the document given is left as it was.
 */
export function placeImages(doc: StoryDocument, images: Map<string, PlacedImage>): { doc: StoryDocument; placed: Set<string> } {
  const placed = new Set<string>();
  const standIn = (block: StoryBlock): string | null => {
    if (block.type !== "paragraph" || !block.content || block.content.length > 2) return null;
    const first = block.content[0];
    const link = first?.type === "text" ? first.marks?.find((m) => m.type === "link") : undefined;
    return link?.type === "link" && images.has(link.attrs.href) ? link.attrs.href : null;
  };
  const items = (list: StoryListItem[]): StoryListItem[] =>
    list.map((item) => {
      const content = blocks(item.content);
      // A list item begins with a paragraph.
      if (content[0]?.type !== "paragraph") content.unshift({ type: "paragraph" });
      return { ...item, content };
    });
  const blocks = (list: StoryBlock[]): StoryBlock[] =>
    list.map((block): StoryBlock => {
      const url = standIn(block);
      if (url) {
        const image = images.get(url)!;
        placed.add(url);
        return { type: "storyImage", attrs: { src: image.src, alt: image.alt, caption: image.caption, credit: "" } };
      }
      if (block.type === "blockquote") return { ...block, content: blocks(block.content) };
      if (block.type === "bulletList" || block.type === "orderedList") return { ...block, content: items(block.content) };
      return block;
    });
  const content = blocks(doc.content);
  return { doc: placed.size > 0 ? { ...doc, content } : doc, placed };
}

export interface MediaRetryRun {
  db: Db;
  storage: Storage;
  allowPrivateHosts: boolean;
  /** The imported site (imported_rows.source). */
  source: string;
  /** A folder of the old site's uploads to take the images from (else the web). */
  mediaDir: string | null;
  /** Who the stories' revisions name. */
  actor: Actor;
  /** Aborted at shutdown: the retry stops between two stories (and is resumed). */
  signal?: AbortSignal;
  note(kind: "media" | "changed" | "alt", what: string, message: string): void;
  progress(done: number, total: number): Promise<void>;
}

export interface MediaRetryResult {
  /** Images fetched and placed. */
  fetched: number;
  /** Placed without alt text (the old site had none). */
  withoutAlt: number;
  /** The images the site's stories still lack after it. */
  stillMissing: number;
  /** Cut off by a shutdown before its end. */
  stopped: boolean;
}

type StoryKey = { articleId: string; pageId: null } | { articleId: null; pageId: string };

/** Fetches every image the site's stories lack and puts those it gets in place, story by story. */
export async function retryMissingImages(run: MediaRetryRun): Promise<MediaRetryResult> {
  const { db } = run;
  const rows = await db
    .select({
      id: importMissingImages.id,
      articleId: importMissingImages.articleId,
      pageId: importMissingImages.pageId,
      place: importMissingImages.place,
      url: importMissingImages.url,
      alt: importMissingImages.alt,
      caption: importMissingImages.caption,
      title: sql<string>`coalesce(${articles.title}, ${pages.title}, '')`,
    })
    .from(importMissingImages)
    .leftJoin(articles, eq(articles.id, importMissingImages.articleId))
    .leftJoin(pages, eq(pages.id, importMissingImages.pageId))
    .where(eq(importMissingImages.source, run.source))
    .orderBy(asc(importMissingImages.id));
  const stories = new Map<string, typeof rows>();
  for (const row of rows) {
    const key = row.articleId ? `article:${row.articleId}` : `page:${row.pageId}`;
    (stories.get(key) ?? stories.set(key, []).get(key)!).push(row);
  }
  const media = createMediaImporter({ db, storage: run.storage, source: run.source, mediaDir: run.mediaDir, allowPrivateHosts: run.allowPrivateHosts });
  const result: MediaRetryResult = { fetched: 0, withoutAlt: 0, stillMissing: 0, stopped: false };
  let done = 0;
  await run.progress(0, stories.size);
  for (const list of stories.values()) {
    if (run.signal?.aborted) {
      result.stopped = true;
      break;
    }
    const first = list[0]!;
    const what = `${first.articleId ? "story" : "page"} “${first.title.slice(0, 80)}”`;
    const got: { row: (typeof list)[number]; image: PlacedImage }[] = [];
    for (const row of list) {
      const image = await media.image(row.url);
      if (image.ok) got.push({ row, image: { src: image.url, alt: row.alt, caption: row.caption } });
      else {
        run.note("media", what, `Still missing: ${image.reason}`);
        await db.update(importMissingImages).set({ reason: image.reason.slice(0, 1000) }).where(eq(importMissingImages.id, row.id));
      }
    }
    if (got.length > 0) {
      const story: StoryKey = first.articleId ? { articleId: first.articleId, pageId: null } : { articleId: null, pageId: first.pageId! };
      const placed = await placeInStory(run, story, got);
      for (const { row, image } of got) {
        if (placed.has(`${row.place}:${row.url}`)) {
          result.fetched++;
          if (!image.alt.trim()) {
            result.withoutAlt++;
            run.note("alt", what, `An image has no alt text (${image.src}): describe it when you next edit the story.`);
          }
        } else if (row.place === "featured") {
          run.note("changed", what, `The story has a featured image now: ${row.url} was fetched into the media library, not put in its place.`);
        } else {
          run.note("changed", what, `The story no longer links to ${row.url}: the image was fetched into the media library, not put in the story.`);
        }
      }
    }
    done++;
    await run.progress(done, stories.size);
  }
  result.stillMissing = await missingImageCount(db, run.source);
  return result;
}

/**
 * Puts the images fetched for one story in place, in one transaction with its revision, and forgets
 * them (placed or no longer wanted). Answers the `place:url` of those placed.
 */
async function placeInStory(run: MediaRetryRun, story: StoryKey, got: { row: { id: number; place: "body" | "featured"; url: string }; image: PlacedImage }[]): Promise<Set<string>> {
  const body = new Map(got.filter((g) => g.row.place === "body").map((g) => [g.row.url, g.image]));
  const featured = got.find((g) => g.row.place === "featured")?.image ?? null;
  const placedKeys = new Set<string>();
  await run.db.transaction(async (tx) => {
    if (story.pageId) {
      let placed = new Set<string>();
      await reviseImportedPage(tx, story.pageId, run.actor, (doc) => {
        const next = placeImages(doc, body);
        placed = next.placed;
        return next.placed.size > 0 ? next.doc : null;
      });
      for (const url of placed) placedKeys.add(`body:${url}`);
    } else if (story.articleId) {
      const [stored] = await tx
        .select({ contentDoc: articles.contentDoc, featuredImage: articles.featuredImage })
        .from(articles)
        .where(eq(articles.id, story.articleId))
        .for("update");
      if (stored) {
        // Stored documents were checked when they were saved.
        const next = stored.contentDoc ? placeImages(stored.contentDoc as StoryDocument, body) : { doc: null, placed: new Set<string>() };
        const setFeatured = featured && !stored.featuredImage ? featured : null;
        for (const url of next.placed) placedKeys.add(`body:${url}`);
        if (setFeatured) placedKeys.add(`featured:${got.find((g) => g.row.place === "featured")!.row.url}`);
        if (next.placed.size > 0 || setFeatured) {
          const [row] = await tx
            .update(articles)
            .set({
              ...(next.placed.size > 0 && next.doc ? { contentDoc: next.doc, content: storyPlainText(next.doc) } : {}),
              ...(setFeatured ? { featuredImage: setFeatured.src, featuredImageAlt: setFeatured.alt, featuredImageCaption: setFeatured.caption || null } : {}),
              updatedAt: sql`now()`,
            })
            .where(eq(articles.id, story.articleId))
            .returning(revisionSourceColumns);
          await recordRevision(tx, row!, run.actor);
          await placeInPendingVersion(tx, story.articleId, body, setFeatured);
        }
      }
    }
    await tx.delete(importMissingImages).where(inArray(importMissingImages.id, got.map((g) => g.row.id)));
  });
  return placedKeys;
}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** A published story's pending version (decision 0033) gets the same images, or publishing it would take them out again. */
async function placeInPendingVersion(tx: Tx, articleId: string, body: Map<string, PlacedImage>, featured: PlacedImage | null) {
  const [pending] = await tx.select({ fields: articlePendingVersions.fields }).from(articlePendingVersions).where(eq(articlePendingVersions.articleId, articleId)).for("update");
  if (!pending) return;
  const fields = pending.fields as { contentDoc?: StoryDocument | null; featuredImage?: string; featuredImageAlt?: string; featuredImageCaption?: string };
  const next = fields.contentDoc ? placeImages(fields.contentDoc, body) : null;
  const setFeatured = featured && !fields.featuredImage;
  if (!next?.placed.size && !setFeatured) return;
  await tx
    .update(articlePendingVersions)
    .set({
      fields: {
        ...fields,
        ...(next?.placed.size ? { contentDoc: next.doc, content: storyPlainText(next.doc) } : {}),
        ...(setFeatured ? { featuredImage: featured.src, featuredImageAlt: featured.alt, featuredImageCaption: featured.caption } : {}),
      },
    })
    .where(eq(articlePendingVersions.articleId, articleId));
}
