import { existsSync, readdirSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../app/lib/app-error";
import { initialiseCluster, startEmbeddedPostgres } from "./embedded-db";
import {
  canEnter,
  canRunBinaries,
  clusterDirOf,
  LOCATION_FILE,
  locateCluster,
  packagedBinaries,
  postgresUser,
  reachableBinaries,
  removeRelocatedCluster,
  type RunAs,
} from "./postgres-placement";

// Where the embedded PostgreSQL's binaries and cluster live when this process is root and PostgreSQL
// runs as the "postgres" user (docs/decisions/0005). Every directory here is made by the test, under
// its own folder in the system's temporary directory; "systemDir" stands in for /var/lib/frontpage.

const silent = pino({ level: "silent" });
const isRoot = process.getuid?.() === 0;

/** A logger that keeps its lines, to check what the operator is told. */
function recordingLogger() {
  const lines: { level: number; msg: string }[] = [];
  const log = pino({ level: "debug" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { log, lines };
}

async function expectStartFailure(promise: Promise<unknown>, pattern: RegExp) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe("start_failed");
  expect((error as AppError).message).toMatch(pattern);
  expect((error as AppError).message).not.toContain("\n"); // one line for the operator
}

describe("not as root", () => {
  it.skipIf(isRoot)("keeps the cluster in DATA_DIR/postgres and runs PostgreSQL as this user", async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "frontpage-placement-"));
    try {
      expect(await postgresUser(silent)).toBeNull();
      expect(await locateCluster({ dataDir, runAs: null, systemDir: "/nonexistent", log: silent })).toBe(path.join(dataDir, "postgres"));
      expect(existsSync(path.join(dataDir, LOCATION_FILE))).toBe(false);
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe("a spawn that fails", () => {
  it("is a start failure of one line, not an uncaught exception", async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "frontpage-placement-"));
    try {
      await expectStartFailure(
        initialiseCluster({ binDir: path.join(dataDir, "missing"), databaseDir: path.join(dataDir, "postgres"), runAs: null, user: "u", password: "p", log: silent }),
        /could not run .*missing\/bin\/initdb \(ENOENT\): run npm ci/,
      );
      // The password file beside the cluster is gone too.
      expect(readdirSync(dataDir).filter((name) => name.startsWith(".pgpass"))).toEqual([]);
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});

// Run as root (CI and the install check do); elsewhere PostgreSQL runs as the user itself and
// nothing here applies.
describe.skipIf(!isRoot)("as root (skipped unless run as root: only then does PostgreSQL run as another user)", () => {
  let base: string;
  let systemDir: string;
  let runAs: RunAs;
  /** A new folder of mode 700 (as mkdtemp and /root are): the "postgres" user cannot enter it. */
  const closedDir = () => fs.mkdtemp(path.join(base, "closed-"));
  /** A new folder of mode 755 in a reachable place. */
  const openDir = async () => {
    const dir = await fs.mkdtemp(path.join(base, "open-"));
    await fs.chmod(dir, 0o755);
    return dir;
  };

  beforeAll(async () => {
    base = await fs.mkdtemp(path.join(os.tmpdir(), "frontpage-placement-"));
    // The test's own folder (not a user's): open, so that what it holds can be made reachable or not.
    await fs.chmod(base, 0o755);
    systemDir = path.join(base, "system");
    runAs = (await postgresUser(silent))!;
  });
  afterAll(async () => {
    await fs.rm(base, { recursive: true, force: true });
  });

  it("asks the system as the postgres user, not the mode bits: a folder of mode 755 inside one of 700 is out of reach", async () => {
    const closed = await closedDir();
    const inner = path.join(closed, "inner");
    await fs.mkdir(inner, { mode: 0o755 });
    expect((await fs.stat(inner)).mode & 0o777).toBe(0o755);
    expect(await canEnter(runAs, inner)).toBe(false);
    await fs.chmod(closed, 0o711);
    expect(await canEnter(runAs, inner)).toBe(true);
  });

  it("keeps the cluster in DATA_DIR/postgres when the postgres user can reach DATA_DIR", async () => {
    const dataDir = await openDir();
    expect(await locateCluster({ dataDir, runAs, systemDir, log: silent })).toBe(path.join(dataDir, "postgres"));
    expect(existsSync(path.join(dataDir, LOCATION_FILE))).toBe(false);
  });

  it("from a DATA_DIR it cannot reach, places the cluster under the system folder, says so, records it and finds it again; a new DATA_DIR gets a new one", async () => {
    const dataDir = await closedDir();
    // What a failed start of the code before 0005 left behind: an empty DATA_DIR/postgres.
    await fs.mkdir(path.join(dataDir, "postgres"));
    const { log, lines } = recordingLogger();
    const located = await locateCluster({ dataDir, runAs, systemDir, log });
    expect(path.dirname(located)).toBe(path.join(systemDir, "clusters"));
    expect(path.basename(located)).toMatch(/^[0-9a-f]{16}$/);
    expect((await fs.readFile(path.join(dataDir, LOCATION_FILE), "utf8")).trim()).toBe(located);
    expect(existsSync(path.join(dataDir, "postgres"))).toBe(false);
    const info = lines.filter((line) => line.level === 30);
    expect(info).toHaveLength(1);
    expect(info[0]!.msg).toContain(`the database lives in ${located}`);
    expect(info[0]!.msg).toContain("cannot reach DATA_DIR");

    expect(await locateCluster({ dataDir, runAs, systemDir, log: silent })).toBe(located);
    expect(clusterDirOf(dataDir)).toBe(located);
    const other = await closedDir();
    expect(await locateCluster({ dataDir: other, runAs, systemDir, log: silent })).not.toBe(located);
  });

  it("refuses, in one line, a cluster already in a DATA_DIR/postgres it cannot reach, rather than start an empty one elsewhere", async () => {
    const dataDir = await closedDir();
    await fs.mkdir(path.join(dataDir, "postgres"));
    await fs.writeFile(path.join(dataDir, "postgres", "PG_VERSION"), "18\n");
    await expectStartFailure(locateCluster({ dataDir, runAs, systemDir, log: silent }), /cannot be reached by the "postgres" user.*: move DATA_DIR/);
    expect(existsSync(path.join(dataDir, LOCATION_FILE))).toBe(false);
  });

  it("says in one line when the system folder cannot be made", async () => {
    const dataDir = await closedDir();
    const aFile = path.join(base, "a-file");
    await fs.writeFile(aFile, "");
    await expectStartFailure(
      locateCluster({ dataDir, runAs, systemDir: path.join(aFile, "frontpage"), log: silent }),
      /cannot reach DATA_DIR .* failed \(ENOTDIR\): set DATA_DIR to a directory the "postgres" user can reach/,
    );
  });

  it("runs initdb from a folder the postgres user cannot reach: one line (EACCES), not an uncaught exception", async () => {
    const closed = await closedDir();
    await fs.mkdir(path.join(closed, "bin"));
    await fs.writeFile(path.join(closed, "bin", "initdb"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
    const dataDir = await openDir();
    await expectStartFailure(
      initialiseCluster({ binDir: closed, databaseDir: path.join(dataDir, "postgres"), runAs, user: "u", password: "p", log: silent }),
      /could not run .*\/bin\/initdb as the "postgres" user \(uid \d+\) \(EACCES\)/,
    );
  });

  it("copies the binaries once, atomically when two start together, and again when the copy is incomplete", async (context) => {
    const { nativeDir, version } = await packagedBinaries();
    if (await canRunBinaries(runAs, nativeDir)) context.skip("the postgres user reaches node_modules here: nothing to copy");
    const fresh = path.join(base, "copy-system");
    const [a, b] = await Promise.all([reachableBinaries({ runAs, systemDir: fresh, log: silent }), reachableBinaries({ runAs, systemDir: fresh, log: silent })]);
    const target = path.join(fresh, `postgresql-${version}`);
    expect([a, b]).toEqual([target, target]);
    expect(readdirSync(fresh)).toEqual([`postgresql-${version}`]); // no temporary copy left
    expect(await canRunBinaries(runAs, target)).toBe(true);

    const bki = path.join(target, "share", "postgresql", "postgres.bki");
    await fs.rm(bki);
    expect(await reachableBinaries({ runAs, systemDir: fresh, log: silent })).toBe(target);
    expect(existsSync(bki)).toBe(true);
    expect(readdirSync(fresh)).toEqual([`postgresql-${version}`]);
  }, 60_000);

  it("starts PostgreSQL in DATA_DIR/postgres when the postgres user can reach DATA_DIR", async () => {
    const dataDir = await openDir();
    const db = await startEmbeddedPostgres(dataDir, silent, { systemDir });
    try {
      expect(db.created).toBe(true);
      expect(clusterDirOf(dataDir)).toBe(path.join(dataDir, "postgres"));
      expect(existsSync(path.join(dataDir, "postgres", "PG_VERSION"))).toBe(true);
      expect(existsSync(path.join(dataDir, LOCATION_FILE))).toBe(false);
      expect((await fs.stat(path.join(dataDir, "postgres"))).uid).toBe(runAs.uid);
    } finally {
      await db.stop();
    }
  }, 120_000);

  it("starts, joins, stops and starts again a PostgreSQL for a DATA_DIR of mode 700, then removes its relocated cluster", async () => {
    const dataDir = await closedDir();
    const db = await startEmbeddedPostgres(dataDir, silent, { systemDir });
    try {
      expect(db.created).toBe(true);
      const cluster = clusterDirOf(dataDir);
      expect(path.dirname(cluster)).toBe(path.join(systemDir, "clusters"));
      expect(existsSync(path.join(cluster, "PG_VERSION"))).toBe(true);
      expect(existsSync(path.join(dataDir, "postgres"))).toBe(false);
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      expect((await client.query("select current_user as u")).rows).toEqual([{ u: "frontpage" }]);
      await client.end();
      // A second process on the same DATA_DIR (the admin CLI) joins the one running there.
      const joined = await startEmbeddedPostgres(dataDir, silent, { systemDir });
      expect(joined.owned).toBe(false);
      expect(joined.url).toBe(db.url);
    } finally {
      await db.stop();
    }
    expect(existsSync(path.join(clusterDirOf(dataDir), "postmaster.pid"))).toBe(false);

    const again = await startEmbeddedPostgres(dataDir, silent, { systemDir });
    try {
      expect(again.created).toBe(false);
    } finally {
      await again.stop();
    }
    const cluster = clusterDirOf(dataDir);
    await removeRelocatedCluster(dataDir);
    expect(existsSync(cluster)).toBe(false);
  }, 120_000);
});
