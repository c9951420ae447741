import type { MetaDescriptor } from "react-router";
import type { FocalPoint } from "./image-variants";
import { shareImage, type JsonLd } from "./structured-data";

/** The keywords of a page that names none of its own (the spec's site-wide list). */
export const DEFAULT_KEYWORDS = [
  "news",
  "breaking news",
  "world news",
  "entertainment",
  "sports",
  "technology",
  "education",
  "United States",
  "New York",
];

export const META_DESCRIPTION_LENGTH = 160;

/** An indexable page: search engines may show its images large (Google Discover, Top stories). */
export const INDEXABLE = "max-image-preview:large";
/** Pages for readers only (search results, the 404 page): not indexed, links still followed. */
export const NOINDEX = "noindex, follow";
/** Previews of unpublished drafts: neither indexed nor followed. */
export const PREVIEW_ROBOTS = "noindex, nofollow";

/** The language of the site's pages, as Open Graph names it. */
export const OG_LOCALE = "en_US";

export interface SeoInput {
  /** Page title without the brand; omit for the home page. */
  title?: string;
  description?: string | null;
  keywords?: string[];
  image?: string | null;
  /** The image's focal point (issue 41): the social crop keeps it in frame. */
  imageFocus?: FocalPoint | null;
  /** The image's alt text (og:image:alt, twitter:image:alt). */
  imageAlt?: string | null;
  type?: "website" | "article" | "profile";
  /** The article's authors, each an article:author; the first names the page's author meta. */
  authors?: readonly string[];
  publishedTime?: string;
  modifiedTime?: string;
  /** The article's category (article:section). */
  section?: string;
  /** An article's video (og:video). */
  video?: string | null;
  /** The robots meta: INDEXABLE unless the page says otherwise. */
  robots?: string;
  /** The page's own RSS feed (autodiscovery), besides the site's (app/root.tsx). */
  feed?: { title: string; path: string };
  /** The page's schema.org blocks (app/lib/structured-data.ts). */
  structuredData?: readonly JsonLd[];
  /** Path of the page (canonical URL = PUBLIC_URL + path). */
  path: string;
}

export interface SeoSite {
  siteName: string;
  siteTagline?: string | null;
  siteDescription?: string | null;
  publicUrl: string;
}

/**
 * What search engines and social posts show of a story (issue 41): its SEO title and description when
 * the desk wrote them, else its headline and its description (describeArticle); and its social image
 * when one was chosen (cut around the centre of interest), else its featured image around its focal point.
 */
export function articleSearchAndSocial(article: {
  title: string;
  seoTitle?: string | null;
  seoDescription?: string | null;
  socialImage?: string | null;
  featuredImage: string | null;
  featuredImageAlt: string | null;
  featuredImageFocus?: FocalPoint | null;
  description: string;
}): { title: string; description: string; image: string | null; imageFocus: FocalPoint | null; imageAlt: string | null } {
  const social = article.socialImage?.trim();
  return {
    title: article.seoTitle?.trim() || article.title,
    description: article.seoDescription?.trim() || article.description,
    image: social || article.featuredImage,
    imageFocus: social ? null : (article.featuredImageFocus ?? null),
    // A chosen social image has no alt text of its own: the featured image's would describe another picture.
    imageAlt: social ? null : article.featuredImageAlt,
  };
}

/** An article's description: its excerpt, else the first 160 characters of its content. */
export function describeArticle(excerpt: string | null | undefined, content: string): string {
  const text = excerpt?.trim() || content.replace(/\s+/g, " ").trim();
  return text.length > META_DESCRIPTION_LENGTH ? text.slice(0, META_DESCRIPTION_LENGTH) : text;
}

function absolute(url: string, origin: string) {
  try {
    return new URL(url, `${origin}/`).href;
  } catch {
    return `${origin}${shareImage(null).url}`;
  }
}

/** The type of a video file by its extension, for og:video:type (none when unknown). */
function videoType(url: string): string | undefined {
  const extension = /\.([a-z0-9]+)(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase();
  return ({ mp4: "video/mp4", webm: "video/webm", mov: "video/quicktime", ogv: "video/ogg" } as Record<string, string>)[extension ?? ""];
}

/**
 * Title, description, keywords, canonical, robots, Open Graph and Twitter tags, and the page's JSON-LD,
 * for one page. `og:title` is the page's own title: the brand is og:site_name (the <title> keeps both).
 */
export function buildMeta(page: SeoInput, site: SeoSite | undefined): MetaDescriptor[] {
  const siteName = site?.siteName ?? "Frontpage";
  const origin = site?.publicUrl ?? "";
  // Every title ends with the brand (the home page leads with the tagline).
  const lead = page.title ?? site?.siteTagline;
  const title = lead ? `${lead} | ${siteName}` : siteName;
  const socialTitle = page.title ?? site?.siteTagline ?? siteName;
  const description = page.description?.trim() || site?.siteDescription || "";
  const url = `${origin}${page.path}`;
  const image = shareImage(page.image, page.imageFocus);
  const imageUrl = absolute(image.url, origin);
  const imageAlt = page.image ? page.imageAlt?.trim() : siteName;
  const type = page.type ?? "website";
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: description },
    { name: "keywords", content: (page.keywords ?? DEFAULT_KEYWORDS).join(", ") },
    { name: "robots", content: page.robots ?? INDEXABLE },
    { tagName: "link", rel: "canonical", href: url },
    ...(page.feed ? [{ tagName: "link", rel: "alternate", type: "application/rss+xml", title: page.feed.title, href: `${origin}${page.feed.path}` }] : []),
    { property: "og:site_name", content: siteName },
    { property: "og:locale", content: OG_LOCALE },
    { property: "og:title", content: socialTitle },
    { property: "og:description", content: description },
    { property: "og:type", content: type },
    { property: "og:url", content: url },
    { property: "og:image", content: imageUrl },
  ];
  if (image.width && image.height) {
    tags.push({ property: "og:image:width", content: String(image.width) }, { property: "og:image:height", content: String(image.height) });
  }
  if (imageAlt) tags.push({ property: "og:image:alt", content: imageAlt });
  if (page.video) {
    const video = absolute(page.video, origin);
    tags.push({ property: "og:video", content: video });
    const mime = videoType(video);
    if (mime) tags.push({ property: "og:video:type", content: mime });
  }
  tags.push(
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: socialTitle },
    { name: "twitter:description", content: description },
    { name: "twitter:image", content: imageUrl },
  );
  if (imageAlt) tags.push({ name: "twitter:image:alt", content: imageAlt });
  if (type === "article") {
    const authors = page.authors ?? [];
    if (authors.length) tags.push({ name: "author", content: authors.join(", ") });
    for (const author of authors) tags.push({ property: "article:author", content: author });
    if (page.publishedTime) tags.push({ property: "article:published_time", content: page.publishedTime });
    if (page.modifiedTime) tags.push({ property: "article:modified_time", content: page.modifiedTime });
    if (page.section) tags.push({ property: "article:section", content: page.section });
  }
  for (const block of page.structuredData ?? []) tags.push({ "script:ld+json": block });
  return tags;
}
