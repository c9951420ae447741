import { embedPlayerUrl, type EmbedProvider, type EmbedTarget } from "./story-urls";

/**
 * An embed on the reader page as a click-to-load player, with no JavaScript of ours and nothing of
 * the third party before the reader's click:
 *
 * - an `<iframe srcdoc>` whose document is our own static HTML (no script): a placeholder naming the
 *   video or post, whose one link is the player's address (YouTube's privacy-enhanced
 *   youtube-nocookie.com, X's platform.twitter.com Tweet page). The link has no target, so the
 *   click navigates the frame itself: the player loads in place, and only then;
 * - `sandbox`: the player needs scripts and its own origin (allow-scripts allow-same-origin; our
 *   srcdoc has no script, and every value in it is escaped and built from a checked id), opens
 *   YouTube / X in a new tab (allow-popups, allow-popups-to-escape-sandbox) and may cast
 *   (allow-presentation); no top navigation, no forms;
 * - below it a plain link to the original address, for readers without frames or who prefer it.
 *
 * The srcdoc is HTML inside an attribute: each value is escaped once for the inner document, then
 * the whole inner document is escaped again as the attribute's value (tested).
 */

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

const PROVIDERS = {
  youtube: {
    title: "YouTube video",
    play: "Play video",
    note: "Plays from youtube-nocookie.com once you press play; nothing loads from YouTube before.",
    open: "Watch on YouTube",
    frameTitle: "YouTube video (press play to load it from YouTube)",
  },
  x: {
    title: "Post on X",
    play: "Show post",
    note: "Loads from platform.twitter.com once you press Show post; nothing loads from X before.",
    open: "Open the post on X",
    frameTitle: "Post on X (press Show post to load it from X)",
  },
} as const;

/** The words of the plain link to an embed's original ("Watch on YouTube"): the page's figcaption and the newsletter e-mail's link. */
export const embedLinkText = (provider: EmbedProvider): string => PROVIDERS[provider].open;

// The placeholder's own look (a dark player box for YouTube, a light card for X). Inline in the
// srcdoc: the frame's document cannot see the page's stylesheet. Contrast kept at WCAG AA.
const FRAME_CSS = `*{box-sizing:border-box}html,body{height:100%;margin:0}
body{font:16px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
a{display:flex;height:100%;flex-direction:column;align-items:center;justify-content:center;gap:.4rem;padding:1rem;text-align:center;text-decoration:none}
a:focus-visible{outline:3px solid #fbbf24;outline-offset:-6px}
.youtube a{background:#0f0f0f;color:#fff}.x a{background:#f8fafc;color:#0f172a;border:1px solid #cbd5e1;border-radius:12px}
.btn{display:inline-flex;align-items:center;justify-content:center;gap:.5rem;border-radius:999px;padding:.7rem 1.3rem;font-weight:700;font-size:1rem}
.youtube .btn{background:#cc0000;color:#fff}.x .btn{background:#0f172a;color:#fff}
a:hover .btn,a:focus-visible .btn{filter:brightness(1.15)}
.tri{width:0;height:0;border-left:14px solid currentColor;border-top:9px solid transparent;border-bottom:9px solid transparent}
.t{font-weight:700;font-size:1.05rem;margin-top:.3rem}.u{font-size:.85rem;word-break:break-all}
.n{font-size:.8rem;max-width:28rem}.youtube .u,.youtube .n{color:#d4d4d4}.x .u,.x .n{color:#334155}`;

/** The placeholder document shown in the frame before the click (our HTML, no script). */
export function embedPlaceholderDocument(target: EmbedTarget, playerUrl: string): string {
  const text = PROVIDERS[target.provider];
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="strict-origin-when-cross-origin">` +
    `<title>${escapeHtml(text.title)}</title><style>${FRAME_CSS}</style></head>` +
    `<body class="${target.provider}"><a href="${escapeHtml(playerUrl)}">` +
    `<span class="btn">${target.provider === "youtube" ? `<span class="tri" aria-hidden="true"></span>` : ""}${escapeHtml(text.play)}</span>` +
    `<span class="t">${escapeHtml(text.title)}</span><span class="u">${escapeHtml(target.url)}</span>` +
    `<span class="n">${escapeHtml(text.note)}</span></a></body></html>`
  );
}

/** The embed's markup on the reader page; "" when the id is not one (nothing else can reach a player address). */
export function renderEmbedTarget(target: EmbedTarget): string {
  const playerUrl = embedPlayerUrl(target);
  if (!playerUrl) return "";
  const text = PROVIDERS[target.provider];
  const srcdoc = embedPlaceholderDocument(target, playerUrl);
  return (
    `<figure class="story-embed" data-provider="${target.provider}">` +
    `<div class="story-embed-frame story-embed-frame-${target.provider}">` +
    `<iframe title="${escapeHtml(text.frameTitle)}" loading="lazy" referrerpolicy="strict-origin-when-cross-origin"` +
    ` sandbox="allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox allow-presentation"` +
    ` allow="autoplay; encrypted-media; picture-in-picture; fullscreen" allowfullscreen` +
    ` srcdoc="${escapeHtml(srcdoc)}"></iframe></div>` +
    `<figcaption><a href="${escapeHtml(target.url)}" rel="noopener" class="story-embed-link">` +
    `<span class="story-embed-action">${escapeHtml(text.open)}</span>: <span class="story-embed-url">${escapeHtml(target.url)}</span></a></figcaption>` +
    `</figure>`
  );
}
