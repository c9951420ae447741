/**
 * A deterministic synthetic WordPress export (WXR 1.2) for the import benchmark and tests (issue 29):
 *
 *   tsx scripts/make-wxr.ts --posts 10000 --comments 100000 --out /tmp/big.xml
 *
 * About 150 MB at those counts: 20 authors, nested categories, 300 tags, one featured-image attachment
 * per post, ~10 KB HTML bodies (paragraphs, links, [caption] images on http://old.example.test), a page
 * per 200 posts, comments with replies up to three levels deep, a few drafts, pending, scheduled and
 * private posts, and sticky ones. The same arguments always give the same bytes. The file is written as
 * it is made (the stream's backpressure is respected), so its size costs no memory.
 */
import fs from "node:fs";
import { once } from "node:events";
import { pathToFileURL } from "node:url";

export interface SyntheticWxrOptions {
  posts: number;
  comments: number;
  out: string;
}

export interface SyntheticWxrSummary {
  posts: number;
  pages: number;
  attachments: number;
  comments: number;
  authors: number;
  categories: number;
  tags: number;
  bytes: number;
}

const SITE = "http://old.example.test";
const COMMENTERS = ["Reader", "Local resident", "J. Doe", "Anwohnerin", "Zoë"];
const AUTHORS = 20;
const TAGS = 300;
const WORDS = (
  "council budget school river bridge mayor vote harbour market festival housing transit library police " +
  "weather storm season election candidate district report survey health clinic park street traffic " +
  "museum theatre football club league coach player match result record community volunteer charity " +
  "business shop owner tax rent plan proposal meeting residents neighbours court judge trial witness " +
  "statement spokesperson minister region county town village farm harvest water energy climate data"
).split(" ");

