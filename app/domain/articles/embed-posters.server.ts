import fs from "node:fs/promises";
import { and, eq, isNotNull, or, sql } from "drizzle-orm";
import type { Task, TaskList } from "graphile-worker";
import type { Db } from "~/db/client.server";
import { articles, embedPosters } from "~/db/schema";
import { AppError, isAppError } from "~/lib/app-error";
import { enqueueJob } from "~/lib/job-queue.server";
import type { Logger } from "~/lib/logger.server";
import sharp from "~/lib/sharp.server";
import type { Storage } from "~/lib/storage.server";
import { MAX_IMAGE_PIXELS, newUploadPart, storeCheckedUpload } from "~/lib/uploads.server";
import { attr, childrenOf, type AnyNode } from "./story-document";
import { embedPosterKey, type EmbedPoster, type EmbedPosters } from "./story-embed-html";
import { EMBED_ID, embedTargetOf, type EmbedTarget } from "./story-urls";

// Embed posters (issue 41, decision 0057): a story's YouTube videos and X posts show, before the
// reader presses play, a poster of ours: the video's thumbnail (a file of our media library) and
// title, the post's author and text. Each is fetched ONCE, in the background, when a story holding
// an embed without one is saved ("embed-posters", one job per article: repeated saves merge), from the
// provider's oEmbed answer, which is untrusted input: its texts are cut to length and kept as plain
// text (escaped by each renderer), the thumbnail is fetched only from YouTube's own image host (or the
// stand-in base), at most 5 MB within a few seconds, decoded and re-encoded by sharp, then stored as
// every upload is (type from the bytes, size checked). A failed fetch is retried by the job queue a few
// times, then stays failed: readers see a titled placeholder. A poster that arrives drops the pages of
// the story (a change notice naming it, as its own save's would), not its "Updated" date.

export const EMBED_POSTERS_TASK = "embed-posters";
/** Tries of one article's posters (graphile-worker waits e^n seconds between them: about 30 s in all). */
export const EMBED_POSTER_MAX_ATTEMPTS = 4;
/** How long one request to a provider may take, whole. */
export const EMBED_FETCH_TIMEOUT_MS = 5_000;
const MAX_OEMBED_BYTES = 64 * 1024;
const MAX_THUMBNAIL_BYTES = 5 * 1024 * 1024;
/** The widest poster kept (a page shows it at most 864 px wide, 2x: the media route makes smaller variants). */
const POSTER_WIDTH = 1280;

/** Where the providers are: the real hosts, or every one under EMBED_FETCH_BASE (tests' stand-in). */
export interface EmbedHosts {
  youtubeOembed: string;
  /** The origin + path prefix the video thumbnails are taken from (nothing else is fetched for an image). */
  youtubeImages: string;
  xOembed: string;
}

export function embedHostsOf(base: string | undefined): EmbedHosts {
  if (!base) return { youtubeOembed: "https://www.youtube.com/oembed", youtubeImages: "https://i.ytimg.com", xOembed: "https://publish.twitter.com/oembed" };
  const root = base.replace(/\/+$/, "");
  return { youtubeOembed: `${root}/youtube/oembed`, youtubeImages: `${root}/youtube`, xOembed: `${root}/x/oembed` };
}

/** A story's YouTube and X embeds, each once (anything the URL rules refuse is left out). */
export function storyEmbedsOf(doc: unknown): EmbedTarget[] {
  const found = new Map<string, EmbedTarget>();
  const visit = (node: AnyNode, depth: number) => {
    if (depth > 40) return;
    if (node.type === "embed") {
      const target = embedTargetOf(attr(node, "url"));
      if (target) found.set(embedPosterKey(target), target);
      return;
    }
    for (const child of childrenOf(node)) visit(child, depth + 1);
  };
  if (doc && typeof doc === "object") visit(doc as AnyNode, 0);
  return [...found.values()];
}

const pairsOf = (targets: readonly EmbedTarget[]) =>
  or(...targets.map((t) => and(eq(embedPosters.provider, t.provider), eq(embedPosters.embedId, t.id))));

/** The posters (fetched or failed) of these embeds, by embedPosterKey: one query, for every renderer. */
export async function embedPostersOf(db: Pick<Db, "select">, targets: readonly EmbedTarget[]): Promise<EmbedPosters> {
  const posters = new Map<string, EmbedPoster>();
  if (targets.length === 0) return posters;
  const rows = await db.select().from(embedPosters).where(pairsOf(targets));
  for (const row of rows) {
    const poster: EmbedPoster = {
      title: row.title,
      author: row.author,
      text: row.text,
      posterUrl: row.posterUrl,
      ready: row.fetchedAt !== null,
    };
    posters.set(`${row.provider}:${row.embedId}`, poster);
  }
  return posters;
}

