import zlib from "node:zlib";

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff]);

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
  readonly length: number;
  readonly bytes: number;

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
  }

  /** How many places carry the nonce. */
  get nonces(): number {
    return this.parts.length - 1;
  }

  /** The page with `nonce` (the same length as the one it was rendered with) in every place. */
  identity(nonce: string): Buffer {
    const mark = Buffer.from(nonce);
    const pieces: Buffer[] = [];
    this.parts.forEach((part, index) => {
      if (index > 0) pieces.push(mark);
      pieces.push(part);
    });
    return Buffer.concat(pieces, this.length);
  }

  /** The page gzipped, with `nonce` in every place. */
  gzip(nonce: string): Buffer {
    const mark = Buffer.from(nonce);
    const pieces: Buffer[] = [GZIP_HEADER];
    let crc = 0;
    this.parts.forEach((part, index) => {
      if (index > 0) {
        pieces.push(this.storedHeader, mark);
        crc = zlib.crc32(mark, crc);
      }
      pieces.push(this.deflated[index]!);
      crc = zlib.crc32(part, crc);
    });
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc >>> 0, 0);
    trailer.writeUInt32LE(this.length % 2 ** 32, 4);
    pieces.push(trailer);
    return Buffer.concat(pieces);
  }
}
