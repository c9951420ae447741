import { Link } from "react-router";
import type { MostReadStory } from "~/domain/audience/audience-report.types";
import { cn } from "~/lib/cn";

/**
 * "Most read" (issue 42): the last 24 hours' most read stories, numbered, headlines only. No state and
 * no effect: it is the server's HTML, cached with the page (app/domain/audience/most-read.server.ts).
 * Nothing when the list is empty (a new site). `columns`: how many across on a desktop (the home page's
 * full width: five; an article's column: one list under the other two's cards).
 */
export function MostRead({ stories, columns = 5, className }: { stories: Pick<MostReadStory, "articleId" | "title" | "slug">[]; columns?: 1 | 5; className?: string }) {
  if (stories.length === 0) return null;
  return (
    <section aria-labelledby="most-read" className={cn("border-t-2 border-slate-900 pt-2", className)} data-testid="most-read">
      <h2 id="most-read" className="type-section mb-4">
        Most read
      </h2>
      {/* A real ordered list (screen readers say "1 of 5"): the numbers are its markers, large, in the headlines' serif. */}
      <ol
        className={cn(
          "grid list-decimal gap-x-8 pl-9 marker:font-serif marker:text-3xl marker:font-bold marker:text-brand-700 sm:grid-cols-2",
          columns === 5 && "lg:grid-cols-5 lg:pl-0",
        )}
      >
        {stories.map((story) => (
          <li key={story.articleId} className={cn("border-t border-slate-200 py-3 pl-1", columns === 5 && "lg:ml-9")}>
            <Link
              to={`/article/${story.slug}`}
              prefetch="intent"
              className="font-serif text-lg leading-snug font-bold text-slate-900 hover:underline hover:decoration-slate-400 hover:underline-offset-4"
            >
              {story.title}
            </Link>
          </li>
        ))}
      </ol>
    </section>
  );
}