/** The posters of a story's embeds (what the article page's loader reads with the story). */
export const storyPostersOf = (db: Pick<Db, "select">, doc: unknown) => embedPostersOf(db, storyEmbedsOf(doc));

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * In a save's transaction: when the story holds an embed with no poster row yet (never fetched, never
 * failed), queues one "embed-posters" job for the article (its key merges repeated saves).
 */
export async function queueEmbedPosters(tx: Tx | Db, articleId: string, doc: unknown): Promise<boolean> {
  const targets = storyEmbedsOf(doc);
  if (targets.length === 0) return false;
  const known = await tx.select({ provider: embedPosters.provider, embedId: embedPosters.embedId }).from(embedPosters).where(pairsOf(targets));
  const seen = new Set(known.map((row) => `${row.provider}:${row.embedId}`));
  if (targets.every((t) => seen.has(embedPosterKey(t)))) return false;
  await enqueueJob(tx, EMBED_POSTERS_TASK, { articleId }, { key: `${EMBED_POSTERS_TASK}:${articleId}`, maxAttempts: EMBED_POSTER_MAX_ATTEMPTS });
  return true;
}

/** A provider's answer that is not what a poster can be made of: the fetch has failed. */
export const embedFetchError = (message: string) => new AppError("upstream_failed", message);
const isEmbedFetchError = (error: unknown): error is AppError => isAppError(error) && error.code === "upstream_failed";

/**
 * GETs `url` with a timeout and a size limit, following at most two redirects and only within the
 * same origin (a provider's answer cannot send us to another host). The body, whole.
 */
export async function fetchLimited(url: string, options: { maxBytes: number; accept: string; timeoutMs?: number }): Promise<{ body: Buffer; contentType: string }> {
  const signal = AbortSignal.timeout(options.timeoutMs ?? EMBED_FETCH_TIMEOUT_MS);
  let current = new URL(url);
  for (let hop = 0; hop < 3; hop++) {
    let response: Response;
    try {
      response = await fetch(current, { redirect: "manual", signal, headers: { accept: options.accept, "user-agent": "Frontpage embed posters" } });
    } catch (error) {
      throw embedFetchError(`${current.origin} could not be reached: ${signal.aborted ? "timed out" : (error as Error).message}`);
    }
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      const location = response.headers.get("location");
      const next = location ? new URL(location, current) : null;
      if (!next || next.origin !== current.origin) throw embedFetchError(`${current.origin} redirected elsewhere (${next?.origin ?? "nowhere"}): not followed`);
      current = next;
      continue;
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      throw embedFetchError(`${current.origin} answered ${response.status}`);
    }
    const declared = Number(response.headers.get("content-length"));
    if (Number.isFinite(declared) && declared > options.maxBytes) {
      await response.body?.cancel();
      throw embedFetchError(`${current.origin}'s answer is too large (${declared} bytes)`);
    }
    const chunks: Buffer[] = [];
    let seen = 0;
    const reader = response.body?.getReader();
    try {
      while (reader) {
        const { done, value } = await reader.read();
        if (done) break;
        seen += value.byteLength;
        if (seen > options.maxBytes) throw embedFetchError(`${current.origin}'s answer is too large (over ${options.maxBytes} bytes)`);
        chunks.push(Buffer.from(value));
      }
    } catch (error) {
      await reader?.cancel().catch(() => {});
      if (isEmbedFetchError(error)) throw error;
      throw embedFetchError(`${current.origin}'s answer was cut off: ${signal.aborted ? "timed out" : (error as Error).message}`);
    }
    return { body: Buffer.concat(chunks), contentType: response.headers.get("content-type") ?? "" };
  }
  throw embedFetchError(`${url} redirects too often: not followed`);
}

async function fetchJson(url: string): Promise<Record<string, unknown>> {
  const { body } = await fetchLimited(url, { maxBytes: MAX_OEMBED_BYTES, accept: "application/json" });
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString("utf8"));
  } catch {
    throw embedFetchError("the oEmbed answer is not JSON");
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw embedFetchError("the oEmbed answer is not an object");
  return parsed as Record<string, unknown>;
}

