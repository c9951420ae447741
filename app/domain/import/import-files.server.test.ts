import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createS3Storage } from "~/lib/storage-s3.server";
import type { Storage } from "~/lib/storage.server";
import { setUpArticleFixture } from "../../../tests/setup/article-fixture";
import { startImport, uploadExport } from "./import-admin.server";
import { getImport } from "./import-engine.server";
import { importsDirOf } from "./import-files.server";
import { IMPORT_TASK, importTasks } from "./import-job.server";

// Several machines (issue 32): an export uploaded through one machine is imported by whichever
// machine's job runner takes the job. With a shared store (S3) the upload is kept there, each run
// fetches its own copy, and the object goes once imported.

const fx = setUpArticleFixture("import-files");
const log = pino({ level: "silent" });
const ACTOR = { id: null, name: "Import test" };
const EXPORT = path.resolve("tests/fixtures/import/ghost-5.json");

let server: S3rver;
let work: string;
let storage: Storage;
const machines: Record<"a" | "b" | "c", string> = { a: "", b: "", c: "" };

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), "frontpage-import-files-"));
  server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: path.join(work, "s3"), configureBuckets: [{ name: "frontpage" }] });
  const { port } = (await server.run()) as { port: number };
  storage = createS3Storage({ bucket: "frontpage", region: "us-east-1", endpoint: `http://127.0.0.1:${port}`, accessKeyId: "S3RVER", secretAccessKey: "S3RVER" });
  for (const name of ["a", "b", "c"] as const) machines[name] = await fs.mkdtemp(path.join(work, `machine-${name}-`));
});

afterAll(async () => {
  await server?.close();
  await fs.rm(work, { recursive: true, force: true });
});

/** The admin screen's upload: the export as the multipart field "file". */
function uploadRequest(bytes: Buffer) {
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(bytes)], { type: "application/json" }), "ghost-export.json");
  return new Request("http://localhost/admin/import/upload", { method: "POST", body: form });
}

async function runOn(machine: string, importId: string) {
  const { tasks } = importTasks({ db: fx.t.db, storage, log, allowPrivateHosts: true, publicUrl: "http://localhost:3000", dataDir: machine });
  await (tasks[IMPORT_TASK] as (payload: unknown, helpers: unknown) => Promise<void>)({ importId }, {});
  return (await getImport(fx.t.db, importId))!;
}

const filesUnder = async (dir: string) => (await fs.readdir(dir, { recursive: true }).catch(() => [])).filter((name) => !name.endsWith("imports"));

describe("an export uploaded through one machine, with the media store on S3", () => {
  it("is kept in the store, dry-run and imported by two other machines, and removed from the store once imported", async () => {
    const dryRunId = await uploadExport(fx.t.db, storage, machines.a, uploadRequest(await fs.readFile(EXPORT)), ACTOR);
    const uploaded = (await getImport(fx.t.db, dryRunId))!;
    expect(uploaded.filePath).toMatch(/^storage:imports\/[0-9a-f-]{36}$/);
    const name = uploaded.filePath.slice("storage:imports/".length);
    expect(await storage.exists("imports", name)).toBe(true);
    // Nothing stays on the receiving machine's disk.
    expect(await filesUnder(importsDirOf(machines.a))).toEqual([]);

    const dryRun = await runOn(machines.b, dryRunId);
    expect(dryRun.status).toBe("done");
    expect(dryRun.total).toBeGreaterThan(0);
    // The run's copy is gone from machine b; the store keeps the export for the import itself.
    expect(await filesUnder(importsDirOf(machines.b))).toEqual([]);
    expect(await storage.exists("imports", name)).toBe(true);

    const importId = await startImport(fx.t.db, dryRunId, ACTOR);
    const imported = await runOn(machines.c, importId);
    expect(imported.status).toBe("done");
    expect(imported.done).toBe(dryRun.total);
    expect(await storage.exists("imports", name)).toBe(false);
    expect(await filesUnder(importsDirOf(machines.c))).toEqual([]);
  }, 60_000);

  it("is never one of the media buckets the site serves", async () => {
    const { isBucket } = await import("~/lib/storage.server");
    expect(isBucket("imports")).toBe(false);
  });
});
