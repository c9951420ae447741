import type { AudienceDevice, AudienceSource } from "~/db/schema";

// Where a load came from and on what kind of device (issue 42, decision 0058): pure, browser-safe.
// Only the classification is kept; the referrer's path and the user agent are dropped.

/** The most a utm tag, `ref` or a host keeps (a longer one is cut). */
export const SOURCE_VALUE_MAX = 200;

export interface LoadSource {
  source: AudienceSource;
  /** The referrer's host, lower-cased, without a leading "www." ('' when there is none, or our own). */
  sourceHost: string;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
  ref: string;
}

/** Search engines, by a label of their host ("google" matches google.com, google.co.uk, news.google.com). */
const SEARCH_LABELS = new Set(["google", "bing", "duckduckgo", "yahoo", "ecosia", "yandex", "baidu", "qwant", "startpage", "naver", "seznam", "kagi", "aol", "ask"]);
/** Hosts (or their parents) that are search engines without such a label. */
const SEARCH_HOSTS = new Set(["search.brave.com", "ya.ru", "so.com", "sogou.com"]);
/** Social networks, by a label of their host. */
const SOCIAL_LABELS = new Set(["facebook", "fb", "instagram", "twitter", "linkedin", "reddit", "threads", "bsky", "youtube", "tiktok", "pinterest", "whatsapp", "telegram", "snapchat", "tumblr", "vk", "weibo", "mastodon"]);
/** Social networks' short or bare hosts (or their parents). */
const SOCIAL_HOSTS = new Set(["t.co", "x.com", "lnkd.in", "t.me", "wa.me", "youtu.be", "bsky.app", "m.me", "redd.it", "pin.it", "lm.facebook.com", "l.instagram.com"]);
/** utm_source values naming a search engine or a social network (a tagged link with no referrer). */
const SEARCH_NAMES = /^(google|bing|duckduckgo|ddg|yahoo|ecosia|yandex|baidu|qwant|startpage|brave|kagi)$/;
const SOCIAL_NAMES = /^(facebook|fb|instagram|ig|twitter|x|t\.co|linkedin|reddit|threads|bluesky|bsky|mastodon|youtube|tiktok|pinterest|whatsapp|telegram|snapchat|tumblr|social)$/;

const clean = (value: string | null | undefined) => (value ?? "").trim().slice(0, SOURCE_VALUE_MAX);

/** A host lower-cased, without a port's dot at the end or a leading "www.". */
export function displayHost(host: string): string {
  return host.toLowerCase().replace(/\.$/, "").replace(/^www\./, "");
}

/** Whether `host` is `domain` or under it. */
const within = (host: string, domains: Set<string>) => {
  for (let at = host; ; ) {
    if (domains.has(at)) return true;
    const dot = at.indexOf(".");
    if (dot === -1) return false;
    at = at.slice(dot + 1);
  }
};

/** The kind of source a referrer's host is (our own is handled by the caller). */
function hostKind(host: string): "search" | "social" | "other" {
  const labels = host.split(".");
  // The last label is the top-level domain ("google.com": "com"), never a name.
  const names = labels.slice(0, -1);
  // Webmail (mail.google.com, mail.yahoo.com) is a link in a message, not a search.
  if (labels[0] === "mail" || labels[0] === "webmail" || labels[0] === "outlook") return "other";
  if (within(host, SEARCH_HOSTS) || names.some((label) => SEARCH_LABELS.has(label))) return "search";
  if (within(host, SOCIAL_HOSTS) || names.some((label) => SOCIAL_LABELS.has(label))) return "social";
  return "other";
}

/** The host of a referrer URL (lower-cased, no "www."), or '' when it has none or is not a URL. */
function referrerHost(referrer: string): string {
  if (!referrer) return "";
  try {
    const url = new URL(referrer);
    if (url.protocol !== "http:" && url.protocol !== "https:" && url.protocol !== "android-app:") return "";
    return displayHost(url.hostname);
  } catch {
    return "";
  }
}

/**
 * Where a load came from: `referrer` (the Referer header, or document.referrer), the page's `query`
 * (utm_source, utm_medium, utm_campaign, ref) and our own host. utm tags decide over a bare referrer:
 * `utm_medium=email` or a utm_source naming a newsletter is "newsletter"; a utm_source naming a
 * search engine or a social network is that. Otherwise the referrer's host: a search engine, a social
 * network, our own host ("internal"), another site ("other"); none at all (and no utm tag): "direct".
 */
export function sourceOf({ referrer, query, siteHost }: { referrer: string | null | undefined; query: URLSearchParams | string; siteHost: string }): LoadSource {
  const params = typeof query === "string" ? new URLSearchParams(query.startsWith("?") ? query.slice(1) : query) : query;
  const utmSource = clean(params.get("utm_source"));
  const utmMedium = clean(params.get("utm_medium"));
  const utmCampaign = clean(params.get("utm_campaign"));
  const ref = clean(params.get("ref"));
  const host = referrerHost((referrer ?? "").trim()).slice(0, SOURCE_VALUE_MAX);
  const own = host !== "" && host === displayHost(siteHost);
  const tags = { utmSource, utmMedium, utmCampaign, ref };
  const tagged = utmSource.toLowerCase();
  if (utmMedium.toLowerCase() === "email" || tagged.includes("newsletter")) return { source: "newsletter", sourceHost: own ? "" : host, ...tags };
  if (SEARCH_NAMES.test(tagged)) return { source: "search", sourceHost: own ? "" : host, ...tags };
  if (SOCIAL_NAMES.test(tagged)) return { source: "social", sourceHost: own ? "" : host, ...tags };
  if (own) return { source: "internal", sourceHost: "", ...tags };
  if (host) return { source: hostKind(host), sourceHost: host, ...tags };
  // A tag naming something else (ref=producthunt, utm_source=partner) with no referrer: another site.
  if (utmSource || ref) return { source: "other", sourceHost: "", ...tags };
  return { source: "direct", sourceHost: "", ...tags };
}

/**
 * The class of device a user agent is: tablets (iPad, Android without "Mobile", Kindle, Silk, tablet
 * PCs), phones (iPhone, iPod, Android Mobile, Windows Phone, "Mobi"), else desktop. An iPad asking
 * for the desktop site sends a Mac's agent: it is counted as desktop, as nothing tells them apart.
 */
export function deviceOf(userAgent: string | null | undefined): AudienceDevice {
  const ua = userAgent ?? "";
  if (/iPad|Tablet|Kindle|Silk\/|PlayBook|Nexus (7|9|10)\b/i.test(ua)) return "tablet";
  if (/Android/i.test(ua) && !/Mobile/i.test(ua)) return "tablet";
  if (/iPhone|iPod|Windows Phone|IEMobile|BlackBerry|BB10|Opera Mini|Mobi/i.test(ua)) return "phone";
  return "desktop";
}
