import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import pg from "pg";
import pino from "pino";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { embedPosters, media } from "~/db/schema";
import { createCategory } from "~/domain/categories/category-admin.server";
import { CHANGE_CHANNEL } from "~/lib/change-feed.server";
import { createLocalStorage, type Storage } from "~/lib/storage.server";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { createArticle, updateArticle } from "./article-admin.server";
import type { ArticleInput } from "./articles.schema";
import { embedHostsOf, EMBED_POSTERS_TASK, fetchArticlePosters, postTextOf, storyPostersOf, thumbnailUrlOf, type EmbedPosterDeps } from "./embed-posters.server";
import { renderStoryHtml } from "./story-html";
import type { StoryDocument } from "./story-document.schema";

// The poster task against a local stand-in of YouTube's and X's oEmbed and YouTube's image host
// (EMBED_FETCH_BASE), with a real database and real storage: a good answer leaves a re-encoded JPEG
// in the media library and a poster the page shows; a bad one leaves a failure, nothing on disk.

const log = pino({ level: "silent" });
let t: TestDatabase;
let storage: Storage;
let mediaRoot: string;
let server: http.Server;
let base: string;
let deps: EmbedPosterDeps;
let deskId: string;
let jpeg: Buffer;
/** What the stand-in answers for a video id: its oEmbed, then its thumbnail. */
const answers = new Map<string, { oembed: (res: http.ServerResponse) => void; image?: (res: http.ServerResponse) => void }>();
const requests: string[] = [];

const json = (value: unknown) => (res: http.ServerResponse) => {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(typeof value === "string" ? value : JSON.stringify(value));
};
const status = (code: number) => (res: http.ServerResponse) => {
  res.writeHead(code);
  res.end();
};

