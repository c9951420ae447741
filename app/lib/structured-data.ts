import { cropSize, IMAGE_CROPS, imageCropUrl, type FocalPoint, type ImageCrop } from "./image-variants";

// Schema.org JSON-LD for every reader page, from one module (the fields Google documents for
// Article/NewsArticle, Organization, WebSite's sitelinks search box, BreadcrumbList and ProfilePage).
// Pure: pages give it what their loaders read, through buildMeta (app/lib/seo.ts); React Router's meta
// renders each object as a <script type="application/ld+json"> with <, >, &, U+2028 and U+2029 escaped
// as \u escapes, so no field can close the script element (tests/e2e/seo.spec.ts checks it).

export type JsonLd = Record<string, unknown>;

/** What every block needs to know about the site. */
export interface SiteFacts {
  name: string;
  /** The canonical origin, without a trailing slash. */
  origin: string;
  description?: string | null;
  /** Our uploaded logo ("/media/images/…"), or null for the default mark. */
  logoUrl?: string | null;
  /** The site's own profiles elsewhere (social links of the settings). */
  sameAs?: readonly (string | null | undefined)[];
}

/** The logo used when the settings have none: the site's touch icon (180×180, square as Google asks). */
export const DEFAULT_LOGO = { path: "/apple-touch-icon.png", width: 180, height: 180 };

const CONTEXT = "https://schema.org";

function absolute(url: string, origin: string): string {
  try {
    return new URL(url, `${origin}/`).href;
  } catch {
    return `${origin}/`;
  }
}

function organizationId(site: SiteFacts) {
  return `${site.origin}/#organization`;
}

/** The publisher: a news organization with its logo. */
function publisher(site: SiteFacts): JsonLd {
  const logo = site.logoUrl
    ? { "@type": "ImageObject", url: absolute(site.logoUrl, site.origin) }
    : { "@type": "ImageObject", url: absolute(DEFAULT_LOGO.path, site.origin), width: DEFAULT_LOGO.width, height: DEFAULT_LOGO.height };
  const sameAs = (site.sameAs ?? []).filter((u): u is string => Boolean(u));
  return {
    "@type": "NewsMediaOrganization",
    "@id": organizationId(site),
    name: site.name,
    url: `${site.origin}/`,
    logo,
    ...(sameAs.length ? { sameAs } : {}),
  };
}

/** Home: the organization, and the site with its search box (sitelinks search). */
export function homeJsonLd(site: SiteFacts): JsonLd[] {
  return [
    { "@context": CONTEXT, ...publisher(site), ...(site.description ? { description: site.description } : {}) },
    {
      "@context": CONTEXT,
      "@type": "WebSite",
      "@id": `${site.origin}/#website`,
      name: site.name,
      url: `${site.origin}/`,
      publisher: { "@id": organizationId(site) },
      potentialAction: {
        "@type": "SearchAction",
        target: { "@type": "EntryPoint", urlTemplate: `${site.origin}/search?q={search_term_string}` },
        "query-input": "required name=search_term_string",
      },
    },
  ];
}

/** A trail of pages from the home page down; the last is the page itself. */
export function breadcrumbJsonLd(site: SiteFacts, trail: readonly { name: string; path: string }[]): JsonLd {
  return {
    "@context": CONTEXT,
    "@type": "BreadcrumbList",
    itemListElement: trail.map((step, i) => ({ "@type": "ListItem", position: i + 1, name: step.name, item: absolute(step.path, site.origin) })),
  };
}

/** The crops Google asks for (16:9, 4:3, 1:1, each 1200 px wide) of our own image, around its focal point; an outside image as it is. */
export function articleImages(image: string | null | undefined, origin: string, focus?: FocalPoint | null): string[] {
  if (!image) return [];
  const crops = Object.keys(IMAGE_CROPS).map((crop) => imageCropUrl(image, crop as ImageCrop, focus));
  if (crops.every(Boolean)) return crops.map((url) => absolute(url!, origin));
  return [absolute(image, origin)];
}

/** Headlines longer than this are cut for the markup (Google's documented limit); the page keeps the whole title. */
export const HEADLINE_MAX = 110;

