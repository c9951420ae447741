import { z } from "zod";

// The front page's hand-placed stories (issue 27, decision 0034): browser-safe constants and the
// shapes the /admin/front-page screen and the "Feature on the front page" toggle send.

/** The most top stories an editor may pin on the home page (the lead is apart). */
export const MAX_TOP_PINS = 6;

/** The home page's pinned places. */
export const HOME_PLACEMENTS = ["lead", "top"] as const;
export type HomePlacement = (typeof HOME_PLACEMENTS)[number];

/** What a pin form may send: the story, where, and an optional "until" (a datetime-local value on the site's clock). */
export const pinFormSchema = z.object({
  articleId: z.string().trim().min(1, "Choose a story to pin"),
  placement: z.enum(["lead", "top", "category"], { message: "Choose where the story goes: lead, top story or a category" }),
  categoryId: z.string().trim(),
  until: z.string().trim().max(40, "Enter the date and time the pin ends"),
});
export type PinFormInput = z.output<typeof pinFormSchema>;

/** The messages the server refuses with (also shown by the screen). */
export const PIN_MESSAGES = {
  notPublic: "Only a published story can be pinned: this one is a draft, scheduled, or no longer exists.",
  unknownStory: "That story does not exist.",
  pastUntil: "The pin must end at a time in the future.",
  badUntil: "Enter the date and time the pin ends, or leave it empty to keep the pin until you remove it.",
  tooManyTop: `The home page holds at most ${MAX_TOP_PINS} pinned top stories. Remove one first.`,
  unknownPin: "That pin no longer exists. The page has been reloaded.",
  unknownCategory: "That category no longer exists.",
  badExplore: "Choose categories that exist, each once.",
} as const;

/** A pinned story as the admin screen shows it. */
export interface PinView {
  id: string;
  placement: "lead" | "top" | "category";
  categoryId: string | null;
  articleId: string;
  title: string;
  slug: string;
  position: number;
  until: string | null;
  /** False once the reader pages no longer show it: see hiddenBecause. */
  showing: boolean;
  /** Why not: the story is no longer public, has moved out of the pin's category, or the pin's time has passed. */
  hiddenBecause: "not-public" | "moved" | "ended" | null;
}

/** A story the search found (public, newest first). */
export interface PinnableStory {
  id: string;
  title: string;
  slug: string;
  categoryId: string | null;
  categoryName: string | null;
  publishedAt: string;
}

/** What the front-page screen's actions answer. */
export type FrontPageIntent = "pin" | "unpin" | "move" | "reorder" | "until" | "explore" | "feature" | "unfeature";
export const FRONT_PAGE_INTENTS: readonly FrontPageIntent[] = ["pin", "unpin", "move", "reorder", "until", "explore", "feature", "unfeature"];
