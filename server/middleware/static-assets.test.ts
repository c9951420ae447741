import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import express from "express";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { errorHandler } from "./error-handler";
import { staticAssets } from "./static-assets";
import { recordingLogger, serve } from "./test-app";

const script = "console.log('hashed asset');".repeat(20);
let dir = "";
let origin = "";
let close: () => Promise<void>;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "frontpage-static-"));
  await fs.mkdir(path.join(dir, "assets"));
  await fs.writeFile(path.join(dir, "assets", "app-abc123.js"), script);
  await fs.writeFile(path.join(dir, "assets", "app-abc123.js.br"), zlib.brotliCompressSync(script));
  await fs.writeFile(path.join(dir, "favicon.ico"), "icon");
  const app = express();
  app.use(staticAssets(dir));
  app.use((_req, res) => void res.status(404).send("the app's 404 page"));
  app.use(errorHandler(recordingLogger().log));
  ({ origin, close } = await serve(app));
});
afterAll(async () => {
  await close();
  await fs.rm(dir, { recursive: true, force: true });
});

describe("the build's browser files", () => {
  test("a hashed asset is immutable for a year and sent precompressed when the browser takes Brotli", async () => {
    const response = await fetch(`${origin}/assets/app-abc123.js`, { headers: { "Accept-Encoding": "br, gzip" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("content-encoding")).toBe("br");
    expect(await response.text()).toBe(script);
  });

  test("a missing asset is a plain 404, never the app's page", async () => {
    const response = await fetch(`${origin}/assets/app-gone.js`);
    expect([response.status, await response.text()]).toEqual([404, "Not Found"]);
  });

  test("other public files are kept an hour; anything else goes on to the app", async () => {
    expect((await fetch(`${origin}/favicon.ico`)).headers.get("cache-control")).toBe("public, max-age=3600");
    expect(await (await fetch(`${origin}/about`)).text()).toBe("the app's 404 page");
  });
});
