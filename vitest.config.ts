import path from "node:path";
import { defineConfig } from "vitest/config";

// Not vite.config.ts: the React Router plugin builds the app and has no place in unit tests.
export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "scripts/**/*.test.ts", "tests/integration/**/*.test.ts"],
    exclude: ["node_modules/**", "build/**", "tests/e2e/**"],
    globalSetup: ["tests/setup/global-setup.ts"],
    environment: "node",
    // Two cores: two workers keep PostgreSQL and the tests from starving each other.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { NODE_ENV: "test" },
  },
});
