/**
 * `npx tsx scripts/bench-slotted-body.ts` (issue 43, decision 0060): answers a second of one stored
 * ~60 KB article page (30 nonce places) through NoncedBody, without slots against the same page with
 * 3 slots filled by the door, plain and gzip, in one run (rounds interleaved, so that the machine's
 * other work falls on both alike). The ratio is what counts: the ads bench (`npm run bench -- --ads`)
 * wants a cached article with three campaigns at ≥ 0.8× the same page without. Body only: no HTTP.
 * About 10 s: 12 rounds of 120 ms per case, the median kept (a shared machine's noise falls on single
 * rounds). BENCH_SLOTS_MS sets the time of one measure.
 */
import { performance } from "node:perf_hooks";
import zlib from "node:zlib";
import { NoncedBody, slotMarker, type SlotFills } from "../server/nonced-body";
import { SlotFragment } from "../app/lib/slot-fragment.server";

const MEASURE_MS = Number(process.env.BENCH_SLOTS_MS ?? 120);
const ROUNDS = 12;
const RENDERED = "RenderedNonce_01234567";

/** A seeded generator: the same page every run. */
function seeded(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed / 2 ** 32;
  };
}

const WORDS =
  "the council said on tuesday that a new bus route would serve the north of the town from next month while residents of mill lane asked for a crossing near the school and the theatre announced its winter season with a local cast".split(
    " ",
  );

