import { classifyPath } from "./path-classes";

/** Window event fired when the page-view beacon answers: detail is { path, views? }. */
export const VIEW_EVENT = "frontpage:views";

/** Site traffic is the reader site's: the back office's own screens are not page views (see app/lib/path-classes.ts). */
export function isCountedPath(path: string): boolean {
  return classifyPath(path).rules.countedAsPageView;
}
