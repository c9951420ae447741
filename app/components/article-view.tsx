import { focalPosition, imageCropUrl } from "~/lib/image-variants";
import { preloadImage } from "~/lib/preload-image";
import { FEATURED_IMAGE_SIZES, FEATURED_IMAGE_WIDTHS } from "~/domain/articles/featured-image-html";
import { Eye } from "lucide-react";
import type { CSSProperties, ReactNode } from "react";
import { Link } from "react-router";
import { ShareButtons } from "~/components/share-buttons";
import { Badge } from "~/components/ui/badge";
import { Byline } from "./byline";
import type { ArticleCard, ArticlePaywall, FeaturedImageText } from "~/domain/articles/articles.schema";
import { MeterBanner, PaywallCallToAction } from "./story-paywall";
import { ARTICLE_NOTE_KIND_LABELS, type ArticleNote } from "~/domain/articles/corrections.schema";
import { formatArticleDate, useSiteTimeZone } from "~/lib/dates";
import { formatQuantity } from "~/lib/numbers";

/** An article as its page shows it (as data reaches the browser: dates may be strings). */
export type ArticleViewData = Omit<ArticleCard, "createdAt" | "publishedAt"> &
  FeaturedImageText & {
  createdAt: string | Date;
  publishedAt: string | Date;
  content: string;
  /** The featured image with its alt text, caption and credit as HTML rendered on the server; null without an image. */
  featuredFigureHtml: string | null;
  /** A story from the editor, rendered to HTML on the server through its allow-list; null for a plain-text story. */
  body: { html: string } | null;
  readingMinutes: number;
  /** When readers are told it was last updated ("Updated {date}" when later than the publication). */
  modifiedAt: string | Date | null;
  /** Dated correction and update notes, newest first. */
  corrections?: ArticleNote[];
  /** A gated story's paywall (issue 40): its call to action on a teaser; null or absent for a public story. */
  paywall?: ArticlePaywall | null;
};

/** "Correction, November 23, 2026: text", newest first, under the byline. Text only: React escapes it. */
function ArticleNotes({ notes, timeZone }: { notes: ArticleNote[]; timeZone: string }) {
  if (notes.length === 0) return null;
  return (
    <aside aria-labelledby="article-notes-heading" className="rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-slate-800">
      <h2 id="article-notes-heading" className="font-semibold text-slate-900">
        Corrections and updates
      </h2>
      <ul className="mt-2 space-y-2" data-testid="article-notes">
        {notes.map((note) => (
          <li key={note.id} className="break-words">
            <span className="font-medium">
              {ARTICLE_NOTE_KIND_LABELS[note.kind]},{" "}
              <time dateTime={new Date(note.createdAt).toISOString()}>{formatArticleDate(note.createdAt, timeZone)}</time>:
            </span>{" "}
            {note.text}
          </li>
        ))}
      </ul>
    </aside>
  );
}

/** Content as text with its line breaks: blank lines separate paragraphs, single breaks stay. */
function ArticleContent({ content }: { content: string }) {
  const paragraphs = content.split(/\n\s*\n/).filter((p) => p.trim());
  return (
    <div className="type-body space-y-5">
      {paragraphs.map((p, i) => (
        <p key={i} className="whitespace-pre-line break-words">
          {p.trim()}
        </p>
      ))}
    </div>
  );
}

/** A story from the editor: HTML the server rendered from the document through its allow-list. */
function StoryBody({ html }: { html: string }) {
  return <div className="story-body" dangerouslySetInnerHTML={{ __html: html }} />;
}

/** The body column's measure: 60 to 75 characters of the body type a line (issue 41, decision 0055). */
const MEASURE = "mx-auto w-full max-w-[38rem]";

/** The excerpt as a standfirst: the story's summary under its headline, in larger, lighter type (not a quote). */
function Standfirst({ text, className }: { text: string | null; className?: string }) {
  return text ? (
    <p className={`type-standfirst ${className ?? ""}`} data-testid="standfirst">
      {text}
    </p>
  ) : null;
}

