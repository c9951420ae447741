/** Window event fired when the page-view beacon answers: detail is { path, views? }. */
export const VIEW_EVENT = "frontpage:views";
