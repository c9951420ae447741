import { and, eq, gt, or, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { commentBlocks, comments } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import type { FormTimer } from "~/lib/form-timer.server";
import { takeAllowance } from "~/lib/rate-limit.server";
import { countLinks, MAX_LINKS_PUBLISHED, type CommentHoldReason } from "./comments.schema";

// The comment form's defences against spam (issue 12), as WordPress and Discourse have them: each
// refuses with a clear message or holds the comment for moderation; nothing is silently dropped.

/** The rules' settings (env: COMMENT_INTERVAL_SECONDS, COMMENT_MIN_FILL_SECONDS). */
export interface CommentSpamRules {
  /** One comment per address and per e-mail address within this many seconds (0: no limit). */
  intervalSeconds: number;
  /** The form must have been open this long (0: not checked, nor its stamp). */
  minFillSeconds: number;
  formTimer: FormTimer;
}

/** What a post says of itself beyond the comment: the honeypot field, the form's stamp, where it came from. */
export interface CommentPostFacts {
  articleId: string;
  email: string;
  content: string;
  /** The honeypot field's value: hidden from people, filled by bots. */
  honeypot: string;
  /** The form's signed "shown at" stamp. */
  formStarted: string;
  clientIp?: string;
}

export const SPAM_REFUSED = "Your comment could not be posted.";
export const TOO_FAST = "That was quick! Please take a moment to write your comment, then post it again.";
export const STALE_FORM = "The comment form has expired. Please reload the page and post your comment again.";
export const DUPLICATE_COMMENT = "Duplicate comment detected: it looks as though you've already said that!";
/** How far back an identical comment by the same person counts as a duplicate. */
const DUPLICATE_WINDOW = "24 hours";

const normalizedContent = (text: string) => text.trim().replace(/\s+/g, " ").toLowerCase();
const emailKey = (email: string) => email.trim().toLowerCase();

/**
 * Checks a post against the spam rules: throws an AppError for a refusal (honeypot, too fast, too
 * soon after the last one, a duplicate), and answers whether it must be held for moderation (more
 * than MAX_LINKS_PUBLISHED links, or a blocked e-mail or address) or may be published.
 */
export async function screenComment(db: Db, rules: CommentSpamRules, post: CommentPostFacts, now = new Date()): Promise<CommentHoldReason | null> {
  if (post.honeypot.trim() !== "") throw new AppError("invalid_input", SPAM_REFUSED);
  if (rules.minFillSeconds > 0) {
    const elapsed = rules.formTimer.elapsedMs(post.formStarted, now);
    if (elapsed === null) throw new AppError("invalid_input", STALE_FORM);
    if (elapsed < rules.minFillSeconds * 1000) throw new AppError("rate_limited", TOO_FAST);
  }
  const email = emailKey(post.email);
  const [duplicate] = await db
    .select({ id: comments.id })
    .from(comments)
    .where(
      and(
        eq(comments.articleId, post.articleId),
        gt(comments.createdAt, sql`now() - ${DUPLICATE_WINDOW}::interval`),
        or(sql`lower(${comments.authorEmail}) = ${email}`, post.clientIp ? eq(comments.authorAddress, post.clientIp) : undefined),
        sql`lower(regexp_replace(btrim(${comments.content}), '\\s+', ' ', 'g')) = ${normalizedContent(post.content)}`,
      ),
    )
    .limit(1);
  if (duplicate) throw new AppError("invalid_input", DUPLICATE_COMMENT, { status: 409, field: "content" });
  if (rules.intervalSeconds > 0) {
    const rule = { bucket: "comment-interval", max: 1, windowMs: rules.intervalSeconds * 1000, refusal: "" };
    for (const key of [post.clientIp ? `address ${post.clientIp}` : null, `email ${email}`]) {
      if (!key) continue;
      const allowance = await takeAllowance(db, rule, key, now);
      if (allowance.limited) {
        const seconds = allowance.retryAfterSeconds;
        throw new AppError("rate_limited", `Please wait ${seconds} ${seconds === 1 ? "second" : "seconds"} before posting another comment.`);
      }
    }
  }
  const blocks = await db
    .select({ kind: commentBlocks.kind })
    .from(commentBlocks)
    .where(
      or(
        and(eq(commentBlocks.kind, "email"), eq(commentBlocks.value, email)),
        post.clientIp ? and(eq(commentBlocks.kind, "address"), eq(commentBlocks.value, post.clientIp)) : undefined,
      ),
    )
    .limit(1);
  if (blocks.length > 0) return "blocked";
  if (countLinks(post.content) > MAX_LINKS_PUBLISHED) return "links";
  return null;
}
