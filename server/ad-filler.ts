import type { AdBook } from "../app/domain/ads/ad-book.server";
import type { AdRecorder } from "../app/domain/ads/ad-recorder.server";
import { isReadersLoad, type SlotFiller } from "./request-handler";

/**
 * The door's filler of ad slots (issue 43, decision 0061): the book chooses a campaign per slot of the
 * stored page; a reader's load (the view rule: not a bot, not a prefetch) counts an impression of each.
 * A page left empty is kept by a shared cache no longer than until a campaign held could fill it.
 */
export function adSlotFiller(book: AdBook, recorder: AdRecorder): SlotFiller {
  const count = (key: string) => recorder.recordImpression(key);
  return {
    fill: (slots, req) => book.fill(slots, isReadersLoad(req) ? count : null)?.fills ?? null,
    emptyFor: (slots) => book.emptyFor(slots),
  };
}
