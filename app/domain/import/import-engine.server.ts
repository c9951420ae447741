import { queueEmbedPosters } from "~/domain/articles/embed-posters.server";
import { randomUUID } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import { publiclyVisibleSql } from "~/db/article-visibility";
import type { Db } from "~/db/client.server";
import { isDatabaseUnavailable, isUniqueViolation } from "~/db/pg-errors";
import {
  articleAuthors,
  articles,
  articleTags,
  authors,
  categories,
  comments,
  DEFAULT_AUTHOR_NAME,
  importedRows,
  importMissingImages,
  importNotes,
  imports,
  storyPins,
  tags,
} from "~/db/schema";
import type { Actor } from "~/domain/accounts/actor";
import { recordActivity } from "~/domain/activity/activity.server";
import { recordFirstRevisions, revisionSourceColumns } from "~/domain/articles/article-revisions.server";
import { storyPlainText } from "~/domain/articles/story-document";
import type { StoryBlock, StoryDocument, StoryImage } from "~/domain/articles/story-document.schema";
import { isAllowedLinkHref } from "~/domain/articles/story-urls";
import { joinNames } from "~/domain/authors/byline";
import { MAX_TOP_PINS } from "~/domain/front-page/front-page.schema";
import { createImportedPage, isReservedSlug } from "~/domain/pages/pages.server";
import { addImportedRedirects } from "~/domain/redirects/redirects.server";
import { MAX_TAGS_PER_ARTICLE, normalizeTagName, tagNameProblem } from "~/domain/tags/tags.schema";
import { AppError } from "~/lib/app-error";
import type { Logger } from "~/lib/logger.server";
import { slugify } from "~/lib/slugs";
import type { Storage } from "~/lib/storage.server";
import { createMediaImporter, type MediaImporter } from "./import-media.server";
import { retryMissingImages } from "./import-media-retry.server";
import type { ImportAuthor, ImportPost, ImportSite, ImportSourceKind, ImportTerm } from "./import-records";
import { ImportFileError } from "./import-records";
import { readExport } from "./read-export.server";
import { plainTextFromHtml, rewriteStoryUrls, storyFromHtml, type MissingStoryImage, type StoryUrlMap } from "./story-from-html.server";

// The import (issue 29). One run reads the export twice: first for its people, topics, attachments
// and the list of stories (planning every story's new address, so links between stories can be
// rewritten as they are written), then story by story, each written with its bylines, tags, images and
// comments in one transaction. Then every old address gets its redirect. What each source row became
// is kept in imported_rows: a run cut off by a restart is run again and goes on where it stopped, and
// a second import of the same site (or of a newer export of it) adds only what is new.

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface ImportServices {
  db: Db;
  storage: Storage;
  log: Logger;
  /** IMPORT_ALLOW_PRIVATE_HOSTS=1: images may be fetched from loopback and private addresses (tests, an intranet). */
  allowPrivateHosts: boolean;
  /**
   * The site's own origin (PUBLIC_URL): a link between imported stories points at its new address on
   * it (a story's links are absolute, decision 0010).
   */
  publicUrl: string;
  /** Aborted at shutdown: the run stops between two stories and leaves the import "waiting" (resumed at the next start). */
  signal?: AbortSignal;
  /** The export's file on this machine for an import's recorded filePath (an upload kept in the shared store is fetched: import-files.server.ts); default: the path itself. */
  exportFile?: (filePath: string) => Promise<string>;
  /**
   * This process's own run of the import was cut off by the database going away: it may take the
   * import over although it is still "running" with a fresh heartbeat (that heartbeat was its own).
   */
  takeOver?: boolean;
}

/** What a run made, kept, skipped: the report's counts. */
export interface ImportSummary {
  posts: number;
  pages: number;
  authors: number;
  categories: number;
  tags: number;
  comments: number;
  images: number;
  redirects: number;
  /** Already imported by an earlier run: left as they are. */
  unchanged: number;
  skipped: number;
  /** Dry run: what would be written. */
  dryRun?: boolean;
  /** The imported site (imported_rows.source); its redirects are the ones with source "import:{source}". */
  source?: string;
  /** Published posts that were sticky on the old site (issue 39): each becomes a top story only when the import was started so. */
  sticky?: number;
  /** Of those, pinned as top stories. */
  pinned?: number;
  /** Images that could not be had (each a link to its old address, until "Retry missing images" brings it); a retry: those still missing. */
  missingImages?: number;
  /** Images kept without alt text (the old site had none), each named in the notes. */
  imagesWithoutAlt?: number;
}

const emptySummary = (): ImportSummary => ({
  posts: 0,
  pages: 0,
  authors: 0,
  categories: 0,
  tags: 0,
  comments: 0,
  images: 0,
  redirects: 0,
  unchanged: 0,
  skipped: 0,
});

/** Posts written together, in one transaction (a failing batch is written again story by story). */
const STORY_BATCH = 25;
/** Writes under way at once (each a transaction on its own connection). */
const STORY_CONCURRENCY = 2;

export const IMPORT_RUNNING = "Another import is running. Wait until it ends, then start this one.";

/** A "running" import whose heartbeat is older than this was cut off (a restart, a crash) and may be taken over. */
export const IMPORT_HEARTBEAT_STALE_MS = 60_000;

// ---------------------------------------------------------------- the import row

export async function createImport(
  db: Db | Tx,
  input: {
    kind: ImportSourceKind;
    fileName: string;
    filePath: string;
    mediaDir: string | null;
    skipMedia?: boolean;
    dryRun: boolean;
    createdById: string | null;
    /** Sticky posts become pinned top stories; unsaid: only on a site with no story yet (pinStickyByDefault). */
    pinSticky?: boolean;
    /** "Retry missing images" of the site imported as `source` (no file is read). */
    retryMedia?: { source: string };
  },
): Promise<string> {
  const { retryMedia, pinSticky, ...values } = input;
  const [row] = await db
    .insert(imports)
    .values({
      ...values,
      pinSticky: retryMedia || input.dryRun ? false : (pinSticky ?? (await pinStickyByDefault(db))),
      retryMedia: Boolean(retryMedia),
      ...(retryMedia ? { summary: { ...emptySummary(), source: retryMedia.source } } : {}),
    })
    .returning({ id: imports.id });
  return row!.id;
}

/**
 * Whether sticky posts become top stories when nobody said (issue 39): yes on a site with no story
 * yet, no on one that has stories (its front page is the newsroom's, not the old site's).
 */
export async function pinStickyByDefault(db: Db | Tx): Promise<boolean> {
  const [any] = await db.select({ id: articles.id }).from(articles).limit(1);
  return !any;
}

export type ImportRow = typeof imports.$inferSelect;

export async function getImport(db: Db, id: string): Promise<ImportRow | null> {
  const [row] = await db.select().from(imports).where(eq(imports.id, id));
  return row ?? null;
}

/**
 * Takes the import to run it here: a waiting one, or a running one whose runner stopped beating. Null
 * when it is done, failed, or runs elsewhere; throws IMPORT_RUNNING when another import runs.
 */
async function claimImport(db: Db, id: string, takeOver = false): Promise<ImportRow | null> {
  const stale = takeOver ? sql`true` : sql`${imports.heartbeatAt} < now() - make_interval(secs => ${IMPORT_HEARTBEAT_STALE_MS / 1000})`;
  try {
    const [row] = await db
      .update(imports)
      .set({ status: "running", heartbeatAt: sql`now()`, startedAt: sql`coalesce(${imports.startedAt}, now())`, error: null })
      .where(
        and(
          eq(imports.id, id),
          sql`(${imports.status} = 'waiting' or (${imports.status} = 'running' and ${stale}))`,
        ),
      )
      .returning();
    return row ?? null;
  } catch (error) {
    if (isUniqueViolation(error)) throw new ImportBusyError(IMPORT_RUNNING);
    throw error;
  }
}

/** Another import is running (one at a time): the job tries again later, the CLI says so. */
export class ImportBusyError extends AppError {
  constructor(message: string) {
    super("busy", message);
    this.name = "ImportBusyError";
  }
}

