import { imageSrcSet } from "~/lib/image-variants";
import { AD_SIZES, type AdSize } from "./ad-slots";

// What the door puts in a slot (issue 43, decision 0061): a creative's HTML, the same in every answer
// showing that creative in that slot (the token names the placement, not the answer), so the door
// compresses it once. Only our own markup: no advertiser script ever runs on the newsroom's pages.
// The classes are the reader site's (Tailwind sees them here).

/** A creative as the door shows it. */
export type FragmentCreative =
  | { kind: "image"; size: AdSize; imageUrl: string; alt: string; linkUrl: string }
  | { kind: "text"; size: AdSize; headline: string; body: string; linkUrl: string };

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** The host a text ad names under its line ("theatre.example"), or nothing for the site's own paths. */
function shownHost(linkUrl: string): string {
  try {
    return linkUrl.startsWith("/") ? "" : new URL(linkUrl).host.replace(/^www\./, "");
  } catch {
    return "";
  }
}

/** The label over every ad: paid ones say they are; the newsroom's own (house) ads say whose they are. */
export function adLabel(house: boolean): string {
  return house ? "From the newsroom" : "Advertisement";
}

/** The HTML of one creative in one slot: its link goes through `/ads/click/{token}`; `data-ad-token` is what the viewability script reports. */
export function adFragmentHtml(creative: FragmentCreative, token: string, house: boolean): string {
  const href = `/ads/click/${token}`;
  const label = `<span class="block text-center text-xs uppercase tracking-wide text-slate-600">${adLabel(house)}</span>`;
  if (creative.kind === "image") {
    const { width, height } = AD_SIZES[creative.size];
    const srcset = imageSrcSet(creative.imageUrl, creative.size === "box" ? [320, 640] : [640, 960, 1280, 1600]);
    const src = srcset ? `${creative.imageUrl}?w=${creative.size === "box" ? 640 : 1280}` : creative.imageUrl;
    const sizes = creative.size === "box" ? "300px" : "(min-width: 1024px) 970px, 100vw";
    return (
      `<div class="flex flex-col items-center gap-1">${label}` +
      `<a href="${escapeHtml(href)}" rel="sponsored" data-ad-token="${escapeHtml(token)}" class="block max-w-full">` +
      `<img src="${escapeHtml(src)}"${srcset ? ` srcset="${escapeHtml(srcset)}" sizes="${sizes}"` : ""} alt="${escapeHtml(creative.alt)}" width="${width}" height="${height}" loading="lazy" decoding="async" class="block max-w-full bg-slate-100 object-contain" style="height:${height}px;width:${width}px">` +
      `</a></div>`
    );
  }
  const host = shownHost(creative.linkUrl);
  return (
    `<a href="${escapeHtml(href)}" rel="sponsored" data-ad-token="${escapeHtml(token)}" class="mx-auto flex max-w-xl flex-col gap-1 rounded-lg border border-slate-200 bg-white p-4 text-left hover:border-slate-400">` +
    `<span class="text-xs uppercase tracking-wide text-slate-600">${adLabel(house)}</span>` +
    `<span class="text-lg font-semibold text-slate-900">${escapeHtml(creative.headline)}</span>` +
    (creative.body ? `<span class="text-sm text-slate-700">${escapeHtml(creative.body)}</span>` : "") +
    (host ? `<span class="text-xs font-medium text-brand-700">${escapeHtml(host)}</span>` : "") +
    `</a>`
  );
}
