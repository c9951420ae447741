import { createHmac, timingSafeEqual } from "node:crypto";
import { isUuid } from "~/lib/ids";

/** How long a shared preview link works (stated in the form beside the link). */
export const PREVIEW_LINK_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A signed preview link: its path on this site and when it stops working. */
export interface PreviewLink {
  path: string;
  expiresAt: Date;
}

/**
 * What a link was made to show: "draft", a story not yet public (once it is, the link leads to its
 * page); "changes", a published story's changes saved for later (decision 0033). A link made for a
 * draft never shows changes saved after publication: whoever was sent it was shown a draft, not
 * whatever the newsroom drafts next.
 */
export type PreviewScope = "draft" | "changes";

/** What a token says, once its signature holds. */
export type PreviewTokenReading = { ok: true; articleId: string; expiresAt: Date; scope: PreviewScope } | { ok: false; reason: "invalid" | "expired" };

/**
 * Signed, expiring preview links (issue 9): a draft or scheduled article shown to someone without a
 * back-office account. The token is `<article id>.<expiry, base-36 seconds>.<HMAC-SHA256>`; nothing is
 * stored, so any app process with the same secret reads it (stateless servers). The key is derived
 * from the session secret for this one purpose, so a token can never pass for anything else.
 */
export interface PreviewLinks {
  create(articleId: string, now?: Date, scope?: PreviewScope): PreviewLink;
  read(token: string, now?: Date): PreviewTokenReading;
}

export function createPreviewLinks(secret: string): PreviewLinks {
  const key = createHmac("sha256", secret).update("frontpage preview links v1").digest();
  const sign = (payload: string) => createHmac("sha256", key).update(payload).digest("base64url");

  return {
    create(articleId, now = new Date(), scope = "draft") {
      if (!isUuid(articleId)) throw new TypeError("A preview link names an article by its id.");
      const expiresAt = new Date(Math.ceil((now.getTime() + PREVIEW_LINK_DAYS * DAY_MS) / 1000) * 1000);
      const payload = `${articleId.toLowerCase()}.${(expiresAt.getTime() / 1000).toString(36)}${scope === "changes" ? ".changes" : ""}`;
      return { path: `/preview/${payload}.${sign(payload)}`, expiresAt };
    },
    read(token, now = new Date()) {
      const parts = token.split(".");
      if (parts.length !== 3 && !(parts.length === 4 && parts[2] === "changes")) return { ok: false, reason: "invalid" };
      const [articleId, expiry] = parts as [string, string];
      const signature = parts.at(-1)!;
      if (!isUuid(articleId) || !/^[0-9a-z]{1,10}$/.test(expiry)) return { ok: false, reason: "invalid" };
      const expected = Buffer.from(sign(parts.slice(0, -1).join(".")));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "invalid" };
      const expiresAt = new Date(parseInt(expiry, 36) * 1000);
      if (expiresAt.getTime() <= now.getTime()) return { ok: false, reason: "expired" };
      return { ok: true, articleId, expiresAt, scope: parts.length === 4 ? "changes" : "draft" };
    },
  };
}