/** Imports to (re)start when the site starts: waiting ones, and running ones whose runner is gone. */
export async function importsToResume(db: Db): Promise<{ id: string; runAt: Date }[]> {
  const rows = await db
    .select({ id: imports.id, status: imports.status, heartbeatAt: imports.heartbeatAt })
    .from(imports)
    .where(sql`${imports.status} in ('waiting', 'running')`)
    .orderBy(imports.createdAt);
  // A running one is taken over once its heartbeat is stale (its runner may have just stopped).
  return rows.map((r) => ({
    id: r.id,
    runAt: new Date(r.status === "running" && r.heartbeatAt ? Math.max(Date.now(), r.heartbeatAt.getTime() + IMPORT_HEARTBEAT_STALE_MS + 1000) : Date.now()),
  }));
}

// ---------------------------------------------------------------- notes

type NoteKind = "skipped" | "unconverted" | "media" | "changed" | "sticky" | "alt";

function createNotes(db: Db, importId: string) {
  let buffer: { importId: string; kind: string; what: string; message: string }[] = [];
  return {
    add(kind: NoteKind, what: string, message: string) {
      buffer.push({ importId, kind, what: what.slice(0, 300), message: message.slice(0, 1000) });
    },
    async flush() {
      if (buffer.length === 0) return;
      const rows = buffer;
      buffer = [];
      for (let i = 0; i < rows.length; i += 500) {
        await db
          .insert(importNotes)
          .values(rows.slice(i, i + 500))
          .onConflictDoNothing();
      }
    },
  };
}
type Notes = ReturnType<typeof createNotes>;

// ---------------------------------------------------------------- addresses

/** The path (and query) of an address on the old site, or null when it is another site's. */
export function oldPathOf(url: string | null, baseUrl: string | null): string | null {
  if (!url) return null;
  const trimmed = url.trim().replace(/^__GHOST_URL__/, "");
  if (trimmed.startsWith("/") && !trimmed.startsWith("//")) return trimmed.split("#")[0] || null;
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return null;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;
  if (baseUrl) {
    let base: URL;
    try {
      base = new URL(baseUrl);
    } catch {
      return null;
    }
    if (parsed.hostname.replace(/^www\./, "") !== base.hostname.replace(/^www\./, "")) return null;
    const basePath = base.pathname.replace(/\/+$/, "");
    if (basePath && parsed.pathname.startsWith(basePath)) return parsed.pathname.slice(basePath.length) + parsed.search || "/";
  } else return null;
  return parsed.pathname + parsed.search;
}

/** A path without its trailing slash (the root stays "/"): two addresses equal but for it are one. */
const withoutTrailingSlash = (p: string) => (p.length > 1 ? p.replace(/\/+(?=$|\?)/, "") : p);

/** The source's slug as ours: WordPress stores non-Latin slugs percent-encoded. */
function ourSlug(raw: string, fallback: string): string {
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // kept as it is
  }
  return slugify(decoded) || slugify(fallback);
}

// ---------------------------------------------------------------- the plan (first reading)

/**
 * A copy of a string that owns its characters. What the parser hands over may be a slice of a much
 * larger string (a whole chunk of the file); kept for the whole run, each slice would keep its chunk:
 * 10,000 stories' titles held some hundred megabytes.
 */
const own = (text: string): string => Buffer.from(text, "utf8").toString("utf8");
const ownOrNull = (text: string | null): string | null => (text === null ? null : own(text));

interface PlannedStory {
  kind: "post" | "page";
  sourceId: string;
  title: string;
  /** The new address ("/article/x", "/x"), planned or as imported. */
  path: string;
  slug: string;
  imported: boolean;
  public: boolean;
  oldPaths: string[];
}

interface Plan {
  site: ImportSite;
  source: string;
  authors: ImportAuthor[];
  terms: ImportTerm[];
  attachments: Map<string, { url: string; alt: string | null; caption: string | null; title: string | null; parent: string | null }>;
  stories: Map<string, PlannedStory>;
  /** Old path (no trailing slash) → new path, for rewriting links inside stories. */
  linkMap: Map<string, string>;
  total: number;
}

const storyKey = (kind: string, sourceId: string) => `${kind}:${sourceId}`;

async function readPlan(db: Db, kind: ImportSourceKind, file: string, notes: Notes, summary: ImportSummary): Promise<Plan> {
  let site: ImportSite | null = null;
  const plan: Omit<Plan, "site" | "source"> = { authors: [], terms: [], attachments: new Map(), stories: new Map(), linkMap: new Map(), total: 0 };
  const posts: { kind: "post" | "page"; sourceId: string; title: string; slug: string; link: string | null; status: ImportPost["status"]; passwordProtected: boolean }[] = [];
  for await (const record of readExport(kind, file)) {
    switch (record.type) {
      case "site":
        site = record;
        break;
      case "author":
        plan.authors.push(record);
        break;
      case "term":
        plan.terms.push(record);
        break;
      case "attachment":
        plan.attachments.set(own(record.sourceId), {
          url: own(record.url),
          alt: ownOrNull(record.alt),
          caption: ownOrNull(record.caption),
          title: ownOrNull(record.title),
          parent: ownOrNull(record.parentSourceId),
        });
        break;
      case "post":
        posts.push({
          kind: record.kind,
          sourceId: own(record.sourceId),
          title: own(record.title.slice(0, 300)),
          slug: own(record.slug),
          link: ownOrNull(record.link),
          status: record.status,
          passwordProtected: record.passwordProtected,
        });
        break;
      case "skip":
        notes.add("skipped", record.what, record.reason);
        summary.skipped++;
        break;
    }
  }
  if (!site) throw new ImportFileError("The export names no site: it is not a complete export.");
  const source = sourceOf(site);

  // Stories imported before keep their address; the others get a free slug now.
  const known = new Map<string, string>();
  for (let i = 0; i < posts.length; i += 1000) {
    const chunk = posts.slice(i, i + 1000);
    const rows = await db
      .select({ type: importedRows.sourceType, id: importedRows.sourceId, path: importedRows.targetPath })
      .from(importedRows)
      .where(and(eq(importedRows.source, source), inArray(importedRows.sourceType, ["post", "page"]), inArray(importedRows.sourceId, chunk.map((p) => p.sourceId))));
    for (const r of rows) known.set(storyKey(r.type, r.id), r.path ?? "");
  }
  const wanted = posts.filter((p) => !known.has(storyKey(p.kind, p.sourceId)));
  const taken = await takenSlugs(db, wanted.map((p) => ourSlug(p.slug, p.title) || `${p.kind}-${p.sourceId}`));
  for (const post of posts) {
    const key = storyKey(post.kind, post.sourceId);
    const isPublic = (post.status === "publish" || post.status === "future") && !post.passwordProtected;
    let path = known.get(key);
    let slug = path ? path.split("/").pop()! : "";
    if (!path) {
      const base = ourSlug(post.slug, post.title) || `${post.kind}-${post.sourceId}`;
      const set = post.kind === "post" ? taken.articles : taken.pages;
      slug = base;
      for (let n = 2; set.has(slug) || (post.kind === "page" && isReservedSlug(slug)); n++) slug = `${base}-${n}`;
      set.add(slug);
      path = post.kind === "post" ? `/article/${slug}` : `/${slug}`;
    }
    const oldPaths = new Set<string>();
    const linkPath = oldPathOf(post.link, site.baseUrl);
    if (linkPath) oldPaths.add(linkPath);
    if (kind === "wordpress") oldPaths.add(post.kind === "post" ? `/?p=${post.sourceId}` : `/?page_id=${post.sourceId}`);
    else oldPaths.add(`/${post.slug}/`);
    const planned: PlannedStory = { kind: post.kind, sourceId: post.sourceId, title: post.title, path, slug, imported: known.has(key), public: isPublic, oldPaths: [...oldPaths] };
    plan.stories.set(key, planned);
    for (const old of planned.oldPaths) plan.linkMap.set(withoutTrailingSlash(old), path);
  }
  plan.total = posts.length;
  return { ...plan, site, source };
}

/** The imported site's key in imported_rows (its old address; Ghost's own word when the file names none). */
const sourceOf = (site: ImportSite) => `${site.kind}:${site.baseUrl ?? (site.kind === "ghost" ? "ghost" : (site.title ?? "unknown"))}`;

/** The site an export file is of, as imports of it remember it (`npm run import -- … --retry-media`). */
export async function sourceOfExport(kind: ImportSourceKind, file: string): Promise<string> {
  for await (const record of readExport(kind, file)) if (record.type === "site") return sourceOf(record);
  throw new ImportFileError("The export names no site: it is not a complete export.");
}

