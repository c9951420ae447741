import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

// Issue 27: a newcomer reads the README's quick start and nothing further. Right beside
// `npm ci && npm start` it names how to get an administrator account, another port and an empty
// site, and the two set-up commands stay exactly as they are.

const readme = fs.readFileSync(path.join(import.meta.dirname, "../../README.md"), "utf8");
const quickStart = /^## Quick start\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? "";
const lines = quickStart.split("\n");
const startLine = lines.indexOf("npm ci && npm start");

describe("the README's quick start", () => {
  test("keeps the two set-up commands exactly", () => {
    expect(lines).toContain("npm ci && npm start");
    expect(lines).toContain("npm ci && npm test");
  });

  test.each([
    ["an administrator account", /^ADMIN_EMAIL=\S+ ADMIN_PASSWORD=\S+ npm start$/],
    ["another port", /^PORT=\d+ npm start$/],
    ["a start without demo content", /^SEED_DEMO=0 npm start$/],
  ])("shows %s within the 15 lines after `npm ci && npm start`", (_what, command) => {
    expect(startLine).toBeGreaterThan(-1);
    const near = lines.slice(startLine + 1, startLine + 16);
    expect(near.some((line) => command.test(line))).toBe(true);
  });

  test("starts within the first 40 lines of the README", () => {
    expect(readme.split("\n").findIndex((line) => line === "npm ci && npm start")).toBeLessThan(40);
  });
});
