import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { AUDIENCE_SOURCES, type AudienceConversion, type AudienceSource } from "~/db/schema";
import { clientIpOf } from "~/lib/client-address.server";
import type { Logger } from "~/lib/logger.server";
import type { AudienceRecorder } from "./audience-recorder.server";
import { SOURCE_VALUE_MAX } from "./audience-source";
import { visitorHash } from "./visitor-hash.server";

// Conversions (issue 42, decision 0058): a newsletter sign-up, a new member or a paid subscription,
// credited to the visitor's latest story today and their first source today, found by the hash of the
// sign-up's own request (no cookie, no JavaScript). A visitor never counted today: direct, no story.

/** What a conversion is credited to. */
export interface Attribution {
  articleId: string | null;
  source: AudienceSource;
  sourceHost: string;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
  ref: string;
}

export const DIRECT: Attribution = { articleId: null, source: "direct", sourceHost: "", utmSource: "", utmMedium: "", utmCampaign: "", ref: "" };

/** Who converted: the request's client address and user agent (never stored), and when. */
export interface Converter {
  address: string;
  userAgent: string;
  at?: Date;
}

/** What looking a visitor up needs of the recorder: today's salt, the site, and its buffer written first. */
export type AudienceLookup = Pick<AudienceRecorder, "salts" | "siteOrigin" | "flush">;

/** The story and source a visitor of today is credited with (DIRECT when they were not counted today). */
export async function attributionOf(db: Db, audience: AudienceLookup, who: Converter): Promise<Attribution> {
  const at = (who.at ?? new Date(audience.salts.now())).getTime();
  // A load still in this process's buffer (a sign-up a moment after the page) counts too.
  await audience.flush();
  const salt = await audience.salts.salt(at);
  if (!salt) return DIRECT;
  const visitor = visitorHash(salt.salt, audience.siteOrigin, who.address, who.userAgent);
  const from = new Date(salt.from).toISOString();
  const to = new Date(Math.min(salt.to, at + 1)).toISOString();
  const { rows } = await db.execute<{ article_id: string | null; source: AudienceSource; source_host: string; utm_source: string; utm_medium: string; utm_campaign: string; ref: string }>(sql`
    select
      (select e.article_id from audience_events e
        where e.visitor = ${visitor} and e.at >= ${from}::timestamptz and e.at < ${to}::timestamptz and e.article_id is not null
        order by e.at desc limit 1) as article_id,
      f.source, f.source_host, f.utm_source, f.utm_medium, f.utm_campaign, f.ref
    from (select source, source_host, utm_source, utm_medium, utm_campaign, ref from audience_events
      where visitor = ${visitor} and at >= ${from}::timestamptz and at < ${to}::timestamptz
      order by at limit 1) f`);
  const row = rows[0];
  if (!row) return DIRECT;
  return { articleId: row.article_id, source: row.source, sourceHost: row.source_host, utmSource: row.utm_source, utmMedium: row.utm_medium, utmCampaign: row.utm_campaign, ref: row.ref };
}

/**
 * Stores a conversion credited to `attribution` (a story deleted meanwhile: no story). With
 * `once`, a conversion of that kind, time and credit is stored once (a Stripe event applied again).
 */
export async function insertConversion(db: Db, kind: AudienceConversion, attribution: Attribution, at: Date, options: { once?: boolean } = {}) {
  const a = attribution;
  const stamp = at.toISOString();
  await db.execute(sql`
    insert into audience_conversions (at, kind, article_id, source, source_host, utm_source, utm_medium, utm_campaign, ref)
    select ${stamp}::timestamptz, ${kind}, (select id from articles where id = ${a.articleId}::uuid), ${a.source}, ${a.sourceHost}, ${a.utmSource}, ${a.utmMedium}, ${a.utmCampaign}, ${a.ref}
    where not ${options.once === true} or not exists (
      select 1 from audience_conversions c
      where c.kind = ${kind} and c.at = ${stamp}::timestamptz and c.source = ${a.source} and c.article_id is not distinct from (select id from articles where id = ${a.articleId}::uuid)
    )`);
}

/** A conversion by the client of a request: attributed, then stored. */
export async function recordConversion(db: Db, kind: AudienceConversion, who: Converter, audience: AudienceLookup): Promise<Attribution> {
  const attribution = await attributionOf(db, audience, who);
  await insertConversion(db, kind, attribution, who.at ?? new Date());
  return attribution;
}

/** The converter of a request answered by the app (the address Express derived, the user agent). */
export const converterOf = (request: Request): Converter => ({ address: clientIpOf(request), userAgent: request.headers.get("user-agent") ?? "" });

/**
 * Credits a conversion to the reader of `request`, unless audience recording is off. Never throws:
 * analytics failing must not fail a sign-up (logged instead).
 */
export async function creditConversion(context: { db: Db; audience: AudienceLookup; log: Logger; env: { AUDIENCE_RECORDING: boolean } }, kind: AudienceConversion, request: Request): Promise<void> {
  try {
    if (!context.env.AUDIENCE_RECORDING) return;
    await recordConversion(context.db, kind, converterOf(request), context.audience);
  } catch (error) {
    context.log.warn({ err: error, kind }, "could not record an audience conversion");
  }
}

/** The attribution of the reader of `request` (DIRECT when recording is off or it fails), for a Stripe Checkout's metadata. */
export async function attributionForCheckout(context: { db: Db; audience: AudienceLookup; log: Logger; env: { AUDIENCE_RECORDING: boolean } }, request: Request): Promise<Attribution | null> {
  try {
    if (!context.env.AUDIENCE_RECORDING) return null;
    return await attributionOf(context.db, context.audience, converterOf(request));
  } catch (error) {
    context.log.warn({ err: error }, "could not attribute a Checkout");
    return null;
  }
}

/** A Checkout session's metadata keys for an attribution (Stripe: keys ≤ 40 characters, values ≤ 500). */
export function attributionMetadata(a: Attribution): Record<string, string> {
  return {
    audience_article: a.articleId ?? "",
    audience_source: a.source,
    audience_source_host: a.sourceHost,
    audience_utm_source: a.utmSource,
    audience_utm_medium: a.utmMedium,
    audience_utm_campaign: a.utmCampaign,
    audience_ref: a.ref,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The attribution a Checkout session carries (null: none, a session started without it). */
export function attributionFromMetadata(metadata: Record<string, string> | null | undefined): Attribution | null {
  const source = metadata?.audience_source;
  if (!metadata || !source || !(AUDIENCE_SOURCES as readonly string[]).includes(source)) return null;
  const text = (key: string) => (metadata[key] ?? "").slice(0, SOURCE_VALUE_MAX);
  const article = metadata.audience_article ?? "";
  return {
    articleId: UUID.test(article) ? article : null,
    source: source as AudienceSource,
    sourceHost: text("audience_source_host"),
    utmSource: text("audience_utm_source"),
    utmMedium: text("audience_utm_medium"),
    utmCampaign: text("audience_utm_campaign"),
    ref: text("audience_ref"),
  };
}
