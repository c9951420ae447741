// The review queue's shapes and texts, browser-safe (decision 0017).

export const REVIEW_NOTE_MAX = 2000;

/** Where an article stands in review: waiting since `requestedAt`, or sent back with a note. */
export interface ReviewState {
  requestedAt: string | null;
  note: string | null;
  noteByName: string | null;
  noteAt: string | null;
}

export interface ReviewQueueItem {
  id: string;
  title: string;
  requestedAt: string;
  submittedBy: string;
}

export const SUBMIT_INTENT = "submit";
export const SEND_BACK_INTENT = "send-back";
