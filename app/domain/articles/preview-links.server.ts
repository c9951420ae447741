import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { articles } from "~/db/schema";
import type { Actor } from "~/domain/accounts/actor";
import { recordActivity } from "~/domain/activity/activity.server";
import { AppError } from "~/lib/app-error";
import { isUuid } from "~/lib/ids";
import { openableArticle } from "./article-access.server";

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
 * back-office account. The token is `<article id>.<expiry, base-36 seconds>[.changes].<HMAC-SHA256>`;
 * the signature also covers the story's preview key (the articles table's `preview_key`, looked up by
 * the id when a link is made and when it is read), so "Revoke preview links", which changes that key,
 * ends every link made before (issue 28). Nothing else is stored, so any app process with the same
 * secret reads it (stateless servers). The key is derived from the session secret for this one
 * purpose, so a token can never pass for anything else.
 */
export interface PreviewLinks {
  create(articleId: string, now?: Date, scope?: PreviewScope): Promise<PreviewLink>;
  read(token: string, now?: Date): Promise<PreviewTokenReading>;
}

/** A story's preview key, or null for an unknown story (its links are refused). */
export type PreviewKeyLookup = (articleId: string) => Promise<string | null>;

export function createPreviewLinks(secret: string, previewKeyOf: PreviewKeyLookup): PreviewLinks {
  const key = createHmac("sha256", secret).update("frontpage preview links v1").digest();
  // A story never revoked has the empty key: its links are signed as they were before keys existed.
  const sign = (payload: string, previewKey: string) =>
    createHmac("sha256", key)
      .update(previewKey ? `${payload}\n${previewKey}` : payload)
      .digest("base64url");

  return {
    async create(articleId, now = new Date(), scope = "draft") {
      if (!isUuid(articleId)) throw new TypeError("A preview link names an article by its id.");
      const previewKey = await previewKeyOf(articleId.toLowerCase());
      if (previewKey === null) throw new AppError("not_found", "This article no longer exists.");
      const expiresAt = new Date(Math.ceil((now.getTime() + PREVIEW_LINK_DAYS * DAY_MS) / 1000) * 1000);
      const payload = `${articleId.toLowerCase()}.${(expiresAt.getTime() / 1000).toString(36)}${scope === "changes" ? ".changes" : ""}`;
      return { path: `/preview/${payload}.${sign(payload, previewKey)}`, expiresAt };
    },
    async read(token, now = new Date()) {
      const parts = token.split(".");
      if (parts.length !== 3 && !(parts.length === 4 && parts[2] === "changes")) return { ok: false, reason: "invalid" };
      const [articleId, expiry] = parts as [string, string];
      const signature = parts.at(-1)!;
      if (!isUuid(articleId) || !/^[0-9a-z]{1,10}$/.test(expiry) || !/^[A-Za-z0-9_-]{43}$/.test(signature)) return { ok: false, reason: "invalid" };
      const previewKey = await previewKeyOf(articleId);
      if (previewKey === null) return { ok: false, reason: "invalid" };
      const expected = Buffer.from(sign(parts.slice(0, -1).join("."), previewKey));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "invalid" };
      const expiresAt = new Date(parseInt(expiry, 36) * 1000);
      if (expiresAt.getTime() <= now.getTime()) return { ok: false, reason: "expired" };
      return { ok: true, articleId, expiresAt, scope: parts.length === 4 ? "changes" : "draft" };
    },
  };
}

/** The story's preview key from the articles table, or null for an unknown id. */
export async function previewKeyOf(db: Pick<Db, "select">, articleId: string): Promise<string | null> {
  if (!isUuid(articleId)) return null;
  const [row] = await db.select({ previewKey: articles.previewKey }).from(articles).where(eq(articles.id, articleId));
  return row ? row.previewKey : null;
}

/**
 * "Revoke preview links": gives the story a new preview key, so every shared link made before stops
 * opening (a new one can be made at once), and records it in the activity log. Allowed to whoever may
 * make a link: editors, and authors on their own drafts (403 otherwise); 404 for an unknown story.
 */
export async function revokePreviewLinks(db: Db, actor: Actor, articleId: string): Promise<void> {
  await db.transaction(async (tx) => {
    if (!(await openableArticle(tx, articleId, actor))) throw new AppError("not_found", "This article no longer exists.");
    const [row] = await tx
      .update(articles)
      .set({ previewKey: randomBytes(16).toString("base64url") })
      .where(eq(articles.id, articleId))
      .returning({ title: articles.title });
    if (!row) throw new AppError("not_found", "This article no longer exists.");
    await recordActivity(tx, actor, { kind: "article.revoke_preview_links", objectType: "article", objectId: articleId, objectLabel: row.title });
  });
}
