import { randomBytes } from "node:crypto";
import zlib from "node:zlib";
import { describe, expect, test } from "vitest";
import { hasSlotMarker, NoncedBody, SLOT_MARKER_PREFIX, slotMarker, type SlotFill, type SlotFills } from "./nonced-body";
import { MAX_SLOT_MARKER_NAME } from "../app/domain/ads/ad-slots";
import { SlotFragment } from "../app/lib/slot-fragment.server";

const RENDERED = "RenderedNonce_01234567";
const nonceOf = () => randomBytes(16).toString("base64url");

/** A small seeded generator, so a failing round can be run again (its seed is in the test's message). */
function seeded(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed / 2 ** 32;
  };
}

/** A page as the renderer would write it: text, nonce places and slots, in some order. */
type Token = { text: string } | { nonce: true } | { slot: string };

function pageOf(tokens: readonly Token[]): string {
  return tokens.map((token) => ("text" in token ? token.text : "nonce" in token ? RENDERED : slotMarker(token.slot))).join("");
}

/** What a reader must get: the page with this answer's nonce in its places and each slot's fill (or nothing). */
function expectedOf(tokens: readonly Token[], nonce: string, fills: SlotFills): string {
  return tokens
    .map((token) => {
      if ("text" in token) return token.text;
      if ("nonce" in token) return nonce;
      const fill = fills[token.slot];
      return fill === null || fill === undefined ? "" : typeof fill === "string" ? fill : fill.bytes.toString();
    })
    .join("");
}

/** Both answers, checked byte for byte against `expected`, with the gzip trailer's CRC-32 and length read as such. */
function expectAnswers(body: NoncedBody, nonce: string, fills: SlotFills | undefined, expected: string, message = "") {
  const plain = body.answer(nonce, false, fills);
  expect(plain.body.toString(), message).toBe(expected);
  const gzip = body.answer(nonce, true, fills);
  const bytes = Buffer.from(expected);
  expect(gzip.body.readUInt32LE(gzip.body.length - 8), `${message} CRC-32`).toBe(zlib.crc32(bytes));
  expect(gzip.body.readUInt32LE(gzip.body.length - 4), `${message} ISIZE`).toBe(bytes.length);
  // gunzip checks the trailer too; and the stream must be whole (one final block, nothing after it).
  expect(zlib.gunzipSync(gzip.body).toString(), message).toBe(expected);
  plain.release();
  gzip.release();
}

const WORDS = ["<p>", "</p>", "<div class=\"story\">", "</div>", "the council", "theatre", "garage", " ", "\n", "news", "<a href=\"/article/x\">", "</a>", "é", "€", "📰"];

/** Random page text: words (repeated, so that back-references reach across nonces and slots), random letters, sometimes a NUL or a marker look-alike. */
function textOf(random: () => number, earlier: string[]): string {
  const kind = random();
  if (kind < 0.1 && earlier.length > 0) return earlier[Math.floor(random() * earlier.length)]!;
  if (kind < 0.13) return ["\u0000", "a\u0000b"][Math.floor(random() * 2)]!;
  if (kind < 0.18) {
    // Look-alikes of a marker, which must stay text: no name, a bad name, no end, spaces.
    return [SLOT_MARKER_PREFIX, `${SLOT_MARKER_PREFIX}Bad Name-->`, `${SLOT_MARKER_PREFIX}a--b-->`, `${SLOT_MARKER_PREFIX}trailing--->`, `<!-- frontpage-slot:x -->`, `${SLOT_MARKER_PREFIX}${"x".repeat(MAX_SLOT_MARKER_NAME + 1)}-->`][
      Math.floor(random() * 6)
    ]!;
  }
  const length = kind < 0.25 ? Math.floor(random() * 20_000) : Math.floor(random() * 400);
  let text = "";
  while (text.length < length) text += random() < 0.7 ? WORDS[Math.floor(random() * WORDS.length)] : String.fromCharCode(97 + Math.floor(random() * 26));
  return text;
}

