import zlib from "node:zlib";
import { crc32Shift } from "./crc32-combine.server";

let lastId = 0;

/**
 * A piece of HTML that the door puts into a stored page's slot for one answer (issue 43: an ad
 * creative), with what joining it to an answer needs, worked out once: its bytes, its CRC-32 and CRC
 * shift (app/lib/crc32-combine.server.ts), and, the first time a page puts it in a slot, its raw-deflate form on its
 * own (no dictionary: it sits in any page, after any bytes), ended by a flush to a byte boundary and
 * never final, so it goes between a page's compressed pieces as they are. Immutable.
 *
 * Its bytes are put in as they are: never read for slot markers or nonces (a fragment runs no script
 * and needs none), never escaped. The caller builds it from trusted parts with escaped text.
 */
export class SlotFragment {
  /** Names this fragment in a page's table of answers (NoncedBody's layouts): unique in the process. */
  readonly id = ++lastId;
  readonly bytes: Buffer;
  readonly crc: number;
  /** x^(8·length) mod P: what joining these bytes to an answer multiplies its CRC by. */
  readonly shift: number;
  private compressed: Buffer | null = null;

  constructor(html: string | Buffer) {
    this.bytes = typeof html === "string" ? Buffer.from(html) : Buffer.from(html);
    this.crc = zlib.crc32(this.bytes);
    this.shift = crc32Shift(this.bytes.length);
  }

  get length(): number {
    return this.bytes.length;
  }

  /**
   * Raw deflate of the bytes, ended by Z_SYNC_FLUSH, or as one stored block where that is shorter (a
   * short ad: 61 bytes deflated to 67); empty for an empty fragment. Worked out once.
   */
  get deflated(): Buffer {
    if (!this.compressed) this.compressed = deflatedAlone(this.bytes);
    return this.compressed;
  }

  /** Whether it has been compressed (for the fragment cache's size, and tests). */
  get isCompressed(): boolean {
    return this.compressed !== null;
  }
}

/** The longest stored deflate block (its length is two bytes). */
const MAX_STORED = 0xffff;

function deflatedAlone(bytes: Buffer): Buffer {
  if (bytes.length === 0) return Buffer.alloc(0);
  const deflated = zlib.deflateRawSync(bytes, { level: 6, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  if (bytes.length > MAX_STORED || deflated.length <= bytes.length + 5) return deflated;
  // A stored block (BFINAL 0, BTYPE 00, byte-aligned): its length, the length's complement, the bytes.
  const n = bytes.length;
  return Buffer.concat([Buffer.from([0, n & 0xff, n >> 8, ~n & 0xff, (~n >> 8) & 0xff]), bytes]);
}

/** What a slot holds when nothing fills it: no bytes at all (a slot with nothing to show takes no space). */
export const EMPTY_FRAGMENT = new SlotFragment("");

/** Fragments kept by their HTML at most, and their bytes (plain and deflated) at most together. */
const MAX_FRAGMENTS = 1024;
const MAX_FRAGMENT_BYTES = 8 * 1024 * 1024;
const kept = new Map<string, SlotFragment>();
let keptBytes = 0;

/** What a fragment counts for in the cache: its bytes, and room for its deflated form (at most as long, plus framing). */
function weightOf(fragment: SlotFragment): number {
  return 2 * fragment.length + 16;
}

/**
 * The fragment of `html`, made once and kept in a bounded cache (least recently used go first), so
 * a door that fills slots with strings compresses each string once, not once per answer. A caller
 * that holds its fragments itself (one per creative, made when the campaigns are loaded) can pass
 * SlotFragment objects instead and skip this cache.
 */
export function slotFragment(html: string): SlotFragment {
  if (html === "") return EMPTY_FRAGMENT;
  let fragment = kept.get(html);
  if (fragment) {
    // Re-inserted so that the Map's order is the order of use.
    kept.delete(html);
    kept.set(html, fragment);
    return fragment;
  }
  fragment = new SlotFragment(html);
  const weight = weightOf(fragment);
  // One too big for the cache is made for this answer alone.
  if (weight > MAX_FRAGMENT_BYTES / 4) return fragment;
  kept.set(html, fragment);
  keptBytes += weight;
  for (const [oldest, old] of kept) {
    if (kept.size <= MAX_FRAGMENTS && keptBytes <= MAX_FRAGMENT_BYTES) break;
    kept.delete(oldest);
    keptBytes -= weightOf(old);
  }
  return fragment;
}

/** How many fragments the cache keeps (for tests). */
export function keptFragments(): number {
  return kept.size;
}
