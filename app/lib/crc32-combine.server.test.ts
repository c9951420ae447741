import { randomBytes } from "node:crypto";
import zlib from "node:zlib";
import { describe, expect, test } from "vitest";
import { crc32Combine, crc32CombineWith, crc32Shift, multiplyModP } from "./crc32-combine.server";

/** A small seeded generator, so a failing case can be run again. */
function seeded(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed / 2 ** 32;
  };
}

describe("crc32Combine", () => {
  test("the CRC of two pieces joined equals zlib's CRC of their bytes joined, for random pieces and lengths", () => {
    const random = seeded(43);
    for (let round = 0; round < 300; round++) {
      const a = randomBytes(Math.floor(random() * 3000));
      const b = randomBytes(round % 10 === 0 ? 0 : Math.floor(random() * (round % 3 === 0 ? 70_000 : 300)));
      expect(crc32Combine(zlib.crc32(a), zlib.crc32(b), b.length)).toBe(zlib.crc32(Buffer.concat([a, b])));
    }
  });

  test("many pieces fold left into the CRC of the whole, with each piece's shift worked out once", () => {
    const pieces = Array.from({ length: 50 }, (_, i) => randomBytes((i * 977) % 4100));
    let crc = 0;
    for (const piece of pieces) crc = crc32CombineWith(crc, zlib.crc32(piece), crc32Shift(piece.length));
    expect(crc).toBe(zlib.crc32(Buffer.concat(pieces)));
  });

  test("an empty piece changes nothing, on either side", () => {
    const a = Buffer.from("frontpage");
    expect(crc32Combine(zlib.crc32(a), 0, 0)).toBe(zlib.crc32(a));
    expect(crc32Combine(0, zlib.crc32(a), a.length)).toBe(zlib.crc32(a));
  });

  test("lengths past 2^32 bytes are carried by the same multiplication (x^(8n) is x^(8·(n mod (2^32−1))))", () => {
    // The multiplicative order of x modulo CRC-32's polynomial divides 2^32 − 1.
    expect(crc32Shift(2 ** 32 - 1 + 12345)).toBe(crc32Shift(12345));
    expect(() => crc32Shift(-1)).toThrow(RangeError);
  });

  test("multiplying by x^0 leaves a polynomial as it is", () => {
    for (const value of [0, 1, 0xdeadbeef, 0xffffffff]) expect(multiplyModP(0x80000000, value)).toBe(value >>> 0);
  });
});
