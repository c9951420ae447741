/**
 * Bylines as readers see them (decision 0015). No zod, nothing from the server: the reader bundle
 * imports this.
 */

/** An author as a byline names them. */
export interface BylineAuthor {
  name: string;
  slug: string;
}

/** "A", "A and B", "A, B and C". */
export function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? "";
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** What goes between the byline's names before the `index`th of `count` ("", ", " or " and "). */
export function bylineSeparator(index: number, count: number): string {
  if (index === 0) return "";
  return index === count - 1 ? " and " : ", ";
}
