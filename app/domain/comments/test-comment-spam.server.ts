import { createFormTimer } from "~/lib/form-timer.server";
import type { CommentSpamRules } from "./comment-spam.server";

/** Spam rules for tests that render the article page without posting through them (timing rules off). */
export const testCommentSpam: CommentSpamRules = { intervalSeconds: 0, minFillSeconds: 0, formTimer: createFormTimer("a-test-secret-of-at-least-32-characters!!") };
