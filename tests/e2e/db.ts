import fs from "node:fs/promises";
import path from "node:path";
import { expect } from "@playwright/test";
import pg from "pg";
import { clusterDirOf } from "../../server/postgres-placement";

// The e2e server's own embedded PostgreSQL (tests/setup/e2e-server.mjs), for tests that set up rows
// directly or check what a journey stored.

/** The e2e server's data directory (chosen by playwright.config.ts). */
export function dataDir(): string {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error("E2E_DATA_DIR is not set: run these tests through playwright.config.ts");
  return dir;
}

/** The e2e server's embedded PostgreSQL: login from DATA_DIR/secrets.json, port from line 4 of its postmaster.pid. */
export async function connect(): Promise<pg.Client> {
  const { postgresPassword } = JSON.parse(await fs.readFile(path.join(dataDir(), "secrets.json"), "utf8")) as {
    postgresPassword: string;
  };
  // DATA_DIR/postgres, or (as root, when the postgres user cannot reach DATA_DIR) the cluster it records.
  const pid = (await fs.readFile(path.join(clusterDirOf(dataDir()), "postmaster.pid"), "utf8")).split("\n");
  const port = Number(pid[3]);
  expect(Number.isInteger(port) && port > 0, `port in postmaster.pid: ${pid[3]}`).toBe(true);
  const client = new pg.Client({
    connectionString: `postgres://frontpage:${encodeURIComponent(postgresPassword)}@127.0.0.1:${port}/frontpage`,
  });
  await client.connect();
  return client;
}

export async function withDb<T>(use: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = await connect();
  try {
    return await use(db);
  } finally {
    await db.end();
  }
}

/** One query on a short-lived connection: its rows. */
export async function query<R extends pg.QueryResultRow = Record<string, unknown>>(text: string, values?: unknown[]): Promise<R[]> {
  return withDb(async (db) => (await db.query<R>(text, values)).rows);
}

/** The id of the category with this slug. */
export async function categoryId(slug: string): Promise<string> {
  const [row] = await query<{ id: string }>(`select id from categories where slug = $1`, [slug]);
  if (!row) throw new Error(`no category ${slug}`);
  return row.id;
}

/** Rows in page_views for exactly this path (path + query string, as the beacon sends it). */
export async function pageViewCount(viewPath: string): Promise<number> {
  const [row] = await query<{ n: number }>(`select count(*)::int as n from page_views where path = $1`, [viewPath]);
  return row!.n;
}

/** The stored view count of the article with this slug. */
export async function articleViews(slug: string): Promise<number> {
  const [row] = await query<{ views: number }>(`select views from articles where slug = $1`, [slug]);
  if (!row) throw new Error(`no article ${slug}`);
  return row.views;
}

/** The site time zone of the e2e server (TIME_ZONE is not set there: the default). */
export const SITE_TIME_ZONE = "America/New_York";

/** `date` as the site shows it: "long" gives 'MMMM d, yyyy' (article page), "short" 'MMM d, yyyy' (cards). */
export function siteDate(date: Date, month: "long" | "short"): string {
  return new Intl.DateTimeFormat("en-US", { timeZone: SITE_TIME_ZONE, month, day: "numeric", year: "numeric" }).format(date);
}

/** What readers see of the `articles` table aliased `a` (the server's publiclyVisible rule), newest first as the site lists them. */
export const PUBLIC_ARTICLES_NEWEST_FIRST = "a.status = 'published' and a.published_at <= now() order by a.published_at desc, a.id desc";

// Every table an admin can change, as a row count and a hash of the rows. articles.views is left out:
// the view recorder flushes reader views in the background, which is no admin change.
const SNAPSHOT_QUERIES = {
  articles: `select id, title, slug, excerpt, content, featured_image, video_url, author_name, category_id, created_at, updated_at from articles`,
  categories: `select * from categories`,
  comments: `select * from comments`,
  media: `select * from media`,
  website_settings: `select * from website_settings`,
  user_roles: `select * from user_roles`,
  authors: `select * from authors`,
  article_authors: `select * from article_authors`,
  invitations: `select * from invitations`,
} as const;

export type Snapshot = Record<keyof typeof SNAPSHOT_QUERIES | "mediaFiles", { rows: number; hash: string }>;

async function listFiles(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .filter((f) => !f.startsWith(".variants"))
    .sort();
}

/** Every table a back-office user can change, as row counts and hashes, and the media files: equal before and after means nothing changed. */
export async function snapshot(): Promise<Snapshot> {
  return withDb(async (db) => {
    const result = {} as Snapshot;
    for (const [table, query] of Object.entries(SNAPSHOT_QUERIES)) {
      const { rows } = await db.query<{ rows: number; hash: string }>(
        `select count(*)::int as rows, coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as hash from (${query}) t`,
      );
      result[table as keyof typeof SNAPSHOT_QUERIES] = rows[0];
    }
    // Uploads are files as well as rows: a refused upload must not leave a file behind either.
    const files = await listFiles(path.join(dataDir(), "media"));
    result.mediaFiles = { rows: files.length, hash: files.join("|") };
    return result;
  });
}

/**
 * A public article with a category, an uploaded featured image and bylined authors (the demo's): other
 * tests publish bare articles that may lead the home page while this file runs.
 */
export async function demoArticlePath(): Promise<string> {
  const [row] = await query<{ slug: string }>(
    `select a.slug from articles a
     where a.status = 'published' and a.published_at <= now() and a.category_id is not null
       and a.featured_image like '/media/images/%' and exists (select 1 from article_authors aa where aa.article_id = a.id)
       and a.created_by_id is null
     order by a.published_at desc limit 1`,
  );
  if (!row) throw new Error("no demo article with a category, an image and authors: is the demo content seeded?");
  return `/article/${row.slug}`;
}

/** `date` as a datetime-local value (with seconds) on the site's wall clock. */
export function wallClock(date: Date): string {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone: SITE_TIME_ZONE,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).formatToParts(date);
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${get("year")}-${get("month")}-${get("day")}T${get("hour")}:${get("minute")}:${get("second")}`;
}
