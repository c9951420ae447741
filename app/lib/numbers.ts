/**
 * A whole number with en-US digit grouping ("12,345"), without Intl: in a browser the first
 * Intl.NumberFormat loads ICU's number data, about 25 ms of the search page's hydration on a phone
 * (issue 13). The server and the browser write the same text. Every count the site and the back
 * office show goes through this one function (issue 27: "2993" on cards, "2,993" in the back office).
 */
export function formatCount(value: number): string {
  const digits = String(Math.trunc(Math.abs(value))).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return value <= -1 ? `-${digits}` : digits;
}

/**
 * A count and its noun, singular for exactly one and plural for any other count ("1 view",
 * "0 views", "2,993 views"). The plural is the singular plus "s" unless given ("1 entry", "2 entries").
 */
export function formatQuantity(value: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(value)} ${Math.trunc(value) === 1 ? singular : plural}`;
}
