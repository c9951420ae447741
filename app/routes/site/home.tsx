import { Cpu, Film, Globe, GraduationCap, Newspaper, Tag, Trophy, type LucideIcon } from "lucide-react";
import { Link, useRouteLoaderData } from "react-router";
import { AdSlot } from "~/components/ad-slot";
import { ArticleCard } from "~/components/article-card";
import { HydrateLater } from "~/components/hydrate-later";
import { MostRead } from "~/components/most-read";
import { NewsletterSignup } from "~/components/newsletter-signup";
import { Button } from "~/components/ui/button";
import { mostRead } from "~/domain/audience/most-read.server";
import { exploreCategoriesOf, homeCategorySections, homePageStories } from "~/domain/front-page/front-page.server";
import { signupChoices } from "~/domain/newsletters/subscribers.server";
import { noteStories } from "~/lib/cache-tags.server";
import { pageMeta } from "~/page-meta";
import { homeJsonLd } from "~/lib/structured-data";
import type { RootData } from "~/root";
import type { Route } from "./+types/home";

/** Spec: home loads 12 articles, 3 in the top strip (the lead story and two beside it) and 9 in Latest Stories. */
export const HOME_ARTICLE_COUNT = 12;
const TOP_STRIP = 3;
/** Under them, a block per category with its newest stories not shown above (issue 41). */
export const SECTION_STORIES = 4;

const CATEGORY_ICONS: Record<string, LucideIcon> = {
  news: Newspaper,
  entertainment: Film,
  sport: Trophy,
  worldnews: Globe,
  technology: Cpu,
  schools: GraduationCap,
};

/** The icon for a category slug; an unknown slug gets the generic one. */
export function categoryIcon(slug: string): LucideIcon {
  return CATEGORY_ICONS[slug] ?? Tag;
}

/**
 * The editors' lead and top stories, then the newest (decision 0034: one query, pins included); then
 * a block per category with its newest stories not already shown (one query, decision 0055). The
 * welcome banner and the Explore Topics choice come with the site's frame, read once per process.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const [articles, { settings, categories }, newsletters, popular] = await Promise.all([
    homePageStories(context.db, HOME_ARTICLE_COUNT),
    context.siteFrame(),
    signupChoices(context.db),
    // The last 24 hours' most read (issue 42): kept in the process for minutes, read at a render only.
    mostRead(context.db, { changes: context.changes }),
  ]);
  // Null when every category shows (the navigation's, already in the root's data).
  const explore = settings.exploreCategoryIds ? exploreCategoriesOf(categories, settings.exploreCategoryIds) : null;
  const sections = await homeCategorySections(
    context.db,
    (explore ?? categories).map(({ id, name, slug }) => ({ id, name, slug })),
    articles.map((a) => a.id),
    SECTION_STORIES,
  );
  noteStories(context, articles);
  for (const section of sections) noteStories(context, section.stories);
  // A story of "Most read" unpublished or renamed drops the page, as a card's does.
  noteStories(context, popular.map((s) => ({ id: s.articleId })));
  return {
    articles,
    sections,
    mostRead: popular.map(({ articleId, title, slug }) => ({ articleId, title, slug })),
    showWelcomeBanner: settings.showWelcomeBanner,
    explore,
    // The closing call to action: the newsletter sign-up, with its form's signed "shown at" stamp.
    newsletters,
    signupFormStarted: context.commentSpam.formTimer.issue(),
  };
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { path: "/", structuredData: (site) => homeJsonLd(site) });

/** A section's name over a heavy rule, as a newspaper heads its pages. */
const SECTION_HEADING = "type-section mb-4 border-t-2 border-slate-900 pt-2";

