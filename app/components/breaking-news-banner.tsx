import { Link } from "react-router";
import type { BreakingNews } from "~/domain/settings/breaking-news.schema";

/**
 * The site-wide breaking-news bar above the header; a link when the editor gave one. Its mark says
 * "LIVE" when the link is a live story's page (issue 31: the site frame reads it), else "Breaking".
 */
export function BreakingNewsBanner({ news }: { news: BreakingNews & { live?: boolean } }) {
  const text = <span className="font-medium">{news.text}</span>;
  const external = news.url !== null && /^https?:\/\//i.test(news.url);
  return (
    <section aria-label="Breaking news" className="bg-red-700 text-white">
      <p className="mx-auto flex w-full max-w-7xl flex-wrap items-baseline gap-x-3 gap-y-1 px-4 py-2 text-sm">
        {news.live ? (
          <span className="inline-flex items-center gap-1 rounded bg-white px-2 py-0.5 text-xs font-bold tracking-wide text-red-800" data-testid="banner-live">
            <span aria-hidden="true" className="size-1.5 rounded-full bg-red-700 motion-safe:animate-pulse" />
            LIVE<span className="sr-only"> coverage:</span>
          </span>
        ) : (
          <span className="rounded bg-white px-2 py-0.5 text-xs font-bold tracking-wide text-red-800 uppercase">Breaking</span>
        )}
        {news.url === null ? (
          text
        ) : external ? (
          <a href={news.url} className="underline underline-offset-2 hover:no-underline" rel="noopener">
            {text}
          </a>
        ) : (
          <Link to={news.url} className="underline underline-offset-2 hover:no-underline">
            {text}
          </Link>
        )}
      </p>
    </section>
  );
}
