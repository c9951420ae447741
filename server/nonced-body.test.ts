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
      expect(body.identity(nonce).toString()).toBe(expected);
      expect(zlib.gunzipSync(body.gzip(nonce)).toString()).toBe(expected);
    }
  });
});
