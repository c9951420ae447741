import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

// E2E_PORT lets two checkouts run their browser tests side by side.
const PORT = Number(process.env.E2E_PORT ?? 3203);
process.env.E2E_PORT = String(PORT);
const BASE_URL = `http://localhost:${PORT}`;

// The e2e server's fresh data directory, chosen here (not created) so the tests know it too: they read
// its PostgreSQL and run the admin CLI against it. Set in the runner's environment before the web server
// and the workers start; both inherit it (workers load this file again and keep the value).
process.env.E2E_DATA_DIR ??= path.join(os.tmpdir(), `frontpage-e2e-${process.pid}-${Date.now().toString(36)}`);
// Where the e2e server's log is copied, so tests can read what a request made it write.
process.env.E2E_LOG_FILE ??= `${process.env.E2E_DATA_DIR}.log`;

export default defineConfig({
  testDir: "tests/e2e",
  // Two cores: one browser at a time keeps the server and the tests from timing each other out.
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: process.env.CI ? 1 : 0,
  // A minute a test: publishing now opens the story's edit page with "Your story is live" (issue 41), the
  // back office's heaviest page, where journeys used to land on the list; on a busy two-core machine a
  // journey that publishes and then edits passed 30 s. Each expectation keeps its own 10 s.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // "list" prints every test and a closing "N passed" summary.
  reporter: [["list"]],
  use: {
    baseURL: BASE_URL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"] } }],
  webServer: {
    // Builds the app, then runs the production server on a fresh data directory with demo content.
    command: "node tests/setup/e2e-server.mjs",
    url: `${BASE_URL}/healthz`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "pipe", // the server logs at LOG_LEVEL=warn: only problems show
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 20_000 },
  },
});