/**
 * `= any(…)` of these slugs as one text parameter that PostgreSQL splits (slugs never hold a newline):
 * Drizzle would spread a JS array into one placeholder per value.
 */
const anySlug = (slugs: readonly string[]) => sql`any(string_to_array(${slugs.join("\n")}, E'\n'))`;

/** Slugs already used by articles and pages among these (and every slug they could be suffixed to). */
async function takenSlugs(db: Db, slugs: string[]): Promise<{ articles: Set<string>; pages: Set<string> }> {
  const result = { articles: new Set<string>(), pages: new Set<string>() };
  const bases = [...new Set(slugs)];
  for (let i = 0; i < bases.length; i += 1000) {
    const chunk = bases.slice(i, i + 1000);
    // A slug and its "-N" forms.
    const a = await db.execute<{ slug: string }>(sql`select slug from articles where slug = ${anySlug(chunk)} or substring(slug from '^(.*)-[0-9]+$') = ${anySlug(chunk)}`);
    for (const r of a.rows) result.articles.add(r.slug);
    const p = await db.execute<{ slug: string }>(sql`select slug from pages where slug = ${anySlug(chunk)} or substring(slug from '^(.*)-[0-9]+$') = ${anySlug(chunk)}`);
    for (const r of p.rows) result.pages.add(r.slug);
  }
  return result;
}


// ---------------------------------------------------------------- people and topics

interface Topics {
  /** Source author id → our author (id, name, slug). */
  authors: Map<string, { id: string; name: string; slug: string }>;
  /** Source category slug → our category (the top category of a nested one). */
  categories: Map<string, { id: string; slug: string }>;
  /** Source category slug of a nested category → the tag name it is kept as. */
  childCategoryTags: Map<string, string>;
  /** Source tag slug → our tag name. */
  tags: Map<string, string>;
  /** Source term slug → the term (for names). */
  terms: Map<string, ImportTerm>;
}

async function rememberRow(db: Db | Tx, source: string, sourceType: string, sourceId: string, targetId: string, targetPath: string | null) {
  await db.insert(importedRows).values({ source, sourceType, sourceId, targetId, targetPath }).onConflictDoNothing();
}

async function knownRows(db: Db, source: string, sourceType: string): Promise<Map<string, { id: string; path: string | null }>> {
  const rows = await db
    .select({ sourceId: importedRows.sourceId, id: importedRows.targetId, path: importedRows.targetPath })
    .from(importedRows)
    .where(and(eq(importedRows.source, source), eq(importedRows.sourceType, sourceType)));
  return new Map(rows.map((r) => [r.sourceId, { id: r.id, path: r.path }]));
}

async function importTopics(db: Db, plan: Plan, dryRun: boolean, notes: Notes, summary: ImportSummary): Promise<Topics> {
  const topics: Topics = { authors: new Map(), categories: new Map(), childCategoryTags: new Map(), tags: new Map(), terms: new Map() };
  for (const term of plan.terms) topics.terms.set(`${term.kind}:${term.slug}`, term);

  // Authors: each once; a new one gets a free slug (an existing author of that slug is someone else).
  const knownAuthors = await knownRows(db, plan.source, "author");
  for (const author of plan.authors) {
    const known = knownAuthors.get(author.sourceId);
    if (known) {
      const [row] = await db.select({ id: authors.id, name: authors.name, slug: authors.slug }).from(authors).where(eq(authors.id, known.id));
      if (row) {
        topics.authors.set(author.sourceId, row);
        continue;
      }
    }
    const name = (author.displayName.trim() || author.slug).slice(0, 120);
    const base = ourSlug(author.slug, name) || "author";
    if (dryRun) {
      topics.authors.set(author.sourceId, { id: "", name, slug: base });
      summary.authors++;
      continue;
    }
    const row = await db.transaction(async (tx) => {
      let slug = base;
      for (let n = 2; (await tx.select({ id: authors.id }).from(authors).where(eq(authors.slug, slug))).length > 0; n++) slug = `${base}-${n}`;
      const [created] = await tx
        .insert(authors)
        .values({ name, slug, bio: author.bio ? plainTextFromHtml(author.bio).slice(0, 2000) || null : null })
        .returning({ id: authors.id, name: authors.name, slug: authors.slug });
      await rememberRow(tx, plan.source, "author", author.sourceId, created!.id, `/author/${slug}`);
      return created!;
    });
    topics.authors.set(author.sourceId, row);
    summary.authors++;
  }

  // Categories: a nested one is flattened to its top category, and kept as a tag of its own name.
  const categoryTerms = plan.terms.filter((t) => t.kind === "category");
  const bySlug = new Map(categoryTerms.map((t) => [t.slug, t]));
  const topOf = (term: ImportTerm): ImportTerm => {
    let current = term;
    for (let hops = 0; current.parentSlug && bySlug.has(current.parentSlug) && hops < 20; hops++) current = bySlug.get(current.parentSlug)!;
    return current;
  };
  const existing = await db.select({ id: categories.id, name: categories.name, slug: categories.slug }).from(categories);
  const categoryFor = async (name: string, rawSlug: string) => {
    const slug = ourSlug(rawSlug, name) || "category";
    const found = existing.find((c) => c.slug === slug || c.name.toLowerCase() === name.toLowerCase());
    if (found) return found;
    if (dryRun) {
      const planned = { id: "", name, slug };
      existing.push(planned);
      summary.categories++;
      return planned;
    }
    const [created] = await db.insert(categories).values({ name: name.slice(0, 100), slug }).onConflictDoNothing().returning();
    const row = created ?? (await db.select().from(categories).where(eq(categories.slug, slug)))[0]!;
    existing.push(row);
    if (created) summary.categories++;
    return row;
  };
  for (const term of categoryTerms) {
    const top = topOf(term);
    const category = await categoryFor(top.name.trim() || top.slug, top.slug);
    topics.categories.set(term.slug, { id: category.id, slug: category.slug });
    if (top !== term) topics.childCategoryTags.set(term.slug, term.name);
  }
  // (Ghost has no categories: a story's primary tag names one, found or made by ghostCategory.)
  for (const term of plan.terms.filter((t) => t.kind === "tag")) topics.tags.set(term.slug, term.name);
  return topics;
}

/** The category of a Ghost story: its primary tag's name, found or made when first needed. */
async function ghostCategory(db: Db, topics: Topics, slug: string, dryRun: boolean, summary: ImportSummary) {
  const cached = topics.categories.get(slug);
  if (cached) return cached;
  const name = topics.tags.get(slug) ?? slug;
  const ours = ourSlug(slug, name) || "category";
  const [found] = await db
    .select({ id: categories.id, slug: categories.slug })
    .from(categories)
    .where(sql`${categories.slug} = ${ours} or lower(${categories.name}) = lower(${name})`)
    .limit(1);
  let category = found;
  if (!category && !dryRun) {
    const [created] = await db.insert(categories).values({ name: name.slice(0, 100), slug: ours }).onConflictDoNothing().returning({ id: categories.id, slug: categories.slug });
    category = created ?? (await db.select({ id: categories.id, slug: categories.slug }).from(categories).where(eq(categories.slug, ours)))[0];
    if (created) summary.categories++;
  }
  const result = category ?? { id: "", slug: ours };
  topics.categories.set(slug, result);
  return result;
}

// ---------------------------------------------------------------- stories (second reading)

interface StoryContext {
  services: ImportServices;
  importRow: ImportRow;
  plan: Plan;
  topics: Topics;
  media: MediaImporter | null;
  notes: Notes;
  summary: ImportSummary;
  actor: Actor;
  /** Tag slug → id, filled as stories need them (tagIdsOf). */
  tagIds: Map<string, string>;
  /** Published stories that were sticky on the old site, pinned once all are written. */
  sticky: { articleId: string; what: string }[];
}

const whatOf = (post: ImportPost) => `${post.kind} ${post.sourceId} “${(post.title || "untitled").slice(0, 80)}”`;

