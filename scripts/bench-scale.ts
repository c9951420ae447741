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
  seconds: number;
  /** Search queries of several kinds, each with how many public articles match it. */
  searches: { label: string; q: string; matches: number }[];
}

/** Inserts `count` published articles spread over ten years, across the demo's categories. */
export async function buildScaleData(db: pg.Client, count: number): Promise<ScaleData> {
  const started = performance.now();
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
  // A ten-year archive has long been vacuumed: visibility map set, hint bits written, statistics
  // current. Without this the first searches measure the bulk insert's aftermath (and autovacuum).
  await db.query(`vacuum (analyze) articles`);
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
  return { articles: count, seconds: (performance.now() - started) / 1000, searches };
}
