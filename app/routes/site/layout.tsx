import { keepDataOnHashMoves } from "~/lib/revalidation";
import { Outlet, useNavigation, useRouteLoaderData } from "react-router";
import { AdConsentBanner } from "~/components/ad-consent-banner";
import { ArticleCardSkeleton, CardGrid } from "~/components/article-card";
import { BreakingNewsBanner } from "~/components/breaking-news-banner";
import { HydrateLater } from "~/components/hydrate-later";
import { SiteFooter } from "~/components/site-footer";
import { SiteHeader } from "~/components/site-header";
import { Skeleton } from "~/components/ui/skeleton";
import type { RootData } from "~/root";

/** Spec: 9 placeholders on home, 6 on a category page, while a client-side navigation loads. */
export const HOME_PLACEHOLDERS = 9;
export const CATEGORY_PLACEHOLDERS = 6;

function LoadingGrid({ count, label }: { count: number; label: string }) {
  return (
    <main className="mx-auto w-full max-w-7xl flex-1 px-4 py-10" aria-busy="true">
      <p className="sr-only" role="status">
        {label}
      </p>
      <Skeleton className="mb-8 h-9 w-64" />
      <CardGrid>
        {Array.from({ length: count }, (_, i) => (
          <ArticleCardSkeleton key={i} />
        ))}
      </CardGrid>
    </main>
  );
}

// A move within the page ("#" links, then Back) loads nothing again (app/lib/revalidation.ts).
export const shouldRevalidate = keepDataOnHashMoves;

export default function SiteLayout() {
  const root = useRouteLoaderData("root") as RootData;
  const navigation = useNavigation();
  const target = navigation.state === "loading" ? navigation.location?.pathname : undefined;
  let content = <Outlet />;
  if (target === "/") content = <LoadingGrid count={HOME_PLACEHOLDERS} label="Loading articles" />;
  else if (target?.startsWith("/category/")) content = <LoadingGrid count={CATEGORY_PLACEHOLDERS} label="Loading articles" />;
  return (
    <>
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded focus:bg-white focus:p-2">
        Skip to content
      </a>
      {root.breakingNews && <BreakingNewsBanner news={root.breakingNews} />}
      <SiteHeader
        siteName={root.settings.siteName}
        logoUrl={root.settings.logoUrl}
        categories={root.categories}
        user={root.user}
      />
      <div id="main" className="flex flex-1 flex-col">
        {content}
      </div>
      <HydrateLater>
        <SiteFooter settings={root.settings} categories={root.categories} pages={root.footerPages} />
      </HydrateLater>
      <AdConsentBanner clientId={root.settings.adClientId} consentRequired={root.settings.adConsentRequired} />
    </>
  );
}
