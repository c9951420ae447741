/**
 * Reads a WordPress export (WXR 1.0, 1.1 and 1.2) into import records (issue 29), streaming.
 *
 * The file is read in 64 KiB chunks through saxes (a non-validating XML parser that never resolves
 * external entities); each top-level child of <channel> (the header fields, every wp:author, wp:category,
 * wp:tag, wp:term and <item>) is gathered into a small element tree while it is open and turned into
 * records when it closes. Only one such element is held at a time, and the next chunk is read only
 * when the consumer asks for more records, so memory stays flat whatever the file's size.
 *
 * Records come in the file's order: the `site` first (from the channel header, which WordPress writes
 * before anything else), then authors and terms, then one record per item. An author or term that a
 * post names but the file never declares (WXR 1.0 has no wp:author; Co-Authors Plus bylines; some
 * WordPress.com exports omit wp:tag) is emitted once, just before the first post that names it.
 *
 * Namespaces are matched by URI pattern, not prefix: `wp` is any http(s)://wordpress.org/export/1.x/,
 * so WordPress.com's https URIs and every WXR version read alike. The file is taken as UTF-8, which is
 * what every WordPress export is.
 *
 * Refused with ImportFileError, before any record: a file with a DOCTYPE (XXE), a file that is not WXR.
 * XML that breaks mid-file: the records complete before the break are yielded, then ImportFileError
 * names the line. A malformed item (no wp:post_id, a bad date, an unknown status) is a `skip` record.
 */
import fs from "node:fs";
import { SaxesParser, type SaxesTagNS } from "saxes";
import { slugify as asciiSlug } from "~/lib/slugs";
import {
  ImportFileError,
  type ImportAuthor,
  type ImportComment,
  type ImportCommentStatus,
  type ImportPostStatus,
  type ImportRecord,
  type ImportSite,
  type ImportTerm,
} from "./import-records";

const WP_NAMESPACE = /^https?:\/\/wordpress\.org\/export\/1\.\d+\/?$/;
const EXCERPT_NAMESPACE = /^https?:\/\/wordpress\.org\/export\/1\.\d+\/excerpt\/?$/;
const CONTENT_NAMESPACE = /^https?:\/\/purl\.org\/rss\/1\.0\/modules\/content\/?$/;
const DC_NAMESPACE = /^https?:\/\/purl\.org\/dc\/elements\/1\.1\/?$/;

export const DOCTYPE_REFUSAL =
  "This file declares a DOCTYPE: refused, because an export never needs one and its entities could read files (XXE).";
const NOT_WXR = "This is not a WordPress export (WXR): ";

/** An element of the channel, kept while it is read: names are "wp:post_id", "content:encoded", ":title"… */
interface XmlNode {
  name: string;
  attributes: Record<string, string>;
  text: string;
  children: XmlNode[];
}

/** The short prefix a namespace URI stands for here ("" for none, "?" for one this reader does not know). */
function prefixOf(uri: string, cache: Map<string, string>): string {
  let prefix = cache.get(uri);
  if (prefix === undefined) {
    if (uri === "") prefix = "";
    else if (WP_NAMESPACE.test(uri)) prefix = "wp";
    else if (EXCERPT_NAMESPACE.test(uri)) prefix = "excerpt";
    else if (CONTENT_NAMESPACE.test(uri)) prefix = "content";
    else if (DC_NAMESPACE.test(uri)) prefix = "dc";
    else prefix = "?";
    cache.set(uri, prefix);
  }
  return prefix;
}

/** The project's slug, with accents taken off first ("Ünïcode" → "unicode", not "n-code"). */
function slugify(text: string): string {
  return asciiSlug(text.normalize("NFKD").replace(/[\u0300-\u036f]/g, ""));
}

function child(node: XmlNode, name: string): XmlNode | undefined {
  return node.children.find((c) => c.name === name);
}

/** A child's text, trimmed ("" when absent). */
function field(node: XmlNode, name: string): string {
  return child(node, name)?.text.trim() ?? "";
}

/** A child's text, or null when absent or blank; `raw` keeps the text as it is (HTML). */
function optional(node: XmlNode, name: string, raw = false): string | null {
  const text = child(node, name)?.text ?? "";
  if (text.trim() === "") return null;
  return raw ? text : text.trim();
}

const WP_DATE = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/;
const ZERO_DATE = /^0000-00-00[ T]00:00:00$/;

