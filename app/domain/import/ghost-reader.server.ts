/**
 * Reads a Ghost JSON export (Ghost 1.x/2.x to 6.x) into import records (issue 29).
 *
 * Size: the file is read whole and parsed with JSON.parse, up to GHOST_EXPORT_MAX_BYTES (512 MB, also
 * about the longest string V8 can hold). A Ghost export holds no media, only text (a site with ten
 * thousand posts exports to tens of megabytes), so no streaming JSON library is worth its weight here;
 * a larger file is refused with one line. Records are still yielded one by one, so the engine's side
 * streams as with WordPress.
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
import fs from "node:fs/promises";
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

function rows(data: Row, name: string): Row[] {
  const value = data[name];
  return Array.isArray(value) ? (value.filter((r) => r !== null && typeof r === "object") as Row[]) : [];
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

/** The export's data object, whichever shape it has; a one-line ImportFileError otherwise. */
function exportData(parsed: unknown): Row {
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new ImportFileError(`${NOT_GHOST}its JSON is not an object with "db" or "data".`);
  }
  const root = parsed as Row;
  let data: unknown;
  if (Array.isArray(root.db)) data = (root.db[0] as Row | undefined)?.data;
  else data = root.data;
  if (data === null || typeof data !== "object" || !Array.isArray((data as Row).posts)) {
    throw new ImportFileError(`${NOT_GHOST}it has no db[0].data.posts nor data.posts.`);
  }
  return data as Row;
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
  const text = (await fs.readFile(file, "utf8")).replace(/^\uFEFF/, "");
  const start = text.trimStart();
  if (start === "") throw new ImportFileError(`${NOT_GHOST}the file is empty.`);
  if (start.startsWith("<")) throw new ImportFileError(`${NOT_GHOST}it is XML or HTML (a WordPress export is imported with "wordpress").`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ImportFileError(`${NOT_GHOST}it is not valid JSON (${(error as Error).message}).`);
  }
  const data = exportData(parsed);

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

  let n = 0;
  for (const post of rows(data, "posts")) {
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