const FRAGMENTS = [
  "",
  '<a href="/ads/click/abc"><img src="/media/garage.webp" alt="Smith\'s Garage: MOT while you wait" width="300" height="250"></a>',
  "<p class=\"ad-text\"><strong>Theatre Royal</strong> Hamlet, from Friday</p>",
  // Bytes that look like what the door fills: never filled again.
  `<!-- a fragment with a marker: ${slotMarker("article")} and the page's nonce ${RENDERED} -->`,
  "\u0000 NUL and 📰 non-ASCII",
];

function fillOf(random: () => number, nonce: string): SlotFill {
  const kind = random();
  if (kind < 0.1) return undefined;
  if (kind < 0.15) return null;
  if (kind < 0.2) return `<i>${nonce}</i>`; // this answer's own nonce, inside a fragment: left as it is
  if (kind < 0.25) return new SlotFragment(randomBytes(Math.floor(random() * 40_000)).toString("base64"));
  if (kind < 0.6) return FRAGMENTS[Math.floor(random() * FRAGMENTS.length)]!;
  return new SlotFragment(FRAGMENTS[Math.floor(random() * FRAGMENTS.length)]!);
}

describe("a page with slots (issue 43)", () => {
  test("random pages, nonces and fills: each answer, plain and gunzipped, is exactly the page with that answer's nonce and fragments, its CRC-32 and length right", () => {
    for (let round = 0; round < 150; round++) {
      const random = seeded(round + 1);
      const names = ["home-top", "home-middle", "home-bottom", "article", "a", "slot-9"].slice(0, 1 + Math.floor(random() * 6));
      const tokens: Token[] = [];
      const earlier: string[] = [];
      const count = Math.floor(random() * 40);
      for (let i = 0; i < count; i++) {
        const kind = random();
        if (kind < 0.5) {
          const text = textOf(random, earlier);
          earlier.push(text);
          tokens.push({ text });
        } else if (kind < 0.8) tokens.push({ nonce: true });
        else tokens.push({ slot: names[Math.floor(random() * names.length)]! });
      }
      const body = new NoncedBody(Buffer.from(pageOf(tokens)), RENDERED);
      expect(body.slots, `round ${round}`).toEqual(tokens.flatMap((token) => ("slot" in token ? [token.slot] : [])));
      expect(body.nonces, `round ${round}`).toBe(tokens.filter((token) => "nonce" in token).length);
      for (let answer = 0; answer < 3; answer++) {
        const nonce = nonceOf();
        const fills: Record<string, SlotFill> = {};
        for (const name of names) fills[name] = fillOf(random, nonce);
        expectAnswers(body, nonce, fills, expectedOf(tokens, nonce, fills), `round ${round}, answer ${answer}`);
      }
      body.dispose();
    }
  });

  test("an empty slot takes no space: a slot not named, null, undefined, an empty string and an empty fragment all leave nothing where the marker was", () => {
    const tokens: Token[] = [{ text: "<main>" }, { slot: "article" }, { text: "<p>story</p>" }, { nonce: true }, { slot: "home-top" }, { text: "</main>" }];
    const body = new NoncedBody(Buffer.from(pageOf(tokens)), RENDERED);
    const nonce = nonceOf();
    const bare = `<main><p>story</p>${nonce}</main>`;
    const inherited = new NoncedBody(Buffer.from(`<p>${slotMarker("constructor")}</p>`), RENDERED);
    expectAnswers(inherited, nonce, {}, "<p></p>", "a slot named like an Object property");
    for (const fills of [undefined, {}, { article: null }, { article: undefined, "home-top": "" }, { article: new SlotFragment(""), "home-top": new SlotFragment(Buffer.alloc(0)) }]) {
      expectAnswers(body, nonce, fills, bare, JSON.stringify(fills));
    }
  });

  test("a fragment holding a marker, the page's rendered nonce or this answer's nonce is put in as it is: nothing in it is filled or replaced", () => {
    const tokens: Token[] = [{ nonce: true }, { slot: "article" }, { nonce: true }];
    const body = new NoncedBody(Buffer.from(pageOf(tokens)), RENDERED);
    const nonce = nonceOf();
    const tricky = `${slotMarker("article")}|${RENDERED}|${nonce}|${SLOT_MARKER_PREFIX}`;
    expectAnswers(body, nonce, { article: tricky }, `${nonce}${tricky}${nonce}`);
    // And the next answer, with another nonce, leaves the fragment's copy of the earlier nonce alone.
    const next = nonceOf();
    expectAnswers(body, next, { article: tricky }, `${next}${tricky}${next}`);
  });

  test("slots at the start and the end, back to back, beside nonces, and a name used twice (both places take its fill)", () => {
    const tokens: Token[] = [{ slot: "a" }, { slot: "b" }, { nonce: true }, { slot: "a" }, { nonce: true }, { nonce: true }, { text: "x".repeat(50_000) }, { slot: "b" }];
    const body = new NoncedBody(Buffer.from(pageOf(tokens)), RENDERED);
    expect(body.slots).toEqual(["a", "b", "a", "b"]);
    const nonce = nonceOf();
    for (const fills of [{ a: "<A>", b: "<B>" }, { a: "", b: "<B>" }, {}, { a: "A".repeat(70_000) }]) expectAnswers(body, nonce, fills, expectedOf(tokens, nonce, fills));
  });

  test("a page of 200 slots, each with its own fragment, and one holding slots but not the nonce", () => {
    const tokens: Token[] = Array.from({ length: 200 }, (_, i): Token[] => [{ text: `<section>${"words ".repeat(i % 17)}` }, { nonce: true }, { slot: `slot-${i}` }, { text: "</section>" }]).flat();
    const body = new NoncedBody(Buffer.from(pageOf(tokens)), RENDERED);
    const nonce = nonceOf();
    const fills = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`slot-${i}`, i % 3 === 0 ? null : `<aside>ad ${i}</aside>`]));
    expectAnswers(body, nonce, fills, expectedOf(tokens, nonce, fills));
    const withoutNonce: Token[] = [{ text: "<p>a</p>" }, { slot: "a" }, { text: "<p>b</p>" }];
    const plain = new NoncedBody(Buffer.from(pageOf(withoutNonce)), RENDERED);
    expect(plain.nonces).toBe(0);
    expectAnswers(plain, nonce, { a: "<ad>" }, "<p>a</p><ad><p>b</p>");
  });

  test("marker look-alikes are text: only `<!--frontpage-slot:` + a lower-case hyphenated name + `-->` is a slot", () => {
    const page = `${SLOT_MARKER_PREFIX}Bad-->${SLOT_MARKER_PREFIX}a--b-->${SLOT_MARKER_PREFIX}x${SLOT_MARKER_PREFIX}ok-->${SLOT_MARKER_PREFIX}`;
    const body = new NoncedBody(Buffer.from(page), RENDERED);
    expect(body.slots).toEqual(["ok"]);
    expectAnswers(body, nonceOf(), { ok: "[ad]" }, `${SLOT_MARKER_PREFIX}Bad-->${SLOT_MARKER_PREFIX}a--b-->${SLOT_MARKER_PREFIX}x[ad]${SLOT_MARKER_PREFIX}`);
    expect(() => slotMarker("Article")).toThrow();
    expect(() => slotMarker("a-->b")).toThrow();
    expect(() => slotMarker("")).toThrow();
    expect(slotMarker("home-top")).toBe("<!--frontpage-slot:home-top-->");
    expect(hasSlotMarker(Buffer.from(`<p>${slotMarker("article")}</p>`))).toBe(true);
    expect(hasSlotMarker(Buffer.from("<p>&lt;!--frontpage-slot:article--&gt;</p>"))).toBe(false);
  });

  test("a page without slots answers as it did: no slots, fills ignored", () => {
    const page = `<script nonce="${RENDERED}">a()</script><p>${"words ".repeat(3000)}</p>`;
    const body = new NoncedBody(Buffer.from(page), RENDERED);
    expect(body.slots).toEqual([]);
    const nonce = nonceOf();
    expectAnswers(body, nonce, { article: "<ad>" }, page.replaceAll(RENDERED, nonce));
  });

  test("a nonce of another length than the rendered one is refused, not written half in", () => {
    const body = new NoncedBody(Buffer.from(`<script nonce="${RENDERED}"></script>${slotMarker("a")}`), RENDERED);
    expect(() => body.answer("short", true, { a: "x" })).toThrow(/nonce of 5 bytes/);
  });

  test("the page with slots compresses about as well as the whole page in one piece (a piece after a slot starts afresh)", () => {
    const paragraph = (i: number) => `<p class="story-paragraph">The council met on ${i} March to discuss the theatre's roof, the garage on Mill Lane and the ${i % 7} new bus routes.</p>\n`;
    const tokens: Token[] = [
      { text: Array.from({ length: 100 }, (_, i) => paragraph(i)).join("") },
      { nonce: true },
      { slot: "home-top" },
      { text: Array.from({ length: 200 }, (_, i) => paragraph(i + 100)).join("") },
      { slot: "home-middle" },
      { nonce: true },
      { text: Array.from({ length: 100 }, (_, i) => paragraph(i + 300)).join("") },
      { slot: "home-bottom" },
    ];
    const body = new NoncedBody(Buffer.from(pageOf(tokens)), RENDERED);
    const nonce = nonceOf();
    const fills = { "home-top": FRAGMENTS[1], "home-middle": FRAGMENTS[2], "home-bottom": FRAGMENTS[1] };
    const answer = body.answer(nonce, true, fills).body;
    const whole = zlib.gzipSync(expectedOf(tokens, nonce, fills), { level: 6 });
    expect(answer.length).toBeLessThan(whole.length * 1.2);
  });
});

