import { AppError } from "../../app/lib/app-error";
import type { CdnSettings } from "../../app/lib/env.server";
import { authorTag, categoryTag, FEEDS_TAG, HOME_TAG, REDIRECTS_TAG, SITE_TAG, SITEMAPS_TAG, tagTag, articleTag } from "../../app/lib/cache-tags.server";

// The CDN purge adapters (issue 32, decision 0045): each turns a set of cache tags (the ones the page
// cache clears: server/page-cache.ts cacheChangeOf) into its CDN's purge requests, in batches within
// that CDN's limits. A request the CDN refuses (or cannot be sent) throws a PurgeRefused naming the
// adapter and the status, never the credential: the purge job logs it and tries again later.

/** What one purge asks: the tags to purge (SITE_TAG: every page). */
export interface PurgeRequest {
  tags: readonly string[];
}

export interface PurgeAdapter {
  /** fastly, cloudflare, varnish or webhook. */
  readonly name: string;
  /** Sends the purge, batch by batch; throws PurgeRefused at the first batch refused. */
  purge(request: PurgeRequest): Promise<void>;
  /**
   * Whether the CDN accepts the credentials (asked once at start: decision 0045). Throws PurgeRefused
   * when it refuses them or cannot be reached.
   */
  verify(): Promise<void>;
}

/**
 * A purge the CDN refused (cdnStatus: its HTTP status) or that could not be sent (cdnStatus: null, and
 * why). An AppError of code upstream_failed: `status` stays that code's 502, what this site would answer.
 */
export class PurgeRefused extends AppError {
  constructor(
    readonly adapter: string,
    readonly cdnStatus: number | null,
    reason: string,
  ) {
    super("upstream_failed", `${adapter} purge refused: ${reason}`);
    this.name = "PurgeRefused";
  }
}

/** How long one purge request may take before it counts as failed. */
const REQUEST_TIMEOUT_MS = 10_000;

/**
 * The batches' limits, from each CDN's documentation (checked 2026): Fastly purges at most 256
 * surrogate keys per request; Cloudflare 30 tags, or 30 URLs (outside Enterprise), per call; a
 * Varnish request header is at most 8 KB (http_req_hdr_len): a few thousand characters of keys.
 */
export const BATCH = { fastlyKeys: 256, cloudflareTags: 30, cloudflareUrls: 30, varnishHeaderChars: 4000, webhookTags: 1000 } as const;

/** `items` in slices of at most `size`. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** `tags` in space-separated strings of at most `chars` characters. */
function joinedWithin(tags: readonly string[], chars: number): string[] {
  const out: string[] = [];
  let line = "";
  for (const tag of tags) {
    if (line && line.length + 1 + tag.length > chars) {
      out.push(line);
      line = "";
    }
    line = line ? `${line} ${tag}` : tag;
  }
  if (line) out.push(line);
  return out;
}

type Fetch = typeof fetch;

/** One HTTP request of a purge: anything but a 2xx (or a network failure) is a PurgeRefused. */
async function send(adapter: string, fetchImpl: Fetch, url: string, init: RequestInit, accepted?: (body: string) => boolean): Promise<void> {
  let response: Response;
  try {
    response = await fetchImpl(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS), redirect: "manual" });
  } catch (error) {
    // The message of a network error names the host at most (never a header).
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    throw new PurgeRefused(adapter, null, `could not reach ${new URL(url).host} (${cause})`);
  }
  const body = await response.text().catch(() => "");
  if (!response.ok) throw new PurgeRefused(adapter, response.status, `HTTP ${response.status}`);
  if (accepted && !accepted(body)) throw new PurgeRefused(adapter, response.status, `HTTP ${response.status} without success`);
}

/**
 * The public addresses a set of tags names, for a CDN purged by URL (Cloudflare outside Enterprise):
 * each page as HTML and as its client-navigation data (`.data`), and its feed. Null when the tags
 * name every page (SITE_TAG) or answers no address names (REDIRECTS_TAG): then everything is purged.
 * Pages no tag names by address (another story's page showing this one as a card, a list's page 2)
 * are not in it: they wait for their shared-cache lifetime (decision 0045).
 */
