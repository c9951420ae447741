import { Writable } from "node:stream";
import type { ReactElement } from "react";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router";
import { describe, expect, test } from "vitest";
import { ArticleCard, type SerializedCard } from "~/components/article-card";
import { SiteFooter } from "~/components/site-footer";
import type { PublicSettings } from "~/domain/settings/settings.schema";
import { createFragmentCache, FragmentCacheContext, type FragmentCache } from "~/lib/fragments";

// Issue 32 (decision 0048): story cards and the footer come from the fragment cache on the server.
// A page must be byte for byte the page rendered without it (the browser hydrates what it renders
// itself), on a miss and on a hit, and a card whose data changes must not keep its old HTML.

const card = (n: number, extra: Partial<SerializedCard> = {}): SerializedCard => ({
  id: `id-${n}`,
  title: `Story ${n} & “quotes” <b>`,
  slug: `story-${n}`,
  excerpt: n % 2 ? `Excerpt ${n}` : null,
  featuredImage: n % 3 ? `/media/images/story-${n}.jpg` : null,
  featuredImageAlt: n % 3 === 1 ? `Alt ${n}` : null,
  featuredImageFocus: n === 1 ? { x: 0.8, y: 0.75 } : null,
  videoUrl: n === 4 ? "/media/videos/v.mp4" : null,
  authorName: "Newsroom",
  views: 1000 + n,
  createdAt: new Date(Date.UTC(2026, 10, n)).toISOString(),
  publishedAt: new Date(Date.UTC(2026, 10, n, 23, 30)).toISOString(),
  category: n === 5 ? null : { name: "World News", slug: "worldnews" },
  authors: n % 2 ? [{ name: "Aisha Rahmanova", slug: "aisha-rahmanova" }, { name: "Tomasz Abernathy", slug: "tomasz-abernathy" }] : [],
  live: n === 2,
  ...extra,
});

const settings: PublicSettings = {
  siteName: "The Daily <Test>",
  siteTagline: "",
  siteDescription: "A description",
  logoUrl: null,
  faviconUrl: null,
  contactEmail: "",
  contactPhone: "",
  footerText: "Footer text",
  social: { facebook: "https://www.facebook.com/", twitter: null, instagram: "https://www.instagram.com/", linkedin: null, youtube: null },
  adClientId: null,
  analyticsId: null,
} as unknown as PublicSettings;

function Page({ cards }: { cards: SerializedCard[] }) {
  return (
    <main>
      {cards.map((c, i) => (
        <ArticleCard key={c.id} article={c} priority={i === 0 ? "high" : i < 3} variant={i === 0 ? "lead" : i > 4 ? "compact" : "standard"} className={i === 1 ? "sm:col-span-2" : undefined} />
      ))}
      <SiteFooter settings={settings} categories={[{ id: "c1", name: "World News", slug: "worldnews" }]} pages={[{ slug: "ethics", title: "Ethics" }]} />
    </main>
  );
}

/** The page as app/entry.server.tsx renders it: the stream, inside a data router, with or without the cache. */
async function render(cards: SerializedCard[], cache: FragmentCache | null): Promise<string> {
  const routes = [{ id: "root", path: "/", loader: () => ({ timeZone: "America/New_York", settings }), Component: () => <Page cards={cards} /> }];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request("http://localhost/"));
  if (context instanceof Response) throw new Error("unexpected response");
  const router = createStaticRouter(handler.dataRoutes, context);
  const element: ReactElement = (
    <FragmentCacheContext.Provider value={cache}>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </FragmentCacheContext.Provider>
  );
  return new Promise((resolve, reject) => {
    let html = "";
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        html += chunk.toString();
        done();
      },
    });
    sink.on("finish", () => resolve(html));
    const { pipe } = renderToPipeableStream(element, { onAllReady: () => pipe(sink), onError: reject });
  });
}

describe("the fragment cache", () => {
  const cards = Array.from({ length: 8 }, (_, i) => card(i + 1));

  test("a page is the same HTML with it (a miss, then hits) as without it", async () => {
    const plain = await render(cards, null);
    const cache = createFragmentCache(renderToString);
    const missed = await render(cards, cache);
    // Cards below the first screen (5 of 8) and the footer were kept.
    expect(cache.size()).toBe(6);
    const hit = await render(cards, cache);
    expect(missed).toBe(plain);
    expect(hit).toBe(plain);
    // What the fragments hold is in the page: separators between text nodes included.
    expect(plain).toContain("Story 8 &amp; “quotes” &lt;b&gt;");
    expect(plain).toContain("<!-- -->");
    expect(plain).toContain('href="/author/aisha-rahmanova"');
    expect(plain).toContain("The Daily &lt;Test&gt;<!-- -->. All rights reserved.");
  });

  test("a card whose data changed is rendered afresh, not taken from the cache", async () => {
    const cache = createFragmentCache(renderToString);
    await render(cards, cache);
    const changed = cards.map((c, i) => (i === 6 ? { ...c, views: 98_765, title: "A corrected headline" } : c));
    const html = await render(changed, cache);
    expect(html).toBe(await render(changed, null));
    expect(html).toContain("A corrected headline");
    expect(html).not.toContain("Story 7 &amp;");
  });

  test("past its bound it starts afresh", () => {
    const cache = createFragmentCache(renderToString, { maxEntries: 2 });
    for (const key of ["a", "b", "c"]) cache.html("pool", key, () => <p>{key}</p>);
    expect(cache.size()).toBe(1);
    expect(cache.html("pool", "c", () => <p>other</p>)).toBe("<p>c</p>");
  });
});
