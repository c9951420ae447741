import { Eye, PlayCircle } from "lucide-react";
import { Link, useRouteLoaderData } from "react-router";
import type { ArticleCard as ArticleCardData } from "~/domain/articles/articles.schema";
import { formatCardDate, useSiteTimeZone } from "~/lib/dates";
import { cn } from "~/lib/cn";
import { CachedElement } from "~/lib/fragments";
import { focalPosition, imageSrcSet } from "~/lib/image-variants";
import { formatCount } from "~/lib/numbers";
import { preloadImage } from "~/lib/preload-image";
import type { RootData } from "~/root";
import { Byline } from "./byline";
import { Skeleton } from "./ui/skeleton";

export type SerializedCard = Omit<ArticleCardData, "createdAt" | "publishedAt"> & { createdAt: string | Date; publishedAt: string | Date };

/**
 * How a card stands on its page (issue 41, decision 0055): hierarchy by size and position, thin rules
 * between stories, no boxes.
 * - `lead`: the home page's lead story, its headline in the display size beside (below, on a phone) a 3:2 crop.
 * - `top`: a top story beside the lead: a 3:2 crop over a mid-size headline (type alone in the desktop's column).
 * - `standard`: a listing's story (category, tag, author, "More from"): a 16:9 crop over its headline.
 * - `compact`: a story of a river (Latest Stories, a category's block): headline and standfirst, a small crop beside.
 * Without an image every variant is typographic: headline, standfirst and byline, never a colour block.
 */
export type CardVariant = "lead" | "top" | "standard" | "compact";

const IMAGES: Record<CardVariant, { widths: number[]; sizes: string; aspect: string }> = {
  lead: { widths: [480, 640, 960, 1280], sizes: "(min-width: 1280px) 610px, (min-width: 1024px) 50vw, 100vw", aspect: "aspect-[3/2]" },
  top: { widths: [480, 640, 960], sizes: "(min-width: 1280px) 290px, (min-width: 1024px) 23vw, (min-width: 640px) 50vw, 100vw", aspect: "aspect-[3/2]" },
  standard: { widths: [480, 640, 960], sizes: "(min-width: 1024px) 400px, (min-width: 640px) 50vw, 100vw", aspect: "aspect-video" },
  compact: { widths: [320, 480], sizes: "112px", aspect: "aspect-[4/3]" },
};

export function ArticleCard({
  article,
  priority = false,
  variant = "standard",
  className,
}: {
  article: SerializedCard;
  /**
   * Above the fold: its image loads at once (`true`). `"high"`: the page's largest paint, asked for
   * first. The others ask at low priority: React preloads every eagerly loaded image in the head, and
   * on a phone those preloads took the bandwidth of the one image the reader sees first (issue 13).
   */
  priority?: boolean | "high";
  variant?: CardVariant;
  className?: string;
}) {
  const timeZone = useSiteTimeZone();
  const siteName = (useRouteLoaderData("root") as RootData | undefined)?.settings.siteName ?? "Frontpage";
  // The page's largest paint (the home page's lead, a listing's first story): fetched first, ahead of the scripts.
  if (priority === "high" && article.featuredImage) preloadImage(article.featuredImage, IMAGES[variant].widths, IMAGES[variant].sizes);
  // The card's one link is its headline's; its ::after covers the card (a click anywhere opens the
  // story), and the byline's author links sit above it (positioned, later in the page).
  // A lead told in type alone (no image) takes the lead's whole column at a reading width: no empty image column beside it.
  const layout = variant === "lead" && !article.featuredImage ? LEAD_IN_TYPE : LAYOUTS[variant];
  const cardClassName = cn("group relative", layout, className);
  // A card below the first screen is the same HTML for every reader until one of these changes
  // (app/lib/fragments.tsx); one above it is rendered in place (React preloads its image in the head).
  const cacheKey = priority === false ? JSON.stringify([article, variant, timeZone, siteName]) : null;
  return (
    <CachedElement as="article" pool="cards" className={cardClassName} cacheKey={cacheKey}>
      <ArticleCardContent article={article} priority={priority} variant={variant} timeZone={timeZone} />
    </CachedElement>
  );
}

/** The crop of a card's image, its focal point kept in frame (`object-position`), with the video mark. */
function CardImage({ article, priority, variant }: { article: SerializedCard & { featuredImage: string }; priority: boolean | "high"; variant: CardVariant }) {
  const image = IMAGES[variant];
  return (
    <div
      className={cn(
        "relative overflow-hidden bg-slate-100",
        image.aspect,
        variant === "lead" && "lg:col-start-2 lg:row-start-1",
        variant === "compact" && "order-last w-28 shrink-0",
        // Beside the lead on a desktop a top story is told in type (its image, lazy, is then never fetched).
        variant === "top" && "lg:hidden",
      )}
    >
      <img
        src={article.featuredImage}
        srcSet={imageSrcSet(article.featuredImage, image.widths)}
        sizes={image.sizes}
        alt={article.featuredImageAlt ?? ""}
        width={variant === "compact" ? 224 : 640}
        height={variant === "compact" ? 168 : variant === "standard" ? 360 : 427}
        loading={priority ? "eager" : "lazy"}
        fetchPriority={priority === "high" ? "high" : priority ? "low" : undefined}
        decoding="async"
        className="h-full w-full object-cover"
        style={{ objectPosition: focalPosition(article.featuredImageFocus) }}
      />
      {article.videoUrl ? (
        <span className="absolute right-2 top-2 inline-flex items-center gap-1 rounded-full bg-black/70 px-2 py-1 text-xs text-white">
          <PlayCircle className="h-3.5 w-3.5" aria-hidden="true" /> Video
        </span>
      ) : null}
    </div>
  );
}

