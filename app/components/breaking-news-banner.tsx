import { Link } from "react-router";
import type { BreakingNews } from "~/domain/settings/breaking-news.schema";

/** The site-wide breaking-news bar above the header; a link when the editor gave one. */
export function BreakingNewsBanner({ news }: { news: BreakingNews }) {
  const text = <span className="font-medium">{news.text}</span>;
  const external = news.url !== null && /^https?:\/\//i.test(news.url);
  return (
    <section aria-label="Breaking news" className="bg-red-700 text-white">
      <p className="mx-auto flex w-full max-w-7xl flex-wrap items-baseline gap-x-3 gap-y-1 px-4 py-2 text-sm">
        <span className="rounded bg-white px-2 py-0.5 text-xs font-bold tracking-wide text-red-800 uppercase">Breaking</span>
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
