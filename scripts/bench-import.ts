/**
 * `npm run bench -- --import` (issue 29): a synthetic WordPress export (BENCH_IMPORT_POSTS posts, default
 * 10,000, and BENCH_IMPORT_COMMENTS comments, default 100,000: scripts/make-wxr.ts) imported without
 * media into a new data directory by the real command, `npm run import -- wordpress <file>`, in its own
 * process: wall time and that process's peak resident memory (VmHWM), against issue 29's targets. The
 * baseline, measured in the same run, is reading the same file through the same reader alone.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { readWordPressExport } from "../app/domain/import/wordpress-reader.server";
import { writeSyntheticWxr } from "./make-wxr";

const ROOT = path.resolve(import.meta.dirname, "..");
export const IMPORT_TARGET = { seconds: 120, rssMb: 400 };

/** The peak resident memory of a process so far (Linux's high-water mark), in MB; 0 once it is gone. */
function highWaterMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return Math.round(kb / 1024);
  } catch {
    return 0;
  }
}

export async function importBench(judge: (ok: boolean) => string): Promise<boolean> {
  const posts = Number(process.env.BENCH_IMPORT_POSTS ?? 10_000);
  const comments = Number(process.env.BENCH_IMPORT_COMMENTS ?? 100_000);
  const dir = mkdtempSync(path.join(os.tmpdir(), "frontpage-bench-import-"));
  try {
    const file = path.join(dir, "export.xml");
    const made = await writeSyntheticWxr({ posts, comments, out: file });
    console.log(
      `import: a synthetic WXR of ${made.posts.toLocaleString("en-US")} posts, ${made.pages} pages, ${made.comments.toLocaleString("en-US")} comments, ${(made.bytes / 1e6).toFixed(0)} MB`,
    );

    // Baseline: the reader alone over the same bytes, in this process.
    const readStarted = performance.now();
    let records = 0;
    for await (const _record of readWordPressExport(file)) records++;
    const readSeconds = (performance.now() - readStarted) / 1000;

    // The import, by the command a newsroom runs, on a new data directory, without media (--skip-media:
    // each image stays a link to the original).
    const dataDir = path.join(dir, "data");
    const started = performance.now();
    // The same command line as package.json's "import" script (its heap capped: the import streams).
    const child = spawn(process.execPath, ["--max-old-space-size=256", "--import", "tsx", path.join(ROOT, "scripts/import.ts"), "wordpress", file, "--skip-media", "--report", path.join(dir, "report.json")], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn", SEED_DEMO: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let peak = 0;
    const timer = setInterval(() => (peak = Math.max(peak, highWaterMb(child.pid!))), 200);
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    clearInterval(timer);
    const seconds = (performance.now() - started) / 1000;
    if (code !== 0) {
      console.log(output);
      console.log(`import: the command failed (exit ${code})  ${judge(false)}`);
      return false;
    }
    const report = JSON.parse(readFileSync(path.join(dir, "report.json"), "utf8")) as { summary: Record<string, number>; startedAt: string; finishedAt: string };
    const own = (Date.parse(report.finishedAt) - Date.parse(report.startedAt)) / 1000;
    const ok = seconds <= IMPORT_TARGET.seconds && peak <= IMPORT_TARGET.rssMb;
    console.log(`import: ${report.summary.posts} posts, ${report.summary.pages} pages, ${report.summary.comments} comments, ${report.summary.redirects} redirects written`);
    console.log(
      `import: ${seconds.toFixed(1)} s for the command (the import itself ${own.toFixed(1)} s; PostgreSQL's start and migrations the rest)  (target ≤ ${IMPORT_TARGET.seconds} s)`,
    );
    console.log(`import: peak RSS of the import process ${peak} MB  (target ≤ ${IMPORT_TARGET.rssMb} MB)  ${judge(ok)}`);
    console.log(`import: baseline, reading the same file alone: ${readSeconds.toFixed(1)} s (${records.toLocaleString("en-US")} records); the import takes ${(own / readSeconds).toFixed(1)}× that`);
    return ok;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