/** Each variant's layout: the lead's text beside its image on a desktop; the others under a thin rule. */
const LAYOUTS: Record<CardVariant, string> = {
  lead: "grid gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,2fr)] lg:gap-6 lg:self-start",
  top: "flex flex-col gap-3 border-t border-slate-200 pt-4",
  standard: "flex flex-col gap-3 border-t border-slate-200 pt-4",
  compact: "flex items-start gap-4 border-t border-slate-200 py-4",
};

/** The lead without an image: its headline and standfirst across the lead's column, at a reading width. */
const LEAD_IN_TYPE = "flex flex-col gap-3 lg:max-w-3xl lg:self-start lg:pt-2";

/** How many lines of its standfirst a card shows: more for the lead, and for a story told in type alone. */
function standfirstLines(variant: CardVariant, typographic: boolean): string {
  if (variant === "lead") return "line-clamp-5";
  if (typographic) return "line-clamp-4";
  return variant === "compact" ? "line-clamp-2" : "line-clamp-3";
}

const HEADLINES: Record<CardVariant, string> = {
  lead: "type-display",
  top: "type-headline-md",
  standard: "type-headline-md",
  compact: "type-headline-sm",
};

/** What a card's <article> holds: a function of its props alone (the server may keep its HTML). */
function ArticleCardContent({ article, priority, variant, timeZone }: { article: SerializedCard; priority: boolean | "high"; variant: CardVariant; timeZone: string }) {
  const { featuredImage } = article;
  return (
    <>
      {featuredImage ? <CardImage article={{ ...article, featuredImage }} priority={priority} variant={variant} /> : null}
      <div className={cn("flex min-w-0 flex-1 flex-col gap-2", variant === "lead" && "lg:col-start-1 lg:row-start-1")}>
        <Link to={`/article/${article.slug}`} prefetch="intent" className="block after:absolute after:inset-0 after:content-['']">
          {article.live || article.category ? (
            <span className="mb-1.5 flex flex-wrap items-center gap-2">
              {article.live ? <LiveBadge /> : null}
              {article.category ? <span className="type-kicker">{article.category.name}</span> : null}
            </span>
          ) : null}
          <h3 className={cn(HEADLINES[variant], "group-hover:underline group-hover:decoration-slate-400 group-hover:underline-offset-4")}>{article.title}</h3>
        </Link>
        {article.excerpt ? (
          <p
            className={cn(variant === "lead" ? "type-standfirst" : "type-summary", standfirstLines(variant, !featuredImage))}
          >
            {article.excerpt}
          </p>
        ) : null}
        {/* The byline's author links are links of their own, above the headline link's cover. */}
        <div className="type-meta mt-auto flex flex-wrap items-center justify-between gap-x-3 pt-1">
          <span data-testid="card-byline">
            <Byline authors={article.authors} authorName={article.authorName} linkClassName="relative font-semibold text-slate-800 underline-offset-2 hover:underline" /> ·{" "}
            <time dateTime={new Date(article.publishedAt).toISOString()}>{formatCardDate(article.publishedAt, timeZone)}</time>
          </span>
          <span className="inline-flex items-center gap-1">
            <Eye className="h-3.5 w-3.5" aria-hidden="true" />
            <span>{formatCount(article.views)}</span>
            <span className="sr-only">{article.views === 1 ? " view" : " views"}</span>
          </span>
        </div>
      </div>
    </>
  );
}

/**
 * The red "LIVE" badge of a live story's card (issue 31): it goes when the coverage ends (the articles
 * trigger drops the pages that show the card). Its text is read with the headline's link: "Live coverage".
 */
export function LiveBadge({ className }: { className?: string }) {
  return (
    <span
      className={cn("inline-flex items-center gap-1 rounded bg-red-700 px-1.5 py-0.5 text-xs font-bold tracking-wider text-white", className)}
      data-testid="live-badge"
    >
      <span aria-hidden="true" className="size-1.5 rounded-full bg-white motion-safe:animate-pulse" />
      LIVE<span className="sr-only"> coverage:</span>
    </span>
  );
}

export function ArticleCardSkeleton() {
  return (
    <div className="flex flex-col gap-3 border-t border-slate-200 pt-4" data-testid="card-skeleton">
      <Skeleton square className="aspect-video" />
      <Skeleton className="h-3 w-20" />
      <Skeleton className="h-5 w-full" />
      <Skeleton className="h-4 w-3/4" />
    </div>
  );
}

/** A listing's stories: rows of three on a desktop, two on a tablet, one on a phone; a thin rule atop each. */
export function CardGrid({ children }: { children: React.ReactNode }) {
  return <div className="grid gap-x-8 gap-y-8 sm:grid-cols-2 lg:grid-cols-3">{children}</div>;
}

/** A titled row of cards under a story ("More from {Category}", "Related stories"). */
export function StoryCardsSection({ id, title, articles }: { id: string; title: string; articles: SerializedCard[] }) {
  return (
    <section aria-labelledby={id} className="mt-12 border-t-2 border-slate-900 pt-3">
      <h2 id={id} className="type-section mb-6">
        {title}
      </h2>
      <CardGrid>
        {articles.map((a) => (
          <ArticleCard key={a.id} article={a} />
        ))}
      </CardGrid>
    </section>
  );
}
