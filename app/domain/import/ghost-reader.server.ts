/**
 * Reads a Ghost JSON export (Ghost 1.x/2.x to 6.x) into import records (issue 29).
 *
 * Size (issue 39): the file is read as a stream (@streamparser/json), never whole: a first pass keeps
 * what the posts refer to (settings, users, tags, their links to posts, posts_meta), a second yields
 * the posts one by one. Each row is parsed alone and dropped once read, so memory follows the largest
 * row and those small tables, not the file. A file that is not made of Ghost's rows is refused early,
 * whatever its size: more than GHOST_LIMITS.junkRows rows without an id, a row larger than
 * GHOST_LIMITS.rowBytes, more than GHOST_LIMITS.containersBetweenRows objects or arrays outside any row,
 * or more rows in a table than GHOST_LIMITS.rows. Up to GHOST_EXPORT_MAX_BYTES a file.
 *
 * Shapes: `{ db: [ { meta, data } ] }` (what Ghost's Labs export writes) and `{ meta, data }`. From
 * data: posts (`type` "post"/"page", or `page: true` before 2.x), tags, posts_tags and posts_authors (in
 * `sort_order`), users, posts_meta (5.x: feature image alt/caption, meta title/description; older
 * versions keep those fields on the post itself), settings (the site title).
 *
 * Mapping decisions:
 * - URLs: Ghost writes its own address as the placeholder `__GHOST_URL__` (e.g. an image
 *   `__GHOST_URL__/content/images/a.jpg`, a link `__GHOST_URL__/other-post/`). The reader leaves it in
 *   place and says `site.baseUrl = null` (the export never names the site's address): the engine treats
 *   `__GHOST_URL__/…` as a path on the old site, i.e. `/…`.
 * - Post links: Ghost's default permalink, `/{slug}/` for posts and pages alike.
 * - Status: published → "publish", scheduled → "future", draft → "draft". A post that is not public
 *   (visibility members/paid/tiers, or `sent`: a newsletter sent by email only) is "private", which the
 *   engine imports as a draft and reports.
 * - Tags: internal tags (a name starting with "#") are left out. The first public tag is Ghost's
 *   primary tag: its slug is categorySlugs[0] (the engine decides whether a category of that name
 *   exists) and every public tag, the primary one included, is in tagSlugs.
 * - Body: `html` when present, else lexical, else mobiledoc, else (0.x) markdown rendered by ./ghost-render.server; a card
 *   that cannot be rendered gives a `skip` record naming the post and the card.
 */
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import { TokenParser, Tokenizer, TokenType } from "@streamparser/json";
import { htmlFromLexical, htmlFromMarkdown, htmlFromMobiledoc } from "./ghost-render.server";
import {
  ImportFileError,
  type ImportAuthor,
  type ImportPost,
  type ImportPostStatus,
  type ImportRecord,
  type ImportTerm,
} from "./import-records";

export const GHOST_EXPORT_MAX_BYTES = 512 * 1024 * 1024;
const NOT_GHOST = "This is not a Ghost export: ";

type Row = Record<string, unknown>;

function str(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  return "";
}

function nullable(value: unknown): string | null {
  const text = str(value).trim();
  return text === "" ? null : text;
}

function rows(data: Record<string, Row[]>, name: string): Row[] {
  return data[name] ?? [];
}

/** The file's first bytes as text (to tell XML from JSON). */
async function readHead(file: string): Promise<string> {
  const handle = await fs.open(file);
  try {
    const buffer = Buffer.alloc(256);
    const { bytesRead } = await handle.read(buffer, 0, 256, 0);
    return buffer.subarray(0, bytesRead).toString("utf8").replace(/^\uFEFF/, "");
  } finally {
    await handle.close();
  }
}

