const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True when the text is a UUID (anything else can never name a row, so it is refused before the database sees it). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
