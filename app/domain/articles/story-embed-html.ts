import { imageSrcSet } from "~/lib/image-variants";
import { embedPlayerUrl, isAllowedImageSrc, type EmbedProvider, type EmbedTarget } from "./story-urls";

/**
 * An embed on the reader page as a click-to-load player, with no JavaScript of ours and nothing of
 * the third party before the reader's click:
 *
 * - an `<iframe srcdoc>` whose document is our own static HTML (no script): the embed's poster (issue
 *   41, decision 0057: the video's thumbnail, from our own /media, and its title; the post's author and
 *   text), or, while none is known or when its fetch failed, a titled placeholder ("YouTube video",
 *   "Post on X"). Its one link is the player's address (YouTube's privacy-enhanced
 *   youtube-nocookie.com, X's platform.twitter.com Tweet page). The link has no target, so the click
 *   navigates the frame itself: the player loads in place, and only then. The srcdoc document shares
 *   the page's origin and base address (allow-same-origin), so the poster's /media address is ours;
 * - `sandbox`: the player needs scripts and its own origin (allow-scripts allow-same-origin; our
 *   srcdoc has no script, and every value in it is escaped and built from a checked id), opens
 *   YouTube / X in a new tab (allow-popups, allow-popups-to-escape-sandbox) and may cast
 *   (allow-presentation); no top navigation, no forms;
 * - below it a plain link to the original ("Watch on YouTube"), for readers without frames or who
 *   prefer it; the raw address is never shown as text.
 *
 * The srcdoc is HTML inside an attribute: each value is escaped once for the inner document, then
 * the whole inner document is escaped again as the attribute's value (tested).
 */

/** What the reader page knows of an embed's poster (embed_posters, read with the story). */
export interface EmbedPoster {
  title: string | null;
  author: string | null;
  /** An X post's text. */
  text: string | null;
  /** A video's thumbnail in our media library. */
  posterUrl: string | null;
  /** False: the fetch failed (or has not succeeded yet): the titled placeholder. */
  ready: boolean;
}
/** Posters by embedPosterKey. */
export type EmbedPosters = ReadonlyMap<string, EmbedPoster>;
export const NO_POSTERS: EmbedPosters = new Map();
export const embedPosterKey = (target: Pick<EmbedTarget, "provider" | "id">) => `${target.provider}:${target.id}`;

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

const PROVIDERS = {
  youtube: {
    title: "YouTube video",
    play: "Play video",
    note: "Plays from youtube-nocookie.com once you press play; nothing loads from YouTube before.",
    open: "Watch on YouTube",
    frameNote: "press play to load it from YouTube",
  },
  x: {
    title: "Post on X",
    play: "Show post",
    note: "Loads from platform.twitter.com once you press Show post; nothing loads from X before.",
    open: "Open the post on X",
    frameNote: "press Show post to load it from X",
  },
} as const;

/** The words of the plain link to an embed's original ("Watch on YouTube"): the page's figcaption and the newsletter e-mail's link. */
export const embedLinkText = (provider: EmbedProvider): string => PROVIDERS[provider].open;

// The poster's own look (a dark player box for YouTube, a light card for X). Inline in the srcdoc:
// the frame's document cannot see the page's stylesheet. Contrast kept at WCAG AA (white on the
// poster's darkened picture, the title on a solid band).
const FRAME_CSS = `*{box-sizing:border-box}html,body{height:100%;margin:0}
body{font:16px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
a{position:relative;display:flex;height:100%;flex-direction:column;align-items:center;justify-content:center;gap:.5rem;padding:1rem;text-align:center;text-decoration:none;overflow:hidden}
a:focus-visible{outline:3px solid #fbbf24;outline-offset:-6px}
.youtube a{background:#0f0f0f;color:#fff}.x a{background:#f8fafc;color:#0f172a;border:1px solid #cbd5e1;border-radius:12px}
.btn{position:relative;display:inline-flex;align-items:center;justify-content:center;gap:.5rem;border-radius:999px;padding:.7rem 1.3rem;font-weight:700;font-size:1rem}
.youtube .btn{background:#cc0000;color:#fff}.x .btn{background:#0f172a;color:#fff}
a:hover .btn,a:focus-visible .btn{filter:brightness(1.15)}
.tri{width:0;height:0;border-left:14px solid currentColor;border-top:9px solid transparent;border-bottom:9px solid transparent}
.t{position:relative;font-weight:700;font-size:1.05rem}
.n{font-size:.8rem;max-width:28rem}.youtube .n{color:#d4d4d4}.x .n{color:#334155}
.poster img{position:absolute;inset:0;width:100%;height:100%;object-fit:cover}
.poster a{justify-content:space-between;align-items:stretch;padding:0}
.poster .t{display:block;padding:.6rem .9rem;background:rgba(0,0,0,.78);text-align:left;overflow:hidden;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical}
.poster .btn{align-self:center;margin-bottom:auto;margin-top:auto;box-shadow:0 2px 12px rgba(0,0,0,.5)}
.card a{align-items:flex-start;justify-content:flex-start;text-align:left;padding:1.25rem 1.4rem}
.card .a{font-weight:700}.card .p{font-size:1.05rem;line-height:1.5;white-space:pre-line;overflow:hidden;display:-webkit-box;-webkit-line-clamp:12;-webkit-box-orient:vertical}
.card .btn{margin-top:auto}`;

