import { LONG_SHARED_SECONDS, purgedSharedCache, SHORT_SHARED_CACHE, URL_PURGED_SHARED_SECONDS, type SharedCacheHeaders } from "../../app/lib/cache-control";
import { cdnSettingsOf, type Env } from "../../app/lib/env.server";
import { createPurgeAdapter, PurgeRefused, type PurgeAdapter } from "./adapters";

// Whether this site purges a CDN (decision 0045), per process: the settings (CDN=…), then whether the
// CDN accepts the credentials. Settings missing or malformed, or credentials refused (401/403 from
// Fastly or Cloudflare), turn purging off for the life of the process (never the start). A purge
// target that does not answer (Varnish not up yet: systemd starts it and Frontpage in either order)
// is waited for: asked again (server/cdn/check.ts) and purging turns on once it answers (issue 39).
// Until purging is on, shared caches keep the short lifetime: a CDN nothing purges must not keep
// pages for a day.

export type CdnState =
  /** Purging is on, with this adapter; `sharedCache` is the lifetime pages get. */
  | { on: true; adapter: PurgeAdapter; sharedCache: SharedCacheHeaders; waiting?: undefined }
  /** Purging is off for the life of the process: why (null: no CDN configured). */
  | { on: false; reason: string | null; waiting?: undefined }
  /** The purge target did not answer (why): asked again; the short lifetime meanwhile. */
  | { on: false; reason: string; waiting: true };

/** Only these refusals turn purging off: a credential the CDN's API refuses. Anything else may pass (a CDN, a network, a Varnish restarting or reloading its VCL). */
const refusesCredentials = (adapter: PurgeAdapter, refused: PurgeRefused | null) =>
  (adapter.name === "fastly" || adapter.name === "cloudflare") && (refused?.cdnStatus === 401 || refused?.cdnStatus === 403);

/** Asks the CDN once whether it takes this site's settings and credentials (`fetchImpl` for tests). */
export async function cdnStateOf(env: Env, fetchImpl: typeof fetch = fetch): Promise<CdnState> {
  const configured = cdnSettingsOf(env);
  if (configured === null) return { on: false, reason: null };
  if ("off" in configured) return { on: false, reason: configured.off };
  const adapter = createPurgeAdapter(configured.settings, env.publicUrl, fetchImpl);
  try {
    await adapter.verify();
  } catch (error) {
    const refused = error instanceof PurgeRefused ? error : null;
    if (refusesCredentials(adapter, refused)) {
      const detail = /HTTP \d+$/.test(refused!.message) ? "" : `: ${refused!.message.replace(/^.*?refused: /, "")}`;
      return { on: false, reason: `${adapter.name} refused the credentials (HTTP ${refused!.cdnStatus}${detail})` };
    }
    return { on: false, reason: refused?.message ?? `${adapter.name} could not be checked`, waiting: true };
  }
  const urlsOnly = configured.settings.CDN === "cloudflare" && configured.settings.CLOUDFLARE_PURGE_BY === "urls";
  return { on: true, adapter, sharedCache: purgedSharedCache(urlsOnly ? URL_PURGED_SHARED_SECONDS : LONG_SHARED_SECONDS) };
}

/** A process's CDN state, as it goes: checked at once, checked again while the purge target does not answer. */
export interface CdnStatus {
  /** The latest answer (before the first one: waiting). */
  current(): CdnState;
  /** The first check's answer. */
  readonly ready: Promise<CdnState>;
  /** Asks the purge target again when the last answer was `waiting` (one check at a time); else the settled answer. */
  recheck(): Promise<CdnState>;
  /** How many checks in a row found the purge target not answering (0 once it answered). */
  failures(): number;
  /** Calls `listener` with the answer known now (if any) and with every later check's, in order. */
  watch(listener: (state: CdnState) => void): void;
}

/** A new CdnStatus for `env`: its first check starts now. */
export function createCdnStatus(env: Env, fetchImpl: typeof fetch = fetch): CdnStatus {
  let state: CdnState = { on: false, reason: "not checked yet", waiting: true };
  let answered = false;
  let failures = 0;
  const listeners: ((state: CdnState) => void)[] = [];
  let checking: Promise<CdnState> | null = null;
  const check = () => {
    checking ??= cdnStateOf(env, fetchImpl)
      .then((found) => {
        state = found;
        answered = true;
        failures = found.waiting ? failures + 1 : 0;
        // Told before the check's callers resume: the site services start purging before anyone hears it is on.
        for (const listener of [...listeners]) listener(found);
        return found;
      })
      .finally(() => {
        checking = null;
      });
    return checking;
  };
  const ready = check();
  return {
    current: () => state,
    ready,
    recheck: async () => checking ?? (state.waiting ? check() : state),
    failures: () => failures,
    watch(listener) {
      listeners.push(listener);
      if (answered) listener(state);
    },
  };
}

let found: { key: string; status: CdnStatus } | null = null;

/**
 * This process's CdnStatus for `env` (made once: the site services and the request services of one
 * process share it).
 */
export function cdnStatusOf(env: Env): CdnStatus {
  const key = JSON.stringify([
    env.publicUrl,
    ...[env.CDN, env.FASTLY_API_TOKEN, env.FASTLY_SERVICE_ID, env.FASTLY_API_URL, env.CLOUDFLARE_API_TOKEN, env.CLOUDFLARE_ZONE_ID, env.CLOUDFLARE_PURGE_BY, env.CLOUDFLARE_API_URL],
    ...[env.VARNISH_URL, env.CDN_WEBHOOK_URL, env.CDN_WEBHOOK_SECRET],
  ]);
  if (found?.key !== key) found = { key, status: createCdnStatus(env) };
  return found.status;
}

/**
 * The shared-cache lifetime this process gives public answers: the short one until purging is on,
 * then the purged CDN's (read on every answer stored, so the change applies as soon as it is known).
 */
export function sharedCachePolicy(status: CdnStatus): { current: () => SharedCacheHeaders } {
  return {
    current: () => {
      const state = status.current();
      return state.on ? state.sharedCache : SHORT_SHARED_CACHE;
    },
  };
}