export function urlsOfTags(tags: readonly string[], publicUrl: string): string[] | null {
  if (tags.includes(SITE_TAG) || tags.includes(REDIRECTS_TAG)) return null;
  const origin = publicUrl.replace(/\/+$/, "");
  const paths = new Set<string>();
  const page = (path: string, feed: boolean) => {
    paths.add(path);
    paths.add(`${path}.data`);
    if (feed) paths.add(`${path}/rss.xml`);
  };
  for (const tag of tags) {
    const [kind, slug] = splitTag(tag);
    if (tag === HOME_TAG) {
      paths.add("/");
      paths.add("/_root.data");
    } else if (tag === FEEDS_TAG) paths.add("/rss.xml");
    else if (tag === SITEMAPS_TAG) {
      for (const path of ["/sitemap.xml", "/news-sitemap.xml", "/sitemaps/categories.xml", "/sitemaps/authors.xml", "/sitemaps/tags.xml"]) paths.add(path);
    } else if (slug && tag === articleTag(slug) && kind === "article") page(`/article/${encodeURIComponent(slug)}`, true);
    else if (slug && tag === categoryTag(slug) && kind === "category") page(`/category/${encodeURIComponent(slug)}`, true);
    else if (slug && tag === authorTag(slug) && kind === "author") page(`/author/${encodeURIComponent(slug)}`, true);
    else if (slug && tag === tagTag(slug) && kind === "tag") page(`/tag/${encodeURIComponent(slug)}`, true);
  }
  return [...paths].map((path) => `${origin}${path}`);
}

function splitTag(tag: string): [string, string | null] {
  const at = tag.indexOf(":");
  return at === -1 ? [tag, null] : [tag.slice(0, at), tag.slice(at + 1)];
}

/** The adapter for the CDN `settings` name; `publicUrl` is the site's origin (Cloudflare's URL purges). */
export function createPurgeAdapter(settings: CdnSettings, publicUrl: string, fetchImpl: Fetch = fetch): PurgeAdapter {
  switch (settings.CDN) {
    case "fastly":
      return fastly(settings, fetchImpl);
    case "cloudflare":
      return cloudflare(settings, publicUrl, fetchImpl);
    case "varnish":
      return varnish(settings, fetchImpl);
    case "webhook":
      return webhook(settings, publicUrl, fetchImpl);
  }
}

type SettingsOf<K extends CdnSettings["CDN"]> = Extract<CdnSettings, { CDN: K }>;

/** Fastly: POST /service/{id}/purge with the keys in Surrogate-Key (bulk purge, 256 keys a request). */
function fastly(settings: SettingsOf<"fastly">, fetchImpl: Fetch): PurgeAdapter {
  const base = settings.FASTLY_API_URL.replace(/\/+$/, "");
  const headers = { "Fastly-Key": settings.FASTLY_API_TOKEN, Accept: "application/json" };
  return {
    name: "fastly",
    async purge({ tags }) {
      for (const keys of chunks([...new Set(tags)], BATCH.fastlyKeys)) {
        await send("fastly", fetchImpl, `${base}/service/${encodeURIComponent(settings.FASTLY_SERVICE_ID)}/purge`, {
          method: "POST",
          headers: { ...headers, "Surrogate-Key": keys.join(" ") },
        });
      }
    },
    async verify() {
      // The token itself (any valid token may read it; a purge-only token may read nothing else): 401
      // for a bad one; refused too when it can purge neither everything nor this service.
      let token: { scopes?: unknown; services?: unknown } = {};
      await send("fastly", fetchImpl, `${base}/tokens/self`, { method: "GET", headers }, (body) => {
        try {
          token = JSON.parse(body) as typeof token;
          return true;
        } catch {
          return false;
        }
      });
      const scopes = typeof token.scopes === "string" ? token.scopes.split(/\s+/) : null;
      if (scopes && !scopes.some((scope) => ["global", "purge_select", "purge_all"].includes(scope))) throw new PurgeRefused("fastly", 403, "the token has no purge scope");
      const services = Array.isArray(token.services) ? token.services : [];
      if (services.length > 0 && !services.includes(settings.FASTLY_SERVICE_ID)) throw new PurgeRefused("fastly", 403, "the token is not for FASTLY_SERVICE_ID");
    },
  };
}

