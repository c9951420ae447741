import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import * as tar from "tar";
import { afterAll, describe, expect, test } from "vitest";
import { createDb } from "../app/db/client.server";
import { comments, invitations, session, user, verification, websiteSettings } from "../app/db/schema";
import { ensureAdminAccount } from "../app/domain/accounts/accounts.server";
import { handleAuthRequest } from "../app/domain/accounts/auth-handler.server";
import { authRequest, createTestAuth, signIn } from "../app/domain/accounts/test-auth.server";
import { createLogger } from "../app/lib/logger.server";
import { createLocalStorage } from "../app/lib/storage.server";
import { createBlankDatabase, createTestDatabase } from "../tests/setup/test-database";
import { totp } from "../tests/setup/totp";
import { createBackup, restoreBackup } from "./backup";
import { seedDatabase } from "./seed";

// Issue 12: a seeded site, backed up and restored into an empty database and media store, comes
// back with 0 differences, row by row and byte by byte.

const log = createLogger("silent");
const source = await createTestDatabase();
const work = await fs.mkdtemp(path.join(os.tmpdir(), "frontpage-backup-test-"));
afterAll(async () => {
  await fs.rm(work, { recursive: true, force: true });
});
const sourceMedia = path.join(work, "source-media");
const sourceStorage = createLocalStorage(sourceMedia);
await seedDatabase({ db: source.db, storage: sourceStorage, log, demo: true });
const [article] = (await source.db.execute<{ id: string }>(sql`select id from articles order by published_at desc limit 1`)).rows;
await source.db.insert(comments).values({ articleId: article!.id, authorName: "Restored Reader", authorEmail: "r@example.org", content: "Still here after the restore." });
await source.db.update(websiteSettings).set({ siteName: "The Backed-Up Gazette", requireTwoFactor: true });
// A raw audience event of a day long gone: its partition is one the restore's migrations do not make
// (they make the days around the restore's own date, which is not the backup's near midnight either).
await source.db.execute(sql`select audience_make_partitions('2026-01-05', '2026-01-05')`);
await source.db.execute(
  sql`insert into audience_events (at, path, article_id, visitor, new_visitor, new_story_visitor, source, device) values ('2026-01-05 10:00:00+00', '/old-story', ${article!.id}, '\\x01'::bytea, true, true, 'direct', 'phone')`,
);

/**
 * Every table's rows as one checksum each (generated columns included: they must come back the same
 * too); a partitioned table's rows as one, whatever its partitions (the days made around each
 * database's own date differ).
 */
async function tableChecksums(url: string): Promise<Record<string, string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = (
      await client.query<{ name: string }>(
        `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by 1`,
      )
    ).rows;
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

/** Unpacks an archive into a new folder; answers the folder and its manifest. */
async function unpack(archive: string, name: string) {
  const dir = path.join(work, name);
  await fs.mkdir(dir);
  await tar.extract({ file: archive, cwd: dir });
  const manifest = JSON.parse(await fs.readFile(path.join(dir, "manifest.json"), "utf8")) as {
    tables: { name: string; file: string; sha256: string; rows: number }[];
    media: { file: string; sha256: string }[];
  };
  return { dir, manifest };
}

/** Packs a folder back into an archive, with or without its manifest's signature. */
async function repack(dir: string, file: string) {
  const entries = ["manifest.json", "database", "media", "manifest.sig"].filter((entry) => existsSync(path.join(dir, entry)));
  await tar.create({ gzip: true, file, cwd: dir }, entries);
}

const sha256 = (bytes: Buffer | string) => createHash("sha256").update(bytes).digest("hex");