/** Our status for the source's: only published and scheduled stories go public. */
function statusOf(post: ImportPost, notes: Notes): { status: "draft" | "scheduled" | "published"; publishedAt: Date | null } {
  const when = post.publishedAt ? new Date(post.publishedAt) : null;
  const date = when && !Number.isNaN(when.getTime()) ? when : null;
  if (post.passwordProtected) {
    notes.add("changed", whatOf(post), "Password-protected on the old site: imported as a draft.");
    return { status: "draft", publishedAt: null };
  }
  if (post.status === "publish") return { status: "published", publishedAt: date ?? new Date() };
  if (post.status === "future") return date && date.getTime() > Date.now() ? { status: "scheduled", publishedAt: date } : { status: "published", publishedAt: date ?? new Date() };
  if (post.status !== "draft") notes.add("changed", whatOf(post), `${post.status === "private" ? "Private" : "Pending review"} on the old site: imported as a draft.`);
  return { status: "draft", publishedAt: null };
}

/** A story's HTML as a document (its images and links still the old site's), what could not be converted noted. */
function convertBody(ctx: StoryContext, post: ImportPost) {
  const converted = storyFromHtml(post.html, { source: ctx.plan.site.kind, baseUrl: ctx.plan.site.baseUrl });
  for (const what of converted.unconverted) ctx.notes.add("unconverted", whatOf(post), `Kept as text: ${what}`);
  return converted;
}

/** An image a story lacks (import_missing_images): where it was to be, and why it is not. */
export interface MissingImage {
  place: "body" | "featured";
  url: string;
  alt: string;
  caption: string;
  reason: string;
}

/** A story as written: its document (images imported, links moved), featured image, what it lacks and what has no alt text. */
interface StoryImages {
  doc: StoryDocument;
  featured: { url: string; alt: string; caption: string | null } | null;
  missing: MissingImage[];
  /** The images (their addresses) left without alt text. */
  withoutAlt: string[];
}

/**
 * The story's document, its images imported and its links to the old site pointing at the new
 * addresses, and its featured image. An image that cannot be had (or is not taken: --skip-media) is
 * a link to its old address, remembered with the story for "Retry missing images".
 */
async function storyImagesOf(ctx: StoryContext, post: ImportPost): Promise<StoryImages> {
  const { plan, notes, media } = ctx;
  const converted = convertBody(ctx, post);
  const missing: MissingImage[] = [];
  const oldAddress = (url: string) => url.replace(/^__GHOST_URL__/, plan.site.baseUrl ?? "");
  const lacking = (url: string, reason: string, more: { alt?: string | null; caption?: string | null } = {}): MissingStoryImage => {
    const alt = more.alt ?? "";
    const caption = more.caption ?? "";
    if (!missing.some((m) => m.place === "body" && m.url === url)) missing.push({ place: "body", url, alt, caption, reason });
    return { missing: url, alt, caption };
  };

  const images = new Map<string, ReturnType<StoryUrlMap["image"]>>();
  const attachmentImage = async (id: string): Promise<StoryImage | MissingStoryImage | null> => {
    const attachment = plan.attachments.get(id);
    if (!attachment) return null;
    const got = media ? await media.image(attachment.url) : { ok: false as const, reason: SKIPPED_MEDIA };
    if (!got.ok) {
      if (media) notes.add("media", whatOf(post), got.reason);
      return lacking(attachment.url, got.reason, attachment);
    }
    ctx.summary.images++;
    return { type: "storyImage", attrs: { src: got.url, alt: attachment.alt ?? "", caption: attachment.caption ?? "", credit: "" } };
  };
  for (const ref of converted.images) {
    if (images.has(ref.src)) continue;
    if (ref.src.startsWith("wp-attachment:")) {
      const image = await attachmentImage(ref.src.slice("wp-attachment:".length));
      images.set(ref.src, image && "attrs" in image ? image.attrs : image);
    } else if (ref.src.startsWith("wp-gallery:")) {
      const list: (StoryImage | MissingStoryImage)[] = [];
      for (const [id, attachment] of plan.attachments) {
        if (attachment.parent !== post.sourceId) continue;
        const image = await attachmentImage(id);
        if (image) list.push(image);
      }
      images.set(ref.src, list);
    } else {
      const url = oldAddress(ref.src);
      const got = media ? await media.image(url) : { ok: false as const, reason: SKIPPED_MEDIA };
      if (got.ok) {
        images.set(ref.src, { src: got.url });
        ctx.summary.images++;
      } else {
        if (media) notes.add("media", whatOf(post), `${got.reason} (the story links to the original instead)`);
        // Only an address the story may link to is kept (a retry finds the image by its link).
        images.set(ref.src, isAllowedLinkHref(url) ? lacking(url, got.reason, ref) : null);
      }
    }
  }
  const doc = rewriteStoryUrls(converted.doc, {
    image: (src) => images.get(src) ?? null,
    link: (href) => {
      const old = oldPathOf(href, plan.site.baseUrl);
      const moved = old ? plan.linkMap.get(withoutTrailingSlash(old)) : undefined;
      return moved ? new URL(moved, ctx.services.publicUrl).href : href;
    },
  });
  const featured = await featuredImageOf(ctx, post, missing);
  const withoutAlt = storyImagesWithoutAlt(doc);
  if (featured && !featured.alt) withoutAlt.push(featured.url);
  return { doc, featured, missing, withoutAlt };
}

/** Why an image of a --skip-media import is missing. */
const SKIPPED_MEDIA = "Images were not taken (--skip-media).";

/** The addresses of a document's images that have no alt text. */
function storyImagesWithoutAlt(doc: StoryDocument): string[] {
  const found: string[] = [];
  const walk = (blocks: StoryBlock[]) => {
    for (const block of blocks) {
      if (block.type === "storyImage" && !block.attrs.alt.trim()) found.push(block.attrs.src);
      else if (block.type === "blockquote") walk(block.content);
      else if (block.type === "bulletList" || block.type === "orderedList") for (const item of block.content) walk(item.content);
    }
  };
  walk(doc.content);
  return found;
}

/** The featured image: its attachment (WordPress) or address (Ghost), imported; one that cannot be had is added to `missing`. */
async function featuredImageOf(ctx: StoryContext, post: ImportPost, missing: MissingImage[]): Promise<{ url: string; alt: string; caption: string | null } | null> {
  const featured = post.featuredImage;
  if (!featured) return null;
  const attachment = featured.attachmentSourceId ? ctx.plan.attachments.get(featured.attachmentSourceId) : undefined;
  const url = attachment?.url ?? featured.url;
  if (!url) {
    if (ctx.media) ctx.notes.add("media", whatOf(post), `The featured image (attachment ${featured.attachmentSourceId}) is not in the export.`);
    return null;
  }
  const alt = (featured.alt ?? attachment?.alt ?? attachment?.title ?? "").slice(0, 300);
  const caption = featured.caption ?? attachment?.caption ?? null;
  const captionText = caption ? plainTextFromHtml(caption).slice(0, 500) || null : null;
  const address = url.replace(/^__GHOST_URL__/, ctx.plan.site.baseUrl ?? "");
  const got = ctx.media ? await ctx.media.image(address) : { ok: false as const, reason: SKIPPED_MEDIA };
  if (!got.ok) {
    if (ctx.media) ctx.notes.add("media", whatOf(post), `Featured image: ${got.reason}`);
    missing.push({ place: "featured", url: address, alt, caption: captionText ?? "", reason: got.reason });
    return null;
  }
  ctx.summary.images++;
  return { url: got.url, alt, caption: captionText };
}

/** After a story is written: each image it keeps without alt text is reported, and counted. */
function reportImagesWithoutAlt(ctx: StoryContext, post: ImportPost, withoutAlt: string[]) {
  for (const src of withoutAlt) ctx.notes.add("alt", whatOf(post), `An image has no alt text (${src}): describe it when you next edit the story.`);
  ctx.summary.imagesWithoutAlt = (ctx.summary.imagesWithoutAlt ?? 0) + withoutAlt.length;
}

/** The images a story lacks, remembered with it (in its transaction) for "Retry missing images". */
async function rememberMissingImages(ctx: StoryContext, tx: Tx, story: { articleId: string } | { pageId: string }, missing: MissingImage[]) {
  if (missing.length === 0) return;
  await tx
    .insert(importMissingImages)
    .values(missing.map((m) => ({ source: ctx.plan.source, ...story, place: m.place, url: m.url.slice(0, 2000), alt: m.alt.slice(0, 500), caption: m.caption.slice(0, 1000), reason: m.reason.slice(0, 1000) })))
    .onConflictDoNothing();
}