/** mulberry32: a small seeded generator, so every run writes the same file. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

/** A WordPress "Y-m-d H:i:s" date. */
function wpDate(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Writes the synthetic export to `out` and says what it holds. */
export async function writeSyntheticWxr({ posts, comments, out }: SyntheticWxrOptions): Promise<SyntheticWxrSummary> {
  const rand = random(29);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)];
  const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(" ");
  const sentence = () => {
    const s = words(8 + Math.floor(rand() * 12));
    return `${s[0].toUpperCase()}${s.slice(1)}.`;
  };

  const stream = fs.createWriteStream(out, { encoding: "utf8" });
  let bytes = 0;
  let buffer = "";
  const write = async (text: string) => {
    buffer += text;
    if (buffer.length < 64 * 1024) return;
    bytes += Buffer.byteLength(buffer);
    const flushed = stream.write(buffer);
    buffer = "";
    if (!flushed) await once(stream, "drain");
  };

  const authors = Array.from({ length: AUTHORS }, (_, i) => ({ login: `reporter${i + 1}`, name: `${pick(["Ana", "Ben", "Chloé", "Dev", "Eli", "Fay"])} ${pick(["Smith", "Okafor", "Novak", "García", "Lee"])} ${i + 1}` }));
  // Ten top-level sections, two children each, a grandchild under the first child of each.
  const categories: { slug: string; name: string; parent: string | null }[] = [];
  for (let i = 1; i <= 10; i++) {
    const top = `section-${i}`;
    categories.push({ slug: top, name: `Section ${i}`, parent: null });
    for (let j = 1; j <= 2; j++) categories.push({ slug: `${top}-sub-${j}`, name: `Section ${i} / ${j}`, parent: top });
    categories.push({ slug: `${top}-sub-1-deep`, name: `Section ${i} / 1 / deep`, parent: `${top}-sub-1` });
  }
  const tags = Array.from({ length: TAGS }, (_, i) => ({ slug: `tag-${i + 1}-${WORDS[i % WORDS.length]}`, name: `${WORDS[i % WORDS.length]} ${i + 1}` }));

  await write(`<?xml version="1.0" encoding="UTF-8" ?>
<!-- generator="Frontpage scripts/make-wxr.ts" (synthetic) -->
<rss version="2.0"
\txmlns:excerpt="http://wordpress.org/export/1.2/excerpt/"
\txmlns:content="http://purl.org/rss/1.0/modules/content/"
\txmlns:wfw="http://wellformedweb.org/CommentAPI/"
\txmlns:dc="http://purl.org/dc/elements/1.1/"
\txmlns:wp="http://wordpress.org/export/1.2/"
>
<channel>
\t<title>The Old Example Gazette</title>
\t<link>${SITE}</link>
\t<description>Synthetic local news</description>
\t<pubDate>Mon, 01 Jan 2024 00:00:00 +0000</pubDate>
\t<language>en-GB</language>
\t<wp:wxr_version>1.2</wp:wxr_version>
\t<wp:base_site_url>${SITE}</wp:base_site_url>
\t<wp:base_blog_url>${SITE}</wp:base_blog_url>
`);
  for (const [i, a] of authors.entries()) {
    await write(`\t<wp:author><wp:author_id>${i + 1}</wp:author_id><wp:author_login><![CDATA[${a.login}]]></wp:author_login><wp:author_email><![CDATA[${a.login}@old.example.test]]></wp:author_email><wp:author_display_name><![CDATA[${a.name}]]></wp:author_display_name><wp:author_first_name><![CDATA[]]></wp:author_first_name><wp:author_last_name><![CDATA[]]></wp:author_last_name></wp:author>\n`);
  }
  for (const [i, c] of categories.entries()) {
    await write(`\t<wp:category><wp:term_id>${i + 1}</wp:term_id><wp:category_nicename><![CDATA[${c.slug}]]></wp:category_nicename><wp:category_parent><![CDATA[${c.parent ?? ""}]]></wp:category_parent><wp:cat_name><![CDATA[${c.name}]]></wp:cat_name></wp:category>\n`);
  }
  for (const [i, t] of tags.entries()) {
    await write(`\t<wp:tag><wp:term_id>${1000 + i}</wp:term_id><wp:tag_slug><![CDATA[${t.slug}]]></wp:tag_slug><wp:tag_name><![CDATA[${t.name}]]></wp:tag_name></wp:tag>\n`);
  }

  const pages = posts > 0 ? Math.max(1, Math.floor(posts / 200)) : 0;
  const start = Date.UTC(2014, 0, 1);
  const span = Date.UTC(2024, 0, 1) - start;
  let nextId = 1;
  let commentId = 1;
  let attachments = 0;
  let written = 0;

  const body = (n: number) => {
    const parts: string[] = [];
    let size = 0;
    while (size < 6800) {
      const k = parts.length;
      if (k % 5 === 2) {
        const file = `${SITE}/wp-content/uploads/20${14 + (n % 10)}/${pad((n % 12) + 1)}/photo-${n}-${k}.jpg`;
        parts.push(`[caption id="attachment_${n}_${k}" align="aligncenter" width="800"]<img class="size-large wp-image-${n}" src="${file}" alt="${words(4)}" width="800" height="533" /> ${sentence()}[/caption]\n\n`);
      } else if (k % 7 === 4) {
        parts.push(`<h2>${escapeXml(words(5))}</h2>\n\n`);
      } else {
        const link = `<a href="${SITE}/${2014 + (k % 10)}/${pad((k % 12) + 1)}/${words(3).replace(/ /g, "-")}/">${words(3)}</a>`;
        parts.push(`<p>${sentence()} ${sentence()} ${link} ${sentence()} ${sentence()} <strong>${words(3)}</strong> ${sentence()} <em>${words(2)}</em> ${sentence()}</p>\n\n`);
      }
      size += parts[parts.length - 1].length;
    }
    return parts.join("");
  };

  const itemHead = (id: number, title: string, slug: string, link: string, date: number, creator: string) => `\t<item>
\t\t<title><![CDATA[${title}]]></title>
\t\t<link>${link}</link>
\t\t<pubDate>${new Date(date).toUTCString().replace("GMT", "+0000")}</pubDate>
\t\t<dc:creator><![CDATA[${creator}]]></dc:creator>
\t\t<guid isPermaLink="false">${SITE}/?p=${id}</guid>
\t\t<description></description>
`;

  const total = posts + pages;
  const stride = pages > 0 ? Math.floor(total / pages) : total + 1;
  let pagesWritten = 0;
  let postIndex = 0;
  for (let n = 0; n < total; n++) {
    const isPage = pagesWritten < pages && n % stride === 0;
    if (isPage) pagesWritten++;
    const date = start + Math.floor((span * n) / Math.max(1, total)) + Math.floor(rand() * 3600_000);
    const author = authors[n % AUTHORS];
    const title = `${sentence().slice(0, -1)} (${n + 1})`;
    const slug = `${title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "")}`;
    const d = new Date(date);
    const postId = nextId + 1;
    let thumbnail = 0;

    if (!isPage) {
      // The featured image: an attachment item before its post.
      thumbnail = nextId;
      attachments++;
      const file = `${SITE}/wp-content/uploads/${d.getUTCFullYear()}/${pad(d.getUTCMonth() + 1)}/featured-${n + 1}.jpg`;
      await write(`${itemHead(thumbnail, `featured-${n + 1}`, `featured-${n + 1}`, `${SITE}/?attachment_id=${thumbnail}`, date, author.login)}\t\t<content:encoded><![CDATA[]]></content:encoded>
\t\t<excerpt:encoded><![CDATA[${sentence()}]]></excerpt:encoded>
\t\t<wp:post_id>${thumbnail}</wp:post_id>
\t\t<wp:post_date><![CDATA[${wpDate(date)}]]></wp:post_date>
\t\t<wp:post_date_gmt><![CDATA[${wpDate(date)}]]></wp:post_date_gmt>
\t\t<wp:post_name><![CDATA[featured-${n + 1}]]></wp:post_name>
\t\t<wp:status><![CDATA[inherit]]></wp:status>
\t\t<wp:post_parent>${postId}</wp:post_parent>
\t\t<wp:post_type><![CDATA[attachment]]></wp:post_type>
\t\t<wp:post_password><![CDATA[]]></wp:post_password>
\t\t<wp:is_sticky>0</wp:is_sticky>
\t\t<wp:attachment_url><![CDATA[${file}]]></wp:attachment_url>
\t\t<wp:postmeta><wp:meta_key><![CDATA[_wp_attachment_image_alt]]></wp:meta_key><wp:meta_value><![CDATA[${words(5)}]]></wp:meta_value></wp:postmeta>
\t</item>
`);
    }
    nextId = postId + 1;

    const status = isPage ? "publish" : n % 97 === 5 ? "draft" : n % 101 === 7 ? "pending" : n % 103 === 9 ? "private" : n % 89 === 3 ? "future" : "publish";
    const postDate = status === "future" ? Date.UTC(2031, 0, 1) + n * 60_000 : date;
    const gmt = status === "draft" || status === "pending" ? "0000-00-00 00:00:00" : wpDate(postDate);
    const link = isPage ? `${SITE}/${slug}/` : status === "publish" || status === "private" ? `${SITE}/${d.getUTCFullYear()}/${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}/${slug}/` : `${SITE}/?p=${postId}`;
    let terms = "";
    if (!isPage) {
      const top = 1 + (n % 10);
      const category = categories[(top - 1) * 4 + Math.floor(rand() * 4)];
      terms += `\t\t<category domain="category" nicename="${category.slug}"><![CDATA[${category.name}]]></category>\n`;
      const tagCount = 1 + Math.floor(rand() * 5);
      const chosen = new Set<number>();
      for (let t = 0; t < tagCount; t++) chosen.add(Math.floor(rand() * TAGS));
      for (const t of chosen) terms += `\t\t<category domain="post_tag" nicename="${tags[t].slug}"><![CDATA[${tags[t].name}]]></category>\n`;
      if (n % 50 === 10) {
        const second = authors[(n + 7) % AUTHORS];
        terms += `\t\t<category domain="author" nicename="cap-${author.login}"><![CDATA[${author.name}]]></category>\n`;
        terms += `\t\t<category domain="author" nicename="cap-${second.login}"><![CDATA[${second.name}]]></category>\n`;
      }
    }
    await write(`${itemHead(postId, title, status === "draft" || status === "pending" ? "" : slug, link, postDate, author.login)}\t\t<content:encoded><![CDATA[${body(n)}]]></content:encoded>
\t\t<excerpt:encoded><![CDATA[${n % 3 === 0 ? sentence() : ""}]]></excerpt:encoded>
\t\t<wp:post_id>${postId}</wp:post_id>
\t\t<wp:post_date><![CDATA[${wpDate(postDate)}]]></wp:post_date>
\t\t<wp:post_date_gmt><![CDATA[${gmt}]]></wp:post_date_gmt>
\t\t<wp:comment_status><![CDATA[open]]></wp:comment_status>
\t\t<wp:ping_status><![CDATA[open]]></wp:ping_status>
\t\t<wp:post_name><![CDATA[${status === "draft" || status === "pending" ? "" : slug}]]></wp:post_name>
\t\t<wp:status><![CDATA[${status}]]></wp:status>
\t\t<wp:post_parent>0</wp:post_parent>
\t\t<wp:menu_order>0</wp:menu_order>
\t\t<wp:post_type><![CDATA[${isPage ? "page" : "post"}]]></wp:post_type>
\t\t<wp:post_password><![CDATA[]]></wp:post_password>
\t\t<wp:is_sticky>${!isPage && n % 500 === 1 ? 1 : 0}</wp:is_sticky>
${terms}`);
    if (thumbnail > 0) {
      await write(`\t\t<wp:postmeta><wp:meta_key><![CDATA[_thumbnail_id]]></wp:meta_key><wp:meta_value><![CDATA[${thumbnail}]]></wp:meta_value></wp:postmeta>\n`);
    }
    if (!isPage && n % 4 === 0) {
      await write(`\t\t<wp:postmeta><wp:meta_key><![CDATA[_yoast_wpseo_metadesc]]></wp:meta_key><wp:meta_value><![CDATA[${sentence()}]]></wp:meta_value></wp:postmeta>\n`);
    }

    // This post's share of the comments, as evenly spread as whole numbers allow; pages get none.
    const share = isPage || posts === 0 ? 0 : Math.floor(((postIndex + 1) * comments) / posts) - Math.floor((postIndex * comments) / posts);
    if (!isPage) postIndex++;
    const thread: { id: number; depth: number }[] = [];
    for (let c = 0; c < share; c++) {
      const id = commentId++;
      let parent = 0;
      let depth = 1;
      if (thread.length > 0 && rand() < 0.45) {
        const target = thread[Math.floor(rand() * thread.length)];
        if (target.depth < 3) {
          parent = target.id;
          depth = target.depth + 1;
        }
      }
      thread.push({ id, depth });
      const when = postDate + (c + 1) * 600_000;
      const approved = id % 40 === 13 ? "0" : id % 61 === 17 ? "spam" : id % 83 === 29 ? "trash" : "1";
      const type = id % 120 === 77 ? "pingback" : "comment";
      const url = id % 5 === 0 ? `https://reader${id % 997}.example.test/` : "";
      const text = id % 3 === 0 ? `${sentence()} ${sentence()}` : sentence();
      await write(
        `\t\t<wp:comment><wp:comment_id>${id}</wp:comment_id><wp:comment_author><![CDATA[${pick(COMMENTERS)} ${id % 997}]]></wp:comment_author>` +
          `<wp:comment_author_email>reader${id % 997}@mail.example.test</wp:comment_author_email><wp:comment_author_url>${url}</wp:comment_author_url>` +
          `<wp:comment_date>${wpDate(when)}</wp:comment_date><wp:comment_date_gmt>${wpDate(when)}</wp:comment_date_gmt>` +
          `<wp:comment_content><![CDATA[${text}]]></wp:comment_content><wp:comment_approved>${approved}</wp:comment_approved>` +
          `<wp:comment_type>${type}</wp:comment_type><wp:comment_parent>${parent}</wp:comment_parent><wp:comment_user_id>0</wp:comment_user_id></wp:comment>\n`,
      );
      written++;
    }
    await write(`\t</item>\n`);
  }
  await write(`</channel>\n</rss>\n`);
  bytes += Buffer.byteLength(buffer);
  stream.end(buffer);
  await once(stream, "finish");
  return { posts, pages, attachments, comments: written, authors: AUTHORS, categories: categories.length, tags: TAGS, bytes };
}

function argument(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const posts = Number(argument("posts", "10000"));
  const comments = Number(argument("comments", "100000"));
  const out = argument("out", "/tmp/frontpage-synthetic.xml");
  if (!Number.isInteger(posts) || posts < 0 || !Number.isInteger(comments) || comments < 0) {
    console.error("Usage: tsx scripts/make-wxr.ts --posts N --comments N --out FILE");
    process.exit(2);
  }
  const started = Date.now();
  const summary = await writeSyntheticWxr({ posts, comments, out });
  console.log(`${out}: ${(summary.bytes / 1e6).toFixed(1)} MB in ${((Date.now() - started) / 1000).toFixed(1)} s`, summary);
}
