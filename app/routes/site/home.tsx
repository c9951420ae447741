import { Cpu, Film, Globe, GraduationCap, Newspaper, Tag, Trophy, type LucideIcon } from "lucide-react";
import { Link, useRouteLoaderData } from "react-router";
import { AdSlot } from "~/components/ad-slot";
import { ArticleCard, CardGrid } from "~/components/article-card";
import { HydrateLater } from "~/components/hydrate-later";
import { NewsletterSignup } from "~/components/newsletter-signup";
import { Button } from "~/components/ui/button";
import { exploreCategoriesOf, homePageStories } from "~/domain/front-page/front-page.server";
import { signupChoices } from "~/domain/newsletters/subscribers.server";
import { noteStories } from "~/lib/cache-tags.server";
import { pageMeta } from "~/page-meta";
import { homeJsonLd } from "~/lib/structured-data";
import type { RootData } from "~/root";
import type { Route } from "./+types/home";

/** Spec: home loads 12 articles, 3 in the top strip (the lead story and two beside it) and 9 in Latest Stories. */
export const HOME_ARTICLE_COUNT = 12;
const TOP_STRIP = 3;

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
 * The editors' lead and top stories, then the newest (decision 0034: one query, pins included); the
 * welcome banner and the Explore Topics choice come with the site's frame, read once per process.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const [articles, { settings, categories }, newsletters] = await Promise.all([
    homePageStories(context.db, HOME_ARTICLE_COUNT),
    context.siteFrame(),
    signupChoices(context.db),
  ]);
  noteStories(context, articles);
  // Null when every category shows (the navigation's, already in the root's data).
  const explore = settings.exploreCategoryIds ? exploreCategoriesOf(categories, settings.exploreCategoryIds) : null;
  return {
    articles,
    showWelcomeBanner: settings.showWelcomeBanner,
    explore,
    // The closing call to action: the newsletter sign-up, with its form's signed "shown at" stamp.
    newsletters,
    signupFormStarted: context.commentSpam.formTimer.issue(),
  };
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { path: "/", structuredData: (site) => homeJsonLd(site) });

export default function Home({ loaderData }: Route.ComponentProps) {
  const { articles, showWelcomeBanner, explore, newsletters, signupFormStarted } = loaderData;
  const root = useRouteLoaderData("root") as RootData;
  const categories = explore ?? root.categories;
  const top = articles.slice(0, TOP_STRIP);
  const latest = articles.slice(TOP_STRIP);
  return (
    <main>
      {showWelcomeBanner ? (
        <section className="bg-gradient-to-br from-brand-900 via-brand-800 to-brand-700 text-white">
          {/* Compact: the lead story starts on the first screen of a phone and of a desktop. */}
          <div className="mx-auto max-w-7xl px-4 py-5 text-center sm:py-7">
            <h1 className="font-serif text-2xl font-bold tracking-tight sm:text-4xl">Stay Informed, Stay Connected</h1>
            <p className="mx-auto mt-2 max-w-2xl text-sm text-brand-100 sm:text-base">
              Breaking news, sharp analysis and the stories that matter, from New York to the rest of the world.
            </p>
          </div>
        </section>
      ) : (
        // The page keeps one h1 (headings in order for screen readers) when the banner is off.
        <h1 className="sr-only">{root.settings.siteName}</h1>
      )}

      <div className="mx-auto max-w-7xl space-y-12 px-4 py-6 sm:py-8">
        {top.length > 0 ? (
          <section aria-labelledby="top-stories">
            <h2 id="top-stories" className="mb-4 font-serif text-2xl font-bold">
              Top Stories
            </h2>
            {/* The lead story large, the next two beside it (below it on phones). */}
            <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
              {top.map((a, i) => (
                <ArticleCard key={a.id} article={a} priority={i === 0 ? "high" : true} lead={i === 0} className={i === 0 ? "sm:col-span-2 lg:row-span-2" : undefined} />
              ))}
            </div>
          </section>
        ) : (
          <p className="text-center text-slate-600">No articles have been published yet.</p>
        )}

        <AdSlot name="home-top" />

        <section aria-labelledby="explore-topics">
          <h2 id="explore-topics" className="mb-6 font-serif text-2xl font-bold">
            Explore Topics
          </h2>
          <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-6">
            {categories.map((c) => {
              const Icon = categoryIcon(c.slug);
              return (
                <li key={c.id}>
                  <Link
                    to={`/category/${c.slug}`}
                    prefetch="intent"
                    className="flex flex-col items-center gap-3 rounded-lg border border-slate-200 p-5 text-center font-medium text-slate-800 transition-colors hover:border-brand-600 hover:bg-brand-50"
                  >
                    <Icon className="h-8 w-8 text-brand-700" aria-hidden="true" />
                    {c.name}
                  </Link>
                </li>
              );
            })}
          </ul>
        </section>

        <AdSlot name="home-middle" />

        {/* Below the first screen: hydrated in a task after the rest (app/components/hydrate-later.tsx). */}
        <HydrateLater>
          {latest.length > 0 ? (
            <section aria-labelledby="latest-stories">
              <h2 id="latest-stories" className="mb-6 font-serif text-2xl font-bold">
                Latest Stories
              </h2>
              <CardGrid>
                {latest.map((a) => (
                  <ArticleCard key={a.id} article={a} />
                ))}
              </CardGrid>
            </section>
          ) : null}

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