export interface ArticleFacts {
  title: string;
  slug: string;
  description: string;
  image: string | null;
  /** The image's focal point (issue 41): its crops keep it in frame. */
  imageFocus?: FocalPoint | null;
  publishedAt: Date | string;
  /** When readers were told it was last updated; the publication time when never. */
  modifiedAt?: Date | string | null;
  authors: readonly { name: string; slug: string }[];
  /** The free-text byline of an article without author records. */
  authorName: string;
  category: { name: string; slug: string } | null;
  corrections?: readonly { kind: string; text: string; createdAt: Date | string }[];
  videoUrl?: string | null;
  /** Its tags' names (issue 29): schema.org `keywords`. */
  keywords?: readonly string[];
  /**
   * A gated story (issue 40): its access and its free part as plain text. Its markup says it is not
   * free, quotes only the free part as `articleBody`, and names the paid part's element (hasPart).
   */
  paywall?: { access: "public" | "members" | "paid"; articleBody: string } | null;
}


const iso = (date: Date | string) => new Date(date).toISOString();

/**
 * The class of the page's element around a gated story's paid part (issue 40): the whole story's gated
 * blocks, or the teaser's call to action in their place. hasPart's cssSelector names it, as Google
 * documents for paywalled content (a class selector; the sections are not nested).
 */
export const PAYWALLED_CONTENT_CLASS = "paywalled-content";

/** An article page's NewsArticle. */
export function newsArticleJsonLd(site: SiteFacts, article: ArticleFacts): JsonLd {
  const url = `${site.origin}/article/${article.slug}`;
  const images = articleImages(article.image, site.origin, article.imageFocus);
  const published = iso(article.publishedAt);
  const authors = article.authors.length
    ? article.authors.map((a) => ({ "@type": "Person", name: a.name, url: `${site.origin}/author/${a.slug}` }))
    : [{ "@type": "Organization", name: article.authorName, url: `${site.origin}/` }];
  const corrections = (article.corrections ?? [])
    .filter((note) => note.kind === "correction")
    .map((note) => ({ "@type": "CorrectionComment", text: note.text, datePublished: iso(note.createdAt) }));
  const headline = article.title.length > HEADLINE_MAX ? `${article.title.slice(0, HEADLINE_MAX - 1)}…` : article.title;
  return {
    "@context": CONTEXT,
    "@type": "NewsArticle",
    "@id": `${url}#article`,
    mainEntityOfPage: { "@type": "WebPage", "@id": url },
    url,
    headline,
    description: article.description,
    ...(images.length ? { image: images } : {}),
    datePublished: published,
    dateModified: article.modifiedAt ? iso(article.modifiedAt) : published,
    author: authors,
    publisher: publisher(site),
    ...(article.category ? { articleSection: article.category.name } : {}),
    ...(article.keywords?.length ? { keywords: [...article.keywords] } : {}),
    inLanguage: "en",
    ...(article.paywall && article.paywall.access !== "public"
      ? {
          // Google's structured data for paywalled content: not free, the free part only, the paid part's element.
          isAccessibleForFree: false,
          articleBody: article.paywall.articleBody,
          hasPart: { "@type": "WebPageElement", isAccessibleForFree: false, cssSelector: `.${PAYWALLED_CONTENT_CLASS}` },
        }
      : { isAccessibleForFree: true }),
    ...(corrections.length ? { correction: corrections } : {}),
    ...(article.videoUrl
      ? {
          video: {
            "@type": "VideoObject",
            name: article.title,
            description: article.description || article.title,
            thumbnailUrl: images.length ? images : [absolute(DEFAULT_SHARE.path, site.origin)],
            uploadDate: published,
            contentUrl: absolute(article.videoUrl, site.origin),
          },
        }
      : {}),
  };
}

/** One update of a live story as its structured data needs it (the loader's slim copy: no HTML). */
export interface LiveUpdateFacts {
  id: string;
  headline: string | null;
  /** Its body as plain text. */
  text: string;
  author: { name: string; slug: string } | null;
  createdAt: Date | string;
  editedAt?: Date | string | null;
}

/** A live story's coverage: when it started (null: never live) and ended (null: still live). */
export interface LiveCoverageFacts {
  startedAt: Date | string;
  endedAt: Date | string | null;
}