/** The poster's srcset (our /media's variants) inside the frame, whose viewport is the frame's width. */
const POSTER_WIDTHS = [480, 960, 1280] as const;

/** The frame's document before the click: the poster, or the titled placeholder (our HTML, no script). */
export function embedPlaceholderDocument(target: EmbedTarget, playerUrl: string, poster?: EmbedPoster | null): string {
  const text = PROVIDERS[target.provider];
  const ready = poster?.ready ? poster : null;
  const title = ready?.title || text.title;
  const button = `<span class="btn">${target.provider === "youtube" ? `<span class="tri" aria-hidden="true"></span>` : ""}${escapeHtml(text.play)}</span>`;
  let body: string;
  let kind: string;
  if (target.provider === "youtube" && ready?.posterUrl && isAllowedImageSrc(ready.posterUrl)) {
    const srcSet = imageSrcSet(ready.posterUrl, POSTER_WIDTHS);
    // The picture's alt is the title; the title's band below repeats it for the eye only.
    body =
      `<img src="${escapeHtml(ready.posterUrl)}" alt="${escapeHtml(title)}"${srcSet ? ` srcset="${escapeHtml(srcSet)}" sizes="100vw"` : ""}>` +
      `<span class="t" aria-hidden="true">${escapeHtml(title)}</span>${button}`;
    kind = "poster";
  } else if (target.provider === "x" && ready && (ready.author || ready.text)) {
    body =
      (ready.author ? `<span class="a">${escapeHtml(ready.author)}</span>` : "") +
      (ready.text ? `<span class="p">${escapeHtml(ready.text)}</span>` : "") +
      button;
    kind = "card";
  } else {
    body = `${button}<span class="t">${escapeHtml(title)}</span><span class="n">${escapeHtml(text.note)}</span>`;
    kind = "placeholder";
  }
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="strict-origin-when-cross-origin">` +
    `<title>${escapeHtml(title)}</title><style>${FRAME_CSS}</style></head>` +
    `<body class="${target.provider} ${kind}"><a href="${escapeHtml(playerUrl)}">${body}</a></body></html>`
  );
}

/**
 * The embed's markup on the reader page, with its poster when one was fetched; "" when the id is not
 * one (nothing else can reach a player address).
 */
export function renderEmbedTarget(target: EmbedTarget, poster?: EmbedPoster | null): string {
  const playerUrl = embedPlayerUrl(target);
  if (!playerUrl) return "";
  const text = PROVIDERS[target.provider];
  const srcdoc = embedPlaceholderDocument(target, playerUrl, poster);
  const named = poster?.ready && poster.title ? `${text.title}: ${poster.title}` : text.title;
  return (
    `<figure class="story-embed" data-provider="${target.provider}">` +
    `<div class="story-embed-frame story-embed-frame-${target.provider}">` +
    `<iframe title="${escapeHtml(`${named} (${text.frameNote})`)}" loading="lazy" referrerpolicy="strict-origin-when-cross-origin"` +
    ` sandbox="allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox allow-presentation"` +
    ` allow="autoplay; encrypted-media; picture-in-picture; fullscreen" allowfullscreen` +
    ` srcdoc="${escapeHtml(srcdoc)}"></iframe></div>` +
    `<figcaption><a href="${escapeHtml(target.url)}" rel="noopener" class="story-embed-link">${escapeHtml(text.open)}</a></figcaption>` +
    `</figure>`
  );
}
