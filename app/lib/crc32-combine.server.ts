/**
 * CRC-32 (gzip's, as node:zlib's crc32) of joined pieces from the pieces' own CRCs, without reading
 * their bytes again: zlib's crc32_combine (1.2.12 on), in which a CRC is a polynomial over GF(2) in
 * the reflected bit order (bit 31 is x^0) and crc(A‖B) = crc(A)·x^(8·|B|) mod P ⊕ crc(B). The factor
 * x^(8·|B|) mod P depends on |B| alone: worked out once per piece (crc32Shift), it joins a piece in
 * one 32-step multiplication (crc32CombineWith). Used by NoncedBody to checksum an answer made of a
 * stored page's pieces, its nonces and the fragments put in its slots (issue 43).
 */

/** CRC-32's polynomial, reflected (zlib's POLY). */
const POLY = 0xedb88320;

/** a·b mod P, both polynomials in the reflected order (zlib's multmodp). */
export function multiplyModP(a: number, b: number): number {
  let product = 0;
  for (let m = 0x80000000; m !== 0; m >>>= 1) {
    if (a & m) {
      product ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return product >>> 0;
}

/** x^(2^k) mod P for k = 0…31 (zlib's x2n_table). */
const POWERS = (() => {
  const table = new Uint32Array(32);
  let p = 1 << 30; // x^1
  table[0] = p;
  for (let k = 1; k < 32; k++) table[k] = p = multiplyModP(p, p);
  return table;
})();

/**
 * x^(8·length) mod P: what a CRC is multiplied by to carry it past `length` bytes (zlib's
 * crc32_combine_gen). A length of zero answers x^0, which leaves a CRC as it is.
 */
export function crc32Shift(length: number): number {
  if (!Number.isSafeInteger(length) || length < 0) throw new RangeError(`crc32Shift: a length, not ${length}`);
  let p = 0x80000000; // x^0
  // Bit i of the bit count 8·length picks x^(2^i): the byte count's bit j is the bit count's bit j+3.
  for (let k = 3, n = length; n > 0; k++, n = Math.floor(n / 2)) if (n % 2 === 1) p = multiplyModP(POWERS[k & 31]!, p);
  return p >>> 0;
}

/** The CRC-32 of A‖B from crc(A), crc(B) and crc32Shift(|B|) (zlib's crc32_combine_op). */
export function crc32CombineWith(crcA: number, crcB: number, shiftB: number): number {
  return (multiplyModP(shiftB, crcA) ^ crcB) >>> 0;
}

/** The CRC-32 of A‖B from crc(A), crc(B) and |B| (zlib's crc32_combine). */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  return crc32CombineWith(crcA, crcB, crc32Shift(lengthB));
}
