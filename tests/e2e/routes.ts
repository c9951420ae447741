import type { APIRequestContext } from "@playwright/test";

/** The six categories every new site starts with, in navigation order. */
export const CATEGORIES = [
  { slug: "news", name: "News" },
  { slug: "entertainment", name: "Entertainment" },
  { slug: "sport", name: "Sports" },
  { slug: "worldnews", name: "World News" },
  { slug: "technology", name: "Technology" },
  { slug: "schools", name: "Schools" },
] as const;

export const STATIC_PAGES = ["/about", "/contact", "/disclaimer", "/cookie-policy", "/privacy-policy", "/terms-of-service"] as const;

/** The path of a published article, read from the home page's server-rendered HTML. */
export async function someArticlePath(request: APIRequestContext): Promise<string> {
  const response = await request.get("/");
  const html = await response.text();
  const match = /href="(\/article\/[^"?#]+)"/.exec(html);
  if (!match) throw new Error("the home page links to no article: is the demo content seeded?");
  return match[1]!;
}