/** The story's tags as our names: its tags, then its nested categories kept as tags. */
function tagNamesOf(ctx: StoryContext, post: ImportPost): string[] {
  const names: string[] = [];
  const add = (name: string | undefined) => {
    if (!name) return;
    const clean = normalizeTagName(name.replace(/,/g, " "));
    const problem = tagNameProblem(clean);
    if (problem) {
      ctx.notes.add("skipped", whatOf(post), `Tag “${name}” left out: ${problem}`);
      return;
    }
    if (!names.some((n) => slugify(n) === slugify(clean))) names.push(clean);
  };
  for (const slug of post.tagSlugs) add(ctx.topics.tags.get(slug) ?? ctx.topics.terms.get(`tag:${slug}`)?.name ?? slug);
  for (const slug of post.categorySlugs) add(ctx.topics.childCategoryTags.get(slug));
  if (names.length > MAX_TAGS_PER_ARTICLE) {
    ctx.notes.add("changed", whatOf(post), `${names.length} tags: the first ${MAX_TAGS_PER_ARTICLE} kept (a story holds at most ${MAX_TAGS_PER_ARTICLE}).`);
    return names.slice(0, MAX_TAGS_PER_ARTICLE);
  }
  return names;
}

/** Comments to write: approved and pending ones, replies deeper than one level under their thread. */
function commentRows(post: ImportPost, articleId: string, stored: Map<string, { id: string; parentId: string | null }>, notes: Notes, summary: ImportSummary) {
  const kept = new Map<string, { id: string; parent: string | null }>();
  const byId = new Map(post.comments.map((c) => [c.sourceId, c]));
  const rows: (typeof comments.$inferInsert)[] = [];
  const fresh: { sourceId: string; id: string }[] = [];
  let dropped = 0;
  // Parents before replies: a reply's thread is its top-level ancestor among the kept comments.
  const depthOf = (id: string) => {
    let depth = 0;
    for (let c = byId.get(id); c?.parentSourceId && byId.has(c.parentSourceId) && depth < 100; c = byId.get(c.parentSourceId)) depth++;
    return depth;
  };
  const ordered = [...post.comments].sort((a, b) => depthOf(a.sourceId) - depthOf(b.sourceId));
  for (const comment of ordered) {
    if (comment.status === "spam" || comment.status === "trash") {
      dropped++;
      continue;
    }
    let thread: string | null = null;
    for (let parent = comment.parentSourceId, hops = 0; parent && hops < 100; hops++) {
      const keptParent = kept.get(parent);
      if (keptParent) {
        thread = keptParent.parent ?? keptParent.id;
        break;
      }
      parent = byId.get(parent)?.parentSourceId ?? null;
    }
    const earlier = stored.get(comment.sourceId);
    if (earlier) {
      // Written by an earlier run: kept as it is, and its replies answer its stored thread.
      kept.set(comment.sourceId, { id: earlier.id, parent: earlier.parentId });
      continue;
    }
    const id = randomUUID();
    kept.set(comment.sourceId, { id, parent: thread });
    const content = plainTextFromHtml(comment.content).slice(0, 5000);
    if (!content) {
      notes.add("skipped", `comment ${comment.sourceId} on ${whatOf(post)}`, "An empty comment.");
      summary.skipped++;
      continue;
    }
    const date = new Date(comment.date);
    rows.push({
      id,
      articleId,
      parentCommentId: thread,
      authorName: (comment.authorName.trim() || "Anonymous").slice(0, 100),
      authorEmail: (comment.authorEmail ?? "").slice(0, 254),
      content,
      status: comment.status === "approved" ? "published" : "pending",
      createdAt: Number.isNaN(date.getTime()) ? new Date() : date,
    });
    fresh.push({ sourceId: comment.sourceId, id });
  }
  summary.skipped += dropped;
  return { rows, fresh };
}

/** Writes one post as an article, in one transaction with everything that belongs to it. */
/** A post made ready to be written: its article row, bylines, tags and comments, nothing written yet. */
interface PreparedArticle {
  post: ImportPost;
  planned: PlannedStory;
  values: typeof articles.$inferInsert & { id: string };
  authorIds: string[];
  tagNames: string[];
  comments: (typeof comments.$inferInsert)[];
  freshComments: { sourceId: string; id: string }[];
  sticky: boolean;
  missingImages: MissingImage[];
  withoutAlt: string[];
}

/** Converts a post (its body, images, byline, tags, comments) into what writeArticles writes. */
async function prepareArticle(ctx: StoryContext, post: ImportPost, planned: PlannedStory): Promise<PreparedArticle> {
  const { services, plan, topics, notes, summary, actor } = ctx;
  const { doc, featured, missing: missingImages, withoutAlt } = await storyImagesOf(ctx, post);
  const { status, publishedAt } = statusOf(post, notes);
  let categoryId: string | null = null;
  const primary = post.categorySlugs[0];
  if (primary) categoryId = (plan.site.kind === "ghost" ? await ghostCategory(services.db, topics, primary, false, summary) : topics.categories.get(primary))?.id || null;
  const bylines = post.authorSourceIds.map((id) => topics.authors.get(id)).filter((a): a is NonNullable<typeof a> => Boolean(a && a.id));
  const missing = post.authorSourceIds.filter((id) => !topics.authors.get(id));
  if (missing.length > 0) notes.add("changed", whatOf(post), `Author ${missing.join(", ")} is not in the export: left off the byline.`);
  const title = (post.title.trim() || "Untitled").slice(0, 300);
  if (!post.title.trim()) notes.add("changed", whatOf(post), "It has no title: imported as “Untitled”.");
  else if (post.title.trim().length > 300) notes.add("changed", whatOf(post), "Its title is longer than 300 characters: cut.");
  if (post.seoTitle || post.seoDescription) notes.add("changed", whatOf(post), "Its SEO title and description were not kept: the site makes them from the title and excerpt.");
  const excerpt = post.excerpt ? plainTextFromHtml(post.excerpt).slice(0, 1000) || null : null;
  const unique = [...new Map(bylines.map((a) => [a.id, a])).values()];
  const id = randomUUID();
  const { rows, fresh } = commentRows(post, id, new Map(), notes, summary);
  return {
    post,
    planned,
    values: {
      id,
      title,
      slug: planned.slug,
      excerpt,
      content: storyPlainText(doc),
      contentDoc: doc,
      featuredImage: featured?.url ?? null,
      featuredImageAlt: featured?.alt ?? null,
      featuredImageCaption: featured?.caption ?? null,
      authorName: unique.length > 0 ? joinNames(unique.map((a) => a.name)).slice(0, 120) : DEFAULT_AUTHOR_NAME,
      categoryId,
      status,
      publishedAt,
      createdAt: publishedAt ?? (post.modifiedAt ? new Date(post.modifiedAt) : new Date()),
      createdById: actor.id,
    },
    authorIds: unique.map((a) => a.id),
    tagNames: tagNamesOf(ctx, post),
    comments: rows,
    freshComments: fresh,
    sticky: post.sticky && status === "published",
    missingImages,
    withoutAlt,
  };
}

/**
 * Writes prepared posts in one transaction: each article with its bylines, tags, comments, first
 * revision and what it became, all or nothing. Many at once, because PostgreSQL's per-statement work
 * (the change notices, the summaries' triggers) and each round trip then count once per batch; a batch
 * that fails is written again story by story (writeBatch), so one bad story does not hold back the rest.
 */