/** Ghost dates: ISO strings, "YYYY-MM-DD HH:MM:SS" (UTC) or, in old exports, epoch milliseconds. */
function ghostDate(value: unknown): string | null | "bad" {
  if (value === null || value === undefined || value === "") return null;
  let date: Date;
  if (typeof value === "number") date = new Date(value);
  else if (typeof value === "string") {
    const text = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(value) ? `${value.replace(" ", "T")}Z` : value;
    date = new Date(text);
  } else return "bad";
  return Number.isNaN(date.getTime()) ? "bad" : date.toISOString();
}

function bySortOrder(a: Row, b: Row): number {
  return (Number(a.sort_order) || 0) - (Number(b.sort_order) || 0);
}

/** What one Ghost export may hold (see the header comment). */
export const GHOST_LIMITS = {
  /** Rows of one table (posts, tags, posts_tags, …). */
  rows: 500_000,
  /** Rows that are not Ghost records (no id): a few are skipped and reported, more refuse the file. */
  junkRows: 10_000,
  /** Bytes of the file one row may take. */
  rowBytes: 32 * 1024 * 1024,
  /** Objects and arrays met outside any row, between two rows. */
  containersBetweenRows: 100_000,
};

/** The tables the reader uses; the rows of any other table are read and dropped. */
const TABLES = new Set(["posts", "settings", "users", "tags", "posts_tags", "posts_authors", "posts_meta"]);

/**
 * Every row of the export's tables (`db[0].data.<table>[i]` or `data.<table>[i]`) whose table
 * `wanted` accepts, in file order, read as a stream. Throws a one-line ImportFileError for a file
 * that is not JSON, not an object, or breaks GHOST_LIMITS.
 */
async function* ghostRows(file: string, wanted: (table: string) => boolean): AsyncGenerator<[table: string, row: Row]> {
  const tokenizer = new Tokenizer();
  const parser = new TokenParser({ paths: ["$.data.*.*", "$.db.0.data.*.*"], keepStack: false });
  const ready: [string, Row][] = [];
  const counts = new Map<string, number>();
  let first = true;
  let junk = 0;
  let containers = 0;
  let bytesSinceRow = 0;
  tokenizer.onToken = (info) => {
    if (first) {
      first = false;
      if (info.token !== TokenType.LEFT_BRACE) throw new ImportFileError(`${NOT_GHOST}its JSON is not an object with "db" or "data".`);
    }
    if ((info.token === TokenType.LEFT_BRACE || info.token === TokenType.LEFT_BRACKET) && ++containers > GHOST_LIMITS.containersBetweenRows) {
      throw new ImportFileError(`${NOT_GHOST}it holds more than ${GHOST_LIMITS.containersBetweenRows.toLocaleString("en")} objects or arrays outside Ghost's records.`);
    }
    parser.write(info);
  };
  tokenizer.onEnd = () => {
    if (!parser.isEnded) parser.end();
  };
  parser.onError = (error) => tokenizer.error(error);
  parser.onValue = ({ value, stack }) => {
    containers = 0;
    bytesSinceRow = 0;
    const table = String(stack[stack.length - 1]?.key ?? "");
    const count = (counts.get(table) ?? 0) + 1;
    counts.set(table, count);
    if (count > GHOST_LIMITS.rows) throw new ImportFileError(`This Ghost export has more than ${GHOST_LIMITS.rows.toLocaleString("en")} ${table}: import it in parts.`);
    const isRecord = value !== null && typeof value === "object" && !Array.isArray(value);
    // Every row of every table of Ghost's has an id.
    if (!isRecord || str((value as Row).id) === "") {
      if (++junk > GHOST_LIMITS.junkRows) throw new ImportFileError(`${NOT_GHOST}more than ${GHOST_LIMITS.junkRows.toLocaleString("en")} of its records have no id.`);
    }
    if (isRecord && wanted(table)) ready.push([table, value as Row]);
  };
  let bom = true;
  try {
    for await (const chunk of createReadStream(file, { highWaterMark: 64 * 1024 }) as AsyncIterable<Buffer>) {
      let bytes = chunk;
      if (bom) {
        bom = false;
        if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
      }
      tokenizer.write(bytes);
      bytesSinceRow += bytes.length;
      if (bytesSinceRow > GHOST_LIMITS.rowBytes) throw new ImportFileError(`${NOT_GHOST}it has a record larger than ${GHOST_LIMITS.rowBytes / 1024 / 1024} MB.`);
      for (const row of ready.splice(0)) yield row;
    }
    tokenizer.end();
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    throw new ImportFileError(`${NOT_GHOST}it is not valid JSON (${(error as Error).message}).`);
  }
  for (const row of ready.splice(0)) yield row;
  if (first) throw new ImportFileError(`${NOT_GHOST}the file is empty.`);
}

