import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import * as tar from "tar";
import { describe, expect, test } from "vitest";
import { comments, websiteSettings } from "../app/db/schema";
import { createLogger } from "../app/lib/logger.server";
import { createLocalStorage } from "../app/lib/storage.server";
import { createBlankDatabase, createTestDatabase } from "../tests/setup/test-database";
import { createBackup, restoreBackup } from "./backup";
import { seedDatabase } from "./seed";

// Issue 12: a seeded site, backed up and restored into an empty database and media store, comes
// back with 0 differences, row by row and byte by byte.

const log = createLogger("silent");
const source = await createTestDatabase();
const work = await fs.mkdtemp(path.join(os.tmpdir(), "frontpage-backup-test-"));
const sourceMedia = path.join(work, "source-media");
const sourceStorage = createLocalStorage(sourceMedia);
await seedDatabase({ db: source.db, storage: sourceStorage, log, demo: true });
const [article] = (await source.db.execute<{ id: string }>(sql`select id from articles order by published_at desc limit 1`)).rows;
await source.db.insert(comments).values({ articleId: article!.id, authorName: "Restored Reader", authorEmail: "r@example.org", content: "Still here after the restore." });
await source.db.update(websiteSettings).set({ siteName: "The Backed-Up Gazette", requireTwoFactor: true });

/** Every table's rows as one checksum each (generated columns included: they must come back the same too). */
async function tableChecksums(url: string): Promise<Record<string, string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = (await client.query<{ name: string }>(`select tablename as name from pg_tables where schemaname = 'public' order by 1`)).rows;
    const sums: Record<string, string> = {};
    for (const { name } of tables) {
      const { rows } = await client.query<{ sum: string | null; n: string }>(`select md5(string_agg(t::text, '|' order by t::text)) as sum, count(*) as n from public."${name}" t`);
      sums[name] = `${rows[0]!.n}:${rows[0]!.sum}`;
    }
    return sums;
  } finally {
    await client.end();
  }
}

/** Every stored file under a media root (not the temporary or derived ones) with its SHA-256. */
function fileHashes(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const bucket of readdirSync(root)) {
    if (bucket.startsWith(".")) continue;
    for (const name of readdirSync(path.join(root, bucket))) {
      out[`${bucket}/${name}`] = createHash("sha256").update(readFileSync(path.join(root, bucket, name))).digest("hex");
    }
  }
  return out;
}

describe("backup and restore", () => {
  const archive = path.join(work, "site.tar.gz");
  const sessionSecret = "the-site-session-secret-0123456789abcdef";

  test("a seeded site restored into an empty database and media store has the same rows and the same file bytes", async () => {
    const manifest = await createBackup({ file: archive, databaseUrl: source.url, storage: sourceStorage, sessionSecret, log });
    expect(manifest.media.length).toBeGreaterThan(0);
    expect(manifest.missingMedia).toEqual([]);
    expect((await fs.stat(archive)).mode & 0o777).toBe(0o600);

    const target = await createBlankDatabase();
    const targetMedia = path.join(work, "target-media");
    const restored = await restoreBackup({ file: archive, databaseUrl: target.url, storage: createLocalStorage(targetMedia), log });
    expect(restored.sessionSecret).toBe(sessionSecret);

    const [before, after] = [await tableChecksums(source.url), await tableChecksums(target.url)];
    expect(Object.keys(before).length).toBeGreaterThan(15);
    const differences = Object.keys({ ...before, ...after }).filter((table) => before[table] !== after[table]);
    expect(differences).toEqual([]);
    expect(before.comments).not.toMatch(/^0:/);

    const [sourceFiles, targetFiles] = [fileHashes(sourceMedia), fileHashes(targetMedia)];
    expect(Object.keys(sourceFiles).length).toBe(manifest.media.length);
    expect(targetFiles).toEqual(sourceFiles);

    // The restored database takes new rows after the restored ones (serial ids moved on).
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      await client.query(`insert into rate_limit_hits (bucket, key) values ('test', 'after-restore')`);
    } finally {
      await client.end();
    }

    // A second restore into the same (now full) database is refused and changes nothing.
    await expect(restoreBackup({ file: archive, databaseUrl: target.url, storage: createLocalStorage(targetMedia), log })).rejects.toThrow(/not empty/);
  });

  test("a damaged archive is refused before anything is written", async () => {
    const unpacked = path.join(work, "unpacked");
    await fs.mkdir(unpacked);
    await tar.extract({ file: archive, cwd: unpacked });
    const manifest = JSON.parse(await fs.readFile(path.join(unpacked, "manifest.json"), "utf8")) as { media: { file: string }[] };
    await fs.appendFile(path.join(unpacked, manifest.media[0]!.file), "tampered");
    const damaged = path.join(work, "damaged.tar.gz");
    await tar.create({ gzip: true, file: damaged, cwd: unpacked }, ["manifest.json", "database", "media"]);

    const target = await createBlankDatabase();
    await expect(restoreBackup({ file: damaged, databaseUrl: target.url, storage: createLocalStorage(path.join(work, "never")), log })).rejects.toThrow(/damaged/);
    expect(await tableChecksums(target.url)).toEqual({});
    await expect(fs.access(path.join(work, "never"))).rejects.toThrow();

    await fs.writeFile(path.join(work, "not-a-backup.tar.gz"), "hello");
    await expect(restoreBackup({ file: path.join(work, "not-a-backup.tar.gz"), databaseUrl: target.url, storage: createLocalStorage(path.join(work, "never")), log })).rejects.toThrow(/not a Frontpage backup/);
  });
});
