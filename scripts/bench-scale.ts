/**
 * The bench's `--scale` data set: a 10-year archive built by SQL in the bench server's own database
 * (never the developer's), in well under a minute. Words come from the demo articles, picked with a
 * skew (a few words common, most rare) as in real text, so full-text search meets a realistic mix.
 */
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { clusterDirOf } from "../server/postgres-placement";

/** The bench server's embedded PostgreSQL, from its DATA_DIR (secrets.json, postmaster.pid). */
export async function connectToDataDir(dataDir: string): Promise<pg.Client> {
  const { postgresPassword } = JSON.parse(fs.readFileSync(path.join(dataDir, "secrets.json"), "utf8")) as { postgresPassword: string };
  const port = Number(fs.readFileSync(path.join(clusterDirOf(dataDir), "postmaster.pid"), "utf8").split("\n")[3]);
  const client = new pg.Client({ connectionString: `postgres://frontpage:${encodeURIComponent(postgresPassword)}@127.0.0.1:${port}/frontpage` });
  await client.connect();
  return client;
}

export interface ScaleData {
  articles: number;
  comments: number;
  seconds: number;
  /** Search queries of several kinds, each with how many public articles match it. */
  searches: { label: string; q: string; matches: number }[];
  /** One address of every public page kind, to time at this scale. */
  pages: { label: string; path: string }[];
  /**
   * Each paginated kind's first page beside its deep ones (issue 39: crawlers walk them all), for the
   * bench's "deep pages beside their first" rows.
   */
  deep: { label: string; first: string; deep: { label: string; path: string }[] }[];
}

/** The article that gets the most comments (5,000): one from the middle of the archive. */
const BUSY_ARTICLE_COMMENTS = 5000;

/**
 * Inserts `count` published articles spread over ten years, across the demo's categories and authors,
 * and `commentCount` comments (5,000 of them on one article, the rest spread over the archive).
 */