beforeAll(async () => {
  t = await createTestDatabase();
  deskId = (await createCategory(t.db, { name: "Desk", slug: "desk" })).id;
  mediaRoot = await fs.mkdtemp(path.join(os.tmpdir(), "frontpage-embed-posters-"));
  storage = createLocalStorage(mediaRoot);
  jpeg = await sharp({ create: { width: 640, height: 360, channels: 3, background: { r: 20, g: 90, b: 160 } } })
    .jpeg()
    .withMetadata({ exif: { IFD0: { Copyright: "stand-in" } } })
    .toBuffer();
  server = http.createServer((req, res) => {
    const url = new URL(req.url!, "http://stand-in");
    requests.push(url.pathname + url.search);
    const videoId = /[?&]url=[^&]*?(?:v%3D|status%2F)([A-Za-z0-9_-]+)/.exec(req.url!)?.[1] ?? /^\/youtube\/vi\/([^/]+)\//.exec(url.pathname)?.[1] ?? "";
    const answer = answers.get(videoId);
    if (!answer) return status(404)(res);
    if (url.pathname === "/youtube/oembed" || url.pathname === "/x/oembed") return answer.oembed(res);
    if (url.pathname.startsWith("/youtube/vi/") && answer.image) return answer.image(res);
    status(404)(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  deps = { db: t.db, storage, log, hosts: embedHostsOf(base) };
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await fs.rm(mediaRoot, { recursive: true, force: true });
});

beforeEach(() => {
  requests.length = 0;
});

const storyWith = (...urls: string[]): StoryDocument => ({
  type: "doc",
  content: [{ type: "paragraph", content: [{ type: "text", text: "Watch this." }] }, ...urls.map((url) => ({ type: "embed" as const, attrs: { url } }))],
});

const input = (slug: string, doc: StoryDocument): ArticleInput => ({
  title: `Story ${slug}`,
  slug,
  categoryId: deskId,
  authorName: null,
  excerpt: null,
  content: "Watch this.",
  contentDoc: doc,
  featuredImage: null,
  featuredImageAlt: null,
  featuredImageCaption: null,
  featuredImageCredit: null,
  videoUrl: null,
});

async function queuedFor(articleId: string): Promise<number> {
  const rows = await t.db.execute<{ n: number }>(
    sql`select count(*)::int as n from graphile_worker.jobs where task_identifier = ${EMBED_POSTERS_TASK} and key = ${`${EMBED_POSTERS_TASK}:${articleId}`}`,
  );
  return rows.rows[0]!.n;
}

const imageFiles = async () => (await fs.readdir(path.join(mediaRoot, "images")).catch(() => [] as string[])).filter((name) => !name.startsWith("."));

/** The change notices sent while `run` runs. */
async function noticesDuring(run: () => Promise<unknown>): Promise<{ table: string; public?: { ids: string[]; slugs: string[] } }[]> {
  const client = new pg.Client({ connectionString: t.url });
  await client.connect();
  const heard: { table: string; public?: { ids: string[]; slugs: string[] } }[] = [];
  client.on("notification", (message) => heard.push(JSON.parse(message.payload ?? "{}")));
  await client.query(`LISTEN ${CHANGE_CHANNEL}`);
  try {
    await run();
    await client.query("select 1");
    await new Promise((resolve) => setTimeout(resolve, 100));
  } finally {
    await client.end();
  }
  return heard;
}

describe("embed posters", () => {
  test("a saved story's YouTube video: one job queued; the poster fetched once, its thumbnail re-encoded into the media library, the page told", async () => {
    answers.set("dQw4w9WgXcQ", {
      oembed: json({ title: "Harbour storm, live", author_name: "Coast Radio", thumbnail_url: `${base}/youtube/vi/dQw4w9WgXcQ/maxresdefault.jpg`, html: "<iframe></iframe>" }),
      image: (res) => {
        res.writeHead(200, { "content-type": "image/jpeg" });
        res.end(jpeg);
      },
    });
    const doc = storyWith("https://youtu.be/dQw4w9WgXcQ");
    const saved = await createArticle(t.db, storage, input("storm", doc));
    expect(await queuedFor(saved.id)).toBe(1);
    // A second save merges into the waiting job (its key).
    await updateArticle(t.db, storage, saved.id, input("storm", doc));
    expect(await queuedFor(saved.id)).toBe(1);

    const notices = await noticesDuring(() => fetchArticlePosters(deps, saved.id, true));
    expect(requests).toEqual([
      `/youtube/oembed?url=${encodeURIComponent("https://www.youtube.com/watch?v=dQw4w9WgXcQ")}&format=json`,
      "/youtube/vi/dQw4w9WgXcQ/maxresdefault.jpg",
    ]);
    const [row] = await t.db.select().from(embedPosters).where(eq(embedPosters.embedId, "dQw4w9WgXcQ"));
    expect(row).toMatchObject({ provider: "youtube", title: "Harbour storm, live", author: "Coast Radio", text: null, failedAt: null, attempts: 1 });
    expect(row!.fetchedAt).toBeInstanceOf(Date);
    expect(row!.posterUrl).toMatch(/^\/media\/images\/\d+-[a-z0-9]+\.jpg$/);
    // Stored as an upload is: a media row of source "embed", a JPEG of ours, no metadata left.
    const [file] = await t.db.select().from(media).where(eq(media.source, "embed"));
    expect(file).toMatchObject({ bucket: "images", originalName: "youtube-dQw4w9WgXcQ-poster.jpg", contentType: "image/jpeg" });
    const stored = path.join(mediaRoot, "images", file!.name);
    const meta = await sharp(stored).metadata();
    expect(meta).toMatchObject({ format: "jpeg", width: 640, height: 360 });
    expect(meta.exif).toBeUndefined();
    // The story's pages are dropped as by a save of it (its id and address named), not by writing the article row.
    expect(notices).toContainEqual(expect.objectContaining({ table: "embed_posters", public: expect.objectContaining({ ids: [saved.id], slugs: ["storm"] }) }));

    // The reader page: our poster, its title, no raw address.
    const html = renderStoryHtml(doc, await storyPostersOf(t.db, doc));
    expect(html).toContain(`&lt;img src=&quot;${row!.posterUrl}&quot; alt=&quot;Harbour storm, live&quot;`);
    expect(html).toContain('title="YouTube video: Harbour storm, live (press play to load it from YouTube)"');

    // Known now: another save of a story with the same video queues nothing, and a run fetches nothing.
    const again = await createArticle(t.db, storage, input("storm-again", doc));
    expect(await queuedFor(again.id)).toBe(0);
    requests.length = 0;
    await fetchArticlePosters(deps, saved.id, true);
    expect(requests).toEqual([]);
  });

  test("an X post: author and the post's text from its oEmbed html, as plain text; no image fetched", async () => {
    answers.set("1234567890", {
      oembed: json({
        author_name: "Port Authority",
        html: '<blockquote class="twitter-tweet"><p lang="en" dir="ltr">Ferries &amp; buses <b>resume</b> at 6&#8239;am.<br>Check <a href="https://t.co/x">t.co/x</a></p>&mdash; Port Authority (@port) <a href="https://twitter.com/port/status/1234567890">May 1</a></blockquote>',
      }),
    });
    const doc = storyWith("https://x.com/port/status/1234567890");
    const saved = await createArticle(t.db, storage, input("ferries", doc));
    const before = await imageFiles();
    await fetchArticlePosters(deps, saved.id, true);
    expect(requests).toEqual([`/x/oembed?url=${encodeURIComponent("https://x.com/port/status/1234567890")}&omit_script=true&dnt=true`]);
    const [row] = await t.db.select().from(embedPosters).where(eq(embedPosters.embedId, "1234567890"));
    expect(row).toMatchObject({ provider: "x", title: "Post by Port Authority", author: "Port Authority", text: "Ferries & buses resume at 6 am. Check t.co/x", posterUrl: null });
    expect(await imageFiles()).toEqual(before);
    expect(renderStoryHtml(doc, await storyPostersOf(t.db, doc))).toContain("Ferries &amp;amp; buses resume");
  });

  test.each([
    ["a 500 from oEmbed", "AAAAAAAAAA1", { oembed: status(500) }],
    ["garbage instead of JSON", "AAAAAAAAAA2", { oembed: json("<html>not json") }],
    ["JSON without a title", "AAAAAAAAAA3", { oembed: json({ author_name: "x" }) }],
    [
      "HTML sent as a JPEG",
      "AAAAAAAAAA4",
      {
        oembed: json({ title: "Fine" }),
        image: (res: http.ServerResponse) => {
          res.writeHead(200, { "content-type": "image/jpeg" });
          res.end("<html><script>alert(1)</script></html>");
        },
      },
    ],
    [
      "a thumbnail that is not an image type",
      "AAAAAAAAAA5",
      {
        oembed: json({ title: "Fine" }),
        image: (res: http.ServerResponse) => {
          res.writeHead(200, { "content-type": "image/svg+xml" });
          res.end('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
        },
      },
    ],
    [
      "a redirect to another host",
      "AAAAAAAAAA6",
      {
        oembed: (res: http.ServerResponse) => {
          res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data" });
          res.end();
        },
      },
    ],
  ])("%s: the fetch fails and is retried by the queue; at the last attempt it stays failed, nothing stored, a titled placeholder", async (_name, id, answer) => {
    answers.set(id, answer);
    const doc = storyWith(`https://www.youtube.com/watch?v=${id}`);
    const saved = await createArticle(t.db, storage, input(`bad-${id.toLowerCase()}`, doc));
    const filesBefore = await imageFiles();
    const mediaBefore = (await t.db.select().from(media)).length;
    // Not the last attempt: the job throws, so the queue tries again later.
    await expect(fetchArticlePosters(deps, saved.id, true)).rejects.toThrow(/embed posters not fetched/);
    // The last: it records the failure and returns.
    await expect(fetchArticlePosters(deps, saved.id, false)).resolves.toEqual({ fetched: 0, failed: 1 });
    const [row] = await t.db.select().from(embedPosters).where(eq(embedPosters.embedId, id));
    expect(row).toMatchObject({ fetchedAt: null, posterUrl: null, title: null, attempts: 2 });
    expect(row!.failedAt).toBeInstanceOf(Date);
    expect(await imageFiles()).toEqual(filesBefore);
    expect((await t.db.select().from(media)).length).toBe(mediaBefore);
    const html = renderStoryHtml(doc, await storyPostersOf(t.db, doc));
    expect(html).toContain("&lt;span class=&quot;t&quot;&gt;YouTube video&lt;/span&gt;");
    expect(html).not.toContain("&lt;img");
    // The raw address nowhere but the caption link's href (the frame holds only the player's address).
    expect(html.replace(/ href="[^"]*"/g, "")).not.toContain("youtube.com/watch");
    // Failed for good: a later save does not queue it again.
    await updateArticle(t.db, storage, saved.id, input(`bad-${id.toLowerCase()}`, doc));
    expect(await queuedFor(saved.id)).toBe(1);
  });
});

describe("what is taken from an oEmbed answer", () => {
  test("the thumbnail only from YouTube's image host (or the stand-in), for this video; else its standard address there", () => {
    const real = embedHostsOf(undefined);
    expect(thumbnailUrlOf(real, "dQw4w9WgXcQ", "https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg")).toBe("https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg");
    for (const proposed of ["https://evil.example/vi/dQw4w9WgXcQ/a.jpg", "http://i.ytimg.com/vi/dQw4w9WgXcQ/a.jpg", "https://i.ytimg.com/vi/other/a.jpg", "file:///etc/passwd", 42]) {
      expect(thumbnailUrlOf(real, "dQw4w9WgXcQ", proposed)).toBe("https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg");
    }
  });

  test("a post's text is its first paragraph, tags dropped and entities decoded", () => {
    expect(postTextOf('<blockquote><p>A &lt;b&gt; &quot;q&quot; <a href="x">link</a></p>&mdash; Someone</blockquote>')).toBe('A <b> "q" link');
    expect(postTextOf("<blockquote>no paragraph</blockquote>")).toBeNull();
    expect(postTextOf(null)).toBeNull();
  });
});
