import zlib from "node:zlib";
import { crc32CombineWith, crc32Shift, multiplyModP } from "../app/lib/crc32-combine.server";
import { EMPTY_FRAGMENT, SlotFragment, slotFragment } from "../app/lib/slot-fragment.server";
import { MAX_SLOT_MARKER_NAME, SLOT_MARKER_PREFIX, SLOT_MARKER_SUFFIX } from "../app/domain/ads/ad-slots";

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff]);

/** Bytes of answers kept for reuse by all pages together (see AnswerPool). */
const POOL_BUDGET_BYTES = 24 * 1024 * 1024;
/** Copies of one answer kept for reuse at most (about as many as are sent at once under load). */
const POOL_COPIES = 8;
let pooledBytes = 0;

/** An answer ready to send, and what to call once it has been handed to the operating system. */
export interface PooledAnswer {
  body: Buffer;
  /** Gives the buffer back for another answer: only after it was sent (the response's 'finish'), never twice. */
  release: () => void;
}

/**
 * Copies of one answer (a page with its nonce places, and its slots filled one way), reused (issue
 * 13): a new 60 KB buffer per answer was allocated and collected at 10,000 answers a second, where
 * the bytes only differ in the nonce places (and, gzipped, the checksum). A copy taken gets the nonce
 * written into its places; the sender gives it back once the response is finished, or drops it.
 */
class AnswerPool {
  private free: Buffer[] = [];

  constructor(
    /** A new copy, every byte written but the nonce places (and, gzipped, the checksum). */
    private readonly assemble: () => Buffer,
    private readonly places: readonly number[],
  ) {}

  take(nonce: Buffer): PooledAnswer {
    const reused = this.free.pop();
    if (reused) pooledBytes -= reused.length;
    const body = reused ?? this.assemble();
    for (const at of this.places) body.set(nonce, at);
    let released = false;
    return {
      body,
      release: () => {
        if (released) return;
        released = true;
        if (this.free.length < POOL_COPIES && pooledBytes + body.length <= POOL_BUDGET_BYTES) {
          this.free.push(body);
          pooledBytes += body.length;
        }
      },
    };
  }

  /** Lets the copies go (the page left the cache, or this way of filling its slots left its table). */
  dispose() {
    for (const copy of this.free) pooledBytes -= copy.length;
    this.free = [];
  }
}

/**
 * Where the renderer puts an ad slot (issue 43): `<!--frontpage-slot:NAME-->`, which the door
 * replaces, in each answer, by the fragment chosen for that slot (or by nothing). Nothing a reader,
 * an author or an importer writes can produce it: React escapes `<` in every text and attribute, the
 * story document's renderer writes no comments (import drops them), and the scripts' data escape `<`
 * as \u003c. A prefix not followed by a name and `-->` is left as it is.
 */
export { SLOT_MARKER_PREFIX };
/** A slot's name: lower-case letters and digits in words joined by single hyphens (the seed's fixed slot names). */
const SLOT_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_SLOT_NAME = MAX_SLOT_MARKER_NAME;

/** The marker of slot `name`, as the renderer writes it into the page. */
export function slotMarker(name: string): string {
  if (name.length > MAX_SLOT_NAME || !SLOT_NAME.test(name)) throw new Error(`Not a slot name: ${JSON.stringify(name)}`);
  return `${SLOT_MARKER_PREFIX}${name}${SLOT_MARKER_SUFFIX}`;
}

/** Whether a rendered page carries a slot marker (a page that does is stored as a NoncedBody, nonce or not). */
export function hasSlotMarker(body: Buffer): boolean {
  return body.includes(SLOT_MARKER_PREFIX);
}

/** What fills a slot in one answer: a fragment, its HTML, or nothing (null, undefined, "": no bytes at all). */
export type SlotFill = SlotFragment | string | null | undefined;
/** Each slot's fill by the slot's name; a slot not named is left empty. */
export type SlotFills = Readonly<Record<string, SlotFill>>;

const PREFIX = Buffer.from(SLOT_MARKER_PREFIX);
const SUFFIX = Buffer.from(SLOT_MARKER_SUFFIX);

/** The page cut at its slot markers: the pieces between them, and the markers' names. */
function splitAtSlots(body: Buffer): { pieces: Buffer[]; names: string[] } {
  const pieces: Buffer[] = [];
  const names: string[] = [];
  let from = 0;
  for (let search = 0; ; ) {
    const at = body.indexOf(PREFIX, search);
    if (at === -1) break;
    const nameAt = at + PREFIX.length;
    const nameLength = body.subarray(nameAt, nameAt + MAX_SLOT_NAME + SUFFIX.length).indexOf(SUFFIX);
    const name = nameLength === -1 ? "" : body.toString("latin1", nameAt, nameAt + nameLength);
    if (!SLOT_NAME.test(name)) {
      search = nameAt;
      continue;
    }
    pieces.push(body.subarray(from, at));
    names.push(name);
    from = search = nameAt + nameLength + SUFFIX.length;
  }
  pieces.push(body.subarray(from));
  return { pieces, names };
}

