/**
 * What an export file is read into (issue 29): the one shape the WordPress and Ghost readers produce
 * and the import engine writes, so the engine knows nothing of WXR or Ghost's JSON. Every record keeps
 * its id in the source (`sourceId`), which is what makes a second run of the same import change nothing.
 * Dates are ISO 8601 strings in UTC; HTML is the source's own, untouched (the engine converts it).
 */

import { AppError } from "~/lib/app-error";

export type ImportSourceKind = "wordpress" | "ghost";

/** The exported site: first record of every file. */
export interface ImportSite {
  type: "site";
  kind: ImportSourceKind;
  /** The old site's address, e.g. "https://example.com" (no trailing slash); null when the file does not say. */
  baseUrl: string | null;
  title: string | null;
}

export interface ImportAuthor {
  type: "author";
  /** WordPress: the login; Ghost: the user's id. */
  sourceId: string;
  /** The slug the old site used in /author/{slug}/ (WordPress: the login, slugified; Ghost: the slug). */
  slug: string;
  displayName: string;
  email: string | null;
  bio: string | null;
}

/** A category or a tag. */
export interface ImportTerm {
  type: "term";
  kind: "category" | "tag";
  /** The source's slug (WordPress nicename): terms are referenced by it from posts. */
  slug: string;
  name: string;
  /** A nested WordPress category's parent slug (null at the top). */
  parentSlug: string | null;
  description: string | null;
}

/** An uploaded file of the old site (WordPress attachment; Ghost has none, its images are URLs). */
export interface ImportAttachment {
  type: "attachment";
  sourceId: string;
  /** The post it was uploaded to (WordPress post_parent; a [gallery] without ids shows its post's images), or null. */
  parentSourceId: string | null;
  url: string;
  title: string | null;
  alt: string | null;
  caption: string | null;
}

export type ImportCommentStatus = "approved" | "pending" | "spam" | "trash";

export interface ImportComment {
  sourceId: string;
  /** The comment it answers (null: top level). */
  parentSourceId: string | null;
  authorName: string;
  authorEmail: string | null;
  authorUrl: string | null;
  /** ISO 8601, UTC. */
  date: string;
  /** The source's HTML or text. */
  content: string;
  status: ImportCommentStatus;
}

export type ImportPostStatus = "publish" | "future" | "draft" | "pending" | "private";

export interface ImportFeaturedImage {
  /** The attachment it names (WordPress _thumbnail_id), or null when only a URL is known (Ghost). */
  attachmentSourceId: string | null;
  url: string | null;
  alt: string | null;
  caption: string | null;
}

/** A post or a page. */
export interface ImportPost {
  type: "post";
  kind: "post" | "page";
  sourceId: string;
  title: string;
  slug: string;
  /** The old public address (WordPress <link>, Ghost's url), absolute or a path; null when unknown. */
  link: string | null;
  status: ImportPostStatus;
  passwordProtected: boolean;
  /** When it was (or will be) published, ISO UTC; null for a draft that never was. */
  publishedAt: string | null;
  modifiedAt: string | null;
  excerpt: string | null;
  /** The body as HTML (Ghost mobiledoc/lexical already rendered to HTML by the reader). */
  html: string;
  /** Author sourceIds in byline order (Co-Authors Plus / Ghost authors), at least the post's own author when known. */
  authorSourceIds: string[];
  /** Category slugs in the file's order (the first is the primary one). */
  categorySlugs: string[];
  tagSlugs: string[];
  featuredImage: ImportFeaturedImage | null;
  /** WordPress sticky / Ghost featured. */
  sticky: boolean;
  seoTitle: string | null;
  seoDescription: string | null;
  comments: ImportComment[];
}

/** Something in the file that could not be read (a malformed item): reported, the rest goes on. */
export interface ImportSkip {
  type: "skip";
  /** What it was, as well as can be said ("item 17", "post 4411"). */
  what: string;
  reason: string;
}

export type ImportRecord = ImportSite | ImportAuthor | ImportTerm | ImportAttachment | ImportPost | ImportSkip;

/** A file that is not an export this importer reads: one line for the person who gave it. */
export class ImportFileError extends AppError {
  constructor(message: string) {
    super("invalid_input", message, { field: "file" });
    this.name = "ImportFileError";
  }
}