describe("reused answers of a page with slots", () => {
  test("answers in flight with different fragments never share a copy; a copy given back is reused only for the same fragments", () => {
    const tokens: Token[] = [{ text: `<script nonce="` }, { nonce: true }, { text: `">a()</script>${"words ".repeat(2000)}` }, { slot: "article" }, { text: "<footer>" }, { nonce: true }];
    const body = new NoncedBody(Buffer.from(pageOf(tokens)), RENDERED);
    const garage = new SlotFragment(FRAGMENTS[1]!);
    const theatre = new SlotFragment(FRAGMENTS[2]!);
    for (const gzip of [false, true]) {
      const decode = (buffer: Buffer) => (gzip ? zlib.gunzipSync(buffer) : buffer).toString();
      const [n1, n2, n3, n4] = [nonceOf(), nonceOf(), nonceOf(), nonceOf()];
      const first = body.answer(n1, gzip, { article: garage });
      const second = body.answer(n2, gzip, { article: theatre });
      const third = body.answer(n3, gzip, { article: garage });
      expect(new Set([first.body, second.body, third.body]).size).toBe(3);
      first.release();
      // The theatre's answer does not get the garage's copy back…
      const fourth = body.answer(n4, gzip, { article: theatre });
      expect(fourth.body).not.toBe(first.body);
      // …the garage's next answer does, with its own nonce and checksum.
      const fifth = body.answer(n4, gzip, { article: garage });
      expect(fifth.body).toBe(first.body);
      expect(decode(fifth.body)).toBe(expectedOf(tokens, n4, { article: garage }));
      expect(decode(second.body)).toBe(expectedOf(tokens, n2, { article: theatre }));
      expect(decode(third.body)).toBe(expectedOf(tokens, n3, { article: garage }));
      expect(decode(fourth.body)).toBe(expectedOf(tokens, n4, { article: theatre }));
      for (const answer of [second, third, fourth, fifth]) answer.release();
    }
  });

  test("more ways of filling the slots than a page keeps (32): each is made again when it comes back, and stays right", () => {
    const tokens: Token[] = [{ slot: "a" }, { nonce: true }, { text: "<p>between</p>".repeat(500) }, { slot: "b" }];
    const body = new NoncedBody(Buffer.from(pageOf(tokens)), RENDERED);
    const ads = Array.from({ length: 8 }, (_, i) => new SlotFragment(`<ad>${i}</ad>`));
    for (let pass = 0; pass < 2; pass++) {
      for (let i = 0; i < 64; i++) {
        const fills = { a: ads[i % 8], b: ads[Math.floor(i / 8)] };
        const nonce = nonceOf();
        expectAnswers(body, nonce, fills, expectedOf(tokens, nonce, fills), `pass ${pass}, layout ${i}`);
      }
    }
    body.dispose();
  });
});
