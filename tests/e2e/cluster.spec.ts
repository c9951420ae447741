import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { expect, test } from "./fixtures";
import { startOwnSite } from "./own-site";

// The production build as `npm start` runs it with WEB_CONCURRENCY=2 (decision 0027): a primary that
// owns PostgreSQL and the jobs, two workers that answer. No browser: processes, pages and signals.
const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36";

/** The primary's worker processes (its children but PostgreSQL). */
function workersOf(pid: number): number[] {
  let children: number[];
  try {
    children = execFileSync("pgrep", ["-P", String(pid)], { encoding: "utf8" }).trim().split("\n").filter(Boolean).map(Number);
  } catch {
    return [];
  }
  return children.filter((child) => {
    try {
      return !readFileSync(`/proc/${child}/cmdline`, "utf8").includes("postgres");
    } catch {
      return false;
    }
  });
}

test("a cluster of two workers serves the site, replaces a worker that dies, counts every load once, and stops whole on Ctrl-C", async () => {
  test.setTimeout(120_000);
  const site = await startOwnSite({
    dataDirPrefix: "frontpage-cluster-",
    ready: /Frontpage is ready: listening on (http:\/\/127\.0\.0\.1:\d+) .*, 2 worker processes/,
    timeout: 90_000,
    env: { WEB_CONCURRENCY: "2", SEED_DEMO: "1", LOG_LEVEL: "info" },
  });
  const { child, base, output, exited } = site;
  try {
    const workers = workersOf(child.pid!);
    expect(workers).toHaveLength(2);

    const home = await fetch(`${base}/`);
    expect(home.status).toBe(200);
    const article = /href="(\/article\/[^"?#]+)"/.exec(await home.text())![1]!;

    // Every load counted once, whichever worker answered it: 40 loads, +40 once the workers have written them.
    const views = async () => (await (await fetch(`${base}/api/views`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ path: article }) })).json()).views as number;
    const before = await views();
    const loads = await Promise.all(Array.from({ length: 40 }, () => fetch(`${base}${article}`, { headers: { "User-Agent": CHROME } }).then((r) => r.status)));
    expect(loads).toEqual(Array(40).fill(200));
    await expect.poll(views, { timeout: 5000 }).toBe(before + 40);

    // A worker that dies is replaced; the site answers meanwhile from the other (a connection the dead
    // one held is reset, as it would be for a browser, which asks again on a new one).
    process.kill(workers[0]!, "SIGKILL");
    await expect.poll(async () => (await fetch(`${base}/about`).catch(() => null))?.status, { timeout: 5000 }).toBe(200);
    await expect.poll(() => output().includes("a worker process exited; starting another"), { timeout: 5000 }).toBe(true);
    await expect.poll(() => workersOf(child.pid!).filter((pid) => pid !== workers[0]).length, { timeout: 10_000 }).toBe(2);

    // Ctrl-C: SIGINT to the whole group; workers finish, then the primary stops PostgreSQL and exits 0.
    process.kill(-child.pid!, "SIGINT");
    expect(await exited).toBe(0);
    expect(output()).toContain("embedded PostgreSQL stopped");
    // No error but the one about the killed worker.
    const errors = output().split("\n").filter((line) => /"level":(50|60)/.test(line) && !line.includes("a worker process exited"));
    expect(errors).toEqual([]);
  } finally {
    await site.stop();
  }
});