/** A text of an oEmbed answer: a string, its whitespace folded, at most `max` characters (null when blank). */
function textOf(value: unknown, max: number): string | null {
  if (typeof value !== "string") return null;
  // eslint-disable-next-line no-control-regex
  const folded = value.replace(/[\u0000-\u001f\u007f]+/g, " ").replace(/\s+/g, " ").trim();
  if (!folded) return null;
  return folded.length > max ? `${folded.slice(0, max - 1).trimEnd()}…` : folded;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", mdash: "—", ndash: "–", hellip: "…" };

/** HTML's character references as text (the ones an oEmbed answer uses; unknown ones left as written). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === "#") {
      const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[ref.toLowerCase()] ?? whole;
  });
}

/** The text of an X post from its oEmbed `html` (the first paragraph of its blockquote), as plain text. */
export function postTextOf(html: unknown): string | null {
  if (typeof html !== "string") return null;
  const paragraph = /<p\b[^>]*>([\s\S]*?)<\/p>/i.exec(html.slice(0, MAX_OEMBED_BYTES));
  if (!paragraph) return null;
  const plain = decodeEntities(paragraph[1]!.replace(/<br\s*\/?>/gi, " ").replace(/<[^>]*>/g, ""));
  return textOf(plain, 600);
}

export interface FetchedPoster {
  title: string;
  author: string | null;
  text: string | null;
  /** A video's thumbnail, checked and re-encoded, in the store's temporary folder: still to be stored. */
  imageFile: string | null;
}

/**
 * The thumbnail's address: the oEmbed's own when it is on YouTube's image host (or the stand-in's),
 * else the video's standard one there. Nothing is fetched from any other host.
 */
export function thumbnailUrlOf(hosts: EmbedHosts, id: string, proposed: unknown): string {
  const standard = `${hosts.youtubeImages}/vi/${id}/hqdefault.jpg`;
  if (typeof proposed !== "string") return standard;
  try {
    const url = new URL(proposed);
    const allowed = new URL(hosts.youtubeImages);
    const prefix = allowed.pathname.replace(/\/+$/, "");
    if (url.origin === allowed.origin && url.pathname.startsWith(`${prefix}/vi/${id}/`) && !url.pathname.includes("..")) return url.href;
  } catch {
    // Not an address: the standard one.
  }
  return standard;
}

/** Fetches one embed's poster from its provider (throws embedFetchError's AppError when it cannot be made). */
export async function fetchPoster(hosts: EmbedHosts, target: EmbedTarget, storage: Pick<Storage, "tempDir">): Promise<FetchedPoster> {
  if (!EMBED_ID[target.provider].test(target.id)) throw embedFetchError(`not a ${target.provider} id`);
  if (target.provider === "x") {
    const answer = await fetchJson(`${hosts.xOembed}?url=${encodeURIComponent(target.url)}&omit_script=true&dnt=true`);
    const author = textOf(answer.author_name, 200);
    const text = postTextOf(answer.html);
    if (!author && !text) throw embedFetchError("the oEmbed answer names neither an author nor a text");
    return { title: author ? `Post by ${author}` : "Post on X", author, text, imageFile: null };
  }
  const answer = await fetchJson(`${hosts.youtubeOembed}?url=${encodeURIComponent(target.url)}&format=json`);
  const title = textOf(answer.title, 300);
  if (!title) throw embedFetchError("the oEmbed answer has no title");
  const image = await fetchLimited(thumbnailUrlOf(hosts, target.id, answer.thumbnail_url), { maxBytes: MAX_THUMBNAIL_BYTES, accept: "image/jpeg,image/webp,image/png" });
  if (!/^image\/(jpeg|png|webp)\b/i.test(image.contentType)) throw embedFetchError(`the thumbnail is not an image (${image.contentType.slice(0, 60) || "no type"})`);
  const imageFile = await newUploadPart(storage);
  try {
    // Decoded and drawn again: whatever the bytes held, only pixels reach our disk, as a plain JPEG.
    await sharp(image.body, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: "error" })
      .rotate()
      .resize({ width: POSTER_WIDTH, withoutEnlargement: true })
      .jpeg({ quality: 82, mozjpeg: true })
      .toFile(imageFile);
  } catch (error) {
    await fs.rm(imageFile, { force: true });
    throw embedFetchError(`the thumbnail is not an image sharp can read (${(error as Error).message.slice(0, 80)})`);
  }
  return { title, author: textOf(answer.author_name, 200), text: null, imageFile };
}

