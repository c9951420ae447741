import { Eye } from "lucide-react";
import { Link } from "react-router";
import { ShareButtons } from "~/components/share-buttons";
import { Badge } from "~/components/ui/badge";
import type { ArticleCard, FeaturedImageText } from "~/domain/articles/articles.schema";
import { formatArticleDate, useSiteTimeZone } from "~/lib/dates";
import { imageSrcSet } from "~/lib/image-variants";

/** An article as its page shows it (as data reaches the browser: dates may be strings). */
export type ArticleViewData = Omit<ArticleCard, "createdAt" | "publishedAt"> &
  FeaturedImageText & {
  createdAt: string | Date;
  publishedAt: string | Date;
  content: string;
  /** A story from the editor, rendered to HTML on the server through its allow-list; null for a plain-text story. */
  body: { html: string } | null;
  readingMinutes: number;
};

/** Content as text with its line breaks: blank lines separate paragraphs, single breaks stay. */
function ArticleContent({ content }: { content: string }) {
  const paragraphs = content.split(/\n\s*\n/).filter((p) => p.trim());
  return (
    <div className="space-y-5 text-lg leading-8 text-slate-800">
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

/**
 * The featured image with its alt text (alt="" for an article saved before alt text existed: it stays
 * shown until edited), and, when it has a caption or credit, as a figure with them beneath.
 */
function FeaturedImage({ article }: { article: ArticleViewData & { featuredImage: string } }) {
  const caption = article.featuredImageCaption?.trim();
  const credit = article.featuredImageCredit?.trim();
  const figure = Boolean(caption || credit);
  const img = (
    <img
      src={article.featuredImage}
      srcSet={imageSrcSet(article.featuredImage, [640, 960, 1280, 1600])}
      sizes="(min-width: 896px) 864px, 100vw"
      alt={article.featuredImageAlt ?? ""}
      width={1200}
      height={675}
      fetchPriority="high"
      className={`${figure ? "" : "mb-8 "}aspect-video w-full rounded-xl object-cover`}
    />
  );
  if (!figure) return img;
  return (
    <figure className="mb-8" data-testid="featured-figure">
      {img}
      <figcaption className="mt-2 text-sm leading-6 text-slate-600">
        {caption ? <span>{caption}</span> : null}
        {caption && credit ? <span aria-hidden="true"> — </span> : null}
        {credit ? <span className="text-xs uppercase tracking-wide text-slate-500">Photo: {credit}</span> : null}
      </figcaption>
    </figure>
  );
}

/**
 * The article itself as readers see it on /article/{slug}: image, category, title, byline, the
 * publication date, views, share buttons, video, excerpt and content. The back office's preview
 * shows the same component.
 */
export function ArticleView({ article, views, shareUrl }: { article: ArticleViewData; views: number; shareUrl: string }) {
  const timeZone = useSiteTimeZone();
  return (
    <article>
      {article.featuredImage ? <FeaturedImage article={{ ...article, featuredImage: article.featuredImage }} /> : null}
      <header className="space-y-4">
        {article.category ? (
          <Link to={`/category/${article.category.slug}`}>
            <Badge>{article.category.name}</Badge>
          </Link>
        ) : null}
        <h1 className="font-serif text-3xl font-bold leading-tight text-slate-900 sm:text-5xl">{article.title}</h1>
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm text-slate-600">
          <span>
            By <span className="font-medium text-slate-900">{article.authorName}</span>
          </span>
          <time dateTime={new Date(article.publishedAt).toISOString()}>{formatArticleDate(article.publishedAt, timeZone)}</time>
          <span data-testid="reading-time">{article.readingMinutes} min read</span>
          <span className="inline-flex items-center gap-1" data-testid="view-count">
            <Eye className="h-4 w-4" aria-hidden="true" /> {views} views
          </span>
        </div>
        <ShareButtons url={`${shareUrl}`} title={article.title} />
      </header>

      {article.videoUrl ? (
        <video src={article.videoUrl} controls preload="metadata" className="mt-8 w-full rounded-xl bg-black" aria-label={`Video: ${article.title}`} />
      ) : null}

      {article.excerpt ? <p className="mt-8 border-l-4 border-brand-600 pl-4 text-xl italic text-slate-700">{article.excerpt}</p> : null}

      <div className="mt-8">
        {article.body ? <StoryBody html={article.body.html} /> : <ArticleContent content={article.content} />}
      </div>
    </article>
  );
}
