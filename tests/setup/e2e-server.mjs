// The production server for the end-to-end tests: builds the app, then runs the built server
// (build/node/index.js, as npm start does) with NODE_ENV=production on a fresh data directory (its own embedded PostgreSQL, demo content seeded).
// Playwright starts this as its webServer and stops it with SIGTERM; we pass the signal on so the
// server stops its PostgreSQL, then remove the data directory.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
const port = process.env.E2E_PORT ?? "3203";

if (process.env.E2E_SKIP_BUILD !== "1") {
  // The build's output is shown only when it fails, to keep the test report readable.
  const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (build.status !== 0) {
    process.stderr.write(build.stdout ?? "");
    process.stderr.write(build.stderr ?? "");
    console.error(`e2e-server: npm run build failed (exit ${build.status ?? build.signal})`);
    process.exit(1);
  }
}

// playwright.config.ts names the directory in E2E_DATA_DIR (the tests read it too); it must be new or empty.
const dataDir = process.env.E2E_DATA_DIR || fs.mkdtempSync(path.join(os.tmpdir(), "frontpage-e2e-"));
// Mode 700, like mkdtemp's: as root, the "postgres" user cannot enter it, so the server keeps its cluster
// under /var/lib/frontpage/clusters and records where in DATA_DIR/postgres.location (removed below),
// as for a user's private DATA_DIR.
fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
if (fs.readdirSync(dataDir).length > 0) {
  console.error(`e2e-server: ${dataDir} is not empty; the e2e server needs a fresh data directory`);
  process.exit(1);
}
// Newsletters to a real SMTP server (tests/setup/smtp-sink.ts, issue 30) when a spec asks for it with
// E2E_SMTP_SINK_DIR: every accepted message is saved there as <n>.eml (stats in stats.json), on port
// E2E_SMTP_SINK_PORT (default E2E_PORT + 1000); E2E_SMTP_SINK_ARGS adds the sink's answers, e.g.
// "--reject bounce@example.com --defer slow@example.com:1". Without it, newsletters go to the outbox.
let sink = null;
let newsletterSmtpUrl = process.env.NEWSLETTER_SMTP_URL ?? "";
if (process.env.E2E_SMTP_SINK_DIR) {
  const sinkDir = process.env.E2E_SMTP_SINK_DIR;
  const sinkPort = process.env.E2E_SMTP_SINK_PORT ?? String(Number(port) + 1000);
  const extra = (process.env.E2E_SMTP_SINK_ARGS ?? "").split(/\s+/).filter(Boolean);
  sink = spawn(process.execPath, ["--import", "tsx", "tests/setup/smtp-sink.ts", "--port", sinkPort, "--keep-dir", sinkDir, "--stats-file", path.join(sinkDir, "stats.json"), ...extra], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise((resolve, reject) => {
    sink.stdout.once("data", resolve);
    sink.once("exit", (code) => reject(new Error(`e2e-server: the SMTP sink exited (${code})`)));
  });
  newsletterSmtpUrl = `smtp://127.0.0.1:${sinkPort}`;
  process.on("exit", () => sink.kill("SIGTERM"));
}

// One process, the server itself (no npm or tsx CLI in between to relay, or escalate, our signal).
const server = spawn(process.execPath, ["--enable-source-maps", "build/node/index.js"], {
  cwd: root,
  stdio: ["ignore", "pipe", "pipe"],
  // Its own process group: Playwright signals our whole group on shutdown, and PostgreSQL (the
  // server's child) must be stopped by the server, after its connections close, not signalled directly.
  detached: true,
  env: {
    ...process.env,
    NODE_ENV: "production",
    PORT: port,
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    SEED_DEMO: "1",
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? "warn",
    ADMIN_EMAIL: "admin@example.com",
    ADMIN_PASSWORD: "admin-password-123",
    // Scheduled articles go live within 2 s of their time (tests/e2e/publishing.spec.ts waits for one).
    SCHEDULER_INTERVAL_MS: process.env.E2E_SCHEDULER_INTERVAL_MS ?? "2000",
    // Browser journeys post comments within a second of loading a page, several from one address: the
    // interval and fill-time spam rules are off here (their tests run against the database directly).
    COMMENT_INTERVAL_SECONDS: "0",
    COMMENT_MIN_FILL_SECONDS: "0",
    // The import journey serves the old site's images from a loopback server of its own (issue 29).
    IMPORT_ALLOW_PRIVATE_HOSTS: "1",
    // Embed posters (issue 41) are fetched from a loopback stand-in of YouTube and X at E2E_PORT + 2000,
    // which tests/e2e/embed-posters-and-gallery.spec.ts starts; while none runs, a fetch is refused at
    // once and the story shows its titled placeholder (nothing ever goes to the real hosts).
    EMBED_FETCH_BASE: process.env.EMBED_FETCH_BASE ?? `http://127.0.0.1:${Number(port) + 2000}`,
    DATABASE_URL: "",
    PUBLIC_URL: "",
    NEWSLETTER_SMTP_URL: newsletterSmtpUrl,
    // One process: a journey's reads see its writes at once and live counts are exact at once; the
    // cluster (decision 0027) has its own journey in tests/e2e/cluster.spec.ts.
    WEB_CONCURRENCY: "1",
  },
});

// The server's log goes to this process's output (Playwright shows it) and to E2E_LOG_FILE, for tests.
const logFile = process.env.E2E_LOG_FILE ? fs.createWriteStream(process.env.E2E_LOG_FILE, { flags: "a" }) : null;
server.stdout.on("data", (chunk) => {
  process.stdout.write(chunk);
  logFile?.write(chunk);
});
server.stderr.on("data", (chunk) => {
  process.stderr.write(chunk);
  logFile?.write(chunk);
});

let stopping = false;
function stop(signal) {
  if (stopping) return;
  stopping = true;
  if (server.exitCode === null) server.kill(signal);
  // If the server hangs, do not leave PostgreSQL's directory (or this process) behind forever.
  setTimeout(() => server.kill("SIGKILL"), 15_000).unref();
}
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));

// Whatever ends this process, do not leave the server running on its own.
process.on("exit", () => {
  if (server.exitCode === null && server.signalCode === null) server.kill("SIGTERM");
});

/** The data directory, and its cluster when it lives elsewhere (server/postgres-placement.ts's removeRelocatedCluster). */
function removeData() {
  try {
    const cluster = fs.readFileSync(path.join(dataDir, "postgres.location"), "utf8").trim();
    if (path.isAbsolute(cluster) && path.basename(path.dirname(cluster)) === "clusters") fs.rmSync(cluster, { recursive: true, force: true });
  } catch {
    // no record: the cluster is in DATA_DIR/postgres
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (process.env.E2E_LOG_FILE) fs.rmSync(process.env.E2E_LOG_FILE, { force: true });
}

server.on("exit", (code, signal) => {
  removeData();
  process.exit(stopping ? 0 : (code ?? (signal ? 1 : 0)));
});
