import { sql } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, test } from "vitest";
import { LONG_SHARED_SECONDS, SHORT_SHARED_CACHE } from "../../app/lib/cache-control";
import { ChangeFeed } from "../../app/lib/change-feed.server";
import { cdnSettingsOf, loadEnv, type CdnSettings } from "../../app/lib/env.server";
import { startJobQueue } from "../../app/lib/job-queue.server";
import { createTestDatabase } from "../../tests/setup/test-database";
import { createPurgeAdapter } from "./adapters";
import { CHECK_TASK, cdnCheckTasks, followCdnChecks, purgeWhenCdnAnswers } from "./check";
import { createCdnStatus, sharedCachePolicy } from "./index";
import { cdnPurgeTasks } from "./purger";
import { recordingLog } from "./recording-log";
import { startRecordingServer, type RecordingServer } from "./recording-server";

// Issue 39: a purge target that does not answer at start (Varnish started after Frontpage) is asked
// again through the job queue, and purging turns on once it answers, in every process; only
// credentials refused by Fastly or Cloudflare turn purging off. A real PostgreSQL, the real job queue
// and change feed, a local HTTP server standing for Varnish (or a CDN's API).

const t = await createTestDatabase();
const PUBLIC_URL = "https://news.example.com";

const checkJobs = async () =>
  (
    await t.db.execute<{ run_at: Date }>(
      sql`select j.run_at from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = ${CHECK_TASK} and j.key is not null`,
    )
  ).rows;

/** A free port nothing listens on (yet). */
async function freePort(): Promise<number> {
  const probe = await startRecordingServer();
  await probe.close();
  return Number(new URL(probe.url).port);
}

const stops: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});
beforeEach(async () => {
  await t.db.execute(sql`delete from graphile_worker._private_jobs`);
});

describe("a purge target that does not answer at start", () => {
  test("is asked again through the job queue; once it answers, purging turns on in every process (a day in shared caches) and a change is purged", async () => {
    const port = await freePort();
    const env = loadEnv({ PUBLIC_URL, CDN: "varnish", VARNISH_URL: `http://127.0.0.1:${port}` });
    const { log, lines } = recordingLog();
    const lifecycle = { shuttingDown: false, onShutdown: (_name: string, run: () => Promise<unknown>) => void stops.push(run) };

    // The site-services process (the job queue, the purger) and a worker answering requests: each its own status.
    const primary = createCdnStatus(env);
    const worker = createCdnStatus(env);
    const workerFeed = new ChangeFeed(t.url, log);
    await workerFeed.start();
    stops.push(() => workerFeed.stop());
    const changesHeard: unknown[] = [];
    workerFeed.on("change", (event) => changesHeard.push(event));
    await purgeWhenCdnAnswers({ status: primary, databaseUrl: t.url, db: t.db, log, lifecycle });
    followCdnChecks({ status: worker, db: t.db, changes: workerFeed, log });
    const found = cdnSettingsOf(env) as { settings: CdnSettings };
    const queue = await startJobQueue({
      connectionString: t.url,
      log,
      tasks: { ...cdnPurgeTasks({ adapter: createPurgeAdapter(found.settings, PUBLIC_URL), db: t.db, log }), ...cdnCheckTasks({ status: primary, db: t.db }) },
      pollIntervalMs: 200,
    });
    stops.push(() => queue.stop());

    expect(await primary.ready).toMatchObject({ on: false, waiting: true, reason: expect.stringMatching(/^varnish purge refused: could not reach 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/) });
    expect(await worker.ready).toMatchObject({ on: false, waiting: true });
    // Meanwhile shared caches keep the short lifetime; the waiting is said once, not as "off".
    expect(sharedCachePolicy(worker).current()).toEqual(SHORT_SHARED_CACHE);
    expect(lines.filter((line) => String(line.msg).startsWith("CDN purge waiting: varnish purge refused: could not reach"))).toHaveLength(1);
    expect(lines.some((line) => String(line.msg).startsWith("CDN purge off"))).toBe(false);
    // Asked again, by the job queue, with a growing wait: still not answering.
    await expect.poll(() => primary.failures(), { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
    expect(primary.current().on).toBe(false);
    // The next check is queued by the status's watcher as the failed one ends: one waiting job, soon.
    await expect.poll(checkJobs, { timeout: 5_000 }).toHaveLength(1);

    // Varnish comes up.
    const varnish: RecordingServer = await startRecordingServer(port);
    stops.push(() => varnish.close());
    await expect.poll(() => primary.current().on, { timeout: 15_000 }).toBe(true);
    expect(varnish.requests[0]).toMatchObject({ method: "PURGE", headers: { "xkey-purge": "frontpage-purge-check" } });
    // The worker heard it (a signal on the change channel, not a change: no page is dropped) and asked for itself.
    await expect.poll(() => worker.current().on, { timeout: 5_000 }).toBe(true);
    expect(changesHeard).toEqual([]);
    expect(sharedCachePolicy(worker).current()["Cache-Control"]).toBe(`public, max-age=0, s-maxage=${LONG_SHARED_SECONDS}`);
    expect(lines.some((line) => line.msg === "CDN purge on: varnish")).toBe(true);
    await expect.poll(checkJobs).toHaveLength(0);

    // A story published now is purged.
    varnish.requests.length = 0;
    await t.db.execute(sql`insert into articles (title, slug, content, status, published_at) values ('Bridge', 'bridge-reopens', 'Body', 'published', now() - interval '1 minute')`);
    await expect.poll(() => varnish.requests.find((r) => r.method === "PURGE" && String(r.headers["xkey-purge"]).split(" ").includes("article:bridge-reopens")), { timeout: 10_000 }).toBeTruthy();
  });
});

describe("what turns purging off", () => {
  test("credentials Fastly or Cloudflare refuse (401, 403): off for good, nothing asked again; a 5xx or a Varnish refusing: asked again", async () => {
    const api = await startRecordingServer();
    stops.push(() => api.close());
    const { log } = recordingLog();
    const fastly = { PUBLIC_URL, CDN: "fastly", FASTLY_API_TOKEN: "token", FASTLY_SERVICE_ID: "svc1", FASTLY_API_URL: api.url };
    const cloudflare = { PUBLIC_URL, CDN: "cloudflare", CLOUDFLARE_API_TOKEN: "token", CLOUDFLARE_ZONE_ID: "zone1", CLOUDFLARE_API_URL: api.url };
    const followed = async (env: Record<string, string>) => {
      const status = createCdnStatus(loadEnv(env));
      followCdnChecks({ status, db: t.db, changes: { on: () => {} }, log });
      return status.ready;
    };

    api.answer({ status: 401 });
    expect(await followed(fastly)).toEqual({ on: false, reason: "fastly refused the credentials (HTTP 401)" });
    api.answer({ status: 403, body: JSON.stringify({ success: false }) });
    expect(await followed(cloudflare)).toEqual({ on: false, reason: "cloudflare refused the credentials (HTTP 403)" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await checkJobs()).toHaveLength(0);

    // A 5xx from the API, a Varnish answering 403 (its ACL, until the VCL is reloaded): asked again.
    api.answer({ status: 503 });
    expect(await followed(fastly)).toMatchObject({ on: false, waiting: true, reason: "fastly purge refused: HTTP 503" });
    api.answer({ status: 403 });
    expect(await followed({ PUBLIC_URL, CDN: "varnish", VARNISH_URL: api.url })).toMatchObject({ on: false, waiting: true, reason: "varnish purge refused: HTTP 403" });
    await expect.poll(checkJobs).toHaveLength(1);
  });
});
