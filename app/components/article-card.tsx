import { Eye, PlayCircle } from "lucide-react";
import { Link, useRouteLoaderData } from "react-router";
import type { ArticleCard as ArticleCardData } from "~/domain/articles/articles.schema";
import { formatCardDate, useSiteTimeZone } from "~/lib/dates";
import { cn } from "~/lib/cn";
import { CachedElement } from "~/lib/fragments";
import { imageSrcSet } from "~/lib/image-variants";
import { formatCount } from "~/lib/numbers";
import { preloadImage } from "~/lib/preload-image";
import type { RootData } from "~/root";
import { Byline } from "./byline";
import { Skeleton } from "./ui/skeleton";

export type SerializedCard = Omit<ArticleCardData, "createdAt" | "publishedAt"> & { createdAt: string | Date; publishedAt: string | Date };

const LEAD_WIDTHS = [480, 640, 960, 1280];
const LEAD_SIZES = "(min-width: 1280px) 830px, (min-width: 1024px) 66vw, 100vw";
const CARD_WIDTHS = [480, 640, 960];
const CARD_SIZES = "(min-width: 1024px) 400px, (min-width: 640px) 50vw, 100vw";

export function ArticleCard({
  article,
  priority = false,
  lead = false,
  className,
}: {
  article: SerializedCard;
  /**
   * Above the fold: its image loads at once (`true`). `"high"`: the page's largest paint, asked for
   * first. The others ask at low priority: React preloads every eagerly loaded image in the head, and
   * on a phone those preloads took the bandwidth of the one image the reader sees first (issue 13).
   */
  priority?: boolean | "high";
  /** The home page's lead story: a larger image and headline, and more of the excerpt. */
  lead?: boolean;
  className?: string;
}) {
  const timeZone = useSiteTimeZone();
  const siteName = (useRouteLoaderData("root") as RootData | undefined)?.settings.siteName ?? "Frontpage";
  // The page's largest paint (the home page's lead, a listing's first story): fetched first, ahead of the scripts.
  if (priority === "high" && article.featuredImage) preloadImage(article.featuredImage, lead ? LEAD_WIDTHS : CARD_WIDTHS, lead ? LEAD_SIZES : CARD_SIZES);
  const cardClassName = cn(
    "group flex flex-col overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm transition-shadow hover:shadow-md",
    className,
  );
  // A card below the first screen is the same HTML for every reader until one of these changes
  // (app/lib/fragments.tsx); one above it is rendered in place (React preloads its image in the head).
  const cacheKey = priority === false ? JSON.stringify([article, lead, timeZone, siteName]) : null;
  return (
    <CachedElement as="article" pool="cards" className={cardClassName} cacheKey={cacheKey}>
      <ArticleCardContent article={article} priority={priority} lead={lead} timeZone={timeZone} siteName={siteName} />
    </CachedElement>
  );
}

/** What a card's <article> holds: a function of its props alone (the server may keep its HTML). */
function ArticleCardContent({
  article,
  priority,
  lead,
  timeZone,
  siteName,
}: {
  article: SerializedCard;
  priority: boolean | "high";
  lead: boolean;
  timeZone: string;
  siteName: string;
}) {
  return (
    <>
      <Link to={`/article/${article.slug}`} prefetch="intent" className="flex flex-1 flex-col">
        {/* The lead on a desktop: headline and standfirst first, the image filling the rest of the card's
            height (as tall as the two stories beside it), so no empty band is left under the text. */}
        <div className={cn("relative aspect-video overflow-hidden bg-slate-100", lead && "lg:order-last lg:aspect-auto lg:min-h-72 lg:flex-1")}>
          {article.featuredImage ? (
            <img
              src={article.featuredImage}
              srcSet={imageSrcSet(article.featuredImage, lead ? LEAD_WIDTHS : CARD_WIDTHS)}
              sizes={lead ? LEAD_SIZES : CARD_SIZES}
              alt={article.featuredImageAlt ?? ""}
              width={640}
              height={360}
              loading={priority ? "eager" : "lazy"}
              fetchPriority={priority === "high" ? "high" : priority ? "low" : undefined}
              decoding="async"
              className={cn("h-full w-full object-cover transition-transform duration-300 group-hover:scale-105", lead && "lg:absolute lg:inset-0")}
            />
          ) : (
            <div className="flex h-full w-full items-center justify-center bg-gradient-to-br from-brand-700 to-brand-900 p-4 text-center font-serif text-lg font-semibold text-white">
              {article.category?.name ?? siteName}
            </div>
          )}
          {article.videoUrl ? (
            <span className="absolute right-2 top-2 inline-flex items-center gap-1 rounded-full bg-black/70 px-2 py-1 text-xs text-white">
              <PlayCircle className="h-3.5 w-3.5" aria-hidden="true" /> Video
            </span>
          ) : null}
        </div>
        <div className={cn("flex flex-1 flex-col gap-2 p-4", lead && "lg:flex-none")}>
          {article.live || article.category ? (
            <span className="flex flex-wrap items-center gap-2">
              {article.live ? <LiveBadge /> : null}
              {article.category ? <span className="text-xs font-semibold uppercase tracking-wide text-brand-700">{article.category.name}</span> : null}
            </span>
          ) : null}
          <h3 className={cn("font-serif font-bold text-slate-900 group-hover:text-brand-700", lead ? "text-2xl sm:text-3xl" : "text-lg")}>{article.title}</h3>
          {article.excerpt ? <p className={cn("text-slate-600", lead ? "line-clamp-4 text-base" : "line-clamp-2 text-sm")}>{article.excerpt}</p> : null}
        </div>
      </Link>
      {/* Outside the card's link: the byline's author links cannot sit inside another link. */}
      <div className="flex items-center justify-between px-4 pb-4 text-xs text-slate-600">
        <span data-testid="card-byline">
          <Byline authors={article.authors} authorName={article.authorName} linkClassName="relative underline-offset-2 hover:text-brand-700 hover:underline" /> ·{" "}
          <time dateTime={new Date(article.publishedAt).toISOString()}>{formatCardDate(article.publishedAt, timeZone)}</time>
        </span>
        <span className="inline-flex items-center gap-1">
          <Eye className="h-3.5 w-3.5" aria-hidden="true" />
          <span>{formatCount(article.views)}</span>
          <span className="sr-only">{article.views === 1 ? " view" : " views"}</span>
        </span>
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
    <div className="flex flex-col overflow-hidden rounded-lg border border-slate-200" data-testid="card-skeleton">
      <Skeleton square className="aspect-video" />
      <div className="space-y-3 p-4">
        <Skeleton className="h-3 w-20" />
        <Skeleton className="h-5 w-full" />
        <Skeleton className="h-4 w-3/4" />
      </div>
    </div>
  );
}

export function CardGrid({ children }: { children: React.ReactNode }) {
  return <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">{children}</div>;
}

/** A titled row of cards under a story ("More from {Category}", "Related stories"). */
export function StoryCardsSection({ id, title, articles }: { id: string; title: string; articles: SerializedCard[] }) {
  return (
    <section aria-labelledby={id} className="mt-12 border-t border-slate-200 pt-8">
      <h2 id={id} className="mb-6 font-serif text-2xl font-bold text-slate-900">
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