const WINDOW = 32 * 1024;
/** Stands for a nonce in what each piece is compressed against; a byte pages never contain (checked). */
const BLANK = 0;

/**
 * A stretch of the page between two slots (or the page's start or end): its parts between nonce
 * places, each part's deflated form, and what its CRC needs.
 */
interface Region {
  parts: Buffer[];
  deflated: Buffer[];
  length: number;
  /** The region's CRC-32 with every nonce place holding zero bytes. */
  zeroedCrc: number;
  /** Σ x^(8·bytes after each nonce place, to the region's end) mod P: times a nonce's own CRC, what the nonces add to zeroedCrc. */
  nonceEffect: number;
  /** x^(8·length) mod P. */
  shift: number;
}

/**
 * The page answered with one choice of fragments in its slots: where the nonce goes in each encoding,
 * what the CRC is, and its reused copies.
 */
interface Layout {
  /** The fragments in the slots, in the order of the slots. */
  fragments: readonly SlotFragment[];
  /** When it last answered (NoncedBody's clock): the least recently used goes first. */
  used: number;
  length: number;
  zeroedCrc: number;
  nonceEffect: number;
  identity: AnswerPool;
  gzip: AnswerPool;
}

/** Ways of filling a page's slots kept at once (least recently used go first, their copies with them). */
const MAX_LAYOUTS = 32;

/**
 * A stored page whose scripts carry a nonce, sent to each reader with a nonce of their own (decision
 * 0020) without compressing it again: the body is kept cut at the nonce, and its gzip form as one
 * compressed piece per cut, each ended by a flush (byte-aligned), so a new nonce goes between them as
 * an uncompressed (stored) deflate block. Each piece is compressed against the 32 KB before it (as
 * deflate's window holds it when decompressing) with the nonces blanked to a byte the piece does not
 * contain, so a back-reference can never copy a nonce: it compresses about as well as the whole page
 * at once. Only the checksum is computed per answer. Brotli has no such seam, so these pages are sent
 * gzip or plain.
 *
 * A page may also carry slots (issue 43, decision 0060): `slotMarker(name)` where an ad goes. The page
 * is cut there too, and each answer puts the fragment chosen for each slot (SlotFragment: deflated
 * once, on its own) between the pieces, so one stored page shows each reader their own ad with no
 * render and no compression per answer. A piece after a slot is compressed against nothing before
 * the slot (what is there changes). The checksum is joined from the regions' and fragments' CRCs
 * (crc32Combine), once per way of filling the slots; each way keeps its own reused copies.
 */
export class NoncedBody {
  private readonly regions: Region[];
  /** The slots' names, in the order they appear in the page. */
  readonly slots: readonly string[];
  private readonly nonceLength: number;
  private readonly storedHeader: Buffer;
  /** The stored page's length (its markers included). */
  readonly length: number;
  /** What the page keeps in memory (its bytes and its compressed pieces). */
  readonly bytes: number;
  /** The page without slots: its one layout. */
  private readonly only: Layout | null;
  /**
   * Pages with slots: their layouts by a hash of the fragments' ids (a number: a string key built per
   * answer cost more than the rest of the answer), each checked against its fragments.
   */
  private readonly layouts = new Map<number, Layout>();
  private clock = 0;
  /** The fragments chosen for the answer being made (layoutFor), reused from answer to answer. */
  private readonly chosen: SlotFragment[];
  private readonly placeCount: number;

