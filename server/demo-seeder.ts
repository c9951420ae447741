import { fork } from "node:child_process";
import { createDb } from "../app/db/client.server";
import { AppError } from "../app/lib/app-error";
import type { Env } from "../app/lib/env.server";
import type { Logger } from "../app/lib/logger.server";
import { storageFromEnv } from "../app/lib/storage-from-env.server";
import { seedDemoContent } from "./demo-content";
import type { Lifecycle } from "./lifecycle";

// The demo content of a new database is made in a process of its own, started from the server's
// entry and gone when it is done: drawing and encoding the cover images grows a process by about
// 80 MB that its heap gives back only a while later, and the primary, which owns the database and the
// jobs for as long as the site runs, should not carry that (issue 13: memory per process).

/** Set in the environment of the seeding process: the database to seed. */
const SEEDER_DATABASE = "FRONTPAGE_DEMO_SEEDER_DATABASE";

/** The database this process was started to seed, when it is the demo seeder. */
export function demoSeederDatabase(): string | undefined {
  return process.env[SEEDER_DATABASE];
}

/**
 * Seeds the demo content from a process of its own: `entry` is the server's entry file, run again with
 * this process's Node options. Resolves once that process says the content is in; rejects (a failed
 * start) if it fails or ends without saying so. A shutdown meanwhile stops it.
 */
export function seedDemoContentApart({ entry, databaseUrl, lifecycle }: { entry: string; databaseUrl: string; lifecycle: Lifecycle }): Promise<void> {
  const child = fork(entry, [], { env: { ...process.env, [SEEDER_DATABASE]: databaseUrl }, execArgv: process.execArgv, stdio: "inherit" });
  lifecycle.onShutdown("demo seeding", async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
  });
  return new Promise<void>((resolve, reject) => {
    let seeded = false;
    child.on("message", (message) => (seeded ||= (message as { seeded?: boolean } | null)?.seeded === true));
    child.once("error", (error) => reject(new AppError("start_failed", `could not start the demo content's process: ${error.message}`)));
    child.once("exit", (code, signal) =>
      seeded && code === 0 ? resolve() : reject(new AppError("start_failed", `the demo content could not be seeded (its process ended with ${signal ?? `code ${code}`})`)),
    );
  });
}

/**
 * The seeding process's whole work: the demo content into its database, a word to the parent, and
 * then it ends by itself (nothing left open). A failure is a failed start: it exits 1.
 */
export async function runDemoSeeder({ env, log, lifecycle, databaseUrl }: { env: Env; log: Logger; lifecycle: Lifecycle; databaseUrl: string }) {
  const { db, pool } = createDb(databaseUrl);
  lifecycle.onShutdown("database pool", () => pool.end());
  await seedDemoContent({ db, storage: storageFromEnv(env), log });
  await pool.end();
  await new Promise<void>((resolve, reject) => process.send!({ seeded: true }, (error: Error | null) => (error ? reject(error) : resolve())));
  process.disconnect();
}
