import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { withoutModulePreloads } from "./module-preloads.server";

const through = (chunks: string[]) => text(Readable.from(chunks.map((chunk) => Buffer.from(chunk))).pipe(withoutModulePreloads()));

describe("withoutModulePreloads", () => {
  const page =
    '<!DOCTYPE html><html><head><link rel="stylesheet" href="/assets/app.css"/><link rel="modulepreload" href="/assets/entry.client-1.js" nonce="n"/>' +
    '<link rel="modulepreload" href="/assets/site-2.js" nonce="n"/><title>Café ☕</title></head><body><p>rel="modulepreload" stays in text</p>' +
    '<script type="module">import * as route0 from "/assets/root-3.js";</script></body></html>';
  const expected =
    '<!DOCTYPE html><html><head><link rel="stylesheet" href="/assets/app.css"/><title>Café ☕</title></head><body><p>rel="modulepreload" stays in text</p>' +
    '<script type="module">import * as route0 from "/assets/root-3.js";</script></body></html>';

  it("drops React Router's script preloads and keeps everything else, the module script included", async () => {
    expect(await through([page])).toBe(expected);
  });

  it("finds a tag cut anywhere between two chunks, and a character cut between its bytes", async () => {
    const bytes = Buffer.from(page);
    for (let at = 1; at < bytes.length; at += 7) {
      const chunks = [bytes.subarray(0, at), bytes.subarray(at)];
      const out = await text(Readable.from(chunks).pipe(withoutModulePreloads()));
      expect(out, `cut at byte ${at}`).toBe(expected);
    }
  });

  it("passes a page without preloads through unchanged", async () => {
    expect(await through(["<html><body>", "<p>one</p>", "<p>two</p></body></html>"])).toBe("<html><body><p>one</p><p>two</p></body></html>");
  });
});
