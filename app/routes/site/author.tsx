import { data } from "react-router";
import { AdSlot } from "~/components/ad-slot";
import { ArticleCard, CardGrid } from "~/components/article-card";
import { RouteError } from "~/components/not-found";
import { Pagination } from "~/components/pagination";
import { getAuthorBySlug, listAuthorArticles } from "~/domain/authors/authors.server";
import { noteStories } from "~/lib/cache-tags.server";
import { imageSrcSet, isResizableImageUrl } from "~/lib/image-variants";
import { pageFromUrl } from "~/lib/pagination";
import { pageMeta } from "~/page-meta";
import { NOINDEX } from "~/lib/seo";
import { profilePageJsonLd } from "~/lib/structured-data";
import type { Route } from "./+types/author";

/** Articles per author page; past it, pagination links (as categories). */
export const AUTHOR_PAGE_SIZE = 24;

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const author = await getAuthorBySlug(context.db, params.slug);
  if (!author) {
    context.log.warn({ path: new URL(request.url).pathname }, "404: unknown author");
    throw data("Author not found", { status: 404 });
  }
  const page = pageFromUrl(request.url);
  const { articles, total } = await listAuthorArticles(context.db, author.id, page, AUTHOR_PAGE_SIZE, context.storyMemo);
  const pageCount = Math.max(1, Math.ceil(total / AUTHOR_PAGE_SIZE));
  if (page > pageCount) {
    context.log.warn({ path: `${new URL(request.url).pathname}?page=${page}` }, "404: past the last page");
    throw data("Page not found", { status: 404 });
  }
  const { id: _id, ...shown } = author;
  noteStories(context, articles);
  return { author: shown, articles, page, pageCount, total };
}

export const meta: Route.MetaFunction = ({ data, matches, location }) => {
  if (!data) return pageMeta(matches, { title: "Author not found", path: location.pathname, robots: NOINDEX });
  const { author, page } = data;
  const summary = author.bio ? author.bio.replace(/\s+/g, " ").trim().slice(0, 160) : null;
  return pageMeta(matches, {
    title: page > 1 ? `${author.name} – page ${page}` : author.name,
    description: summary ?? `Stories by ${author.name}${author.roleTitle ? `, ${author.roleTitle}` : ""}, newest first.`,
    image: author.photoUrl,
    imageAlt: author.photoUrl ? author.name : null,
    type: "profile",
    path: `/author/${author.slug}${page > 1 ? `?page=${page}` : ""}`,
    feed: { title: `${author.name} RSS`, path: `/author/${author.slug}/rss.xml` },
    structuredData: (site) => [profilePageJsonLd(site, { ...author, links: [author.websiteUrl, author.xUrl, author.linkedinUrl] })],
  });
};

/** Shown at 128 px (256 on a sharp screen): our own photo's small variants are enough. */
const PHOTO_WIDTHS = [320, 480] as const;

/** "Jane van der Berg" → "JB": the first letters of the first and last words. */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = [words[0], words.length > 1 ? words[words.length - 1] : undefined].map((w) => (w ? Array.from(w)[0]!.toLocaleUpperCase() : ""));
  return letters.join("") || "?";
}

/** The author's photo, cropped round; without one, their initials (never a broken image). */
function AuthorPhoto({ name, photoUrl }: { name: string; photoUrl: string | null }) {
  if (!photoUrl) {
    return (
      <div
        className="flex size-24 shrink-0 items-center justify-center rounded-full bg-brand-700 font-serif text-3xl font-bold text-white sm:size-32 sm:text-4xl"
        aria-hidden="true"
        data-testid="author-initials"
      >
        {initialsOf(name)}
      </div>
    );
  }
  const ours = isResizableImageUrl(photoUrl);
  return (
    <img
      src={ours ? `${photoUrl}?w=${PHOTO_WIDTHS[0]}` : photoUrl}
      srcSet={imageSrcSet(photoUrl, PHOTO_WIDTHS)}
      sizes={ours ? "128px" : undefined}
      alt={name}
      width={128}
      height={128}
      className="size-24 shrink-0 rounded-full bg-slate-100 object-cover sm:size-32"
    />
  );
}

export default function AuthorPage({ loaderData }: Route.ComponentProps) {
  const { author, articles, page, pageCount } = loaderData;
  const links = [
    { href: author.websiteUrl, label: "Website" },
    { href: author.xUrl, label: "X" },
    { href: author.linkedinUrl, label: "LinkedIn" },
  ].filter((l): l is { href: string; label: string } => Boolean(l.href));
  return (
    <main className="mx-auto w-full max-w-7xl flex-1 px-4 py-10">
      <header className="mb-8 flex flex-col gap-5 border-b border-slate-200 pb-8 sm:flex-row sm:items-center sm:gap-8" data-testid="author-header">
        <AuthorPhoto name={author.name} photoUrl={author.photoUrl} />
        <div className="min-w-0 space-y-3">
          <div>
            <h1 className="break-words font-serif text-3xl font-bold text-slate-900 sm:text-4xl">{author.name}</h1>
            {author.roleTitle ? <p className="mt-1 text-sm font-semibold uppercase tracking-wide text-slate-600">{author.roleTitle}</p> : null}
          </div>
          {author.bio ? <p className="max-w-prose whitespace-pre-line text-slate-700">{author.bio}</p> : null}
          {links.length > 0 ? (
            <ul className="flex flex-wrap gap-4 text-sm" aria-label={`${author.name} elsewhere`}>
              {links.map((l) => (
                <li key={l.label}>
                  <a href={l.href} rel="me noopener noreferrer" className="font-medium text-brand-700 underline underline-offset-2">
                    {l.label}
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      </header>
      {articles.length === 0 ? (
        <p className="py-16 text-center text-lg text-slate-600">No published stories by {author.name} yet.</p>
      ) : (
        <>
          <h2 className="mb-4 font-serif text-2xl font-bold text-slate-900">{`Stories by ${author.name}`}</h2>
          <CardGrid>
            {articles.map((a, i) => (
              <ArticleCard key={a.id} article={a} priority={i === 0 ? "high" : i < 3} />
            ))}
          </CardGrid>
        </>
      )}
      <Pagination basePath={`/author/${author.slug}`} page={page} pageCount={pageCount} className="mt-10" />
      <AdSlot name="category" className="mt-12" />
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteError error={error} />;
}
