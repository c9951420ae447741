/**
 * The URL rules of a story (no zod here: the editor in the browser uses them before it inserts
 * anything, the document schema and the reader page's renderer on the server).
 */

/** The URL schemes a link may use. */
const LINK_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);

/** True for an http, https or mailto URL (absolute; nothing else becomes a link). */
export function isAllowedLinkHref(href: string): boolean {
  const trimmed = href.trim();
  if (/[\s<>"'`\\]/.test(trimmed)) return false;
  try {
    return LINK_PROTOCOLS.has(new URL(trimmed).protocol);
  } catch {
    return false;
  }
}

/** A stored image of our own media library: /media/images/<generated name>. */
const OWN_IMAGE = /^\/media\/images\/[A-Za-z0-9][A-Za-z0-9.%-]{0,200}$/;

/**
 * True for one of our own media images by its path, or an https address (the media store's own, when
 * it is an S3 bucket's; the article service refuses any other host: storyImageNotOwn).
 */
export function isAllowedImageSrc(src: string): boolean {
  if (OWN_IMAGE.test(src)) return !src.includes("..");
  try {
    const url = new URL(src);
    return url.protocol === "https:" && url.hostname !== "" && !/[\s<>"'`]/.test(src);
  } catch {
    return false;
  }
}

export const isOwnImageSrc = (src: string) => OWN_IMAGE.test(src) && !src.includes("..");

/**
 * The refusal of a story image that is not a file of this site's media (the server checks each new
 * image against the media store: its own path, or the configured media origin's address).
 */
export const storyImageNotOwn = (src: string) =>
  `Every image in the story must come from this site's Media Library: upload it or choose it there (not ${src.length > 80 ? `${src.slice(0, 77)}…` : src}).`;

export type EmbedProvider = "youtube" | "x";

export interface EmbedTarget {
  provider: EmbedProvider;
  /** The canonical address the reader page links to. */
  url: string;
  /** The video or post id. */
  id: string;
}

/**
 * Where an embed's player comes from once the reader asks for it: the only origins the site may
 * frame (the Content-Security-Policy's frame-src lists exactly these besides 'self').
 */
export const EMBED_PLAYER_ORIGINS = { youtube: "https://www.youtube-nocookie.com", x: "https://platform.twitter.com" } as const;

/** The ids an embed may carry (checked again where a player address or page is built from one). */
export const EMBED_ID = { youtube: /^[A-Za-z0-9_-]{11}$/, x: /^\d{1,25}$/ } as const;

/** The player's address for a target (null for an id that is not one): loaded only on the reader's click. */
export function embedPlayerUrl(target: Pick<EmbedTarget, "provider" | "id">): string | null {
  if (!EMBED_ID[target.provider].test(target.id)) return null;
  return target.provider === "youtube"
    ? `${EMBED_PLAYER_ORIGINS.youtube}/embed/${target.id}?autoplay=1`
    : `${EMBED_PLAYER_ORIGINS.x}/embed/Tweet.html?id=${target.id}&dnt=true`;
}

const YOUTUBE_HOSTS = new Set(["youtube.com", "www.youtube.com", "m.youtube.com", "music.youtube.com", "youtube-nocookie.com", "www.youtube-nocookie.com"]);
const X_HOSTS = new Set(["x.com", "www.x.com", "mobile.x.com", "twitter.com", "www.twitter.com", "mobile.twitter.com"]);

/** The YouTube video or X post a URL names, in its canonical form; null for anything else. */
export function embedTargetOf(input: string): EmbedTarget | null {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  const host = url.hostname.toLowerCase();
  const segments = url.pathname.split("/").filter(Boolean);
  if (host === "youtu.be" || YOUTUBE_HOSTS.has(host)) {
    let id: string | null | undefined;
    if (host === "youtu.be") id = segments[0];
    else if (segments[0] === "watch") id = url.searchParams.get("v");
    else if (segments[0] === "embed" || segments[0] === "shorts" || segments[0] === "live") id = segments[1];
    if (!id || !EMBED_ID.youtube.test(id)) return null;
    return { provider: "youtube", id, url: `https://www.youtube.com/watch?v=${id}` };
  }
  if (X_HOSTS.has(host)) {
    const [user, status, id] = segments;
    if (!user || !/^[A-Za-z0-9_]{1,15}$/.test(user) || status !== "status" || !id || !EMBED_ID.x.test(id)) return null;
    return { provider: "x", id, url: `https://x.com/${user}/status/${id}` };
  }
  return null;
}
