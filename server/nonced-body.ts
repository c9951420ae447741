import zlib from "node:zlib";

/** A CRC register (not a CRC value) carried through `count` zero bytes. */
function advanceThroughZeros(register: number, count: number, zeros: Buffer): number {
  let value = ~register >>> 0;
  for (let left = count; left > 0; left -= zeros.length) value = zlib.crc32(zeros.subarray(0, Math.min(left, zeros.length)), value);
  return ~value >>> 0;
}

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
 * Copies of one answer (a page with its nonce places), reused (issue 13): a new 60 KB buffer per
 * answer was allocated and collected at 10,000 answers a second, where the bytes only differ in the
 * nonce places (and, gzipped, the checksum). A copy taken gets the nonce written into its places;
 * the sender gives it back once the response is finished, or drops it.
 */
class AnswerPool {
  private free: Buffer[] = [];

  constructor(
    private readonly template: Buffer,
    private readonly places: readonly number[],
  ) {}

  take(nonce: Buffer): PooledAnswer {
    const reused = this.free.pop();
    if (reused) pooledBytes -= reused.length;
    const body = reused ?? Buffer.from(this.template);
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

  /** Lets the copies go (the page left the cache). */
  dispose() {
    for (const copy of this.free) pooledBytes -= copy.length;
    this.free = [];
  }
}

const WINDOW = 32 * 1024;
/** Stands for a nonce in what each piece is compressed against; a byte pages never contain (checked). */
const BLANK = 0;

/**
 * A stored page whose scripts carry a nonce, sent to each reader with a nonce of their own (decision
 * 0020) without compressing it again: the body is kept cut at the nonce, and its gzip form as one
 * compressed piece per cut, each ended by a flush (byte-aligned), so a new nonce goes between them as
 * an uncompressed (stored) deflate block. Each piece is compressed against the 32 KB before it (as
 * deflate's window holds it when decompressing) with the nonces blanked to a byte the piece does not
 * contain, so a back-reference can never copy a nonce: it compresses about as well as the whole page
 * at once. Only the checksum is computed per answer. Brotli has no such seam, so these pages are sent
 * gzip or plain.
 */
export class NoncedBody {
  private readonly parts: Buffer[];
  private readonly deflated: Buffer[];
  private readonly storedHeader: Buffer;
  /** The page's CRC-32 with every nonce place holding zero bytes. */
  private readonly zeroedCrc: number;
  /** What a nonce adds to that CRC, as a linear map (column j: the effect of bit j of the nonce's own CRC register). */
  private readonly nonceEffect: Uint32Array;
  readonly length: number;
  readonly bytes: number;
  private readonly identityPool: AnswerPool;
  private readonly gzipPool: AnswerPool;

