import http from "node:http";
import zlib from "node:zlib";
import express from "express";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { compressAnswers } from "./compress-answers";
import { serve } from "./test-app";

const PAGE = `<!DOCTYPE html><html><body>${"<p>A council story, told at length.</p>".repeat(200)}</body></html>`;

let origin = "";
let close: () => Promise<void>;
beforeAll(async () => {
  const app = express();
  app.use(compressAnswers());
  app.get("/page", (_req, res) => void res.type("html").send(PAGE));
  app.get("/stored", (_req, res) => void res.set({ "Content-Type": "text/html", "Content-Encoding": "gzip" }).end(zlib.gzipSync(PAGE)));
  app.get("/events", (_req, res) => {
    res.setHeader("Content-Type", "text/event-stream");
    res.flushHeaders();
    res.write(`data: ${"x".repeat(4000)}\n\n`);
    setTimeout(() => res.end(), 50);
  });
  ({ origin, close } = await serve(app));
});
afterAll(() => close());

/** The raw answer: its Content-Encoding and its bytes as sent (fetch would decode them). */
function get(path: string, acceptEncoding: string): Promise<{ encoding: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${origin}${path}`, { headers: { "accept-encoding": acceptEncoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ encoding: res.headers["content-encoding"], body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

describe("compressAnswers", () => {
  test("a rendered page leaves as brotli to a browser that takes it, else gzip, else plain: the same page each time", async () => {
    const br = await get("/page", "gzip, deflate, br, zstd");
    expect(br.encoding).toBe("br");
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(PAGE);
    expect(br.body.length).toBeLessThan(PAGE.length / 4);
    const gzip = await get("/page", "gzip");
    expect(gzip.encoding).toBe("gzip");
    expect(zlib.gunzipSync(gzip.body).toString()).toBe(PAGE);
    const plain = await get("/page", "identity");
    expect(plain.encoding).toBeUndefined();
    expect(plain.body.toString()).toBe(PAGE);
  });

  test("an answer that carries its own encoding is sent as it is", async () => {
    const stored = await get("/stored", "gzip, br");
    expect(stored.encoding).toBe("gzip");
    expect(zlib.gunzipSync(stored.body).toString()).toBe(PAGE);
  });

  test("server-sent events are never compressed (a compressor would hold them back)", async () => {
    const events = await get("/events", "gzip, br");
    expect(events.encoding).toBeUndefined();
    expect(events.body.toString()).toContain("data: xxx");
  });
});
