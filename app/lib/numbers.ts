/**
 * A whole number with en-US digit grouping ("12,345"), without Intl: in a browser the first
 * Intl.NumberFormat loads ICU's number data, about 25 ms of the search page's hydration on a phone
 * (issue 13). The server and the browser write the same text.
 */
export function formatCount(value: number): string {
  const digits = String(Math.trunc(Math.abs(value))).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return value <= -1 ? `-${digits}` : digits;
}
