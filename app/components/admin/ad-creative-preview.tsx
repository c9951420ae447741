import { AD_SIZES, type AdSize } from "~/domain/ads/ad-slots";

/** A creative as the back office shows it. */
export interface CreativePreviewData {
  size: AdSize;
  kind: "image" | "text";
  imageUrl: string | null;
  alt: string;
  headline: string;
  body: string;
  linkUrl: string;
}

/**
 * A creative at its slot's size, the way a reader meets it: a box 300 × 250, or a banner 120 px high
 * across the column (narrower on a phone), marked "Advertisement". The link is not followed from here.
 */
export function AdCreativePreview({ creative }: { creative: CreativePreviewData }) {
  const size = AD_SIZES[creative.size];
  const frame = creative.size === "box" ? { width: size.width, maxWidth: "100%", height: size.height } : { width: "100%", maxWidth: size.width, height: size.height };
  return (
    <figure className="min-w-0">
      <div style={frame} className="overflow-hidden rounded border border-slate-300 bg-white">
        {creative.kind === "image" && creative.imageUrl ? (
          <img src={creative.imageUrl} alt={creative.alt} className="h-full w-full object-contain" />
        ) : (
          <div className={`flex h-full flex-col justify-center gap-1 bg-slate-50 px-4 ${creative.size === "box" ? "text-center" : ""}`}>
            <p className="line-clamp-2 text-lg font-bold break-words text-slate-900">{creative.headline}</p>
            {creative.body ? <p className="line-clamp-3 text-sm break-words text-slate-700">{creative.body}</p> : null}
            <p className="truncate text-xs text-brand-700 underline">{creative.linkUrl}</p>
          </div>
        )}
      </div>
      <figcaption className="mt-1 text-xs text-slate-600">Advertisement · {size.label}</figcaption>
    </figure>
  );
}
