import { randomBytes } from "node:crypto";
import zlib from "node:zlib";
import { describe, expect, test } from "vitest";
import { NoncedBody } from "./nonced-body";

const RENDERED = "RenderedNonce_01234567";

describe("NoncedBody", () => {
  test.each([
    ["a small page", `<script nonce="${RENDERED}">a()</script><p>x</p>`],
    ["a nonce first and last", `${RENDERED}<p>between</p>${RENDERED}`],
    ["a page larger than the zero run it is checked with (200 KB), nonces throughout", Array.from({ length: 40 }, (_, i) => `<script nonce="${RENDERED}">${randomBytes(2500).toString("base64")}${i}</script>`).join("")],
  ])("%s: each answer's gzip decodes (its checksum verified) to the page with that answer's nonce", (_name, page) => {
    const body = new NoncedBody(Buffer.from(page), RENDERED);
    for (const nonce of [randomBytes(16).toString("base64url"), randomBytes(16).toString("base64url"), "A".repeat(22)]) {
      const expected = page.replaceAll(RENDERED, nonce);
      expect(body.answer(nonce, false).body.toString()).toBe(expected);
      expect(zlib.gunzipSync(body.answer(nonce, true).body).toString()).toBe(expected);
    }
  });
});

describe("reused answers", () => {
  test("a copy given back is reused with the next answer's nonce (and checksum); one still being sent never is", () => {
    const page = `<script nonce="${RENDERED}">a()</script><p>${"words ".repeat(2000)}</p><script nonce="${RENDERED}">b()</script>`;
    const body = new NoncedBody(Buffer.from(page), RENDERED);
    for (const gzip of [false, true]) {
      const decode = (buffer: Buffer) => (gzip ? zlib.gunzipSync(buffer) : buffer).toString();
      const first = body.answer("First_nonce_0123456789", gzip);
      // Not given back yet: the next answer gets a copy of its own.
      const second = body.answer("Secnd_nonce_0123456789", gzip);
      expect(second.body).not.toBe(first.body);
      expect(decode(first.body)).toBe(page.replaceAll(RENDERED, "First_nonce_0123456789"));
      first.release();
      first.release(); // twice is once
      const third = body.answer("Third_nonce_0123456789", gzip);
      expect(third.body).toBe(first.body);
      expect(decode(third.body)).toBe(page.replaceAll(RENDERED, "Third_nonce_0123456789"));
      expect(body.answer("Forth_nonce_0123456789", gzip).body).not.toBe(first.body);
      expect(decode(second.body)).toBe(page.replaceAll(RENDERED, "Secnd_nonce_0123456789"));
    }
  });
});