function groupBy(list: Row[], key: string): Map<string, Row[]> {
  const groups = new Map<string, Row[]>();
  for (const row of list) {
    const id = str(row[key]);
    const group = groups.get(id);
    if (group) group.push(row);
    else groups.set(id, [row]);
  }
  return groups;
}

/**
 * Reads a Ghost export file record by record (see the header comment). Throws ImportFileError for a
 * file that is not a Ghost export or is larger than GHOST_EXPORT_MAX_BYTES.
 */
export async function* readGhostExport(file: string): AsyncGenerator<ImportRecord> {
  const { size } = await fs.stat(file);
  if (size > GHOST_EXPORT_MAX_BYTES) {
    throw new ImportFileError(`This Ghost export is ${Math.round(size / 1024 / 1024)} MB: the limit is ${GHOST_EXPORT_MAX_BYTES / 1024 / 1024} MB.`);
  }
  // The first bytes tell XML from JSON before anything is parsed.
  const head = await readHead(file);
  if (head.trimStart().startsWith("<")) throw new ImportFileError(`${NOT_GHOST}it is XML or HTML (a WordPress export is imported with "wordpress").`);

  // First pass: everything the posts refer to (small tables), and whether there are posts at all.
  const data: Record<string, Row[]> = {};
  let posts = 0;
  for await (const [table, row] of ghostRows(file, (table) => TABLES.has(table))) {
    if (table === "posts") {
      posts++;
      continue;
    }
    (data[table] ??= []).push(row);
  }
  if (posts === 0 && Object.keys(data).length === 0) throw new ImportFileError(`${NOT_GHOST}it has no db[0].data.posts nor data.posts.`);

  const settings = rows(data, "settings");
  const title = nullable(settings.find((s) => s.key === "title")?.value);
  yield { type: "site", kind: "ghost", baseUrl: null, title };

  const users = rows(data, "users");
  const userIds = new Set<string>();
  for (const user of users) {
    const id = str(user.id);
    if (id === "") continue;
    userIds.add(id);
    const author: ImportAuthor = {
      type: "author",
      sourceId: id,
      slug: str(user.slug) || id,
      displayName: str(user.name) || str(user.slug) || id,
      email: nullable(user.email),
      bio: nullable(user.bio),
    };
    yield author;
  }

  const publicTags = new Map<string, string>(); // id → slug
  for (const tag of rows(data, "tags")) {
    const id = str(tag.id);
    const name = str(tag.name);
    const slug = str(tag.slug);
    if (id === "" || slug === "") continue;
    if (name.startsWith("#") || tag.visibility === "internal") continue;
    publicTags.set(id, slug);
    const term: ImportTerm = { type: "term", kind: "tag", slug, name: name || slug, parentSlug: null, description: nullable(tag.description) };
    yield term;
  }

  const tagsOf = groupBy(rows(data, "posts_tags"), "post_id");
  const authorsOf = groupBy(rows(data, "posts_authors"), "post_id");
  const metaOf = new Map(rows(data, "posts_meta").map((m) => [str(m.post_id), m]));

  // Second pass: the posts, one at a time.
  let n = 0;
  for await (const [, post] of ghostRows(file, (table) => table === "posts")) {
    n++;
    const id = str(post.id);
    const slug = str(post.slug);
    const what = id === "" ? `post ${n}` : `post ${id}${slug === "" ? "" : ` (${slug})`}`;
    if (id === "" || slug === "") {
      yield { type: "skip", what, reason: id === "" ? "it has no id" : "it has no slug" };
      continue;
    }
    const kind = post.type === "page" || post.page === true || post.page === 1 ? "page" : "post";
    if (post.type !== undefined && post.type !== "post" && post.type !== "page") {
      yield { type: "skip", what, reason: `the post type "${str(post.type)}" is not imported` };
      continue;
    }
    const ghostStatus = str(post.status) || "draft";
    let status: ImportPostStatus;
    if (ghostStatus === "published") status = "publish";
    else if (ghostStatus === "scheduled") status = "future";
    else if (ghostStatus === "draft") status = "draft";
    else if (ghostStatus === "sent") status = "private";
    else {
      yield { type: "skip", what, reason: `its status "${ghostStatus}" is not imported` };
      continue;
    }
    const visibility = str(post.visibility) || "public";
    if (visibility !== "public" && (status === "publish" || status === "future")) status = "private";

    const publishedAt = ghostDate(post.published_at);
    const modifiedAt = ghostDate(post.updated_at);
    if (publishedAt === "bad" || modifiedAt === "bad") {
      yield { type: "skip", what, reason: `its date "${str(publishedAt === "bad" ? post.published_at : post.updated_at)}" is not a date` };
      continue;
    }
    if (publishedAt === null && (status === "publish" || status === "future")) {
      yield { type: "skip", what, reason: `it is ${ghostStatus} but has no published_at` };
      continue;
    }

    const notes: string[] = [];
    let html = str(post.html);
    if (html.trim() === "") {
      if (nullable(post.lexical) !== null) html = htmlFromLexical(str(post.lexical), notes);
      else if (nullable(post.mobiledoc) !== null) html = htmlFromMobiledoc(str(post.mobiledoc), notes);
      else if (nullable(post.markdown) !== null) html = htmlFromMarkdown(str(post.markdown));
    }

    const authorSourceIds = (authorsOf.get(id) ?? [])
      .sort(bySortOrder)
      .map((r) => str(r.author_id))
      .filter((a, i, all) => a !== "" && all.indexOf(a) === i);
    if (authorSourceIds.length === 0) {
      const own = str(post.author_id) || str(post.created_by);
      if (own !== "" && userIds.has(own)) authorSourceIds.push(own);
    }
    const tagSlugs = (tagsOf.get(id) ?? [])
      .sort(bySortOrder)
      .map((r) => publicTags.get(str(r.tag_id)))
      .filter((s, i, all): s is string => s !== undefined && all.indexOf(s) === i);

    const meta = metaOf.get(id) ?? {};
    const pick = (key: string) => nullable(meta[key]) ?? nullable(post[key]);
    const featureUrl = nullable(post.feature_image) ?? nullable(post.image);
    const record: ImportPost = {
      type: "post",
      kind,
      sourceId: id,
      title: str(post.title),
      slug,
      link: `/${slug}/`,
      status,
      passwordProtected: false,
      publishedAt,
      modifiedAt,
      excerpt: nullable(post.custom_excerpt),
      html,
      authorSourceIds,
      categorySlugs: tagSlugs.length > 0 ? [tagSlugs[0]] : [],
      tagSlugs,
      featuredImage:
        featureUrl === null
          ? null
          : { attachmentSourceId: null, url: featureUrl, alt: pick("feature_image_alt"), caption: pick("feature_image_caption") },
      sticky: post.featured === true || post.featured === 1 || post.featured === "1",
      seoTitle: pick("meta_title"),
      seoDescription: pick("meta_description"),
      comments: [],
    };
    yield record;
    for (const card of new Set(notes)) {
      yield { type: "skip", what, reason: `a "${card}" card could not be converted; it is left out of the story` };
    }
  }
}