  constructor(body: Buffer, nonce: string) {
    const mark = Buffer.from(nonce);
    this.parts = [];
    for (let from = 0; ; ) {
      const at = body.indexOf(mark, from);
      this.parts.push(body.subarray(from, at === -1 ? body.length : at));
      if (at === -1) break;
      from = at + mark.length;
    }
    const n = mark.length;
    const blanked = Buffer.concat(this.parts.flatMap((part, index) => (index > 0 ? [Buffer.alloc(n, BLANK), part] : [part])));
    let offset = 0;
    this.deflated = this.parts.map((part, index) => {
      const last = index === this.parts.length - 1;
      const before = blanked.subarray(Math.max(0, offset - WINDOW), offset);
      offset += part.length + n;
      // A piece holding the blank byte could match a blanked nonce: it is compressed on its own.
      const dictionary = before.length > 0 && !part.includes(BLANK) ? { dictionary: before } : {};
      return zlib.deflateRawSync(part, { level: 6, ...dictionary, finishFlush: last ? zlib.constants.Z_FINISH : zlib.constants.Z_SYNC_FLUSH });
    });
    // A stored block (BFINAL 0, BTYPE 00) of n bytes: its length, then the length's complement.
    this.storedHeader = Buffer.from([0, n & 0xff, n >> 8, ~n & 0xff, (~n >> 8) & 0xff]);
    this.length = body.length;
    this.bytes = body.length + this.deflated.reduce((sum, part) => sum + part.length, 0);
    // The checksum per answer without reading the page (issue 13): CRC-32 is affine, so the page's CRC
    // is the CRC with the nonces zeroed, XOR what the nonce bytes contribute. That contribution is the
    // nonce's own register (from zero) carried through the bytes after each place: one linear map for
    // all places together, worked out here once (column by column, by Horner's rule over the gaps).
    const zero = Buffer.alloc(n);
    this.zeroedCrc = this.parts.reduce((crc, part, index) => zlib.crc32(part, index > 0 ? zlib.crc32(zero, crc) : crc), 0);
    const ends: number[] = [];
    let end = 0;
    this.parts.forEach((part, index) => {
      if (index > 0) ends.push((end += n));
      end += part.length;
    });
    const zeros = Buffer.alloc(Math.min(this.length, 64 * 1024));
    this.nonceEffect = new Uint32Array(32);
    for (let bit = 0; bit < 32 && ends.length > 0; bit++) {
      let register = 0;
      let at = ends[0]!;
      for (const placeEnd of ends) {
        register = advanceThroughZeros(register, placeEnd - at, zeros) ^ (1 << bit);
        at = placeEnd;
      }
      this.nonceEffect[bit] = advanceThroughZeros(register, this.length - at, zeros) >>> 0;
    }
    // The answers, with the nonce the page was rendered with, and where a new one goes in each.
    const identityPlaces: number[] = [];
    const gzipPlaces: number[] = [];
    let plainAt = 0;
    let gzipAt = GZIP_HEADER.length;
    this.parts.forEach((part, index) => {
      if (index > 0) {
        identityPlaces.push(plainAt);
        plainAt += n;
        gzipAt += this.storedHeader.length;
        gzipPlaces.push(gzipAt);
        gzipAt += n;
      }
      plainAt += part.length;
      gzipAt += this.deflated[index]!.length;
    });
    this.identityPool = new AnswerPool(body, identityPlaces);
    this.gzipPool = new AnswerPool(this.assembleGzip(mark), gzipPlaces);
  }

  private assembleGzip(mark: Buffer): Buffer {
    const pieces: Buffer[] = [GZIP_HEADER];
    this.parts.forEach((_part, index) => {
      if (index > 0) pieces.push(this.storedHeader, mark);
      pieces.push(this.deflated[index]!);
    });
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(this.crcWith(mark), 0);
    trailer.writeUInt32LE(this.length % 2 ** 32, 4);
    pieces.push(trailer);
    return Buffer.concat(pieces);
  }

  /** The CRC-32 of the page with `nonce` in every place (no byte of the page read: see the constructor). */
  private crcWith(nonce: Buffer): number {
    // The nonce's register from zero: zlib.crc32 starts its register at ~value and answers ~register.
    const register = ~zlib.crc32(nonce, 0xffffffff) >>> 0;
    let crc = this.zeroedCrc;
    for (let bit = 0; bit < 32; bit++) if (register & (1 << bit)) crc ^= this.nonceEffect[bit]!;
    return crc >>> 0;
  }

  /** How many places carry the nonce. */
  get nonces(): number {
    return this.parts.length - 1;
  }

  /**
   * The page, plain or gzipped, with `nonce` (as long as the one it was rendered with) in every place:
   * a reused copy (release it once sent) with the nonce written in and, gzipped, the checksum.
   */
  answer(nonce: string, gzip: boolean): PooledAnswer {
    const mark = Buffer.from(nonce, "latin1");
    if (!gzip) return this.identityPool.take(mark);
    const answer = this.gzipPool.take(mark);
    answer.body.writeUInt32LE(this.crcWith(mark), answer.body.length - 8);
    return answer;
  }

  /** Lets the reused copies go (the page left the cache). */
  dispose() {
    this.identityPool.dispose();
    this.gzipPool.dispose();
  }
}