/** The story (a live story's summary first: "What we know"). */
function Summary({ article, withStandfirst }: { article: ArticleViewData; withStandfirst: boolean }) {
  return (
    <div className={MEASURE}>
      {withStandfirst ? <Standfirst text={article.excerpt} className="mt-4" /> : null}

      {article.paywall?.variant === "full" ? <MeterBanner articleId={article.id} /> : null}

      {/* The story's text: how far it was read is measured against it (app/lib/reading-report.ts). */}
      <div className="mt-8" data-story-text="">
        {article.body ? <StoryBody html={article.body.html} /> : <ArticleContent content={article.content} />}
      </div>

      {article.paywall?.callToAction ? <PaywallCallToAction paywall={article.paywall} storyPath={`/article/${article.slug}`} /> : null}
    </div>
  );
}

/**
 * The article itself as readers see it on /article/{slug}: image, category, title, byline, the
 * publication date, views, share buttons, video, excerpt and content. The back office's preview
 * shows the same component. A live story (issue 31) gives its status line ("LIVE", or "Live coverage
 * has ended"): it goes under the byline, and the summary and story under it are "What we know".
 */
export function ArticleView({ article, views, shareUrl, liveStatus }: { article: ArticleViewData; views: number; shareUrl: string; liveStatus?: ReactNode }) {
  // The page's largest paint: fetched first, ahead of the scripts (React puts this in the <head>).
  if (article.featuredFigureHtml && article.featuredImage) preloadImage(article.featuredImage, FEATURED_IMAGE_WIDTHS, FEATURED_IMAGE_SIZES);
  const timeZone = useSiteTimeZone();
  const updated = article.modifiedAt && new Date(article.modifiedAt) > new Date(article.publishedAt) ? new Date(article.modifiedAt) : null;
  return (
    <article>
      {/* Headline, standfirst and byline first, in the body's column; then the picture, wider. */}
      <header className={`${MEASURE} space-y-4`}>
        {article.category ? (
          <Link to={`/category/${article.category.slug}`}>
            <Badge>{article.category.name}</Badge>
          </Link>
        ) : null}
        <h1 className="type-headline">{article.title}</h1>
        {liveStatus ? null : <Standfirst text={article.excerpt} />}
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2 border-t border-slate-200 pt-3 text-sm text-slate-600">
          <span>
            By{" "}
            <span className="font-medium text-slate-900" data-testid="byline">
              <Byline authors={article.authors} authorName={article.authorName} linkClassName="text-brand-700 underline-offset-2 hover:underline" />
            </span>
          </span>
          <time dateTime={new Date(article.publishedAt).toISOString()}>{formatArticleDate(article.publishedAt, timeZone)}</time>
          {updated ? (
            <span data-testid="article-updated">
              Updated <time dateTime={updated.toISOString()}>{formatArticleDate(updated, timeZone)}</time>
            </span>
          ) : null}
          <span data-testid="reading-time">{article.readingMinutes} min read</span>
          <span className="inline-flex items-center gap-1" data-testid="view-count">
            <Eye className="h-4 w-4" aria-hidden="true" /> {formatQuantity(views, "view")}
          </span>
        </div>
        <ArticleNotes notes={article.corrections ?? []} timeZone={timeZone} />
        <ShareButtons url={`${shareUrl}`} title={article.title} />
      </header>

      {article.featuredFigureHtml ? (
        // The image, its alt text, caption and credit: rendered on the server (featured-image-html.ts);
        // its crop keeps the image's focal point in frame (app.css reads --focus).
        <figure
          className="featured-figure mt-8"
          style={{ "--focus": focalPosition(article.featuredImageFocus) } as CSSProperties}
          dangerouslySetInnerHTML={{ __html: article.featuredFigureHtml }}
        />
      ) : null}

      {article.videoUrl ? (
        // The poster: the featured image (its 16:9 crop when it is ours), so the player is never a black box.
        <video
          src={article.videoUrl}
          poster={article.featuredImage ? (imageCropUrl(article.featuredImage, "16x9") ?? article.featuredImage) : undefined}
          controls
          preload="metadata"
          className="mt-8 aspect-video w-full rounded-xl bg-black"
          aria-label={`Video: ${article.title}`}
        />
      ) : null}

      {liveStatus}

      {liveStatus ? (
        <section aria-labelledby="what-we-know-heading" className="mt-6">
          <h2 id="what-we-know-heading" className={`${MEASURE} type-section`}>
            What we know
          </h2>
          <Summary article={article} withStandfirst />
        </section>
      ) : (
        <Summary article={article} withStandfirst={false} />
      )}
    </article>
  );
}
