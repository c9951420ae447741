import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { readMigrationFiles } from "drizzle-orm/migrator";
import pg from "pg";
import { from as copyFrom, to as copyTo } from "pg-copy-streams";
import * as tar from "tar";
import { AppError } from "../app/lib/app-error";
import { JOB_QUEUE_SCHEMA } from "../app/lib/job-queue.server";
import type { Logger } from "../app/lib/logger.server";
import { isBucket, type Storage } from "../app/lib/storage.server";
import { migrateDatabase } from "./migrate";
import { ROOT } from "./root";

// Backup and restore (issue 12, decision 0021): one .tar.gz holding the database, table by table in
// PostgreSQL's COPY text format (exact for every type), read in one snapshot while the site runs;
// every media file the media table names, from local disk or S3; the session secret (second factors
// are encrypted with it), itself encrypted; and a manifest with a SHA-256 of every file. The manifest
// is signed with a backup key the archive does not hold, and a restore checks that signature before
// anything else (issue 28, decision 0036): recomputing the checksums of a changed archive is not
// enough to restore it.

export const BACKUP_FORMAT = "frontpage-backup/1";
const MIGRATIONS_FOLDER = path.join(ROOT, "drizzle");
const SIGNATURE_FILE = "manifest.sig";

interface TableEntry {
  name: string;
  columns: string[];
  rows: number;
  file: string;
  sha256: string;
  /**
   * A partitioned table's partitions (the audience's raw events, by day): the table's rows are read and
   * loaded through the table itself, and a restore first makes each partition the migrations have not
   * (they make only the days around the restore's own date).
   */
  partitions?: Partition[];
}
interface Partition {
  name: string;
  /** Its bounds as PostgreSQL writes them: `FOR VALUES FROM ('…') TO ('…')`. */
  bound: string;
}
interface MediaEntry {
  bucket: string;
  name: string;
  contentType: string;
  bytes: number;
  file: string;
  sha256: string;
}
export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  createdAt: string;
  /** The migrations the database had (their hashes, in order): a restore needs the same version of the app. */
  migrations: string[];
  tables: TableEntry[];
  media: MediaEntry[];
  /** Media rows whose file was missing from the store when the backup was made. */
  missingMedia: { bucket: string; name: string }[];
  /**
   * The site's session secret, encrypted with the backup key (AES-256-GCM, hex): whoever holds the
   * archive without the key cannot decrypt second factors, nor sign links and cookies the site accepts.
   */
  sealedSessionSecret?: { iv: string; tag: string; data: string };
  /** The session secret in the clear, as archives made before decision 0036 held it. */
  sessionSecret?: string;
}

/** What a restore answers: the manifest and the session secret it could read (null without the backup key). */
export type RestoredBackup = Omit<BackupManifest, "sessionSecret"> & { sessionSecret: string | null };

/**
 * Tables the database keeps from others by triggers (migrations 0017, 0019 and 0021: the sitemaps'
 * months and authors, the authors' listings). They are not backed up: restoring articles and bylines
 * fills them again.
 */
const DERIVED_TABLES = new Set(["article_sitemap_months", "author_sitemap", "author_listing"]);

/**
 * Better Auth's tables of credentials that let their holder in without a password (issue 28): live
 * sessions (a token and the session secret sign anyone in while it lasts) and verification rows
 * (unused password-reset tokens, kept in the clear, and second-factor sign-ins under way). A backup
 * never holds them and a restore never loads them, even from an archive that does: after a restore,
 * people sign in again, and ask for a new reset link.
 */
const CREDENTIAL_TABLES = new Set(["session", "verification"]);

/**
 * Tables a backup keeps in part. Invitations: the ones that can no longer be used (accepted,
 * withdrawn, expired at the snapshot) stay, as the team's history; an open one is a way in for
 * whoever holds its link, so it stays out, and is sent again from the restored site if still wanted.
 */
const KEPT_ROWS: Record<string, string> = {
  invitations: "accepted_at is not null or revoked_at is not null or expires_at <= now()",
};

/**
 * The app's tables, each after the tables it references (so a restore never breaks a foreign key); not
 * the derived ones. A partitioned table is one table here, with its partitions listed, never its
 * partitions one by one.
 */