async function writeArticles(ctx: StoryContext, batch: PreparedArticle[]) {
  const { services, plan, actor } = ctx;
  await services.db.transaction(async (tx) => {
    await relaxedCommit(tx);
    // A planned slug taken since the plan (another writer, a rare race): the next free one.
    const wanted = batch.map((b) => b.values.slug!);
    const taken = new Set(
      (await tx.execute<{ slug: string }>(sql`select slug from articles where slug = ${anySlug(wanted)}`)).rows.map((r) => r.slug),
    );
    for (const b of batch) {
      let slug = b.planned.slug;
      for (let n = 2; taken.has(slug) && n < 1000; n++) slug = `${b.planned.slug}-${n}`;
      if (slug !== b.planned.slug) {
        const [free] = (await tx.execute<{ slug: string }>(sql`select ${slug}::text as slug where not exists (select 1 from articles where slug = ${slug})`)).rows;
        if (!free) throw new Error(`no free address for ${b.planned.slug}`);
      }
      b.values.slug = slug;
      taken.add(slug);
    }
    const written = await tx.insert(articles).values(batch.map((b) => b.values)).returning(revisionSourceColumns);
    const byId = new Map(written.map((row) => [row.id, row]));
    // Their videos' and posts' posters (issue 41), as a save queues them.
    for (const b of batch) await queueEmbedPosters(tx, b.values.id, b.values.contentDoc);
    const bylines = batch.flatMap((b) => b.authorIds.map((authorId, position) => ({ articleId: b.values.id, authorId, position })));
    if (bylines.length > 0) await tx.insert(articleAuthors).values(bylines);
    const tagRows: { articleId: string; tagId: string; position: number }[] = [];
    const names = batch.flatMap((b) => b.tagNames);
    if (names.length > 0) {
      await tagIdsOf(ctx, tx, names);
      for (const b of batch) {
        const ids = [...new Set(b.tagNames.map((name) => ctx.tagIds.get(slugify(name))).filter((id): id is string => Boolean(id)))];
        ids.forEach((tagId, position) => tagRows.push({ articleId: b.values.id, tagId, position }));
      }
      if (tagRows.length > 0) await tx.insert(articleTags).values(tagRows);
    }
    const commentRowsAll = batch.flatMap((b) => b.comments);
    for (let i = 0; i < commentRowsAll.length; i += 1000) await tx.insert(comments).values(commentRowsAll.slice(i, i + 1000));
    await rememberComments(tx, plan.source, batch.flatMap((b) => b.freshComments));
    await recordFirstRevisions(
      tx,
      batch.map((b) => ({ ...byId.get(b.values.id)!, authorIds: b.authorIds, tagNames: b.tagNames })),
      actor,
    );
    await tx
      .insert(importedRows)
      .values(batch.map((b) => ({ source: plan.source, sourceType: "post", sourceId: b.post.sourceId, targetId: b.values.id, targetPath: `/article/${b.values.slug}` })))
      .onConflictDoNothing();
    for (const b of batch) await rememberMissingImages(ctx, tx, { articleId: b.values.id }, b.missingImages);
  });
  for (const b of batch) {
    b.planned.path = `/article/${b.values.slug}`;
    if (b.sticky) ctx.sticky.push({ articleId: b.values.id, what: whatOf(b.post) });
    ctx.summary.posts++;
    ctx.summary.comments += b.comments.length;
    ctx.summary.missingImages = (ctx.summary.missingImages ?? 0) + b.missingImages.length;
    reportImagesWithoutAlt(ctx, b.post, b.withoutAlt);
  }
}

/**
 * Tag ids for these names in order, made when missing (an import makes many: no activity line per tag),
 * remembered for the rest of the run: a tag costs its queries once, not once per story. A story that
 * fails forgets them all (a tag it made was rolled back with it).
 */
async function tagIdsOf(ctx: StoryContext, tx: Tx, names: string[]): Promise<string[]> {
  // (Called for a batch's names together: one insert and one read for the tags it has not seen.)
  const wanted = [...new Map(names.map((name) => [slugify(name), name])).entries()];
  const missing = wanted.filter(([slug]) => !ctx.tagIds.has(slug));
  if (missing.length > 0) {
    await tx.insert(tags).values(missing.map(([slug, name]) => ({ name, slug }))).onConflictDoNothing({ target: tags.slug });
    const found = await tx.select({ id: tags.id, slug: tags.slug }).from(tags).where(inArray(tags.slug, missing.map(([slug]) => slug)));
    for (const tag of found) ctx.tagIds.set(tag.slug, tag.id);
  }
  return wanted.map(([slug]) => ctx.tagIds.get(slug)).filter((id): id is string => Boolean(id));
}

/**
 * An import's transactions commit without waiting for the disk (PostgreSQL's synchronous_commit off,
 * for this transaction only): ten thousand stories would otherwise wait ten thousand flushes. A crash
 * can lose the last few commits, never half of one, and what they wrote is not in imported_rows
 * either: the resumed run writes them again.
 */
async function relaxedCommit(tx: Tx) {
  await tx.execute(sql`set local synchronous_commit to off`);
}

async function rememberComments(tx: Tx | Db, source: string, fresh: { sourceId: string; id: string }[]) {
  for (let i = 0; i < fresh.length; i += 1000) {
    await tx
      .insert(importedRows)
      .values(fresh.slice(i, i + 1000).map((c) => ({ source, sourceType: "comment", sourceId: c.sourceId, targetId: c.id, targetPath: null })))
      .onConflictDoNothing();
  }
}

/** A story imported before: only its comments the old site got since are added. */
async function addNewComments(ctx: StoryContext, post: ImportPost, articleId: string) {
  const live = post.comments.filter((c) => c.status === "approved" || c.status === "pending");
  if (live.length === 0) return;
  const { db } = ctx.services;
  const known = await db
    .select({ sourceId: importedRows.sourceId, id: comments.id, parentId: comments.parentCommentId })
    .from(importedRows)
    .innerJoin(comments, sql`${comments.id}::text = ${importedRows.targetId}`)
    .where(and(eq(importedRows.source, ctx.plan.source), eq(importedRows.sourceType, "comment"), inArray(importedRows.sourceId, live.map((c) => c.sourceId))));
  if (known.length === live.length) return;
  const stored = new Map(known.map((k) => [k.sourceId, { id: k.id, parentId: k.parentId }]));
  const { rows, fresh } = commentRows(post, articleId, stored, ctx.notes, emptySummary());
  if (rows.length === 0) return;
  await db.transaction(async (tx) => {
    await tx.insert(comments).values(rows);
    await rememberComments(tx, ctx.plan.source, fresh);
  });
  ctx.summary.comments += rows.length;
}

async function writePage(ctx: StoryContext, post: ImportPost, planned: PlannedStory) {
  const { services, plan, notes, summary } = ctx;
  const { doc, missing, withoutAlt } = await storyImagesOf(ctx, post);
  const { status, publishedAt } = statusOf(post, notes);
  const title = (post.title.trim() || "Untitled").slice(0, 300);
  if (post.comments.length > 0) notes.add("changed", whatOf(post), `${post.comments.length} comment(s) on a page: pages take no comments, left out.`);
  await services.db.transaction(async (tx) => {
    await relaxedCommit(tx);
    const page = await createImportedPage(tx, {
      title,
      slug: planned.slug,
      doc,
      status: status === "draft" ? "draft" : "published",
      publishedAt,
      createdAt: publishedAt,
    });
    const path = `/${page.slug}`;
    await rememberRow(tx, plan.source, "page", post.sourceId, page.id, path);
    // (A page has no featured image.)
    await rememberMissingImages(ctx, tx, { pageId: page.id }, missing.filter((m) => m.place === "body"));
    planned.path = path;
  });
  summary.pages++;
  summary.missingImages = (summary.missingImages ?? 0) + missing.filter((m) => m.place === "body").length;
  reportImagesWithoutAlt(ctx, post, withoutAlt);
}

/**
 * Sticky posts as pinned top stories, in the file's order, as long as the home page has room — when
 * the import was started so (issue 39); otherwise each is reported, not pinned.
 */
async function pinStickyStories(ctx: StoryContext) {
  if (ctx.sticky.length === 0) return;
  ctx.summary.sticky = (ctx.summary.sticky ?? 0) + ctx.sticky.length;
  if (!ctx.importRow.pinSticky) {
    for (const story of ctx.sticky) ctx.notes.add("sticky", story.what, "Sticky on the old site: not pinned (the import was started without pinning sticky posts).");
    return;
  }
  await ctx.services.db.transaction(async (tx) => {
    const [{ n }] = (await tx.execute<{ n: number }>(sql`select count(*)::int as n from story_pins where placement = 'top'`)).rows as [{ n: number }];
    let position = n;
    for (const story of ctx.sticky) {
      if (position >= MAX_TOP_PINS) {
        ctx.notes.add("changed", story.what, `Sticky on the old site, but the home page already holds ${MAX_TOP_PINS} pinned top stories: not pinned.`);
        continue;
      }
      const added = await tx.insert(storyPins).values({ placement: "top", articleId: story.articleId, position, createdById: ctx.actor.id }).onConflictDoNothing().returning({ id: storyPins.id });
      if (added.length > 0) {
        position++;
        ctx.summary.pinned = (ctx.summary.pinned ?? 0) + 1;
        ctx.notes.add("sticky", story.what, "Sticky on the old site: pinned as a top story.");
      }
    }
  });
}

