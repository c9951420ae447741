import type { AdBook } from "../app/domain/ads/ad-book.server";
import type { AdRecorder } from "../app/domain/ads/ad-recorder.server";
import { isReadersLoad, type SlotFiller } from "./request-handler";
import type { SlotFragment } from "./slot-fragment";

/**
 * The door's filler of ad slots (issue 43, decision 0061): the book chooses a campaign per slot of the
 * stored page; a reader's load (the view rule: not a bot, not a prefetch) counts an impression of each.
 */
export function adSlotFiller(book: AdBook<SlotFragment>, recorder: AdRecorder): SlotFiller {
  const count = (key: string) => recorder.recordImpression(key);
  const uncounted = () => {};
  return (slots, req) => book.fill(slots, isReadersLoad(req) ? count : uncounted)?.fills ?? null;
}
