/** Window event fired when the page-view beacon answers: detail is { path, views? }. */
export const VIEW_EVENT = "frontpage:views";

/** Site traffic is the reader site's: the back office's own screens are not page views. */
export function isCountedPath(path: string): boolean {
  return !/^\/admin(\/|\?|\.|$)/i.test(path);
}