/** An article page like the renderer's: head with nonce'd preloads, a story of paragraphs, "More from" cards, nonce'd scripts; slots where the ads go. */
function articlePage(withSlots: boolean): string {
  const random = seeded(60);
  const sentence = () => {
    const words = Array.from({ length: 8 + Math.floor(random() * 18) }, () => WORDS[Math.floor(random() * WORDS.length)]);
    return `${words.join(" ")}.`;
  };
  const paragraph = () => `<p>${Array.from({ length: 3 + Math.floor(random() * 4) }, sentence).join(" ")}</p>\n`;
  const slot = (name: string) => (withSlots ? `<aside class="ad-slot">${slotMarker(name)}</aside>` : "");
  const head = Array.from({ length: 12 }, (_, i) => `<link rel="modulepreload" href="/assets/chunk-${i}-a1b2c3d4.js" nonce="${RENDERED}"/>`).join("");
  const cards = Array.from(
    { length: 6 },
    (_, i) => `<li class="card"><a href="/article/story-${i}"><img src="/media/story-${i}.webp" srcset="/media/story-${i}-480.webp 480w, /media/story-${i}-960.webp 960w" alt="${sentence()}"/><h3>${sentence()}</h3></a></li>`,
  ).join("");
  const scripts = Array.from({ length: 17 }, (_, i) => `<script nonce="${RENDERED}">window.__rr${i}=${JSON.stringify(sentence())};</script>`).join("");
  let story = "";
  while (story.length < 53_000) story += paragraph();
  const middle = story.indexOf("</p>", story.length / 2) + 5;
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"/><title>${sentence()}</title>${head}<link rel="stylesheet" href="/assets/root-9f8e7d.css"/></head><body><header class="site-header"><nav>${WORDS.slice(0, 12)
    .map((word) => `<a href="/category/${word}">${word}</a>`)
    .join("")}</nav></header>${slot("article-top")}<main><article><h1>${sentence()}</h1>${story.slice(0, middle)}${slot("article")}${story.slice(middle)}</article><section><h2>More from News</h2><ul>${cards}</ul></section></main>${slot("article-bottom")}<footer>${sentence()}</footer>${scripts}</body></html>`;
}

const creatives = [
  '<a href="/ads/click/eyJjIjoxLCJrIjoiZ2FyYWdlIn0.c2ln" rel="sponsored noopener" class="ad"><img src="/media/2026/03/garage-300x250.webp" width="300" height="250" alt="Smith\'s Garage, Mill Lane: MOT while you wait, open Saturdays"/></a>',
  '<a href="/ads/click/eyJjIjoyLCJrIjoidGhlYXRyZSJ9.c2ln" rel="sponsored noopener" class="ad ad-text"><strong>Theatre Royal</strong><span>Hamlet, from Friday 14 March. Tickets from £12.</span></a>',
  '<a href="/ads/click/eyJjIjozLCJrIjoic3Vic2NyaWJlIn0.c2ln" class="ad ad-house"><strong>Subscribe to the Gazette</strong><span>Local news, every morning, from £4 a month.</span></a>',
].map((html) => new SlotFragment(html));

/** Answers a second for `answer` (each given back at once, as a sent response's is). */
function rate(answer: (nonce: string) => { release: () => void }): number {
  const nonces = Array.from({ length: 256 }, (_, i) => `Nonce_${i.toString().padStart(16, "0")}`);
  const end = performance.now() + MEASURE_MS;
  let count = 0;
  while (performance.now() < end) {
    for (let i = 0; i < 100; i++) answer(nonces[(count + i) & 255]!).release();
    count += 100;
  }
  return count / (MEASURE_MS / 1000);
}

const bare = new NoncedBody(Buffer.from(articlePage(false)), RENDERED);
const slotted = new NoncedBody(Buffer.from(articlePage(true)), RENDERED);
const threeAds: SlotFills = { "article-top": creatives[0], article: creatives[1], "article-bottom": creatives[2] };
/** What the door does for three campaigns over three slots: a choice per answer, so 27 ways of filling the page in turn. */
let turn = 0;
const rotating = (): SlotFills => {
  turn++;
  return { "article-top": creatives[turn % 3], article: creatives[Math.floor(turn / 3) % 3], "article-bottom": creatives[Math.floor(turn / 9) % 3] };
};

const cases: { name: string; run: (nonce: string) => { release: () => void } }[] = [
  { name: "0 slots            identity", run: (nonce) => bare.answer(nonce, false) },
  { name: "3 slots, filled    identity", run: (nonce) => slotted.answer(nonce, false, threeAds) },
  { name: "3 slots, 27 fills  identity", run: (nonce) => slotted.answer(nonce, false, rotating()) },
  { name: "0 slots            gzip    ", run: (nonce) => bare.answer(nonce, true) },
  { name: "3 slots, filled    gzip    ", run: (nonce) => slotted.answer(nonce, true, threeAds) },
  { name: "3 slots, 27 fills  gzip    ", run: (nonce) => slotted.answer(nonce, true, rotating()) },
];

const plainPage = articlePage(false);
const filledGzip = slotted.answer("Nonce_0000000000000000", true, threeAds).body;
const filledPlain = zlib.gunzipSync(filledGzip).toString();
console.log(`Page: ${Buffer.byteLength(plainPage)} B, ${bare.nonces} nonce places; with 3 slots filled: ${Buffer.byteLength(filledPlain)} B.`);
console.log(
  `gzip answer: 0 slots ${bare.answer("Nonce_0000000000000000", true).body.length} B, 3 slots filled ${filledGzip.length} B; gzip -6 of the filled page in one piece ${zlib.gzipSync(filledPlain, { level: 6 }).length} B.`,
);

for (const { run } of cases) rate(run); // warm up
const measured = cases.map((): number[] => []);
for (let round = 0; round < ROUNDS; round++) cases.forEach((c, i) => measured[i]!.push(rate(c.run)));
const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const rates = measured.map(median);
console.log(`\nAnswers a second (median of ${ROUNDS} interleaved rounds of ${MEASURE_MS} ms):`);
cases.forEach((c, i) => {
  const base = i < 3 ? rates[0]! : rates[3]!;
  console.log(`  ${c.name}  ${Math.round(rates[i]!).toLocaleString("en").padStart(9)}/s   ${(rates[i]! / base).toFixed(2)}×`);
});
