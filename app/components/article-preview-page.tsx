import type { ReactNode } from "react";
import { useRouteLoaderData } from "react-router";
import { AdSlot } from "~/components/ad-slot";
import { ArticleView, type ArticleViewData } from "~/components/article-view";
import { SiteFooter } from "~/components/site-footer";
import { SiteHeader } from "~/components/site-header";
import type { RootData } from "~/root";

/**
 * A not-yet-public article as its reader page will show it: the reader's header and footer around
 * the article page's own ArticleView, under a note saying what this is. The back office's preview
 * and the shared preview link both show it.
 */
export function ArticlePreviewPage({ article, views, note }: { article: ArticleViewData; views: number; note: ReactNode }) {
  const root = useRouteLoaderData("root") as RootData;
  return (
    <div className="flex flex-1 flex-col bg-white">
      <p role="note" className="bg-amber-100 px-4 py-2 text-center text-sm text-amber-950">
        {note}
      </p>
      <SiteHeader siteName={root.settings.siteName} logoUrl={root.settings.logoUrl} categories={root.categories} user={root.user} />
      <main className="mx-auto w-full max-w-4xl flex-1 px-4 py-8">
        <ArticleView article={article} views={views} shareUrl={`${root.publicUrl}/article/${article.slug}`} />
        <AdSlot name="article" className="mt-12" />
      </main>
      <SiteFooter settings={root.settings} categories={root.categories} pages={root.footerPages} />
    </div>
  );
}
