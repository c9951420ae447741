// The live part of a live story's page (issue 31): loaded by import() only when the story is live, so
// no other page carries it. It follows the story's event stream (server/live-door.ts) and folds each
// event into the list the page shows. No dependencies but the shared types: it must stay small.
import { keyEventTitle, liveStreamPath, type KeyEventLink, type LiveStreamEvent, type LiveUpdateView } from "~/domain/live/live-updates";

/** What the page shows of a live story, as the stream changes it. */
export interface LiveListState {
  /** Shown, newest first. */
  updates: LiveUpdateView[];
  /** Arrived while the reader was scrolled down: behind the "{N} new updates" button, newest first. */
  pending: LiveUpdateView[];
  pinned: LiveUpdateView | null;
  keyEvents: KeyEventLink[];
  live: boolean;
  endedAt: string | null;
  /** Ids of updates that arrived while the page was open (they slide in). */
  arrived: string[];
}

/** Where an event lands: on the first page, new updates go in (at the top, or behind the button); an older page only edits what it shows. */
export interface ApplyContext {
  firstPage: boolean;
  /** The oldest update the first page shows when older pages follow: an unknown update older than it is an edit of one of theirs. */
  oldest: { createdAt: string; id: string } | null;
  /** The reader is at the top of the list: a new update goes straight in. */
  reveal: boolean;
}

/** Newest first, as the server orders them (time, then id). */
const newerFirst = (a: { createdAt: string; id: string }, b: { createdAt: string; id: string }) =>
  a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1;

const without = <T extends { id: string }>(list: T[], id: string) => (list.some((item) => item.id === id) ? list.filter((item) => item.id !== id) : list);
const replaced = (list: LiveUpdateView[], update: LiveUpdateView) => list.map((item) => (item.id === update.id ? update : item));


/**
 * One stream event applied to the page's list (the protocol's client rule): an update only when its
 * version is newer than the one shown (a catch-up may repeat one), in place when shown; a delete
 * removes it everywhere; a pinned update unpins the one shown; `state` ends (or restarts) the coverage.
 */
export function applyLiveEvent(state: LiveListState, event: LiveStreamEvent, context: ApplyContext): LiveListState {
  if (event.type === "state") return { ...state, live: event.live, endedAt: event.live ? null : event.endedAt };
  if (event.type === "delete") {
    return {
      ...state,
      updates: without(state.updates, event.id),
      pending: without(state.pending, event.id),
      pinned: state.pinned?.id === event.id ? null : state.pinned,
      keyEvents: without(state.keyEvents, event.id),
    };
  }
  const update = event.update;
  const copies = [...state.updates, ...state.pending, ...(state.pinned ? [state.pinned] : [])].filter((item) => item.id === update.id);
  if (copies.some((copy) => copy.version >= update.version)) return state;
  const keyEvents = without(state.keyEvents, update.id);
  if (update.keyEvent) keyEvents.push({ id: update.id, title: keyEventTitle(update.headline, update.text), createdAt: update.createdAt });
  const next: LiveListState = {
    ...state,
    keyEvents: keyEvents.sort(newerFirst),
    pinned: update.pinned ? update : state.pinned?.id === update.id ? null : state.pinned,
  };
  if (state.updates.some((item) => item.id === update.id)) return { ...next, updates: replaced(state.updates, update) };
  if (state.pending.some((item) => item.id === update.id)) return { ...next, pending: replaced(state.pending, update) };
  // Unknown here: a new update, or a change to one of an older page's.
  const older = context.oldest && newerFirst(update, context.oldest) > 0;
  if (!context.firstPage || older) return next;
  if (context.reveal) return { ...next, updates: [...state.updates, update].sort(newerFirst), arrived: [...state.arrived, update.id] };
  return { ...next, pending: [...state.pending, update].sort(newerFirst) };
}

/** The updates behind the button, shown: they slide in with the others' order kept. */
export function revealPending(state: LiveListState): LiveListState {
  if (state.pending.length === 0) return state;
  return { ...state, updates: [...state.pending, ...state.updates].sort(newerFirst), pending: [], arrived: [...state.arrived, ...state.pending.map((u) => u.id)] };
}

/** A failed stream (an answer that is not a stream: a restart behind a proxy) is tried again after this long, doubling, at most a minute. */
const RETRY_FIRST_MS = 5_000;
const RETRY_MAX_MS = 60_000;

/**
 * Follows a story's stream from `after` (the newest version the page shows): each event goes to
 * `onEvent`. The browser's EventSource reconnects by itself after a dropped connection (the server
 * asks for 2 s), resuming after the last event id it saw (Last-Event-ID). In a hidden tab the stream
 * is closed; back in view, a new one asks for what was missed (`?after=` the last version seen).
 * Coverage ended: the stream closes for good. Returns the function that stops it.
 */
export function followLiveStory(articleId: string, after: number, onEvent: (event: LiveStreamEvent) => void): () => void {
  let position = after;
  let source: EventSource | null = null;
  let stopped = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let retryMs = RETRY_FIRST_MS;

  const close = () => {
    clearTimeout(retry);
    source?.close();
    source = null;
  };
  const open = () => {
    close();
    const stream = new EventSource(`${liveStreamPath(articleId)}?after=${position}`);
    source = stream;
    stream.onopen = () => {
      retryMs = RETRY_FIRST_MS;
    };
    stream.onmessage = (message) => {
      if (message.lastEventId && Number(message.lastEventId) > position) position = Number(message.lastEventId);
      let event: LiveStreamEvent;
      try {
        event = JSON.parse(message.data) as LiveStreamEvent;
      } catch {
        return;
      }
      onEvent(event);
      if (event.type === "state" && !event.live) stop();
    };
    stream.onerror = () => {
      // CONNECTING: the browser is reconnecting by itself. CLOSED: it gave up (an answer that was not a stream).
      if (stream.readyState !== EventSource.CLOSED || stopped || document.hidden) return;
      source = null;
      retry = setTimeout(open, retryMs);
      retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
    };
  };
  const onVisibility = () => {
    if (document.hidden) close();
    else if (!source && !stopped) open();
  };
  function stop() {
    stopped = true;
    document.removeEventListener("visibilitychange", onVisibility);
    close();
  }

  document.addEventListener("visibilitychange", onVisibility);
  if (!document.hidden) open();
  return stop;
}