// ---------------------------------------------------------------- redirects

function redirectRows(plan: Plan, topics: Topics): { fromPath: string; toPath: string }[] {
  const rows = new Map<string, string>();
  const add = (from: string | null, to: string) => {
    if (!from || !to) return;
    if (withoutTrailingSlash(from) === withoutTrailingSlash(to)) return;
    if (!rows.has(from)) rows.set(from, to);
  };
  for (const story of plan.stories.values()) {
    if (!story.public) continue;
    for (const old of story.oldPaths) add(old, story.path);
  }
  const feed = plan.site.kind === "ghost" ? "rss" : "feed";
  add(`/${feed}/`, "/rss.xml");
  for (const term of plan.terms) {
    if (term.kind === "category") {
      const category = topics.categories.get(term.slug);
      const childTag = topics.childCategoryTags.get(term.slug);
      if (childTag) {
        const to = `/tag/${slugify(childTag)}`;
        add(`/category/${term.slug}/`, to);
        const parentPath: string[] = [];
        for (let t: ImportTerm | undefined = term, hops = 0; t && hops < 20; t = t.parentSlug ? topics.terms.get(`category:${t.parentSlug}`) : undefined, hops++) parentPath.unshift(t.slug);
        add(`/category/${parentPath.join("/")}/`, to);
        add(`/category/${term.slug}/${feed}/`, `${to}/rss.xml`);
      } else if (category?.slug) {
        add(`/category/${term.slug}/`, `/category/${category.slug}`);
        add(`/category/${term.slug}/${feed}/`, `/category/${category.slug}/rss.xml`);
      }
    } else {
      const name = topics.tags.get(term.slug) ?? term.name;
      const ours = slugify(normalizeTagName(name.replace(/,/g, " ")));
      if (!ours) continue;
      add(`/tag/${term.slug}/`, `/tag/${ours}`);
      add(`/tag/${term.slug}/${feed}/`, `/tag/${ours}/rss.xml`);
    }
  }
  for (const author of plan.authors) {
    const ours = topics.authors.get(author.sourceId);
    if (!ours?.slug) continue;
    add(`/author/${author.slug}/`, `/author/${ours.slug}`);
    add(`/author/${author.slug}/${feed}/`, `/author/${ours.slug}/rss.xml`);
  }
  return [...rows].map(([fromPath, toPath]) => ({ fromPath, toPath }));
}

/**
 * Which old addresses lead to a page that answers 200 now: a story or page only while it is public, a
 * tag or author page only with a public story (a category page always answers). The others would lead
 * to a 404, so they get no redirect (the report says which).
 */
async function liveRedirects(db: Db, rows: { fromPath: string; toPath: string }[]) {
  // The addresses' slugs by kind, each kind answered by one query.
  const kindOf = (to: string) => /^\/(article|tag|author)\/([^/]+)/.exec(to) ?? /^\/()([^/.]+)$/.exec(to);
  const wanted = new Map<string, Set<string>>();
  for (const row of rows) {
    const m = kindOf(row.toPath);
    if (m) (wanted.get(m[1]!) ?? wanted.set(m[1]!, new Set()).get(m[1]!)!).add(m[2]!);
  }
  const answering = new Set<string>();
  for (const [kind, slugs] of wanted) {
    const list = anySlug([...slugs]);
    const query =
      kind === "article"
        ? sql`select a.slug from articles a where a.slug = ${list} and ${publiclyVisibleSql("a")}`
        : kind === "tag"
          ? sql`select t.slug from tags t where t.slug = ${list} and exists (select 1 from article_tags at join articles a on a.id = at.article_id where at.tag_id = t.id and ${publiclyVisibleSql("a")})`
          : kind === "author"
            ? sql`select au.slug from authors au where au.slug = ${list} and exists (select 1 from article_authors aa join articles a on a.id = aa.article_id where aa.author_id = au.id and ${publiclyVisibleSql("a")})`
            : sql`select p.slug from pages p where p.slug = ${list} and p.status = 'published'`;
    for (const r of (await db.execute<{ slug: string }>(query)).rows) answering.add(`${kind}:${r.slug}`);
  }
  return rows.filter((row) => {
    const m = kindOf(row.toPath);
    return !m || answering.has(`${m[1]}:${m[2]}`);
  });
}

// ---------------------------------------------------------------- the run

async function beat(db: Db, id: string, fields: Partial<Pick<ImportRow, "phase" | "total" | "done">> & { summary?: ImportSummary }) {
  await db
    .update(imports)
    .set({ ...fields, heartbeatAt: sql`now()` })
    .where(eq(imports.id, id));
}

/**
 * Runs (or resumes) one import to its end. Returns null when it was not this process's to run (done,
 * or running elsewhere with a live heartbeat); throws ImportBusyError while another import runs.
 * A file that cannot be read fails the import with its one-line reason.
 */
