// A page's address and its footer link, for the reader's pages (the footer is on every one): nothing
// else, so the reader's shared chunk carries no validation library (pages.schema.ts has zod).

/** The public address of a page. */
export const pagePath = (slug: string) => `/${slug}`;

/** A page as the footer links it. */
export interface FooterPage {
  title: string;
  slug: string;
}
