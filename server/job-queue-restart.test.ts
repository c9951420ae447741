import { readFileSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../app/db/client.server";
import { enqueueJob, startJobQueue, type JobQueue } from "../app/lib/job-queue.server";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "./embedded-db";
import { migrateDatabase } from "./migrate";
import { clusterDirOf, removeRelocatedCluster } from "./postgres-placement";
import { postgresAnswers } from "../tests/setup/databases";

// Issue 39, item 1: a PostgreSQL killed (kill -9) while a background job runs must not take the
// process down, and the queue must go on by itself once PostgreSQL is back. The embedded PostgreSQL,
// as `npm start` runs it: its supervision starts it again after the kill.

const log = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(read: () => Promise<T> | T, ok: (value: T) => boolean, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  let value = await read();
  while (!ok(value) && Date.now() < deadline) {
    await sleep(100);
    value = await read();
  }
  return value;
}

let dataDir: string;
let database: EmbeddedDatabase;
const crashes: unknown[] = [];
const onCrash = (error: unknown) => crashes.push(error);

describe.skipIf(process.platform !== "linux")("the job queue when PostgreSQL is killed", () => {
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "frontpage-queue-kill-"));
    database = await startEmbeddedPostgres(dataDir, log);
    await migrateDatabase(database.url);
    // What the server's lifecycle turns into a shutdown with exit code 1 (server/lifecycle.ts).
    process.on("uncaughtException", onCrash);
    process.on("unhandledRejection", onCrash);
  }, 120_000);
  afterAll(async () => {
    process.off("uncaughtException", onCrash);
    process.off("unhandledRejection", onCrash);
    await database?.stop();
    await removeRelocatedCluster(dataDir);
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it("a job under way, holding a connection of the app's pool, when the postmaster is killed: no crash, the runner starts again and the job runs to its end", async () => {
    const { db, pool } = createDb(database.url);
    let queue: JobQueue | null = null;
    const runs: string[] = [];
    let killed!: () => void;
    const kill = new Promise<void>((resolve) => (killed = resolve));
    try {
      queue = await startJobQueue({
        connectionString: database.url,
        log,
        pollIntervalMs: 200,
        tasks: {
          async "hold-through-kill"() {
            runs.push("started");
            if (runs.length > 1) {
              runs.push("finished");
              return;
            }
            // As a newsletter send does: a connection of the app's pool held between queries.
            const client = await pool.connect();
            try {
              await client.query("select 1");
              killed();
              // The kill reaches this idle connection as an "error" event, not through a query.
              await until(() => postgresAnswers(database.url), (up) => !up, 10_000);
              await sleep(200);
              await client.query("select 1");
            } finally {
              client.release(true);
            }
          },
        },
      });
      await enqueueJob(db, "hold-through-kill", {}, { key: "hold-through-kill", maxAttempts: 5 });
      await kill;
      const postmaster = Number(readFileSync(path.join(clusterDirOf(dataDir), "postmaster.pid"), "utf8").split("\n")[0]);
      process.kill(postmaster, "SIGKILL");

      // The job failed while PostgreSQL was away, so its failure could not be recorded (graphile-worker's
      // worker exits then, "committing seppuku"): the runner is started again once PostgreSQL answers,
      // the job freed at once (not after graphile-worker's 4-hour lock) and run to its end.
      expect(await until(() => runs.includes("finished"), Boolean, 60_000)).toBe(true);
      expect(queue.restarts()).toBeGreaterThanOrEqual(1);
      expect(await until(async () => (await pool.query<{ n: number }>("select count(*)::int as n from graphile_worker.jobs")).rows[0]!.n, (n) => n === 0, 10_000)).toBe(0);

      // Still a working queue: a new job runs at once.
      await enqueueJob(db, "hold-through-kill", {}, { key: "after-the-kill" });
      expect(await until(() => runs.filter((r) => r === "finished").length, (n) => n === 2, 10_000)).toBe(2);
      expect(crashes).toEqual([]);
    } finally {
      await queue?.stop();
      await pool.end().catch(() => {});
    }
  }, 120_000);
});