export async function runImport(services: ImportServices, id: string, actor: Actor): Promise<ImportRow | null> {
  const { db, log } = services;
  const row = await claimImport(db, id, services.takeOver);
  if (!row) return null;
  // Writes in flight (see "stories" below), awaited before the run ends whichever way.
  const inFlight = new Set<Promise<void>>();
  // The database went away (issue 39): the run stops and is tried again whole, nothing counted as skipped.
  let lost: unknown = null;
  const notes = createNotes(db, id);
  const summary: ImportSummary = { ...emptySummary(), ...(row.dryRun ? { dryRun: true } : {}) };
  // Beats while it runs, whatever one step takes (a slow image, a long reading): only a stopped
  // runner's import goes stale and may be taken over.
  const heart = setInterval(() => {
    db.update(imports)
      .set({ heartbeatAt: sql`now()` })
      .where(and(eq(imports.id, id), eq(imports.status, "running")))
      .catch((error: unknown) => log.warn({ err: error, importId: id }, "an import's heartbeat was not written"));
  }, IMPORT_HEARTBEAT_STALE_MS / 4);
  try {
    if (row.retryMedia) return await runMediaRetry(services, row, notes, summary, actor);
    await beat(db, id, { phase: "reading" });
    const exportFile = services.exportFile ? await services.exportFile(row.filePath) : row.filePath;
    const plan = await readPlan(db, row.kind, exportFile, notes, summary);
    summary.source = plan.source;
    await beat(db, id, { phase: "people and topics", total: plan.total, done: 0, summary });
    const topics = await importTopics(db, plan, row.dryRun, notes, summary);
    await notes.flush();

    const media = row.dryRun || row.skipMedia ? null : createMediaImporter({ db, storage: services.storage, source: plan.source, mediaDir: row.mediaDir, allowPrivateHosts: services.allowPrivateHosts });
    const ctx: StoryContext = { services, importRow: row, plan, topics, media, notes, summary, actor, tagIds: new Map(), sticky: [] };
    if (row.skipMedia && !row.dryRun) notes.add("media", "every story", "Images were not taken (--skip-media): each links to its original address.");
    await beat(db, id, { phase: "stories", summary });
    const importedPosts = await knownRows(db, plan.source, "post");
    let done = 0;
    let lastBeat = Date.now();
    // Posts are prepared one by one (converted, images taken) and written STORY_BATCH at a time, up to
    // STORY_CONCURRENCY writes at once: while PostgreSQL writes one batch, the next is prepared.
    const failed = (record: ImportPost, error: unknown) => {
      // One story that cannot be written is reported; the others go on (its transaction wrote nothing).
      ctx.tagIds.clear();
      if (isDatabaseUnavailable(error)) {
        lost ??= error;
        return;
      }
      summary.skipped++;
      notes.add("skipped", whatOf(record), `Not imported: ${(error as Error).message}`);
      log.warn({ err: error, importId: id, post: record.sourceId }, "an imported story could not be written");
    };
    const writeBatch = async (batch: PreparedArticle[]) => {
      try {
        await writeArticles(ctx, batch);
      } catch (error) {
        // Tags the failed transaction made were rolled back with it.
        ctx.tagIds.clear();
        if (isDatabaseUnavailable(error)) {
          lost ??= error;
          return;
        }
        if (batch.length === 1) failed(batch[0]!.post, error);
        // Story by story: only the one that fails stays out.
        else for (const one of batch) await writeBatch([one]);
        return;
      }
    };
    const run = async (work: Promise<void>) => {
      const task = work.finally(() => inFlight.delete(task));
      inFlight.add(task);
      if (inFlight.size >= STORY_CONCURRENCY) await Promise.race(inFlight);
    };
    let batch: PreparedArticle[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const full = batch;
      batch = [];
      await run(writeBatch(full).then(() => void (done += full.length)));
    };
    for await (const record of readExport(row.kind, exportFile)) {
      if (lost) throw lost;
      if (services.signal?.aborted) {
        batch = [];
        await Promise.all(inFlight);
        await notes.flush();
        const [paused] = await db.update(imports).set({ status: "waiting", done, summary }).where(eq(imports.id, id)).returning();
        return paused ?? null;
      }
      if (record.type !== "post") continue;
      const planned = plan.stories.get(storyKey(record.kind, record.sourceId));
      if (!planned) continue;
      try {
        if (planned.imported) {
          summary.unchanged++;
          const known = record.kind === "post" && !row.dryRun ? importedPosts.get(record.sourceId) : undefined;
          if (known) await run(addNewComments(ctx, record, known.id).catch((error: unknown) => failed(record, error)));
          done++;
        } else if (row.dryRun) {
          dryRunStory(ctx, record);
          done++;
        } else if (record.kind === "page") {
          await run(
            writePage(ctx, record, planned).then(
              () => void done++,
              (error: unknown) => {
                failed(record, error);
                done++;
              },
            ),
          );
        } else {
          batch.push(await prepareArticle(ctx, record, planned));
          if (batch.length >= STORY_BATCH) await flush();
        }
      } catch (error) {
        failed(record, error);
        done++;
      }
      if (Date.now() - lastBeat > 1000) {
        lastBeat = Date.now();
        await notes.flush();
        await beat(db, id, { done, summary });
      }
    }
    await flush();
    await Promise.all(inFlight);
    if (lost) throw lost;
    if (!row.dryRun) await pinStickyStories(ctx);

    await beat(db, id, { phase: "links", done, summary });
    const wanted = redirectRows(plan, topics);
    if (row.dryRun) summary.redirects = wanted.length;
    else {
      const live = await liveRedirects(db, wanted);
      const result = await db.transaction((tx) => addImportedRedirects(tx, live, `import:${plan.source}`));
      summary.redirects = result.added + result.unchanged;
      for (const conflict of result.conflicts) notes.add("changed", `redirect ${conflict.fromPath}`, `Already redirects to ${conflict.existingTo}: left as it is.`);
      for (const row of wanted) if (!live.includes(row)) notes.add("changed", `redirect ${row.fromPath}`, `No public story there: ${row.toPath} would not answer, so no redirect.`);
      await recordActivity(db, actor, { kind: "import.finish", objectType: "import", objectId: id, objectLabel: row.fileName, details: { ...summary } });
    }
    await notes.flush();
    const [finished] = await db
      .update(imports)
      .set({ status: "done", phase: null, done, summary, finishedAt: sql`now()`, heartbeatAt: sql`now()` })
      .where(eq(imports.id, id))
      .returning();
    return finished ?? null;
  } catch (error) {
    // The database away: nothing can be recorded now. The job fails and is tried again (the task lets
    // this process take its own import over, decision 0041), going on after the stories already written.
    if (isDatabaseUnavailable(error) || (lost && error === lost)) {
      await Promise.allSettled(inFlight);
      log.warn({ err: error, importId: id }, "an import stopped: the database went away; it goes on once the database answers");
      throw error;
    }
    await notes.flush().catch(() => {});
    const message = error instanceof ImportFileError ? error.message : `The import stopped: ${(error as Error).message}`;
    if (!(error instanceof ImportFileError)) log.error({ err: error, importId: id }, "an import failed");
    const [failed] = await db
      .update(imports)
      .set({ status: "failed", error: message, summary, finishedAt: sql`now()` })
      .where(eq(imports.id, id))
      .returning();
    return failed ?? null;
  } finally {
    clearInterval(heart);
  }
}

/** "Retry missing images" (issue 39) of the site in the row's summary.source, run as an import is. */
async function runMediaRetry(services: ImportServices, row: ImportRow, notes: Notes, summary: ImportSummary, actor: Actor): Promise<ImportRow | null> {
  const { db } = services;
  const source = (row.summary as ImportSummary).source;
  if (!source) throw new ImportFileError("This retry names no imported site.");
  summary.source = source;
  await beat(db, row.id, { phase: "images", summary });
  let lastBeat = 0;
  let done = 0;
  const result = await retryMissingImages({
    db,
    storage: services.storage,
    allowPrivateHosts: services.allowPrivateHosts,
    source,
    mediaDir: row.mediaDir,
    actor,
    signal: services.signal,
    note: (kind, what, message) => notes.add(kind, what, message),
    progress: async (storiesDone, total) => {
      done = storiesDone;
      if (Date.now() - lastBeat < 1000 && storiesDone < total) return;
      lastBeat = Date.now();
      await notes.flush();
      await beat(db, row.id, { total, done });
    },
  });
  summary.images = result.fetched;
  summary.imagesWithoutAlt = result.withoutAlt;
  summary.missingImages = result.stillMissing;
  await notes.flush();
  if (result.stopped) {
    const [paused] = await db.update(imports).set({ status: "waiting", done, summary }).where(eq(imports.id, row.id)).returning();
    return paused ?? null;
  }
  await recordActivity(db, actor, { kind: "import.finish", objectType: "import", objectId: row.id, objectLabel: row.fileName, details: { ...summary, retryMedia: true } });
  const [finished] = await db
    .update(imports)
    .set({ status: "done", phase: null, done, summary, finishedAt: sql`now()`, heartbeatAt: sql`now()` })
    .where(eq(imports.id, row.id))
    .returning();
  return finished ?? null;
}

/** A dry run's look at one story: converted, counted and noted, nothing written. */
function dryRunStory(ctx: StoryContext, post: ImportPost) {
  const converted = convertBody(ctx, post);
  const { status } = statusOf(post, ctx.notes);
  tagNamesOf(ctx, post);
  if (post.kind === "post" && post.sticky && status === "published") {
    ctx.summary.sticky = (ctx.summary.sticky ?? 0) + 1;
    ctx.notes.add("sticky", whatOf(post), "Sticky on the old site: becomes a top story if you choose so when you start the import.");
  }
  ctx.summary.images += converted.images.length + (post.featuredImage ? 1 : 0);
  if (post.kind === "post") {
    ctx.summary.posts++;
    ctx.summary.comments += post.comments.filter((c) => c.status === "approved" || c.status === "pending").length;
  } else ctx.summary.pages++;
}

// ---------------------------------------------------------------- the report

export interface ImportReport {
  id: string;
  kind: ImportSourceKind;
  fileName: string;
  dryRun: boolean;
  /** "Retry missing images" of an imported site (issue 39), not an import of the file. */
  retryMedia: boolean;
  /** Sticky posts became pinned top stories (as the import was started). */
  pinSticky: boolean;
  status: ImportRow["status"];
  error: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  summary: ImportSummary;
  notes: { kind: string; what: string; message: string }[];
  /** Every old address and where it leads now (what check-redirects requests). */
  redirects: { from: string; to: string }[];
}

export async function importReport(db: Db, id: string): Promise<ImportReport | null> {
  const row = await getImport(db, id);
  if (!row) return null;
  const noteRows = await db
    .select({ kind: importNotes.kind, what: importNotes.what, message: importNotes.message })
    .from(importNotes)
    .where(eq(importNotes.importId, id))
    .orderBy(importNotes.id);
  // A retry of images made no redirects (its site's are its import's report's).
  const redirectRowsFound = await db.execute<{ from_path: string; to_path: string }>(
    sql`select from_path, to_path from redirects where source = (select 'import:' || (summary->>'source') from imports where id = ${id} and not retry_media) order by from_path`,
  );
  return {
    id: row.id,
    kind: row.kind,
    fileName: row.fileName,
    dryRun: row.dryRun,
    retryMedia: row.retryMedia,
    pinSticky: row.pinSticky,
    status: row.status,
    error: row.error,
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    summary: row.summary as ImportSummary,
    notes: noteRows,
    redirects: redirectRowsFound.rows.map((r) => ({ from: r.from_path, to: r.to_path })),
  };
}

