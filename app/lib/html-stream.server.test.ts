import { Readable, Writable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { htmlStream } from "./html-stream.server";

const through = (chunks: (string | Buffer)[], dropModulePreloads = true) =>
  text(Readable.from(chunks.map((chunk) => Buffer.from(chunk))).pipe(htmlStream({ dropModulePreloads })));

/** The chunks a stream hands on, written as React writes: `turns` of synchronous writes, a turn of the event loop apart. */
async function chunksOut(turns: string[][], dropModulePreloads: boolean): Promise<string[]> {
  const stream = htmlStream({ dropModulePreloads });
  const out: string[] = [];
  const done = new Promise<void>((resolve) =>
    stream.pipe(
      new Writable({
        write(chunk: Buffer, _encoding, callback) {
          out.push(chunk.toString());
          callback();
        },
        final(callback) {
          resolve();
          callback();
        },
      }),
    ),
  );
  for (const [i, writes] of turns.entries()) {
    for (const piece of writes) stream.write(Buffer.from(piece));
    if (i < turns.length - 1) await new Promise((resolve) => setTimeout(resolve, 5));
  }
  stream.end();
  await done;
  return out;
}

describe("htmlStream: script preloads", () => {
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

  it("keeps them where the page's rule says so", async () => {
    expect(await through([page], false)).toBe(page);
  });

  it("finds a tag cut anywhere between two chunks, and a character cut between its bytes", async () => {
    const bytes = Buffer.from(page);
    for (let at = 1; at < bytes.length; at += 7) {
      const out = await through([bytes.subarray(0, at), bytes.subarray(at)]);
      expect(out, `cut at byte ${at}`).toBe(expected);
    }
  });

  it("keeps characters whole when a chunk starts inside one and still holds preloads after it", async () => {
    const headFirst = (html: string) => html.replace("<head>", "<head><style>/* Naïve ☕ */</style>");
    const bytes = Buffer.from(headFirst(page));
    const inside = bytes.indexOf(Buffer.from("☕")) + 1;
    const out = await through([bytes.subarray(0, inside), bytes.subarray(inside)]);
    expect(out).toBe(headFirst(expected));
  });

  it("finds a tag cut between two turns of React's writing", async () => {
    const at = page.indexOf("modulepreload") + 4;
    const out = await chunksOut([[page.slice(0, at)], [page.slice(at)]], true);
    expect(out.join("")).toBe(expected);
    expect(out[0]).not.toContain("<link rel=\"modu");
  });

  it("passes a page without preloads through unchanged", async () => {
    expect(await through(["<html><body>", "<p>one</p>", "<p>two</p></body></html>"])).toBe("<html><body><p>one</p><p>two</p></body></html>");
  });
});

describe("htmlStream: one chunk per turn", () => {
  for (const dropModulePreloads of [false, true]) {
    it(`hands on what is written in one turn as one chunk, and each later turn's writes as their own (dropModulePreloads: ${dropModulePreloads})`, async () => {
      const shell = ["<!DOCTYPE html><html><head>", "<title>Home</title></head>", "<body><main>", "<p>story</p>".repeat(50)];
      const later = ["<div hidden id=\"S:0\"><p>comments</p></div>", "<script>$RC(\"B:0\",\"S:0\")</script>"];
      const out = await chunksOut([shell, later, ["</main></body></html>"]], dropModulePreloads);
      expect(out).toEqual([shell.join(""), later.join(""), "</main></body></html>"]);
    });
  }
});
