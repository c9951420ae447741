import { z } from "zod";
import { storyDocumentField, type StoryDocument } from "~/domain/articles/story-document.schema";
import { isUuid } from "~/lib/ids";

// Live coverage in the back office (issue 31): the "Live updates" panel's form and the requests of its
// buttons, as the browser sends them and the server checks them. Every one posts to the route
// admin/articles/live/:id (the one home of the live-update writes), naming what it does in `intent`.

export const LIVE_INTENTS = ["post", "edit", "delete", "pin", "unpin", "start", "end", "restart"] as const;
export type LiveIntent = (typeof LIVE_INTENTS)[number];
export const isLiveIntent = (value: unknown): value is LiveIntent => typeof value === "string" && (LIVE_INTENTS as readonly string[]).includes(value);

/** The longest headline an update may have. */
export const LIVE_HEADLINE_MAX = 200;

/** The fields of the update form (post and edit). `content` is the body's plain text the form sends without the editor (no JavaScript). */
export type LiveUpdateFieldName = "headline" | "contentDoc" | "content" | "authorId" | "keyEvent";
export const LIVE_UPDATE_FIELDS: LiveUpdateFieldName[] = ["headline", "contentDoc", "content", "authorId", "keyEvent"];

/** The article form's "Live coverage" checkbox (sent only by a form that shows it: a story never live). */
export const LIVE_COVERAGE_FIELD = "liveCoverage";

export const LIVE_REFUSALS = {
  ended: "Live coverage has ended. Restart it to post updates.",
  notLive: "This story is not live.",
  notStarted: "Live coverage of this story has not started.",
  alreadyLive: "This story is live already.",
  notEnded: "Live coverage of this story has not ended.",
  notOnByline: "You can post updates only on live stories whose byline names you. Ask an editor.",
  notYours: "You can change only your own updates. Ask an editor.",
  editorsOnly: "Only editors and admins can start, end or restart live coverage, and pin updates.",
  updateGone: "This update no longer exists.",
  storyGone: "This article no longer exists.",
  emptyBody: "Write the update.",
} as const;

/** The update form as the server reads it. The body is the story editor's document (the story's own allow-list). */
export const liveUpdateSchema = z.object({
  headline: z
    .string()
    .trim()
    .max(LIVE_HEADLINE_MAX, `The headline must be at most ${LIVE_HEADLINE_MAX} characters.`)
    .transform((v) => (v === "" ? null : v)),
  contentDoc: storyDocumentField,
  content: z.string().max(100_000, "The update is too long."),
  authorId: z
    .string()
    .trim()
    .refine((v) => v === "" || isUuid(v), "Choose an author from the list.")
    .transform((v) => (v === "" ? null : v)),
  keyEvent: z.string().transform((v) => v !== ""),
});

export type LiveUpdateInput = z.output<typeof liveUpdateSchema>;

/** An update as the panel lists it: what it shows, the form's values for Edit, and what the viewer may do with it. */
export interface AdminLiveUpdate {
  id: string;
  headline: string | null;
  content: string;
  contentDoc: StoryDocument | null;
  authorId: string | null;
  authorName: string | null;
  createdAt: string;
  editedAt: string | null;
  keyEvent: boolean;
  pinned: boolean;
  /** Edit, Delete and the key event mark. */
  mayChange: boolean;
}

/** The "Live updates" panel's data: the story's live state, the viewer's rights, its updates newest first. */
export interface LivePanelData {
  story: {
    id: string;
    title: string;
    slug: string;
    status: "draft" | "scheduled" | "published";
    startedAt: string | null;
    endedAt: string | null;
    live: boolean;
  };
  /** Post updates (the form shows only then). */
  mayPost: boolean;
  /** Start, end, restart, pin and unpin. */
  mayManage: boolean;
  /** May open the screen at all (else 403). */
  mayOpen: boolean;
  /** The Author field's first choice: the writer's own author record. */
  defaultAuthorId: string | null;
  updates: AdminLiveUpdate[];
}