export default function Home({ loaderData }: Route.ComponentProps) {
  const { articles, sections, mostRead: popular, showWelcomeBanner, explore, newsletters, signupFormStarted } = loaderData;
  const root = useRouteLoaderData("root") as RootData;
  const categories = explore ?? root.categories;
  const [lead, ...beside] = articles.slice(0, TOP_STRIP);
  const latest = articles.slice(TOP_STRIP);
  return (
    <main>
      {/* The page keeps one h1 (headings in order for screen readers): the banner's, or the site's name. */}
      {showWelcomeBanner ? null : <h1 className="sr-only">{root.settings.siteName}</h1>}

      <div className="mx-auto max-w-7xl space-y-10 px-4 pt-4 pb-8 sm:pt-6">
        {lead ? (
          <section aria-labelledby="top-stories">
            <h2 id="top-stories" className="type-label mb-3 border-t-2 border-slate-900 pt-2">
              Top Stories
            </h2>
            {/* The lead story large, the next two in a column beside it (below it on phones), by position and size, not boxes. */}
            <div className="grid gap-6 lg:grid-cols-12 lg:gap-8">
              <ArticleCard article={lead} priority="high" variant="lead" className="lg:col-span-9" />
              <div className="grid gap-6 sm:grid-cols-2 lg:col-span-3 lg:grid-cols-1 lg:content-start lg:border-l lg:border-slate-200 lg:pl-8">
                {/* Below the lead on a phone (lazy: under the first screen), in type alone beside it on a desktop. */}
                {beside.map((a) => (
                  <ArticleCard key={a.id} article={a} variant="top" />
                ))}
              </div>
            </div>
          </section>
        ) : (
          <p className="text-center text-slate-600">No articles have been published yet.</p>
        )}

        {showWelcomeBanner ? (
          // The seed's welcome, a setting: a quiet band under the lead story (the news comes first).
          <section aria-labelledby="welcome" className="border-y border-slate-200 bg-slate-50 px-4 py-4 text-center sm:py-5">
            <h1 id="welcome" className="font-serif text-xl font-bold tracking-tight text-slate-900 sm:text-2xl">
              Stay Informed, Stay Connected
            </h1>
            <p className="type-caption mx-auto mt-1 max-w-2xl">Breaking news, sharp analysis and the stories that matter, from New York to the rest of the world.</p>
          </section>
        ) : null}

        <AdSlot name="home-top" />

        {/* Below the first screen: hydrated in a task after the rest (app/components/hydrate-later.tsx). */}
        <HydrateLater>
          {latest.length > 0 ? (
            <section aria-labelledby="latest-stories">
              <h2 id="latest-stories" className={SECTION_HEADING}>
                Latest Stories
              </h2>
              {/* A river: headline, standfirst and byline, a small crop beside; rules between stories. */}
              <div className="grid gap-x-8 sm:grid-cols-2 lg:grid-cols-3">
                {latest.map((a) => (
                  <ArticleCard key={a.id} article={a} variant="compact" />
                ))}
              </div>
            </section>
          ) : null}
        </HydrateLater>

        {/* The last 24 hours' most read, numbered, in type alone: across the page on a desktop. In a
            deferred boundary of its own, and none when the list is empty: a boundary that is still
            waiting keeps exactly one element of the server's HTML (with none, it would take the next). */}
        {popular.length > 0 ? (
          <HydrateLater>
            <MostRead stories={popular} />
          </HydrateLater>
        ) : null}

        <AdSlot name="home-middle" />

        <section aria-labelledby="explore-topics">
          <h2 id="explore-topics" className={SECTION_HEADING}>
            Explore Topics
          </h2>
          <ul className="flex flex-wrap gap-2">
            {categories.map((c) => {
              const Icon = categoryIcon(c.slug);
              return (
                <li key={c.id}>
                  <Link
                    to={`/category/${c.slug}`}
                    prefetch="intent"
                    className="inline-flex min-h-11 items-center gap-2 rounded-full border border-slate-300 px-4 text-sm font-semibold text-slate-800 transition-colors hover:border-brand-700 hover:text-brand-700"
                  >
                    <Icon className="h-4 w-4 text-brand-700" aria-hidden="true" />
                    {c.name}
                  </Link>
                </li>
              );
            })}
          </ul>
        </section>

        <HydrateLater>
          {/* One block per category: its newest stories not shown above, the first with its image. */}
          {sections.map(({ category, stories }) => (
            <section key={category.id} aria-labelledby={`section-${category.slug}`}>
              <h2 id={`section-${category.slug}`} className={SECTION_HEADING}>
                <Link to={`/category/${category.slug}`} prefetch="intent" className="hover:text-brand-700 hover:underline">
                  {category.name}
                </Link>
              </h2>
              {/* Its newest story with its image, the others as a river beside it (below it on a phone). */}
              <div className="grid gap-x-8 sm:grid-cols-2 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)]">
                <ArticleCard article={stories[0]!} />
                {stories.length > 1 ? (
                  <div>
                    {stories.slice(1).map((a) => (
                      <ArticleCard key={a.id} article={a} variant="compact" />
                    ))}
                  </div>
                ) : null}
              </div>
            </section>
          ))}

          <AdSlot name="home-bottom" />

          {/* The closing call to action: the newsletter sign-up (issue 30), and the ways into the site. */}
          <NewsletterSignup
            tone="dark"
            newsletters={newsletters}
            source="/"
            formStarted={signupFormStarted}
            description="Never miss a story: the news that matters, in your inbox. No spam, and you can unsubscribe in one click."
          >
            <div className="mt-8 flex flex-wrap justify-center gap-3">
              <Button asChild size="lg" variant="outline-light">
                <Link to="/category/news">Read the latest news</Link>
              </Button>
              <Button asChild size="lg" variant="outline-light">
                <Link to="/contact">Contact the newsroom</Link>
              </Button>
            </div>
          </NewsletterSignup>
        </HydrateLater>
      </div>
    </main>
  );
}
