import zlib from "node:zlib";
import { describe, expect, test } from "vitest";
import type { PathRules } from "../app/lib/path-classes";
import { compressesAnswer, MAX_COMPRESSED_BYTES, renderedBody } from "./rendered-body";

const PAGE = Buffer.from(`<!DOCTYPE html><html><body>${"<p>A council story, told at length.</p>".repeat(200)}</body></html>`);

describe("renderedBody", () => {
  test("brotli to a browser that takes it, else gzip, else the page as it is: the same page each time", () => {
    const br = renderedBody(PAGE, "gzip, deflate, br, zstd");
    expect(br.encoding).toBe("br");
    expect(zlib.brotliDecompressSync(br.body).equals(PAGE)).toBe(true);
    expect(br.body.length).toBeLessThan(PAGE.length / 4);
    const gzip = renderedBody(PAGE, "gzip, deflate");
    expect(gzip.encoding).toBe("gzip");
    expect(zlib.gunzipSync(gzip.body).equals(PAGE)).toBe(true);
    for (const plain of [renderedBody(PAGE, "identity"), renderedBody(PAGE, undefined)]) {
      expect(plain.encoding).toBeNull();
      expect(plain.body).toBe(PAGE);
    }
  });

  test("an answer under 1 KB goes as it is (compressing it would save less than a packet)", () => {
    const small = Buffer.from("<!doctype html><p>Not found</p>");
    expect(renderedBody(small, "gzip, br")).toEqual({ body: small, encoding: null });
  });
});

describe("compressesAnswer", () => {
  const answer = (headers: Record<string, string>, personal: PathRules["personal"] = "when-signed-in") => compressesAnswer(new Headers(headers), { personal });
  test("pages, navigation data, JSON and feeds are compressed", () => {
    for (const type of ["text/html; charset=utf-8", "text/x-script", "application/json", "application/rss+xml", "application/xml", "text/plain"]) {
      expect(answer({ "Content-Type": type }), type).toBe(true);
    }
  });
  test("server-sent events, files, answers with their own encoding and large answers are sent as they are", () => {
    expect(answer({ "Content-Type": "text/event-stream; charset=utf-8" })).toBe(false);
    expect(answer({ "Content-Type": "image/jpeg" })).toBe(false);
    expect(answer({ "Content-Type": "application/octet-stream" })).toBe(false);
    expect(answer({})).toBe(false);
    expect(answer({ "Content-Type": "text/html", "Content-Encoding": "gzip" })).toBe(false);
    expect(answer({ "Content-Type": "application/json", "Content-Length": String(MAX_COMPRESSED_BYTES + 1) })).toBe(false);
    expect(answer({ "Content-Type": "application/json", "Content-Length": String(MAX_COMPRESSED_BYTES) })).toBe(true);
  });
  test("the back office's and the sign-in's answers never are (a secret beside repeated text would show in their length: BREACH)", () => {
    expect(answer({ "Content-Type": "text/html" }, "always")).toBe(false);
    expect(answer({ "Content-Type": "text/x-script" }, "always")).toBe(false);
    expect(answer({ "Content-Type": "text/html" }, "never")).toBe(true);
  });
});