  constructor(body: Buffer, nonce: string) {
    const mark = Buffer.from(nonce);
    const n = mark.length;
    this.nonceLength = n;
    const { pieces, names } = splitAtSlots(body);
    this.slots = names;
    this.chosen = names.map(() => EMPTY_FRAGMENT);
    const zero = Buffer.alloc(n);
    this.regions = pieces.map((piece, regionIndex) => {
      const parts: Buffer[] = [];
      for (let from = 0; ; ) {
        const at = n === 0 ? -1 : piece.indexOf(mark, from);
        parts.push(piece.subarray(from, at === -1 ? piece.length : at));
        if (at === -1) break;
        from = at + n;
      }
      const lastRegion = regionIndex === pieces.length - 1;
      const blanked = Buffer.concat(parts.flatMap((part, index) => (index > 0 ? [Buffer.alloc(n, BLANK), part] : [part])));
      let offset = 0;
      const deflated = parts.map((part, index) => {
        const last = lastRegion && index === parts.length - 1;
        const before = blanked.subarray(Math.max(0, offset - WINDOW), offset);
        offset += part.length + n;
        // What comes before is byte-aligned (the header, a flush, a stored block, a fragment): an empty part adds nothing.
        if (part.length === 0 && !last) return Buffer.alloc(0);
        // A piece holding the blank byte could match a blanked nonce: it is compressed on its own.
        const dictionary = before.length > 0 && !part.includes(BLANK) ? { dictionary: before } : {};
        return zlib.deflateRawSync(part, { level: 6, ...dictionary, finishFlush: last ? zlib.constants.Z_FINISH : zlib.constants.Z_SYNC_FLUSH });
      });
      // The checksum per answer without reading the page (issue 13): CRC-32 is affine, so the region's
      // CRC is the CRC with the nonces zeroed, XOR what the nonce bytes contribute: the nonce's own CRC
      // polynomial carried through the bytes after each place, i.e. multiplied by x^(8·after) mod P;
      // for all places together, by the sum of those powers (worked out here once).
      const length = blanked.length;
      let zeroedCrc = 0;
      let nonceEffect = 0;
      let end = 0;
      parts.forEach((part, index) => {
        if (index > 0) {
          zeroedCrc = zlib.crc32(zero, zeroedCrc);
          end += n;
          nonceEffect ^= crc32Shift(length - end);
        }
        zeroedCrc = zlib.crc32(part, zeroedCrc);
        end += part.length;
      });
      return { parts, deflated, length, zeroedCrc, nonceEffect: nonceEffect >>> 0, shift: crc32Shift(length) };
    });
    // A stored block (BFINAL 0, BTYPE 00) of n bytes: its length, then the length's complement.
    this.storedHeader = Buffer.from([0, n & 0xff, n >> 8, ~n & 0xff, (~n >> 8) & 0xff]);
    this.placeCount = this.regions.reduce((sum, region) => sum + region.parts.length - 1, 0);
    this.length = body.length;
    this.bytes = body.length + this.regions.reduce((sum, region) => region.deflated.reduce((inner, part) => inner + part.length, sum), 0);
    // Without slots the page as stored is the answer's template: a new copy is one copy of it.
    this.only = names.length === 0 ? this.layoutOf([], body) : null;
  }

  /** The CRC polynomial of a nonce's own bytes (from a zero register, no final XOR): zlib.crc32 starts at ~value and answers ~register. */
  private static ownCrc(nonce: Buffer): number {
    return ~zlib.crc32(nonce, 0xffffffff) >>> 0;
  }

  /** The page with `fragments` in its slots, worked out once: its CRC terms, its nonce places, its copies. */
  private layoutOf(fragments: readonly SlotFragment[], template?: Buffer): Layout {
    const n = this.nonceLength;
    let length = 0;
    let zeroedCrc = 0;
    let nonceEffect = 0;
    const identityPlaces: number[] = [];
    const gzipPlaces: number[] = [];
    let gzipAt = GZIP_HEADER.length;
    this.regions.forEach((region, r) => {
      region.parts.forEach((part, index) => {
        if (index > 0) {
          identityPlaces.push(length);
          length += n;
          gzipAt += this.storedHeader.length;
          gzipPlaces.push(gzipAt);
          gzipAt += n;
        }
        length += part.length;
        gzipAt += region.deflated[index]!.length;
      });
      // The CRC of what comes before, carried past this region, joined with the region's own.
      zeroedCrc = crc32CombineWith(zeroedCrc, region.zeroedCrc, region.shift);
      nonceEffect = (multiplyModP(nonceEffect, region.shift) ^ region.nonceEffect) >>> 0;
      const fragment = fragments[r];
      if (!fragment) return;
      length += fragment.length;
      gzipAt += fragment.deflated.length;
      zeroedCrc = crc32CombineWith(zeroedCrc, fragment.crc, fragment.shift);
      nonceEffect = multiplyModP(nonceEffect, fragment.shift);
    });
    return {
      fragments,
      used: 0,
      length,
      zeroedCrc,
      nonceEffect,
      identity: new AnswerPool(() => (template ? Buffer.from(template) : this.assembleIdentity(fragments, length)), identityPlaces),
      gzip: new AnswerPool(() => this.assembleGzip(fragments, length, gzipAt + 8), gzipPlaces),
    };
  }