/** "2018-10-21 03:03:48" (UTC) → ISO 8601; "bad" when it is no date; null when it is WordPress's zero date or empty. */
function wpDate(value: string): string | null | "bad" {
  if (value === "" || ZERO_DATE.test(value)) return null;
  const match = WP_DATE.exec(value);
  if (!match) return "bad";
  const [, y, mo, d, h, mi, s] = match.map(Number);
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  if (Number.isNaN(date.getTime()) || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return "bad";
  return date.toISOString();
}

function postMeta(item: XmlNode): Map<string, string> {
  const meta = new Map<string, string>();
  for (const c of item.children) {
    if (c.name !== "wp:postmeta") continue;
    const key = field(c, "wp:meta_key");
    if (key !== "" && !meta.has(key)) meta.set(key, child(c, "wp:meta_value")?.text ?? "");
  }
  return meta;
}

function nonEmpty(value: string | undefined): string | null {
  const trimmed = value?.trim() ?? "";
  return trimmed === "" ? null : trimmed;
}

const POST_STATUSES = new Set<ImportPostStatus>(["publish", "future", "draft", "pending", "private"]);
const COMMENT_STATUSES: Record<string, ImportCommentStatus> = {
  "1": "approved",
  approve: "approved",
  approved: "approved",
  "0": "pending",
  hold: "pending",
  spam: "spam",
  trash: "trash",
  "post-trashed": "trash",
};

/** Everything the reader remembers across items: what was declared, so that what was not can be emitted once. */
class ChannelState {
  readonly site: { title: string | null; link: string | null; blogUrl: string | null; siteUrl: string | null } = {
    title: null,
    link: null,
    blogUrl: null,
    siteUrl: null,
  };
  siteSent = false;
  itemCount = 0;
  readonly authorLogins = new Set<string>();
  /** slugify(login) → login, so a Co-Authors Plus nicename finds "john.doe" from "cap-john-doe". */
  readonly authorBySlug = new Map<string, string>();
  /** "category:slug" / "tag:slug" already emitted. */
  readonly terms = new Set<string>();
  /** A category's name → its slug (WXR 1.0 may name a parent, or a post's category, by name). */
  readonly categoryByName = new Map<string, string>();

  siteRecord(): ImportSite {
    const url = this.site.link ?? this.site.blogUrl ?? this.site.siteUrl;
    return {
      type: "site",
      kind: "wordpress",
      baseUrl: url === null ? null : url.replace(/\/+$/, "") || null,
      title: this.site.title,
    };
  }

  addAuthor(author: ImportAuthor, out: ImportRecord[]): void {
    if (this.authorLogins.has(author.sourceId)) return;
    this.authorLogins.add(author.sourceId);
    this.authorBySlug.set(slugify(author.sourceId), author.sourceId);
    out.push(author);
  }

  addTerm(term: ImportTerm, out: ImportRecord[]): void {
    const key = `${term.kind}:${term.slug}`;
    if (this.terms.has(key)) return;
    this.terms.add(key);
    if (term.kind === "category") this.categoryByName.set(term.name, term.slug);
    out.push(term);
  }
}

function authorRecord(login: string, displayName: string, email: string | null, bio: string | null): ImportAuthor {
  return { type: "author", sourceId: login, slug: slugify(login) || login, displayName: displayName || login, email, bio };
}

function readAuthor(node: XmlNode, state: ChannelState, out: ImportRecord[]): void {
  const login = field(node, "wp:author_login");
  if (login === "") {
    out.push({ type: "skip", what: "an author", reason: "it has no wp:author_login" });
    return;
  }
  const first = field(node, "wp:author_first_name");
  const last = field(node, "wp:author_last_name");
  const displayName = field(node, "wp:author_display_name") || `${first} ${last}`.trim() || login;
  state.addAuthor(authorRecord(login, displayName, optional(node, "wp:author_email"), null), out);
}

function readTerm(node: XmlNode, state: ChannelState, out: ImportRecord[]): void {
  let kind: "category" | "tag";
  let slug: string;
  let name: string;
  let parent: string | null;
  let description: string | null;
  if (node.name === "wp:category") {
    kind = "category";
    slug = field(node, "wp:category_nicename");
    name = field(node, "wp:cat_name");
    parent = optional(node, "wp:category_parent");
    description = optional(node, "wp:category_description", true);
  } else if (node.name === "wp:tag") {
    kind = "tag";
    slug = field(node, "wp:tag_slug");
    name = field(node, "wp:tag_name");
    parent = null;
    description = optional(node, "wp:tag_description", true);
  } else {
    const taxonomy = field(node, "wp:term_taxonomy");
    slug = field(node, "wp:term_slug");
    if (taxonomy !== "category" && taxonomy !== "post_tag") {
      out.push({ type: "skip", what: `term "${slug}" (${taxonomy || "no taxonomy"})`, reason: `the taxonomy "${taxonomy}" is not imported` });
      return;
    }
    kind = taxonomy === "category" ? "category" : "tag";
    name = field(node, "wp:term_name");
    parent = kind === "category" ? optional(node, "wp:term_parent") : null;
    description = optional(node, "wp:term_description", true);
  }
  if (slug === "") slug = slugify(name);
  if (slug === "") {
    out.push({ type: "skip", what: `a ${kind} "${name}"`, reason: "it has neither a slug nor a name to make one from" });
    return;
  }
  // WXR 1.0 may give the parent's name where later versions give its slug.
  if (parent !== null && !state.terms.has(`category:${parent}`)) parent = state.categoryByName.get(parent) ?? parent;
  state.addTerm({ type: "term", kind, slug, name: name || slug, parentSlug: parent, description }, out);
}

function readComments(item: XmlNode, what: string, out: ImportRecord[]): ImportComment[] {
  const comments: ImportComment[] = [];
  const leftOut = new Map<string, number>();
  for (const c of item.children) {
    if (c.name !== "wp:comment") continue;
    const id = field(c, "wp:comment_id");
    const commentType = field(c, "wp:comment_type");
    if (commentType !== "" && commentType !== "comment") {
      leftOut.set(commentType, (leftOut.get(commentType) ?? 0) + 1);
      continue;
    }
    if (id === "") {
      out.push({ type: "skip", what: `a comment of ${what}`, reason: "it has no wp:comment_id" });
      continue;
    }
    let date = wpDate(field(c, "wp:comment_date_gmt"));
    if (date === null) date = wpDate(field(c, "wp:comment_date"));
    if (date === null || date === "bad") {
      out.push({ type: "skip", what: `comment ${id} of ${what}`, reason: "it has no readable date" });
      continue;
    }
    const approved = field(c, "wp:comment_approved");
    const parent = field(c, "wp:comment_parent");
    comments.push({
      sourceId: id,
      parentSourceId: parent === "" || parent === "0" ? null : parent,
      authorName: field(c, "wp:comment_author") || "Anonymous",
      authorEmail: optional(c, "wp:comment_author_email"),
      authorUrl: optional(c, "wp:comment_author_url"),
      date,
      content: child(c, "wp:comment_content")?.text ?? "",
      status: COMMENT_STATUSES[approved] ?? "pending",
    });
  }
  // A reply to a comment that is not here (a pingback, a comment left out) starts its own thread.
  const ids = new Set(comments.map((c) => c.sourceId));
  for (const comment of comments) {
    if (comment.parentSourceId !== null && !ids.has(comment.parentSourceId)) comment.parentSourceId = null;
  }
  if (leftOut.size > 0) {
    const counts = [...leftOut].map(([type, n]) => `${n} ${type}${n === 1 ? "" : "s"}`).join(", ");
    out.push({ type: "skip", what: `comments of ${what}`, reason: `${counts} left out (not comments)` });
  }
  return comments;
}

function readItem(item: XmlNode, state: ChannelState, out: ImportRecord[]): void {
  const n = ++state.itemCount;
  const id = field(item, "wp:post_id");
  const title = child(item, ":title")?.text.trim() ?? "";
  if (!/^\d+$/.test(id)) {
    const named = title === "" ? "" : ` ("${title.slice(0, 80)}")`;
    out.push({ type: "skip", what: `item ${n}${named}`, reason: id === "" ? "it has no wp:post_id" : `its wp:post_id "${id}" is not a number` });
    return;
  }
  const postType = field(item, "wp:post_type") || "post";
  const meta = postMeta(item);

  if (postType === "attachment") {
    const url = field(item, "wp:attachment_url");
    if (url === "") {
      out.push({ type: "skip", what: `attachment ${id}`, reason: "it has no wp:attachment_url" });
      return;
    }
    const parent = field(item, "wp:post_parent");
    out.push({
      type: "attachment",
      sourceId: id,
      parentSourceId: parent === "" || parent === "0" ? null : parent,
      url,
      title: title || null,
      alt: nonEmpty(meta.get("_wp_attachment_image_alt")),
      caption: optional(item, "excerpt:encoded", true),
    });
    return;
  }

  const what = `${postType} ${id}`;
  if (postType !== "post" && postType !== "page") {
    out.push({ type: "skip", what, reason: `the post type "${postType}" is not imported` });
    return;
  }
  const status = field(item, "wp:status") || "publish";
  if (!POST_STATUSES.has(status as ImportPostStatus)) {
    const reason =
      status === "trash" ? "it is in the trash" : status === "auto-draft" ? "it is an automatic draft" : `its status "${status}" is not imported`;
    out.push({ type: "skip", what, reason });
    return;
  }

  const gmt = field(item, "wp:post_date_gmt");
  let publishedAt = wpDate(gmt);
  if (publishedAt === null && status !== "draft" && status !== "pending") publishedAt = wpDate(field(item, "wp:post_date"));
  if (publishedAt === "bad") {
    out.push({ type: "skip", what, reason: `its date "${gmt || field(item, "wp:post_date")}" is not a date` });
    return;
  }
  if (publishedAt === null && status !== "draft" && status !== "pending") {
    out.push({ type: "skip", what, reason: `it is "${status}" but has no date` });
    return;
  }
  let modifiedAt = wpDate(field(item, "wp:post_modified_gmt"));
  if (modifiedAt === "bad") modifiedAt = null;

  // Bylines: Co-Authors Plus when present, else the post's own author.
  const bylines: string[] = [];
  const categorySlugs: string[] = [];
  const tagSlugs: string[] = [];
  for (const c of item.children) {
    if (c.name !== ":category") continue;
    const domain = c.attributes.domain ?? "";
    const name = c.text.trim();
    let nicename = (c.attributes.nicename ?? "").trim();
    if (domain === "author") {
      const raw = nicename.replace(/^cap-/, "") || slugify(name);
      if (raw === "") continue;
      const login = state.authorLogins.has(raw) ? raw : (state.authorBySlug.get(raw) ?? raw);
      state.addAuthor(authorRecord(login, name, null, null), out);
      if (!bylines.includes(login)) bylines.push(login);
    } else if (domain === "category" || domain === "") {
      if (nicename === "") nicename = state.categoryByName.get(name) ?? slugify(name);
      if (nicename === "" || categorySlugs.includes(nicename)) continue;
      state.addTerm({ type: "term", kind: "category", slug: nicename, name: name || nicename, parentSlug: null, description: null }, out);
      categorySlugs.push(nicename);
    } else if (domain === "post_tag" || domain === "tag") {
      if (nicename === "") nicename = slugify(name);
      if (nicename === "" || tagSlugs.includes(nicename)) continue;
      state.addTerm({ type: "term", kind: "tag", slug: nicename, name: name || nicename, parentSlug: null, description: null }, out);
      tagSlugs.push(nicename);
    }
  }
  const creator = field(item, "dc:creator");
  if (bylines.length === 0 && creator !== "") {
    state.addAuthor(authorRecord(creator, creator, null, null), out);
    bylines.push(creator);
  }

  const thumbnail = nonEmpty(meta.get("_thumbnail_id"));
  const comments = readComments(item, what, out);
  out.push({
    type: "post",
    kind: postType,
    sourceId: id,
    title,
    slug: field(item, "wp:post_name") || slugify(title) || `post-${id}`,
    link: optional(item, ":link"),
    status: status as ImportPostStatus,
    passwordProtected: field(item, "wp:post_password") !== "",
    publishedAt,
    modifiedAt,
    excerpt: optional(item, "excerpt:encoded", true),
    html: child(item, "content:encoded")?.text ?? "",
    authorSourceIds: bylines,
    categorySlugs,
    tagSlugs,
    featuredImage: thumbnail === null || thumbnail === "0" ? null : { attachmentSourceId: thumbnail, url: null, alt: null, caption: null },
    sticky: field(item, "wp:is_sticky") === "1",
    seoTitle: nonEmpty(meta.get("_yoast_wpseo_title")),
    seoDescription: nonEmpty(meta.get("_yoast_wpseo_metadesc")),
    comments,
  });
}

/** What the first bytes say a file is, when it is plainly not XML: a one-line refusal, or null. */
function notXml(head: string): string | null {
  const start = head.replace(/^\uFEFF/, "").trimStart();
  if (start === "") return `${NOT_WXR}the file is empty.`;
  if (start.startsWith("{") || start.startsWith("[")) return `${NOT_WXR}it is JSON (a Ghost export is imported with "ghost").`;
  if (!start.startsWith("<")) return `${NOT_WXR}it is not XML.`;
  return null;
}

/**
 * Reads a WordPress export file record by record (see the header comment). Throws ImportFileError for a
 * file that is not WXR, declares a DOCTYPE, or breaks mid-file.
 */
export async function* readWordPressExport(file: string): AsyncGenerator<ImportRecord> {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const prefixes = new Map<string, string>();
  const state = new ChannelState();
  let out: ImportRecord[] = [];
  let depth = 0;
  let rootSeen = false;
  let channelSeen = false;
  /** The channel child being read, and the path of elements open inside it. */
  const open: XmlNode[] = [];
  let failure: ImportFileError | null = null;

  const emitSite = () => {
    if (!state.siteSent) {
      state.siteSent = true;
      out.push(state.siteRecord());
    }
  };

  parser.on("doctype", (doctype) => {
    if (/^\s*html\b/i.test(doctype) && !doctype.includes("[")) throw new ImportFileError(`${NOT_WXR}it is an HTML page.`);
    throw new ImportFileError(DOCTYPE_REFUSAL);
  });
  parser.on("error", (error) => {
    const message = error.message.replace(/^\d+:\d+: /, "");
    throw new ImportFileError(`The XML breaks at line ${parser.line}, column ${parser.column}: ${message}. Nothing after it was read.`);
  });
  parser.on("opentag", (tag: SaxesTagNS) => {
    depth++;
    if (depth === 1) {
      rootSeen = true;
      if (tag.local !== "rss") throw new ImportFileError(`${NOT_WXR}its root element is <${tag.name}>, not <rss>.`);
      if (!Object.values(tag.ns).some((uri) => WP_NAMESPACE.test(uri))) {
        throw new ImportFileError(`${NOT_WXR}it is an RSS feed without the WordPress export namespace (wordpress.org/export/1.x/).`);
      }
      return;
    }
    if (depth === 2) {
      if (tag.local === "channel") channelSeen = true;
      return;
    }
    if (depth >= 3 && channelSeen) {
      const attributes: Record<string, string> = {};
      for (const attribute of Object.values(tag.attributes)) {
        if (attribute.prefix !== "xmlns" && attribute.name !== "xmlns") attributes[attribute.local] = attribute.value;
      }
      const node: XmlNode = { name: `${prefixOf(tag.uri, prefixes)}:${tag.local}`, attributes, text: "", children: [] };
      open.at(-1)?.children.push(node);
      open.push(node);
    }
  });
  const onText = (text: string) => {
    const node = open.at(-1);
    if (node !== undefined) node.text += text;
  };
  parser.on("text", onText);
  parser.on("cdata", onText);
  parser.on("closetag", () => {
    depth--;
    if (open.length === 0) {
      if (depth === 1 && channelSeen) emitSite(); // </channel>
      return;
    }
    const node = open.pop()!;
    if (open.length > 0) return;
    switch (node.name) {
      case ":title":
        state.site.title = node.text.trim() || null;
        break;
      case ":link":
        state.site.link = node.text.trim() || null;
        break;
      case "wp:base_blog_url":
        state.site.blogUrl = node.text.trim() || null;
        break;
      case "wp:base_site_url":
        state.site.siteUrl = node.text.trim() || null;
        break;
      case "wp:author":
        emitSite();
        readAuthor(node, state, out);
        break;
      case "wp:category":
      case "wp:tag":
      case "wp:term":
        emitSite();
        readTerm(node, state, out);
        break;
      case ":item":
        emitSite();
        readItem(node, state, out);
        break;
      default:
        break; // <description>, <image>, <generator>…: nothing to import.
    }
  });

  const stream = fs.createReadStream(file, { encoding: "utf8", highWaterMark: 64 * 1024 });
  let first = true;
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      if (first) {
        first = false;
        const refusal = notXml(chunk);
        if (refusal !== null) throw new ImportFileError(refusal);
      }
      try {
        parser.write(chunk);
      } catch (error) {
        if (!(error instanceof ImportFileError)) throw error;
        failure = error;
      }
      if (out.length > 0) {
        const ready = out;
        out = [];
        yield* ready;
      }
      if (failure !== null) throw failure;
    }
    if (first) throw new ImportFileError(notXml("") ?? `${NOT_WXR}the file is empty.`);
    try {
      parser.close();
    } catch (error) {
      if (!(error instanceof ImportFileError)) throw error;
      failure = error;
    }
    if (!rootSeen) failure ??= new ImportFileError(`${NOT_WXR}it has no root element.`);
    else if (!channelSeen) failure ??= new ImportFileError(`${NOT_WXR}its <rss> has no <channel>.`);
    yield* out;
    out = [];
    if (failure !== null) throw failure;
  } finally {
    stream.destroy();
  }
}