export async function buildScaleData(db: pg.Client, count: number, commentCount: number): Promise<ScaleData> {
  const started = performance.now();
  // A bulk load: no per-statement triggers (change notices over a million rows) or foreign-key checks
  // while it runs (the rows are consistent by construction); one change notice at the end instead.
  await db.query(`set session_replication_role = replica`);
  await db.query(`create temporary table vocabulary as
    select word, row_number() over (order by random()) as n
    from (select distinct lower(w) as word from articles, regexp_split_to_table(title || ' ' || content, '[^[:alpha:]]+') as w
          -- Words search can find: stop words ("the", "only") make no tsvector lexeme.
          where length(w) > 2 and length(to_tsvector('english', w)) > 0) words`);
  const [{ size }] = (await db.query<{ size: number }>(`select count(*)::int as size from vocabulary`)).rows;
  if (size < 100) throw new Error(`the demo content gave only ${size} words`);
  await db.query(
    `insert into articles (title, slug, excerpt, content, category_id, status, published_at, created_at, updated_at, author_name, views)
     select initcap(t.title), 'scale-' || g, t.excerpt, t.content, c.ids[1 + g % array_length(c.ids, 1)], 'published',
            now() - (g * (3650.0 / $1)) * interval '1 day', now() - (g * (3650.0 / $1)) * interval '1 day', now(), 'Scale Desk', g % 5000
     from generate_series(1, $1) as g
     cross join (select array_agg(id order by slug) as ids from categories) c
     cross join (select array_agg(word order by n) as words from vocabulary) v
     cross join lateral (
       -- A word per position by the Zipf-Mandelbrot law (the k-th word about 1/(k + 10) as frequent:
       -- the first ones are in most articles, the tail in a few). 8 title words, 22 excerpt words, 90 more in the body.
       select string_agg(w, ' ') filter (where s <= 8) as title,
              string_agg(w, ' ') filter (where s > 8 and s <= 30) as excerpt,
              string_agg(w, ' ') as content
       from (select s, v.words[least(${size}, 1 + floor(10 * power(${(size + 10) / 10}, random()) - 10)::int)] as w from generate_series(1, 120 + 0 * g) as s) picked
     ) t`,
    [count],
  );
  // Bylines: the demo's authors share the archive, each article one of them.
  await db.query(
    `insert into article_authors (article_id, author_id, position)
     select a.id, au.ids[1 + (hashtext(a.slug) & 1023) % array_length(au.ids, 1)], 0
     from articles a cross join (select array_agg(id order by slug) as ids from authors) au
     where a.slug like 'scale-%' and array_length(au.ids, 1) > 0`,
  );
  const busySlug = `scale-${Math.ceil(count / 2)}`;
  // Comments: most articles a few, over the ten years; one article in the middle 5,000.
  await db.query(
    `insert into comments (article_id, author_name, author_email, content, created_at, status)
     select a.ids[1 + g % array_length(a.ids, 1)], 'Reader ' || (g % 997), 'reader' || (g % 997) || '@example.com',
            'A reader''s view on this story, number ' || g || '. It adds a point or two and asks a question.',
            now() - (g * (3650.0 / $1)) * interval '1 day', 'published'
     from generate_series(1, $1) as g
     cross join (select array_agg(id) as ids from articles where slug like 'scale-%') a`,
    [Math.max(0, commentCount - BUSY_ARTICLE_COMMENTS)],
  );
  await db.query(
    `insert into comments (article_id, author_name, author_email, content, created_at, status)
     select (select id from articles where slug = $2), 'Reader ' || (g % 997), 'reader' || (g % 997) || '@example.com',
            'A reader''s view on the story everyone talks about, number ' || g || '.', now() - g * interval '1 minute', 'published'
     from generate_series(1, $1) as g`,
    [Math.min(commentCount, BUSY_ARTICLE_COMMENTS), busySlug],
  );
  // A tag on every third article (the tag's listing: issue 39's deep tag pages).
  await db.query(`insert into tags (name, slug) values ('Scale Desk Picks', 'scale-desk-picks') on conflict do nothing`);
  await db.query(
    `insert into article_tags (article_id, tag_id, position)
     select a.id, (select id from tags where slug = 'scale-desk-picks'), 0 from articles a
     where a.slug like 'scale-%' and substring(a.slug from 7)::int % 3 = 0`,
  );
  await db.query(`set session_replication_role = origin`);
  // The triggers slept through the bulk insert: the sitemap index's months, the authors' rows and
  // their listings (migrations 0017, 0019, 0021) are counted as the migrations count an existing
  // archive, and every process is told that anything may have changed.
  await db.query(`select frontpage_count_sitemap_months(array(
    select distinct to_char(published_at at time zone 'UTC', 'YYYY-MM') from articles where status = 'published'))`);
  await db.query(`select frontpage_count_author_sitemap(array(select id from authors))`);
  await db.query(`select frontpage_list_bylines(null)`);
  await db.query(`select pg_notify('frontpage_changes', json_build_object('table', '*', 'op', 'BULK')::text)`);
  // A ten-year archive has long been vacuumed: visibility map set, hint bits written, statistics
  // current. Without this the first searches measure the bulk insert's aftermath (and autovacuum).
  await db.query(`vacuum (analyze) articles, comments, article_authors, author_listing, article_tags`);
  // Queries of every kind a reader types: words from the vocabulary's tail, middle and head (how many
  // articles each finds depends on stemming too: the row prints it), two words, phrases, an exclusion.
  const pick = async (rank: number) => (await db.query<{ word: string }>(`select word from vocabulary where n = $1`, [rank])).rows[0]!.word;
  const [common, middling, rare, other] = [await pick(3), await pick(Math.floor(size / 4)), await pick(size - 5), await pick(40)];
  const queries = [
    { label: "word (tail)", q: rare },
    { label: "word (middle)", q: middling },
    { label: "word (head)", q: common },
    { label: "two words", q: `${middling} ${other}` },
    { label: "phrase", q: `"${middling} ${other}"` },
    // The slow case: a phrase with a word in most articles (every article with both words is read to check the order).
    { label: "phrase, a word in most", q: `"${common} ${other}"` },
    { label: "exclusion", q: `${middling} -${common}` },
  ];
  const searches = [];
  for (const query of queries) {
    const { rows } = await db.query<{ n: number }>(
      `select count(*)::int as n from articles where search_vector @@ websearch_to_tsquery('english', $1) and status = 'published' and published_at <= now()`,
      [query.q],
    );
    searches.push({ ...query, matches: rows[0]!.n });
  }
  const seconds = (performance.now() - started) / 1000;
  // The category and author with the most articles, and their deepest page kinds.
  const { rows: categoryRows } = await db.query<{ slug: string }>(
    `select c.slug from categories c join articles a on a.category_id = c.id group by c.slug order by count(*) desc limit 1`,
  );
  const { rows: authorRows } = await db.query<{ slug: string; articles: number }>(
    `select au.slug, count(*)::int as articles from authors au join article_authors aa on aa.author_id = au.id group by au.slug order by count(*) desc limit 1`,
  );
  const category = categoryRows[0]!.slug;
  const author = authorRows[0]?.slug;
  // The author's last page (24 a page, as app/routes/site/author.tsx), at most 500 pages deep.
  const authorDeepPage = Math.min(500, Math.ceil((authorRows[0]?.articles ?? 1) / 24));
  const { rows: oldest } = await db.query<{ month: string }>(`select to_char(min(published_at) at time zone 'UTC', 'YYYY-MM') as month from articles where status = 'published'`);
  const pages = [
    { label: "home", path: "/" },
    { label: "category, page 1", path: `/category/${category}` },
    { label: "category, page 500", path: `/category/${category}?page=500` },
    { label: "article", path: `/article/scale-${Math.ceil(count / 3)}` },
    { label: `article, ${BUSY_ARTICLE_COMMENTS.toLocaleString("en-US")} comments`, path: `/article/${busySlug}` },
    ...(author ? [{ label: "author", path: `/author/${author}` }, { label: `author, page ${authorDeepPage}`, path: `/author/${author}?page=${authorDeepPage}` }] : []),
    ...searches.slice(0, 3).map((search) => ({ label: `search, ${search.label}`, path: `/search?q=${encodeURIComponent(search.q)}` })),
    { label: "feed", path: "/rss.xml" },
    { label: "category feed", path: `/category/${category}/rss.xml` },
    ...(author ? [{ label: "author feed", path: `/author/${author}/rss.xml` }] : []),
    { label: "sitemap index", path: "/sitemap.xml" },
    { label: "news sitemap", path: "/news-sitemap.xml" },
    { label: "sitemap: pages", path: "/sitemaps/pages.xml" },
    { label: "sitemap: categories", path: "/sitemaps/categories.xml" },
    { label: "sitemap: authors", path: "/sitemaps/authors.xml" },
    { label: "sitemap: oldest articles", path: `/sitemaps/articles-${oldest[0]!.month}.xml` },
  ];
  // Deep pages (24 stories a page on category, tag and author pages; 100 threads a page of comments).
  const lastPage = async (query: string, values: unknown[]) => Math.max(1, Math.ceil((await db.query<{ n: number }>(query, values)).rows[0]!.n / 24));
  const categoryLast = await lastPage(
    `select count(*)::int as n from articles a join categories c on c.id = a.category_id where c.slug = $1 and a.status = 'published' and a.published_at <= now()`,
    [category],
  );
  const tagLast = await lastPage(
    `select count(*)::int as n from article_tags t join tags g on g.id = t.tag_id join articles a on a.id = t.article_id where g.slug = 'scale-desk-picks' and a.status = 'published' and a.published_at <= now()`,
    [],
  );
  // "Show older comments" far down the busy story: the page after its 4,900th newest thread.
  const { rows: cursor } = await db.query<{ id: string }>(
    `select c.id from comments c join articles a on a.id = c.article_id where a.slug = $1 and c.status = 'published' and c.parent_comment_id is null
     order by c.created_at desc, c.id desc offset 4899 limit 1`,
    [busySlug],
  );
  const pageAt = (base: string, page: number) => ({ label: `page ${page}`, path: `${base}?page=${page}` });
  const deep = [
    { label: "category", first: `/category/${category}`, deep: [pageAt(`/category/${category}`, Math.min(500, categoryLast)), pageAt(`/category/${category}`, categoryLast)] },
    { label: "tag", first: "/tag/scale-desk-picks", deep: [pageAt("/tag/scale-desk-picks", Math.min(500, tagLast)), pageAt("/tag/scale-desk-picks", tagLast)] },
    ...(author ? [{ label: "author", first: `/author/${author}`, deep: [pageAt(`/author/${author}`, authorDeepPage)] }] : []),
    ...(cursor[0] ? [{ label: "story's comments", first: `/article/${busySlug}`, deep: [{ label: "older, from thread 4,900", path: `/article/${busySlug}?older-than=${cursor[0].id}` }] }] : []),
  ];
  return { articles: count, comments: commentCount, seconds, searches, pages, deep };
}