/** An update's headline: its own, or the start of its text (cut at a word, within Google's limit). */
export function liveUpdateHeadline(update: { headline: string | null; text: string }, max = HEADLINE_MAX): string {
  const own = update.headline?.trim();
  const text = own || update.text.replace(/\s+/g, " ").trim();
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * A live story's page (issue 31): the article as a LiveBlogPosting, a subtype of Article that keeps
 * every field of the NewsArticle, with its coverage times and its newest updates (at most 50, newest
 * first) as BlogPostings, each at its anchor on the page. Google's live badge reads coverageStartTime,
 * coverageEndTime (once ended) and the updates' datePublished; the coverage starts at the later of the
 * live start and the publication (a story made live before it was published was not covered in public).
 */
export function liveBlogPostingJsonLd(site: SiteFacts, article: ArticleFacts, coverage: LiveCoverageFacts, updates: readonly LiveUpdateFacts[]): JsonLd {
  const base = newsArticleJsonLd(site, article);
  const url = `${site.origin}/article/${article.slug}`;
  const started = new Date(Math.max(new Date(coverage.startedAt).getTime(), new Date(article.publishedAt).getTime()));
  const changedAt = (u: LiveUpdateFacts) => new Date(u.editedAt ?? u.createdAt).getTime();
  const latest = updates.reduce((newest, u) => Math.max(newest, changedAt(u)), new Date(base.dateModified as string).getTime());
  const liveBlogUpdate = updates.map((u) => ({
    "@type": "BlogPosting",
    "@id": `${url}#update-${u.id}`,
    url: `${url}#update-${u.id}`,
    headline: liveUpdateHeadline(u),
    datePublished: iso(u.createdAt),
    ...(u.editedAt ? { dateModified: iso(u.editedAt) } : {}),
    articleBody: u.text,
    author: u.author
      ? { "@type": "Person", name: u.author.name, url: `${site.origin}/author/${u.author.slug}` }
      : { "@type": "Organization", name: site.name, url: `${site.origin}/` },
  }));
  return {
    ...base,
    "@type": "LiveBlogPosting",
    dateModified: new Date(latest).toISOString(),
    coverageStartTime: started.toISOString(),
    ...(coverage.endedAt ? { coverageEndTime: iso(coverage.endedAt) } : {}),
    liveBlogUpdate,
  };
}

export interface AuthorFacts {
  name: string;
  slug: string;
  roleTitle?: string | null;
  bio?: string | null;
  photoUrl?: string | null;
  links?: readonly (string | null | undefined)[];
}

/** An author page: a ProfilePage about the Person. */
export function profilePageJsonLd(site: SiteFacts, author: AuthorFacts): JsonLd {
  const url = `${site.origin}/author/${author.slug}`;
  const sameAs = (author.links ?? []).filter((u): u is string => Boolean(u));
  return {
    "@context": CONTEXT,
    "@type": "ProfilePage",
    url,
    mainEntity: {
      "@type": "Person",
      "@id": `${url}#person`,
      name: author.name,
      url,
      ...(author.photoUrl ? { image: absolute(author.photoUrl, site.origin) } : {}),
      ...(author.bio ? { description: author.bio } : {}),
      ...(author.roleTitle ? { jobTitle: author.roleTitle } : {}),
      ...(sameAs.length ? { sameAs } : {}),
      worksFor: { "@id": organizationId(site) },
    },
  };
}

/** The default share image (public/share-default.png) and its real size. */
export const DEFAULT_SHARE = { path: "/share-default.png", width: 1200, height: 630 };

/**
 * The social preview image of a page: our image's 16:9 crop (1200×675, around its focal point when it
 * has one), the default image, or an outside URL as it is.
 */
export function shareImage(image: string | null | undefined, focus?: FocalPoint | null): { url: string; width?: number; height?: number } {
  if (!image) return { url: DEFAULT_SHARE.path, width: DEFAULT_SHARE.width, height: DEFAULT_SHARE.height };
  const crop = imageCropUrl(image, "16x9", focus);
  return crop ? { url: crop, ...cropSize("16x9") } : { url: image };
}