  /** A new plain copy with `fragments` in the slots; the nonce places are left for AnswerPool.take. */
  private assembleIdentity(fragments: readonly SlotFragment[], length: number): Buffer {
    const body = Buffer.allocUnsafe(length);
    let at = 0;
    this.regions.forEach((region, r) => {
      region.parts.forEach((part, index) => {
        if (index > 0) at += this.nonceLength;
        body.set(part, at);
        at += part.length;
      });
      const fragment = fragments[r];
      if (fragment) {
        body.set(fragment.bytes, at);
        at += fragment.length;
      }
    });
    return body;
  }

  /** A new gzip copy with `fragments` in the slots; the nonce places and the CRC are left for answer(). */
  private assembleGzip(fragments: readonly SlotFragment[], length: number, size: number): Buffer {
    const body = Buffer.allocUnsafe(size);
    body.set(GZIP_HEADER, 0);
    let at = GZIP_HEADER.length;
    this.regions.forEach((region, r) => {
      region.deflated.forEach((piece, index) => {
        if (index > 0) {
          body.set(this.storedHeader, at);
          at += this.storedHeader.length + this.nonceLength;
        }
        body.set(piece, at);
        at += piece.length;
      });
      const fragment = fragments[r];
      if (fragment) {
        body.set(fragment.deflated, at);
        at += fragment.deflated.length;
      }
    });
    body.writeUInt32LE(0, at);
    body.writeUInt32LE(length % 2 ** 32, at + 4);
    return body;
  }

  /** The layout for this answer's fills: kept from an earlier answer, or worked out now (the least recently used one goes). */
  private layoutFor(fills: SlotFills | undefined): Layout {
    let hash = 0;
    for (let i = 0; i < this.slots.length; i++) {
      const fragment = fragmentOf(fills?.[this.slots[i]!]);
      this.chosen[i] = fragment;
      hash = (Math.imul(hash, 0x9e3779b1) + fragment.id) | 0;
    }
    const kept = this.layouts.get(hash);
    if (kept && sameFragments(kept.fragments, this.chosen)) {
      kept.used = ++this.clock;
      return kept;
    }
    const layout = this.layoutOf(this.chosen.slice());
    layout.used = ++this.clock;
    // Another way of filling with the same hash (rare): the newer takes its place.
    if (kept) disposeLayout(kept);
    this.layouts.set(hash, layout);
    if (this.layouts.size > MAX_LAYOUTS) {
      let oldest: number | undefined;
      let oldestUsed = Infinity;
      for (const [key, entry] of this.layouts) if (entry.used < oldestUsed) [oldest, oldestUsed] = [key, entry.used];
      disposeLayout(this.layouts.get(oldest!)!);
      this.layouts.delete(oldest!);
    }
    return layout;
  }

  /** How many places carry the nonce. */
  get nonces(): number {
    return this.placeCount;
  }

  /**
   * The page, plain or gzipped, with `nonce` (as long as the one it was rendered with) in every place
   * and, in each slot, the fragment `fills` names for it (none: the slot is left empty): a reused copy
   * (release it once sent) with the nonce written in and, gzipped, the checksum.
   */
  answer(nonce: string, gzip: boolean, fills?: SlotFills): PooledAnswer {
    const mark = Buffer.from(nonce, "latin1");
    const layout = this.only ?? this.layoutFor(fills);
    if (mark.length !== this.nonceLength && this.placeCount > 0) {
      throw new Error(`A nonce of ${mark.length} bytes for places of ${this.nonceLength}`);
    }
    if (!gzip) return layout.identity.take(mark);
    const answer = layout.gzip.take(mark);
    const crc = layout.zeroedCrc ^ multiplyModP(layout.nonceEffect, NoncedBody.ownCrc(mark));
    answer.body.writeUInt32LE(crc >>> 0, answer.body.length - 8);
    return answer;
  }

  /** Lets the reused copies go (the page left the cache). */
  dispose() {
    if (this.only) disposeLayout(this.only);
    for (const layout of this.layouts.values()) disposeLayout(layout);
    this.layouts.clear();
  }
}

function sameFragments(a: readonly SlotFragment[], b: readonly SlotFragment[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function disposeLayout(layout: Layout) {
  layout.identity.dispose();
  layout.gzip.dispose();
}

/** The fragment a fill stands for (an empty one for nothing). */
function fragmentOf(fill: SlotFill): SlotFragment {
  if (typeof fill === "string") return slotFragment(fill);
  // Anything else is nothing: a slot named like an Object property ("constructor") finds the prototype's.
  return fill instanceof SlotFragment && fill.length > 0 ? fill : EMPTY_FRAGMENT;
}
