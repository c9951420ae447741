import { describe, expect, test } from "vitest";
import type { LiveUpdateView } from "~/domain/live/live-updates";
import { applyLiveEvent, revealPending, type ApplyContext, type LiveListState } from "./live-stream";

// The reader's client rule for stream events (issue 31), on the list a page shows.

const update = (n: number, values: Partial<LiveUpdateView> = {}): LiveUpdateView => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
  version: n,
  headline: null,
  bodyHtml: `<p>Update ${n}</p>`,
  text: `Update ${n}`,
  author: null,
  createdAt: new Date(Date.UTC(2026, 10, 27, 10, n)).toISOString(),
  editedAt: null,
  keyEvent: false,
  pinned: false,
  ...values,
});

const start = (updates: LiveUpdateView[], values: Partial<LiveListState> = {}): LiveListState => ({
  updates,
  pending: [],
  pinned: null,
  keyEvents: [],
  live: true,
  endedAt: null,
  arrived: [],
  ...values,
});
const atTop: ApplyContext = { firstPage: true, oldest: null, reveal: true };
const scrolled: ApplyContext = { ...atTop, reveal: false };
const ids = (list: LiveUpdateView[]) => list.map((u) => u.text);

describe("applyLiveEvent", () => {
  test("a new update goes on top for a reader at the top (it slides in), behind the button for one scrolled down", () => {
    const shown = start([update(2), update(1)]);
    const top = applyLiveEvent(shown, { type: "update", update: update(3) }, atTop);
    expect(ids(top.updates)).toEqual(["Update 3", "Update 2", "Update 1"]);
    expect(top.arrived).toEqual([update(3).id]);
    const down = applyLiveEvent(applyLiveEvent(shown, { type: "update", update: update(3) }, scrolled), { type: "update", update: update(4) }, scrolled);
    expect(ids(down.updates)).toEqual(["Update 2", "Update 1"]);
    expect(ids(down.pending)).toEqual(["Update 4", "Update 3"]);
    const revealed = revealPending(down);
    expect(ids(revealed.updates)).toEqual(["Update 4", "Update 3", "Update 2", "Update 1"]);
    expect(revealed.pending).toEqual([]);
  });

  test("an edit replaces the update in place only when its version is newer (a catch-up may repeat one)", () => {
    const shown = start([update(2), update(1)]);
    const edited = applyLiveEvent(shown, { type: "update", update: update(1, { version: 7, text: "Fixed", editedAt: "2026-11-27T11:00:00.000Z" }) }, atTop);
    expect(ids(edited.updates)).toEqual(["Update 2", "Fixed"]);
    expect(applyLiveEvent(edited, { type: "update", update: update(1, { version: 7, text: "Again" }) }, atTop)).toBe(edited);
    expect(applyLiveEvent(edited, { type: "update", update: update(1, { version: 5, text: "Older" }) }, atTop)).toBe(edited);
    // An edit of one waiting behind the button stays there.
    const waiting = applyLiveEvent(shown, { type: "update", update: update(3) }, scrolled);
    expect(ids(applyLiveEvent(waiting, { type: "update", update: update(3, { version: 9, text: "Fixed 3" }) }, scrolled).pending)).toEqual(["Fixed 3"]);
  });

  test("a delete removes it everywhere: the list, the button, the pinned place, the key events", () => {
    const pinned = update(1, { pinned: true, keyEvent: true });
    const shown = start([update(2), pinned], { pinned, keyEvents: [{ id: pinned.id, title: "Update 1", createdAt: pinned.createdAt }] });
    const gone = applyLiveEvent(shown, { type: "delete", id: pinned.id, version: 9 }, atTop);
    expect(ids(gone.updates)).toEqual(["Update 2"]);
    expect(gone.pinned).toBeNull();
    expect(gone.keyEvents).toEqual([]);
  });

  test("pinning moves the pin; a key event joins the list newest first, and leaves it when unmarked", () => {
    const first = update(1, { pinned: true });
    const shown = start([update(2), first], { pinned: first });
    const moved = applyLiveEvent(shown, { type: "update", update: update(2, { version: 8, pinned: true, keyEvent: true, headline: "Big news" }) }, atTop);
    expect(moved.pinned?.text).toBe("Update 2");
    expect(moved.keyEvents.map((k) => k.title)).toEqual(["Big news"]);
    const newer = applyLiveEvent(moved, { type: "update", update: update(3, { keyEvent: true, text: "Newer  key\nevent" }) }, atTop);
    expect(newer.keyEvents.map((k) => k.title)).toEqual(["Newer key event", "Big news"]);
    const unmarked = applyLiveEvent(newer, { type: "update", update: update(2, { version: 10, pinned: false }) }, atTop);
    expect(unmarked.pinned).toBeNull();
    expect(unmarked.keyEvents.map((k) => k.title)).toEqual(["Newer key event"]);
  });

  test("an older page takes edits of what it shows, but no new updates; the first page ignores changes to older pages' updates", () => {
    const shown = start([update(5), update(4)]);
    expect(applyLiveEvent(shown, { type: "update", update: update(9) }, { firstPage: false, oldest: null, reveal: true }).updates).toHaveLength(2);
    const firstPage: ApplyContext = { firstPage: true, oldest: { createdAt: update(4).createdAt, id: update(4).id }, reveal: true };
    expect(applyLiveEvent(shown, { type: "update", update: update(2, { version: 11 }) }, firstPage).updates).toHaveLength(2);
    expect(applyLiveEvent(shown, { type: "update", update: update(9) }, firstPage).updates).toHaveLength(3);
  });

  test("state: the coverage ends (with its time) or restarts", () => {
    const ended = applyLiveEvent(start([]), { type: "state", live: false, endedAt: "2026-11-27T12:00:00.000Z" }, atTop);
    expect(ended).toMatchObject({ live: false, endedAt: "2026-11-27T12:00:00.000Z" });
    expect(applyLiveEvent(ended, { type: "state", live: true, endedAt: null }, atTop)).toMatchObject({ live: true, endedAt: null });
  });
});