/** The file name of a video's poster in the media library. */
const posterNameOf = (target: EmbedTarget) => `youtube-${target.id}-poster.jpg`;

export interface EmbedPosterDeps {
  db: Db;
  storage: Storage;
  log: Logger;
  hosts: EmbedHosts;
}

/**
 * Fetches the posters an article's story lacks (one try each) and records each result; a story whose
 * posters arrived is announced as changed (its pages dropped). Throws when one failed and `retry`, so
 * the queue tries again later; on the last attempt the failure stays.
 */
export async function fetchArticlePosters(deps: EmbedPosterDeps, articleId: string, retry: boolean): Promise<{ fetched: number; failed: number }> {
  const { db, storage, log, hosts } = deps;
  const [article] = await db.select({ contentDoc: articles.contentDoc }).from(articles).where(eq(articles.id, articleId)).limit(1);
  if (!article) return { fetched: 0, failed: 0 };
  const targets = storyEmbedsOf(article.contentDoc);
  if (targets.length === 0) return { fetched: 0, failed: 0 };
  const done = await db
    .select({ provider: embedPosters.provider, embedId: embedPosters.embedId })
    .from(embedPosters)
    .where(and(pairsOf(targets), isNotNull(embedPosters.fetchedAt)));
  const have = new Set(done.map((row) => `${row.provider}:${row.embedId}`));
  let fetched = 0;
  const failures: string[] = [];
  for (const target of targets.filter((t) => !have.has(embedPosterKey(t)))) {
    try {
      const poster = await fetchPoster(hosts, target, storage);
      let posterUrl: string | null = null;
      if (poster.imageFile) {
        try {
          posterUrl = (await storeCheckedUpload({ db, storage, kind: "image", source: "embed", tempFile: poster.imageFile, originalName: posterNameOf(target) })).url;
        } catch (error) {
          throw isAppError(error) ? embedFetchError(error.message) : error;
        } finally {
          await fs.rm(poster.imageFile, { force: true });
        }
      }
      await recordPoster(db, target, { title: poster.title, author: poster.author, text: poster.text, posterUrl, fetchedAt: new Date(), failedAt: null });
      fetched += 1;
    } catch (error) {
      if (!isEmbedFetchError(error)) throw error;
      log.warn({ provider: target.provider, id: target.id, reason: error.message }, "embed poster: fetch failed");
      await recordPoster(db, target, { failedAt: new Date() });
      failures.push(`${target.provider} ${target.id}: ${error.message}`);
    }
  }
  if (fetched > 0) await announceStory(db, articleId);
  if (failures.length > 0 && retry) throw embedFetchError(`embed posters not fetched: ${failures.join("; ")}`);
  return { fetched, failed: failures.length };
}

async function recordPoster(db: Db, target: EmbedTarget, values: Partial<typeof embedPosters.$inferInsert>) {
  await db
    .insert(embedPosters)
    .values({ provider: target.provider, embedId: target.id, attempts: 1, ...values })
    .onConflictDoUpdate({
      target: [embedPosters.provider, embedPosters.embedId],
      // A poster fetched meanwhile (another story's job) is kept over a later failure.
      set: { ...values, attempts: sql`${embedPosters.attempts} + 1` },
      setWhere: values.fetchedAt ? undefined : sql`${embedPosters.fetchedAt} is null`,
    });
}

/**
 * Tells every process that the story's pages changed, as a save's change notice does (migration 0016's
 * frontpage_notify_stories: its page, the lists it is on, the CDN): nothing of the article row is
 * written, so its "Updated" date stays. A draft's pages are cached nowhere: nothing to say.
 */
export async function announceStory(db: Db, articleId: string): Promise<void> {
  await db.execute(sql`select frontpage_notify_stories('embed_posters', 'UPDATE', array[id], array[slug], array[category_id], '{}'::uuid[])
    from articles where id = ${articleId} and status = 'published'`);
}

/** The queue's task: an article's missing posters, tried until the job's last attempt. */
export function embedPosterTasks(deps: EmbedPosterDeps): TaskList {
  const task: Task = async (payload, helpers) => {
    const articleId = (payload as { articleId?: unknown } | null)?.articleId;
    if (typeof articleId !== "string") return;
    await fetchArticlePosters(deps, articleId, helpers.job.attempts < helpers.job.max_attempts);
  };
  return { [EMBED_POSTERS_TASK]: task };
}