async function tablesInOrder(client: pg.ClientBase): Promise<{ name: string; columns: string[]; partitions?: Partition[] }[]> {
  const tables = (
    await client.query<{ name: string; partitioned: boolean }>(
      `select c.relname as name, c.relkind = 'p' as partitioned from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by 1`,
    )
  ).rows;
  const partitioned = new Set(tables.filter((t) => t.partitioned).map((t) => t.name));
  const partitions = (
    await client.query<{ parent: string; name: string; bound: string }>(
      `select p.relname as parent, c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent join pg_namespace n on n.oid = p.relnamespace where n.nspname = 'public' and p.relkind = 'p' order by 1, 2`,
    )
  ).rows;
  const edges = (
    await client.query<{ child: string; parent: string }>(
      `select c.relname as child, p.relname as parent from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid join pg_namespace n on n.oid = c.relnamespace where k.contype = 'f' and n.nspname = 'public'`,
    )
  ).rows;
  const ordered: string[] = [];
  const visit = (table: string, path: Set<string>) => {
    if (ordered.includes(table) || path.has(table)) return;
    path.add(table);
    for (const edge of edges) if (edge.child === table && edge.parent !== table) visit(edge.parent, path);
    ordered.push(table);
  };
  for (const { name } of tables) if (!DERIVED_TABLES.has(name) && !CREDENTIAL_TABLES.has(name)) visit(name, new Set());
  const columns = await client.query<{ table: string; column: string }>(
    `select table_name as table, column_name as column from information_schema.columns where table_schema = 'public' and is_generated = 'NEVER' order by table_name, ordinal_position`,
  );
  return ordered.map((name) => ({
    name,
    columns: columns.rows.filter((c) => c.table === name).map((c) => c.column),
    ...(partitioned.has(name) ? { partitions: partitions.filter((p) => p.parent === name).map((p) => ({ name: p.name, bound: p.bound })) } : {}),
  }));
}

/** Writes a stream to a file, answering its byte count and SHA-256. */
async function writeHashed(source: NodeJS.ReadableStream | Readable, file: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash("sha256");
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      bytes += chunk.length;
      callback(null, chunk);
    },
  });
  await pipeline(source, counter, createWriteStream(file, { mode: 0o600 }));
  return { bytes, sha256: hash.digest("hex") };
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(createReadStream(file), hash);
  return hash.digest("hex");
}

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

/**
 * The manifest's signature: an HMAC-SHA256 of its exact bytes, under a key derived from the backup key
 * (so the same secret never signs two kinds of thing). The manifest lists every file's SHA-256, so it
 * vouches for the whole archive.
 */
function manifestSignature(manifest: Buffer, backupKey: string): Buffer {
  const key = createHmac("sha256", backupKey).update("frontpage backup manifest v1").digest();
  return createHmac("sha256", key).update(manifest).digest();
}

/** The backup key's key for the session secret: another derivation than the signature's. */
const sealingKey = (backupKey: string) => createHmac("sha256", backupKey).update("frontpage backup session secret v1").digest();

function sealSessionSecret(sessionSecret: string, backupKey: string): NonNullable<BackupManifest["sealedSessionSecret"]> {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", sealingKey(backupKey), iv);
  const data = Buffer.concat([cipher.update(sessionSecret, "utf8"), cipher.final()]);
  return { iv: iv.toString("hex"), tag: cipher.getAuthTag().toString("hex"), data: data.toString("hex") };
}