/** Cloudflare: POST /client/v4/zones/{zone}/purge_cache, by tags (Enterprise) or by the URLs the tags name. */
function cloudflare(settings: SettingsOf<"cloudflare">, publicUrl: string, fetchImpl: Fetch): PurgeAdapter {
  const base = settings.CLOUDFLARE_API_URL.replace(/\/+$/, "");
  const zone = `${base}/client/v4/zones/${encodeURIComponent(settings.CLOUDFLARE_ZONE_ID)}`;
  const headers = { Authorization: `Bearer ${settings.CLOUDFLARE_API_TOKEN}`, "Content-Type": "application/json" };
  const succeeded = (body: string) => {
    try {
      return (JSON.parse(body) as { success?: unknown }).success === true;
    } catch {
      return false;
    }
  };
  const post = (body: unknown) => send("cloudflare", fetchImpl, `${zone}/purge_cache`, { method: "POST", headers, body: JSON.stringify(body) }, succeeded);
  return {
    name: "cloudflare",
    async purge({ tags }) {
      const unique = [...new Set(tags)];
      if (settings.CLOUDFLARE_PURGE_BY === "tags") {
        for (const batch of chunks(unique, BATCH.cloudflareTags)) await post({ tags: batch });
        return;
      }
      const urls = urlsOfTags(unique, publicUrl);
      if (urls === null) return void (await post({ purge_everything: true }));
      for (const batch of chunks(urls, BATCH.cloudflareUrls)) await post({ files: batch });
    },
    async verify() {
      // The token's own check (any valid token may ask; a purge-only token may read no zone): 401 for a bad one.
      await send("cloudflare", fetchImpl, `${base}/client/v4/user/tokens/verify`, { method: "GET", headers }, succeeded);
    },
  };
}

/**
 * Varnish with the xkey vmod (deploy/varnish/default.vcl): a PURGE request whose `xkey-purge` header
 * lists the keys, to every Varnish of VARNISH_URL; allowed only from the addresses of the VCL's ACL.
 */
function varnish(settings: SettingsOf<"varnish">, fetchImpl: Fetch): PurgeAdapter {
  const purgeAll = async (keys: string) => {
    // Every Varnish machine, at once: one refusing fails the purge (it is tried again on all).
    const results = await Promise.allSettled(settings.VARNISH_URL.map((server) => send("varnish", fetchImpl, server, { method: "PURGE", headers: { "xkey-purge": keys } })));
    const failed = results.find((result): result is PromiseRejectedResult => result.status === "rejected");
    if (failed) throw failed.reason;
  };
  return {
    name: "varnish",
    async purge({ tags }) {
      for (const keys of joinedWithin([...new Set(tags)], BATCH.varnishHeaderChars)) await purgeAll(keys);
    },
    async verify() {
      // A key no page carries: purges nothing, but a Varnish whose ACL refuses this machine says 403.
      await purgeAll("frontpage-purge-check");
    },
  };
}

/** A webhook: POST of JSON `{ tags, urls }` (urls: what the tags name, as for Cloudflare; null for everything). */
function webhook(settings: SettingsOf<"webhook">, publicUrl: string, fetchImpl: Fetch): PurgeAdapter {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (settings.CDN_WEBHOOK_SECRET) headers.Authorization = `Bearer ${settings.CDN_WEBHOOK_SECRET}`;
  return {
    name: "webhook",
    async purge({ tags }) {
      for (const batch of chunks([...new Set(tags)], BATCH.webhookTags)) {
        await send("webhook", fetchImpl, settings.CDN_WEBHOOK_URL, { method: "POST", headers, body: JSON.stringify({ tags: batch, urls: urlsOfTags(batch, publicUrl) }) });
      }
    },
    async verify() {},
  };
}
