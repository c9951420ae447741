import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { isAppError } from "../app/lib/app-error";
import { demoSeederDatabase, seedDemoContentApart } from "./demo-seeder";
import type { Lifecycle } from "./lifecycle";

const dir = mkdtempSync(path.join(os.tmpdir(), "demo-seeder-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An entry file that does `body` (its process has the seeder's environment and an IPC channel). */
function entry(name: string, body: string) {
  const file = path.join(dir, `${name}.mjs`);
  writeFileSync(file, body);
  return file;
}

function lifecycle() {
  const steps: (() => Promise<unknown>)[] = [];
  return { steps, lifecycle: { onShutdown: (_name: string, run: () => Promise<unknown>) => steps.push(run) } as unknown as Lifecycle };
}

describe("the demo content's own process", () => {
  test("is given the database, and done when it says the content is in and exits 0", async () => {
    const file = entry(
      "ok",
      `if (process.env.FRONTPAGE_DEMO_SEEDER_DATABASE !== "postgres://seed-here") process.exit(2);
       process.send({ seeded: true }, () => process.disconnect());`,
    );
    const { lifecycle: l } = lifecycle();
    await expect(seedDemoContentApart({ entry: file, databaseUrl: "postgres://seed-here", lifecycle: l })).resolves.toBeUndefined();
  });

  test("fails the start when it fails, or ends without saying the content is in", async () => {
    for (const [name, body] of [
      ["fails", `process.exit(1);`],
      ["silent", `process.disconnect();`],
      ["says-then-fails", `process.send({ seeded: true }, () => process.exit(3));`],
    ]) {
      const { lifecycle: l } = lifecycle();
      const error = await seedDemoContentApart({ entry: entry(name, body), databaseUrl: "postgres://x", lifecycle: l }).catch((e: unknown) => e);
      expect(isAppError(error, "start_failed"), name).toBe(true);
      expect((error as Error).message).toMatch(/^the demo content could not be seeded \(its process ended with code \d\)$/);
    }
  });

  test("is stopped by a shutdown", async () => {
    const { lifecycle: l, steps } = lifecycle();
    const seeding = seedDemoContentApart({ entry: entry("slow", `setTimeout(() => {}, 60_000);`), databaseUrl: "postgres://x", lifecycle: l });
    expect(steps).toHaveLength(1);
    await steps[0]();
    await expect(seeding).rejects.toThrow("its process ended with SIGTERM");
  });

  test("only the process started to seed sees a database to seed", () => {
    expect(demoSeederDatabase()).toBeUndefined();
  });
});
