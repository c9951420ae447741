/**
 * Window event fired when the page-view beacon answers: detail is { path, views? }. A module of its
 * own so the reader's scripts never carry the URL rules' table (app/lib/path-classes.ts).
 */
export const VIEW_EVENT = "frontpage:views";
