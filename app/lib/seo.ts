import type { MetaDescriptor } from "react-router";

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

export const DEFAULT_SHARE_IMAGE = "/share-default.png";
export const META_DESCRIPTION_LENGTH = 160;

export interface SeoInput {
  /** Page title without the brand; omit for the home page. */
  title?: string;
  description?: string | null;
  keywords?: string[];
  image?: string | null;
  type?: "website" | "article" | "profile";
  author?: string;
  publishedTime?: string;
  /** Path of the page (canonical URL = PUBLIC_URL + path). */
  path: string;
}

export interface SeoSite {
  siteName: string;
  siteTagline?: string | null;
  siteDescription?: string | null;
  publicUrl: string;
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
    return `${origin}${DEFAULT_SHARE_IMAGE}`;
  }
}

/** Title, description, keywords, canonical, Open Graph and Twitter tags for one page. */
export function buildMeta(page: SeoInput, site: SeoSite | undefined): MetaDescriptor[] {
  const siteName = site?.siteName ?? "Frontpage";
  const origin = site?.publicUrl ?? "";
  // Every title ends with the brand (the home page leads with the tagline).
  const lead = page.title ?? site?.siteTagline;
  const title = lead ? `${lead} | ${siteName}` : siteName;
  const description = page.description?.trim() || site?.siteDescription || "";
  const url = `${origin}${page.path}`;
  const image = absolute(page.image || DEFAULT_SHARE_IMAGE, origin);
  const type = page.type ?? "website";
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: description },
    { name: "keywords", content: (page.keywords ?? DEFAULT_KEYWORDS).join(", ") },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: siteName },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:type", content: type },
    { property: "og:url", content: url },
    { property: "og:image", content: image },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
    { name: "twitter:image", content: image },
  ];
  if (type === "article") {
    if (page.author) tags.push({ property: "article:author", content: page.author }, { name: "author", content: page.author });
    if (page.publishedTime) tags.push({ property: "article:published_time", content: page.publishedTime });
  }
  return tags;
}
