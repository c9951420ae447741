import { createHash } from "node:crypto";
import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import * as tar from "tar";
import { afterAll, describe, expect, test } from "vitest";
import { session, user } from "../app/db/schema";
import { removeRelocatedCluster } from "../server/postgres-placement";
import { createBlankDatabase, createTestDatabase } from "../tests/setup/test-database";

// `npm run backup` / `npm run restore` as a person runs them (issue 28, items 5 and 6): the commands
// of the security test, each in its own process, against this run's PostgreSQL (DATABASE_URL) or a
// DATA_DIR of its own.

const ROOT = path.resolve(import.meta.dirname, "..");
const work = await fs.mkdtemp(path.join(os.tmpdir(), "frontpage-backup-cli-test-"));
afterAll(async () => {
  await fs.rm(work, { recursive: true, force: true });
});

function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "warn", NODE_ENV: "production", ...env };
  // The caller's database and key, never the test process's own.
  if (!("DATABASE_URL" in env)) delete childEnv.DATABASE_URL;
  if (!("BACKUP_KEY" in env)) delete childEnv.BACKUP_KEY;
  return new Promise((resolve) => {
    execFile(process.execPath, ["--import", "tsx", "scripts/backup.ts", ...args], { cwd: ROOT, env: childEnv, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

/** Unpacks an archive, lets `change` edit one table's rows, writes that file's new SHA-256 into the manifest and packs it again (its signature kept). */
async function tamper(archive: string, name: string, table: string, change: (rows: string) => string): Promise<string> {
  const dir = path.join(work, name);
  await fs.mkdir(dir);
  await tar.extract({ file: archive, cwd: dir });
  const manifest = JSON.parse(await fs.readFile(path.join(dir, "manifest.json"), "utf8")) as { tables: { name: string; file: string; sha256: string }[] };
  const entry = manifest.tables.find((t) => t.name === table)!;
  const rows = change(await fs.readFile(path.join(dir, entry.file), "utf8"));
  await fs.writeFile(path.join(dir, entry.file), rows);
  entry.sha256 = createHash("sha256").update(rows).digest("hex");
  await fs.writeFile(path.join(dir, "manifest.json"), JSON.stringify(manifest, null, 2));
  const file = path.join(work, `${name}.tar.gz`);
  await tar.create({ gzip: true, file, cwd: dir }, readdirSync(dir));
  return file;
}

async function userNames(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(`select count(*) as n from pg_tables where schemaname = 'public'`);
    if (rows[0]!.n === "0") return [];
    return (await client.query<{ name: string }>(`select name from "user" order by name`)).rows.map((r) => r.name);
  } finally {
    await client.end();
  }
}

const source = await createTestDatabase();
await source.db.insert(user).values({ id: "reader-one", name: "Reader One", email: "reader.one@example.org" });
await source.db.insert(session).values({ id: "reader-one-session", token: "a-live-session-token", userId: "reader-one", expiresAt: new Date(Date.now() + 86_400_000) });
const siteDir = path.join(work, "site");
const archive = path.join(work, "site.tar.gz");

describe("npm run backup / npm run restore", () => {
  test("the security test: a tampered archive with recomputed checksums is refused; --trust-unsigned restores it; the right key restores the untouched one", async () => {
    const backup = await cli(["backup", archive], { DATABASE_URL: source.url, DATA_DIR: siteDir });
    expect(backup.stderr).toBe("");
    expect(backup.code).toBe(0);
    const entries: string[] = [];
    await tar.list({ file: archive, onReadEntry: (entry) => void entries.push(entry.path) });
    expect(entries).toContain("manifest.sig");
    expect(entries).not.toContain("database/session.copy");
    expect(entries).not.toContain("database/verification.copy");
    const keyFile = path.join(siteDir, "secrets.json");
    const { backupKey } = JSON.parse(await fs.readFile(keyFile, "utf8")) as { backupKey?: string };
    expect(backupKey).toMatch(/^.{32,}$/);

    const tampered = await tamper(archive, "tampered", "user", (rows) => rows.replace("Reader One", "Mallory"));
    const target = await createBlankDatabase();
    const elsewhere = path.join(work, "elsewhere");
    for (const options of [["--backup-key-file", keyFile], []]) {
      const refused = await cli(["restore", ...options, tampered], { DATABASE_URL: target.url, DATA_DIR: elsewhere });
      expect(refused.code).toBe(1);
      expect(refused.stderr.trim().split("\n")).toHaveLength(1);
      expect(refused.stderr).toMatch(/^Error: .*BACKUP_KEY.*--backup-key-file.*--trust-unsigned/);
      expect(await userNames(target.url)).toEqual([]);
    }
    expect(existsSync(elsewhere)).toBe(false);

    const trusted = await cli(["restore", tampered, "--trust-unsigned"], { DATABASE_URL: target.url, DATA_DIR: elsewhere });
    expect(trusted.code).toBe(0);
    expect(await userNames(target.url)).toEqual(["Mallory"]);

    const withKeyFile = await createBlankDatabase();
    expect((await cli(["restore", "--backup-key-file", keyFile, archive], { DATABASE_URL: withKeyFile.url, DATA_DIR: elsewhere })).code).toBe(0);
    expect(await userNames(withKeyFile.url)).toEqual(["Reader One"]);
    const withKey = await createBlankDatabase();
    expect((await cli(["restore", archive], { DATABASE_URL: withKey.url, DATA_DIR: elsewhere, BACKUP_KEY: backupKey! })).code).toBe(0);
    expect(await userNames(withKey.url)).toEqual(["Reader One"]);
    // Each command is a process of its own (a few seconds each on a busy machine).
  }, 180_000);

  test("a refused restore leaves an empty DATA_DIR made for it where it was, and makes none that was not there", async () => {
    const garbage = path.join(work, "not-a-backup.tar.gz");
    await fs.writeFile(garbage, "hello");
    const madeForIt = path.join(work, "made-for-it");
    await fs.mkdir(madeForIt);
    const refused = await cli(["restore", garbage], { DATA_DIR: madeForIt });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/not a Frontpage backup/);
    expect(readdirSync(madeForIt)).toEqual([]);

    const absent = path.join(work, "absent");
    expect((await cli(["restore", garbage], { DATA_DIR: absent })).code).toBe(1);
    expect(existsSync(absent)).toBe(false);

    // A restore that fails half-way (rows PostgreSQL will not take, in an archive trusted unsigned):
    // its PostgreSQL was made in the folder, and goes again; the folder stays.
    const broken = await tamper(archive, "broken", "user", (rows) => `${rows}not a row\n`);
    const failed = await cli(["restore", broken, "--trust-unsigned"], { DATA_DIR: madeForIt });
    expect(failed.stderr).toMatch(/^Error: missing data for column/);
    expect(failed.code).toBe(1);
    expect(readdirSync(madeForIt)).toEqual([]);
  }, 180_000);

  test("a restore into a new DATA_DIR keeps the backed-up site's session secret and backup key", async () => {
    const restored = path.join(work, "restored");
    const keyFile = path.join(siteDir, "secrets.json");
    const result = await cli(["restore", "--backup-key-file", keyFile, archive], { DATA_DIR: restored });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const before = JSON.parse(await fs.readFile(keyFile, "utf8")) as { sessionSecret: string; backupKey: string };
    const after = JSON.parse(await fs.readFile(path.join(restored, "secrets.json"), "utf8")) as { sessionSecret: string; backupKey: string };
    expect(after).toMatchObject({ sessionSecret: before.sessionSecret, backupKey: before.backupKey });
    await removeRelocatedCluster(restored);
  }, 180_000);
});