describe("backup and restore", () => {
  const archive = path.join(work, "site.tar.gz");
  const sessionSecret = "the-site-session-secret-0123456789abcdef";
  const backupKey = "the-site-backup-key-kept-apart-0123456789";

  test("a seeded site restored into an empty database and media store has the same rows and the same file bytes", async () => {
    const manifest = await createBackup({ file: archive, databaseUrl: source.url, storage: sourceStorage, sessionSecret, backupKey, log });
    expect(manifest.media.length).toBeGreaterThan(0);
    expect(manifest.missingMedia).toEqual([]);
    expect((await fs.stat(archive)).mode & 0o777).toBe(0o600);

    const target = await createBlankDatabase();
    const targetMedia = path.join(work, "target-media");
    const restored = await restoreBackup({ file: archive, databaseUrl: target.url, storage: createLocalStorage(targetMedia), backupKey, log });
    expect(restored.sessionSecret).toBe(sessionSecret);

    const [before, after] = [await tableChecksums(source.url), await tableChecksums(target.url)];
    expect(Object.keys(before).length).toBeGreaterThan(15);
    const differences = Object.keys({ ...before, ...after }).filter((table) => before[table] !== after[table]);
    expect(differences).toEqual([]);
    expect(before.comments).not.toMatch(/^0:/);
    expect(before.audience_events).toMatch(/^1:/);
    expect(manifest.tables.find((t) => t.name === "audience_events")?.partitions).toContainEqual({
      name: "audience_events_20260105",
      bound: expect.stringMatching(/^FOR VALUES FROM \('2026-01-05 /) as string,
    });
    expect(manifest.tables.map((t) => t.name)).not.toContain("audience_events_20260105");

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
    await expect(restoreBackup({ file: archive, databaseUrl: target.url, storage: createLocalStorage(targetMedia), backupKey, log })).rejects.toThrow(/not empty/);
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
    await expect(restoreBackup({ file: damaged, databaseUrl: target.url, storage: createLocalStorage(path.join(work, "never")), backupKey, log })).rejects.toThrow(/damaged/);
    expect(await tableChecksums(target.url)).toEqual({});
    await expect(fs.access(path.join(work, "never"))).rejects.toThrow();

    await fs.writeFile(path.join(work, "not-a-backup.tar.gz"), "hello");
    await expect(restoreBackup({ file: path.join(work, "not-a-backup.tar.gz"), databaseUrl: target.url, storage: createLocalStorage(path.join(work, "never")), backupKey, log })).rejects.toThrow(/not a Frontpage backup/);
  });

  test("an archive whose rows were changed and whose checksums were recomputed is refused; --trust-unsigned restores it anyway", async () => {
    const { dir, manifest } = await unpack(archive, "tampered");
    // An attacker with the archive: a new site name in the settings' rows, and the manifest's checksum to match.
    const settings = manifest.tables.find((t) => t.name === "website_settings")!;
    const rows = await fs.readFile(path.join(dir, settings.file), "utf8");
    expect(rows).toContain("The Backed-Up Gazette");
    await fs.writeFile(path.join(dir, settings.file), rows.replace("The Backed-Up Gazette", "The Tampered Gazette"));
    settings.sha256 = sha256(await fs.readFile(path.join(dir, settings.file)));
    await fs.writeFile(path.join(dir, "manifest.json"), JSON.stringify(manifest, null, 2));
    const tampered = path.join(work, "tampered.tar.gz");
    await repack(dir, tampered);

    const target = await createBlankDatabase();
    const never = path.join(work, "never-tampered");
    await expect(restoreBackup({ file: tampered, databaseUrl: target.url, storage: createLocalStorage(never), backupKey, log })).rejects.toThrow(
      /does not match the backup key.*BACKUP_KEY.*--backup-key-file.*--trust-unsigned/,
    );
    expect(await tableChecksums(target.url)).toEqual({});
    await expect(fs.access(never)).rejects.toThrow();

    // The person restoring may still choose to trust it.
    await restoreBackup({ file: tampered, databaseUrl: target.url, storage: createLocalStorage(never), backupKey: null, trustUnsigned: true, log });
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      expect((await client.query<{ site_name: string }>("select site_name from website_settings")).rows[0]?.site_name).toBe("The Tampered Gazette");
    } finally {
      await client.end();
    }
  });

  test("an unsigned archive, one checked with another key, or one with no key to check it is refused", async () => {
    const { dir } = await unpack(archive, "unsigned");
    await fs.rm(path.join(dir, "manifest.sig"), { force: true });
    const unsigned = path.join(work, "unsigned.tar.gz");
    await repack(dir, unsigned);

    const target = await createBlankDatabase();
    const storage = createLocalStorage(path.join(work, "never-unsigned"));
    await expect(restoreBackup({ file: unsigned, databaseUrl: target.url, storage, backupKey, log })).rejects.toThrow(/is not signed.*--trust-unsigned/);
    await expect(restoreBackup({ file: archive, databaseUrl: target.url, storage, backupKey: "another-sites-backup-key-0123456789abcdef", log })).rejects.toThrow(
      /does not match the backup key/,
    );
    await expect(restoreBackup({ file: archive, databaseUrl: target.url, storage, backupKey: null, log })).rejects.toThrow(/no backup key.*BACKUP_KEY.*--backup-key-file.*--trust-unsigned/);
    expect(await tableChecksums(target.url)).toEqual({});
  });

  test("sessions, verification and reset tokens and unused invitations stay out of the archive, and so do the backup key and the session secret", async () => {
    const [person] = await source.db.insert(user).values({ id: "backup-person", name: "Backup Person", email: "backup.person@example.org" }).returning();
    const liveToken = "live-session-token-that-must-not-travel";
    await source.db.insert(session).values({ id: "backup-session", token: liveToken, userId: person!.id, expiresAt: new Date(Date.now() + 86_400_000) });
    const resetToken = "unused-reset-token-that-must-not-travel";
    await source.db.insert(verification).values({ id: "backup-verification", identifier: `reset-password:${resetToken}`, value: person!.id, expiresAt: new Date(Date.now() + 3_600_000) });
    const invitation = (tokenHash: string, more: Partial<typeof invitations.$inferInsert> = {}) => ({
      email: `${tokenHash}@example.org`,
      role: "author",
      tokenHash,
      invitedByName: "Backup Person",
      expiresAt: new Date(Date.now() + 86_400_000),
      ...more,
    });
    await source.db.insert(invitations).values([
      invitation("pending-invitation-hash"),
      invitation("accepted-invitation-hash", { acceptedAt: new Date(), acceptedById: person!.id }),
      invitation("withdrawn-invitation-hash", { revokedAt: new Date() }),
      invitation("expired-invitation-hash", { expiresAt: new Date(Date.now() - 1000) }),
    ]);

    const file = path.join(work, "without-secrets.tar.gz");
    await createBackup({ file, databaseUrl: source.url, storage: sourceStorage, sessionSecret, backupKey, log });
    const { dir, manifest } = await unpack(file, "without-secrets");
    const names = manifest.tables.map((t) => t.name);
    expect(names).not.toContain("session");
    expect(names).not.toContain("verification");
    // Accounts and their second factors stay: a restored site signs its people in as before.
    expect(names).toEqual(expect.arrayContaining(["user", "account", "two_factor", "invitations"]));
    const spent = await fs.readFile(path.join(dir, manifest.tables.find((t) => t.name === "invitations")!.file), "utf8");
    expect(spent).toContain("accepted-invitation-hash");
    expect(spent).toContain("withdrawn-invitation-hash");
    expect(spent).toContain("expired-invitation-hash");
    expect(spent).not.toContain("pending-invitation-hash");
    expect(manifest.tables.find((t) => t.name === "invitations")!.rows).toBe(3);

    const everything = Buffer.concat(await Promise.all((await fs.readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => fs.readFile(path.join(e.parentPath, e.name))))).toString("latin1");
    // The session secret travels sealed with the backup key: the archive alone forges no link or cookie.
    for (const secret of [liveToken, resetToken, "pending-invitation-hash", backupKey, sessionSecret, Buffer.from(sessionSecret).toString("base64")]) expect(everything).not.toContain(secret);
  });

  test("a second factor set up before the backup still completes a sign-in after the restore", async () => {
    const before = createTestAuth(source.db, sessionSecret);
    await ensureAdminAccount(before.auth, source.db, "two-factor@example.org", "a-long-admin-password-1");
    const first = await signIn(before, "two-factor@example.org", "a-long-admin-password-1", "192.0.2.90");
    const enabled = await before.auth.api.enableTwoFactor({ body: { password: "a-long-admin-password-1" }, headers: new Headers({ cookie: first.cookie! }) });
    if (enabled.method !== "totp") throw new Error("expected TOTP");
    const secret = new URL(enabled.totpURI).searchParams.get("secret")!;
    await before.auth.api.verifyTOTP({ body: { code: totp(secret) }, headers: new Headers({ cookie: first.cookie! }) });

    const file = path.join(work, "two-factor.tar.gz");
    await createBackup({ file, databaseUrl: source.url, storage: sourceStorage, sessionSecret, backupKey, log });
    const target = await createBlankDatabase();
    const restored = await restoreBackup({ file, databaseUrl: target.url, storage: createLocalStorage(path.join(work, "two-factor-media")), backupKey, log });

    const { db, pool } = createDb(target.url, 2);
    try {
      const after = createTestAuth(db, restored.sessionSecret!);
      const password = await signIn(after, "two-factor@example.org", "a-long-admin-password-1", "192.0.2.91");
      expect(await password.response.json()).toMatchObject({ twoFactorRedirect: true });
      const pending = password.response.headers.getSetCookie().map((c) => c.split(";")[0]!).join("; ");
      const code = await handleAuthRequest(authRequest("/api/auth/two-factor/verify-totp", { code: totp(secret) }, { ip: "192.0.2.91", cookie: pending }), { auth: after.auth, db, log: after.log });
      expect(code.status).toBe(200);
      expect(code.headers.getSetCookie().some((c) => c.startsWith("better-auth.session_token=") && !c.startsWith("better-auth.session_token=;"))).toBe(true);
    } finally {
      await pool.end();
    }

    // Without the key (--trust-unsigned), the session secret cannot be read, nor the second factors it
    // encrypted: they are turned off (to be set up again) rather than locking their people out.
    const unkeyed = await createBlankDatabase();
    const blind = await restoreBackup({ file, databaseUrl: unkeyed.url, storage: createLocalStorage(path.join(work, "two-factor-media-2")), backupKey: null, trustUnsigned: true, log });
    expect(blind.sessionSecret).toBeNull();
    const client = new pg.Client({ connectionString: unkeyed.url });
    await client.connect();
    try {
      expect((await client.query(`select two_factor_enabled from "user" where email = 'two-factor@example.org'`)).rows).toEqual([{ two_factor_enabled: false }]);
      expect((await client.query(`select count(*)::int as n from two_factor`)).rows).toEqual([{ n: 0 }]);
    } finally {
      await client.end();
    }
  });
});