/** The session secret of a manifest, or null when the key given cannot open it (or none was). */
function openSessionSecret(manifest: BackupManifest, backupKey: string | null): string | null {
  if (typeof manifest.sessionSecret === "string") return manifest.sessionSecret;
  const sealed = manifest.sealedSessionSecret;
  if (!sealed || !backupKey) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", sealingKey(backupKey), Buffer.from(sealed.iv, "hex"));
    decipher.setAuthTag(Buffer.from(sealed.tag, "hex"));
    return Buffer.concat([decipher.update(Buffer.from(sealed.data, "hex")), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}

/** The options a person has when a signature cannot be checked, said the same way in every refusal. */
const KEY_OPTIONS = "set BACKUP_KEY or pass --backup-key-file <file> with the backup key of the site that made it (its DATA_DIR/secrets.json will do), or pass --trust-unsigned to restore it unchecked";

/**
 * Writes a backup of the database at `databaseUrl` and the files of `storage` to `file` (a .tar.gz),
 * while the site runs: the rows come from one snapshot (a repeatable-read transaction), the files
 * from the media rows of that snapshot. The archive appears whole or not at all.
 */
export async function createBackup(options: { file: string; databaseUrl: string; storage: Storage; sessionSecret: string; backupKey: string; log: Logger }): Promise<BackupManifest> {
  const { log } = options;
  const work = await fs.mkdtemp(path.join(os.tmpdir(), "frontpage-backup-"));
  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  try {
    await fs.mkdir(path.join(work, "database"), { mode: 0o700 });
    await fs.mkdir(path.join(work, "media"), { mode: 0o700 });
    await client.query("begin isolation level repeatable read read only");
    const migrations = (await client.query<{ hash: string }>(`select hash from drizzle.__drizzle_migrations order by created_at, id`)).rows.map((r) => r.hash);
    const tables: TableEntry[] = [];
    for (const table of await tablesInOrder(client)) {
      const file = `database/${table.name}.copy`;
      const columns = table.columns.map(quote).join(", ");
      const kept = KEPT_ROWS[table.name];
      // COPY reads a partitioned table only through a query.
      const source = kept || table.partitions ? `(select ${columns} from public.${quote(table.name)}${kept ? ` where ${kept}` : ""})` : `public.${quote(table.name)} (${columns})`;
      const stream = client.query(copyTo(`COPY ${source} TO STDOUT`));
      const { sha256 } = await writeHashed(stream, path.join(work, file));
      tables.push({ ...table, rows: stream.rowCount ?? 0, file, sha256 });
    }
    const mediaRows = (await client.query<{ bucket: string; name: string; content_type: string }>(`select bucket, name, content_type from media order by bucket, name`)).rows;
    await client.query("commit");

    const media: MediaEntry[] = [];
    const missingMedia: BackupManifest["missingMedia"] = [];
    for (const row of mediaRows) {
      if (!isBucket(row.bucket)) continue;
      const object = await options.storage.fetchObject(row.bucket, row.name);
      if (!object?.ok || !object.body) {
        missingMedia.push({ bucket: row.bucket, name: row.name });
        log.warn({ bucket: row.bucket, name: row.name }, "a media file is missing from the store: not in the backup");
        continue;
      }
      const file = `media/${row.bucket}/${row.name}`;
      await fs.mkdir(path.join(work, "media", row.bucket), { recursive: true, mode: 0o700 });
      const { bytes, sha256 } = await writeHashed(Readable.fromWeb(object.body as import("node:stream/web").ReadableStream), path.join(work, file));
      media.push({ bucket: row.bucket, name: row.name, contentType: row.content_type, bytes, file, sha256 });
    }

    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      createdAt: new Date().toISOString(),
      migrations,
      tables,
      media,
      missingMedia,
      sealedSessionSecret: sealSessionSecret(options.sessionSecret, options.backupKey),
    };
    const manifestBytes = Buffer.from(JSON.stringify(manifest, null, 2));
    await fs.writeFile(path.join(work, "manifest.json"), manifestBytes, { mode: 0o600 });
    const signature = { algorithm: "HMAC-SHA256", signature: manifestSignature(manifestBytes, options.backupKey).toString("hex") };
    await fs.writeFile(path.join(work, SIGNATURE_FILE), JSON.stringify(signature), { mode: 0o600 });
    const partial = `${options.file}.partial-${randomBytes(4).toString("hex")}`;
    try {
      await tar.create({ gzip: true, file: partial, cwd: work, portable: true }, ["manifest.json", SIGNATURE_FILE, "database", "media"]);
      await fs.chmod(partial, 0o600);
      await fs.rename(partial, options.file);
    } finally {
      await fs.rm(partial, { force: true });
    }
    log.info({ file: options.file, tables: tables.length, rows: tables.reduce((n, t) => n + t.rows, 0), media: media.length }, "backup written");
    return manifest;
  } finally {
    await client.end().catch(() => {});
    await fs.rm(work, { recursive: true, force: true });
  }
}

const refuse = (message: string) => new AppError("invalid_input", message);

/** A range partition's bounds of plain literals (dates, numbers), the only kind a restore makes. */
const PARTITION_BOUND = /^FOR VALUES FROM \('[0-9A-Za-z :+.-]*'(, '[0-9A-Za-z :+.-]*')*\) TO \('[0-9A-Za-z :+.-]*'(, '[0-9A-Za-z :+.-]*')*\)$/;

/**
 * Makes the partitions of the backup's partitioned tables that the restored database does not have
 * yet (its migrations made only the days around today), so every row has a partition to go to.
 */
async function makePartitions(client: pg.ClientBase, tables: TableEntry[]) {
  for (const table of tables) {
    for (const partition of table.partitions ?? []) {
      if (!PARTITION_BOUND.test(partition.bound)) throw refuse(`The backup's partition ${partition.name} of ${table.name} has bounds this version cannot make (${partition.bound}).`);
      await client.query(`create table if not exists public.${quote(partition.name)} partition of public.${quote(table.name)} ${partition.bound}`);
    }
  }
}

/** Refuses an archive whose manifest is not signed with `backupKey`. */
async function checkSignature(file: string, work: string, manifestBytes: Buffer, backupKey: string | null) {
  let signature: Buffer | null = null;
  try {
    const stored = JSON.parse(await fs.readFile(path.join(work, SIGNATURE_FILE), "utf8")) as { algorithm?: unknown; signature?: unknown };
    if (stored.algorithm === "HMAC-SHA256" && typeof stored.signature === "string" && /^[0-9a-f]{64}$/.test(stored.signature)) signature = Buffer.from(stored.signature, "hex");
  } catch {
    // Missing or unreadable: the archive is unsigned.
  }
  if (!signature) throw refuse(`${file} is not signed (made before backups were signed, or its signature was removed): pass --trust-unsigned to restore it unchecked.`);
  if (!backupKey) throw refuse(`There is no backup key to check ${file} with: ${KEY_OPTIONS}.`);
  if (!timingSafeEqual(signature, manifestSignature(manifestBytes, backupKey))) {
    throw refuse(`${file} does not match the backup key given (it was changed after the backup, or made by another site): ${KEY_OPTIONS}.`);
  }
}

/**
 * Unpacks and checks an archive: its signature (unless trusted unsigned), the manifest's format, every
 * file present with its SHA-256.
 */
async function openBackup(file: string, work: string, trust: { backupKey: string | null; trustUnsigned: boolean }): Promise<BackupManifest> {
  try {
    await tar.extract({ file, cwd: work, strict: true });
  } catch (error) {
    throw refuse(`${file} is not a Frontpage backup (it could not be unpacked: ${(error as Error).message}).`);
  }
  let manifest: BackupManifest;
  let manifestBytes: Buffer;
  try {
    manifestBytes = await fs.readFile(path.join(work, "manifest.json"));
    manifest = JSON.parse(manifestBytes.toString("utf8")) as BackupManifest;
  } catch {
    throw refuse(`${file} is not a Frontpage backup (it has no readable manifest.json).`);
  }
  if (!trust.trustUnsigned) await checkSignature(file, work, manifestBytes, trust.backupKey);
  if (manifest.format !== BACKUP_FORMAT) throw refuse(`${file} is not a Frontpage backup of a format this version reads (${String(manifest.format)}).`);
  for (const entry of [...manifest.tables, ...manifest.media]) {
    const target = path.resolve(work, entry.file);
    if (!target.startsWith(`${work}${path.sep}`)) throw refuse(`${file} names a file outside the backup (${entry.file}).`);
    const actual = await sha256Of(target).catch(() => null);
    if (actual !== entry.sha256) throw refuse(`${file} is damaged: ${entry.file} ${actual ? "does not match its checksum" : "is missing"}.`);
  }
  return manifest;
}

/** True when the database holds no table at all (a restore never mixes two sites). */
async function isEmptyDatabase(client: pg.ClientBase): Promise<boolean> {
  const { rows } = await client.query<{ n: string }>(`select count(*) as n from pg_tables where schemaname not in ('pg_catalog', 'information_schema')`);
  return rows[0]!.n === "0";
}

/** Back to an empty database after a failed restore. */
async function emptyDatabase(client: pg.ClientBase) {
  await client.query("drop schema if exists drizzle cascade");
  // The job queue's schema (decision 0032), made by the same migrations: left behind, it would make the
  // database look non-empty to the next attempt.
  await client.query(`drop schema if exists ${JOB_QUEUE_SCHEMA} cascade`);
  await client.query("drop schema public cascade");
  await client.query("create schema public");
}

/**
 * Restores a backup into an empty database and an empty media store: the same migrations (so the
 * same schema), every table's rows in one transaction, sequences moved past the restored ids, every
 * file put back and checked. Refuses, changing nothing, when the archive is not signed with
 * `backupKey` (unless `trustUnsigned`), is damaged or was made by another version, or the database is
 * not empty. Answers the manifest and the session secret, the caller's to keep; without the backup
 * key (trusted unsigned) the secret cannot be read, and the second factors it encrypted are turned off.
 */
export async function restoreBackup(options: {
  file: string;
  /**
   * The database to restore into, or how to make it: called only once the archive has passed its
   * checks, so a refused archive never gets as far as starting a DATA_DIR's PostgreSQL.
   */
  databaseUrl: string | (() => Promise<string>);
  storage: Storage;
  /** The key the archive's manifest must be signed with; null when none is known. */
  backupKey: string | null;
  /** Restore an unsigned archive, or one whose signature does not match, when the person restoring says so. */
  trustUnsigned?: boolean;
  log: Logger;
}): Promise<RestoredBackup> {
  const { log } = options;
  const work = await fs.mkdtemp(path.join(os.tmpdir(), "frontpage-restore-"));
  try {
    const manifest = await openBackup(options.file, work, { backupKey: options.backupKey, trustUnsigned: options.trustUnsigned ?? false });
    const known = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).map((m) => m.hash);
    if (manifest.migrations.join() !== known.join()) {
      throw refuse(
        `This backup was made by another version of Frontpage (its database has ${manifest.migrations.length} migrations, this version ${known.length}). Restore it with the version that made it.`,
      );
    }
    // An older archive (or a trusted unsigned one) may hold sessions and tokens: they are not loaded.
    const tables = manifest.tables.filter((table) => !CREDENTIAL_TABLES.has(table.name));
    const sessionSecret = openSessionSecret(manifest, options.backupKey);
    const databaseUrl = typeof options.databaseUrl === "string" ? options.databaseUrl : await options.databaseUrl();
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      if (!(await isEmptyDatabase(client))) throw refuse("The database is not empty: a backup is restored into an empty database only (a new DATA_DIR, or a new database).");
      try {
        await migrateDatabase(databaseUrl);
        await client.query("begin");
        await makePartitions(client, tables);
        // Migrations may have written rows of their own: the backup's rows replace them.
        for (const table of [...tables].reverse()) await client.query(`delete from public.${quote(table.name)}`);
        for (const table of tables) {
          const stream = client.query(copyFrom(`COPY public.${quote(table.name)} (${table.columns.map(quote).join(", ")}) FROM STDIN`));
          await pipeline(createReadStream(path.join(work, table.file)), stream);
        }
        // Serial ids go on after the restored ones.
        const sequences = await client.query<{ table: string; column: string; sequence: string }>(
          `select c.table_name as table, c.column_name as column, pg_get_serial_sequence(quote_ident(c.table_name), c.column_name) as sequence from information_schema.columns c where c.table_schema = 'public' and pg_get_serial_sequence(quote_ident(c.table_name), c.column_name) is not null`,
        );
        for (const { table, column, sequence } of sequences.rows) {
          await client.query(`select setval($1, coalesce((select max(${quote(column)}) from public.${quote(table)}), 0) + 1, false)`, [sequence]);
        }
        if (sessionSecret === null) {
          // Second factors are encrypted with a secret this restore cannot read: left on, they would
          // lock their people out. Off, each sets one up again (the Team screen's rule still asks).
          await client.query("delete from two_factor");
          await client.query(`update "user" set two_factor_enabled = false where two_factor_enabled`);
        }
        await client.query("commit");
      } catch (error) {
        await client.query("rollback").catch(() => {});
        await emptyDatabase(client).catch((err: unknown) => log.error({ err }, "could not empty the database after a failed restore"));
        throw error;
      }
    } finally {
      await client.end().catch(() => {});
    }

    for (const entry of manifest.media) {
      if (!isBucket(entry.bucket)) continue;
      await fs.mkdir(options.storage.tempDir, { recursive: true });
      const temp = path.join(options.storage.tempDir, `restore-${randomBytes(6).toString("hex")}`);
      await fs.copyFile(path.join(work, entry.file), temp);
      await options.storage.put(entry.bucket, entry.name, temp, entry.contentType);
    }
    log.info({ file: options.file, tables: tables.length, media: manifest.media.length }, "backup restored");
    return { ...manifest, sessionSecret };
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}
