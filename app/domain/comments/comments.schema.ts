import type { Refusal } from "~/lib/forms";

// Browser-safe: no zod here, so the reader's article page does not load it (the checks are in comments.server.ts).

export const COMMENT_FAILED = "Failed to post comment. Please try again.";

/** Top-level comments an article page shows at first, and how many more "Show older comments" adds. */
export const COMMENT_THREADS_PER_PAGE = 100;

/** The comment form's field names (checked on the server by commentInputSchema in comments.server.ts). */
export type CommentFieldName = "authorName" | "authorEmail" | "content" | "parentCommentId" | "imageUrl" | "videoUrl";

/** The comment form's fields; a field left out altogether reads as blank, so it is missing too. */
export const COMMENT_FIELDS: CommentFieldName[] = ["authorName", "authorEmail", "content", "parentCommentId", "imageUrl", "videoUrl"];
export const REQUIRED_COMMENT_FIELDS = ["authorName", "authorEmail", "content"] as const;

/** What posting a comment answers the form: the spec's toasts are chosen from it; `held` when it awaits moderation. */
export type PostCommentResult = { ok: true; held?: boolean } | Refusal<CommentFieldName>;

/** The article page's query parameter naming a comment just posted without JavaScript, or "held" for one awaiting moderation. */
export const JUST_POSTED_PARAM = "comment";
export type JustPosted = { id: string } | { held: true };
const COMMENT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The element of a comment on the article page: the fragment a reader is sent to after posting it. */
export const commentAnchor = (id: string) => `comment-${id}`;
/** The comment form's box on the article page: where a held comment's reader lands. */
export const COMMENT_FORM_ANCHOR = "leave-a-comment";

/** What ?comment= says: a comment's id, "held", or nothing usable. */
export function justPostedOf(value: string | null): JustPosted | null {
  if (value === "held") return { held: true };
  return value && COMMENT_ID.test(value) ? { id: value.toLowerCase() } : null;
}

/** Where a comment posted without JavaScript takes its reader: back to the article, at the comment (or the form). */
export function justPostedPath(slug: string, posted: JustPosted): string {
  const base = `/article/${encodeURIComponent(slug)}?${JUST_POSTED_PARAM}=`;
  return "held" in posted ? `${base}held#${COMMENT_FORM_ANCHOR}` : `${base}${posted.id}#${commentAnchor(posted.id)}`;
}

/** What a reader is told when the comment was held for moderation (issue 12). */
export const COMMENT_HELD = "Your comment is awaiting moderation.";

/** The honeypot: a field people never see or reach, which bots fill (a refusal when it is not blank). */
export const HONEYPOT_FIELD = "website";
/** The form's signed "shown at" stamp (a minimum fill time). */
export const FORM_STARTED_FIELD = "formStarted";
/** The fields the comment form sends besides the comment itself. */
export const COMMENT_GUARD_FIELDS = [HONEYPOT_FIELD, FORM_STARTED_FIELD] as const;

/** More links than this, and a comment is held for moderation. */
export const MAX_LINKS_PUBLISHED = 2;
/** Why a comment was held: too many links, or a blocked e-mail or address. */
export type CommentHoldReason = "links" | "blocked";
export const HOLD_REASON_TEXT: Record<CommentHoldReason, string> = {
  links: `More than ${MAX_LINKS_PUBLISHED} links`,
  blocked: "Blocked e-mail or address",
};

/** Web addresses in a comment's text (http, https, or starting with www.): counted, and shown as links. */
export const COMMENT_URL = /\b(?:https?:\/\/|www\.)[^\s<>"]+[^\s<>".,;:!?)\]]/gi;

export function countLinks(text: string): number {
  return text.match(COMMENT_URL)?.length ?? 0;
}

/** A comment's text as pieces: plain text, and web addresses with the href they link to (http(s) only). */
export function commentTextParts(text: string): ({ text: string } | { text: string; href: string })[] {
  const parts: ({ text: string } | { text: string; href: string })[] = [];
  let last = 0;
  for (const match of text.matchAll(COMMENT_URL)) {
    if (match.index > last) parts.push({ text: text.slice(last, match.index) });
    const url = match[0];
    parts.push({ text: url, href: /^https?:\/\//i.test(url) ? url : `https://${url}` });
    last = match.index + url.length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}

/** What a public page may show of a comment: never the author's e-mail. */
export interface PublicComment {
  id: string;
  parentCommentId: string | null;
  authorName: string;
  content: string;
  imageUrl: string | null;
  videoUrl: string | null;
  createdAt: Date;
}

export interface CommentThread extends PublicComment {
  replies: PublicComment[];
}
