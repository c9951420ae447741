import { LONG_SHARED_SECONDS, purgedSharedCache, SHORT_SHARED_CACHE, URL_PURGED_SHARED_SECONDS, type SharedCacheHeaders } from "../../app/lib/cache-control";
import { cdnSettingsOf, type Env } from "../../app/lib/env.server";
import { createPurgeAdapter, PurgeRefused, type PurgeAdapter } from "./adapters";

// Whether this site purges a CDN (decision 0045), found once per process: the settings (CDN=…), then
// whether the CDN accepts the credentials. Anything wrong turns purging off (never the start) and
// keeps the short shared-cache lifetime: a CDN nothing purges must not keep pages for a day.

export type CdnState =
  /** Purging is on, with this adapter; `sharedCache` is the lifetime pages get. */
  | { on: true; adapter: PurgeAdapter; sharedCache: SharedCacheHeaders }
  /** Purging is off: why (null: no CDN configured). */
  | { on: false; reason: string | null };

let found: { key: string; state: Promise<CdnState> } | null = null;

/**
 * This process's CDN state for `env` (asked once: the site services and the request services of one
 * process share it). `fetchImpl` for tests.
 */
export function cdnStateOf(env: Env, fetchImpl: typeof fetch = fetch): Promise<CdnState> {
  const key = JSON.stringify([
    env.publicUrl,
    ...[env.CDN, env.FASTLY_API_TOKEN, env.FASTLY_SERVICE_ID, env.FASTLY_API_URL, env.CLOUDFLARE_API_TOKEN, env.CLOUDFLARE_ZONE_ID, env.CLOUDFLARE_PURGE_BY, env.CLOUDFLARE_API_URL],
    ...[env.VARNISH_URL, env.CDN_WEBHOOK_URL, env.CDN_WEBHOOK_SECRET],
  ]);
  if (found?.key === key && fetchImpl === fetch) return found.state;
  const state = findCdnState(env, fetchImpl);
  if (fetchImpl === fetch) found = { key, state };
  return state;
}

async function findCdnState(env: Env, fetchImpl: typeof fetch): Promise<CdnState> {
  const configured = cdnSettingsOf(env);
  if (configured === null) return { on: false, reason: null };
  if ("off" in configured) return { on: false, reason: configured.off };
  const adapter = createPurgeAdapter(configured.settings, env.publicUrl, fetchImpl);
  try {
    await adapter.verify();
  } catch (error) {
    const refused = error instanceof PurgeRefused ? error : null;
    const why =
      refused?.cdnStatus === 401 || refused?.cdnStatus === 403
        ? `${adapter.name} refused the credentials (HTTP ${refused.cdnStatus}${/HTTP \d+$/.test(refused.message) ? "" : `: ${refused.message.replace(/^.*?refused: /, "")}`})`
        : (refused?.message ?? `${adapter.name} could not be checked`);
    return { on: false, reason: why };
  }
  const urlsOnly = configured.settings.CDN === "cloudflare" && configured.settings.CLOUDFLARE_PURGE_BY === "urls";
  return { on: true, adapter, sharedCache: purgedSharedCache(urlsOnly ? URL_PURGED_SHARED_SECONDS : LONG_SHARED_SECONDS) };
}

/**
 * The shared-cache lifetime this process gives public answers: the short one until the CDN's
 * credentials were accepted, then the purged CDN's (read on every answer stored, so the change applies
 * as soon as it is known).
 */
export function sharedCachePolicy(env: Env): { current: () => SharedCacheHeaders; ready: Promise<CdnState> } {
  let current = SHORT_SHARED_CACHE;
  const ready = cdnStateOf(env).then((state) => {
    if (state.on) current = state.sharedCache;
    return state;
  });
  return { current: () => current, ready };
}
