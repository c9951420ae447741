CREATE TABLE "author_sitemap" (
	"author_id" uuid PRIMARY KEY NOT NULL,
	"articles" integer NOT NULL,
	"lastmod" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "author_sitemap" ADD CONSTRAINT "author_sitemap_author_id_authors_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."authors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Hand-written: the authors' sitemap rows, kept by triggers (issue 13). Counts some authors' public
-- articles again and keeps their row (or drops it: none left, or the author is gone), one author at a
-- time under a lock of its own taken before the count (as the months of migration 0017).
CREATE OR REPLACE FUNCTION frontpage_count_author_sitemap(author_ids uuid[]) RETURNS void AS $$
DECLARE
  a uuid;
  n integer;
  newest timestamptz;
BEGIN
  FOR a IN SELECT DISTINCT x FROM unnest(author_ids) x WHERE x IS NOT NULL ORDER BY x LOOP
    PERFORM pg_advisory_xact_lock(hashtext('frontpage_author_sitemap'), hashtext(a::text));
    SELECT count(*), max(ar.updated_at) INTO n, newest
      FROM article_authors aa JOIN articles ar ON ar.id = aa.article_id
      WHERE aa.author_id = a AND ar.status = 'published';
    IF n = 0 OR NOT EXISTS (SELECT 1 FROM authors WHERE id = a) THEN
      DELETE FROM author_sitemap WHERE author_id = a;
    ELSE
      INSERT INTO author_sitemap (author_id, articles, lastmod) VALUES (a, n, newest)
        ON CONFLICT (author_id) DO UPDATE SET articles = excluded.articles, lastmod = excluded.lastmod;
    END IF;
  END LOOP;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Articles: a story that became public or stopped being public counts its authors again; a public
-- story changed again only moves their newest change forward. (A new story has no byline yet, and a
-- deleted one's byline rows go with it: article_authors' own trigger counts those authors.)
CREATE OR REPLACE FUNCTION frontpage_article_author_sitemap() RETURNS trigger AS $$
DECLARE
  recount uuid[];
BEGIN
  SELECT array_agg(aa.author_id) INTO recount
    FROM old_rows o JOIN new_rows n ON n.id = o.id JOIN article_authors aa ON aa.article_id = n.id
    WHERE (o.status = 'published') IS DISTINCT FROM (n.status = 'published');
  IF recount IS NOT NULL THEN
    PERFORM frontpage_count_author_sitemap(recount);
  END IF;
  -- The same per-author locks as a count, so a count running at once never writes over the move.
  PERFORM pg_advisory_xact_lock(hashtext('frontpage_author_sitemap'), hashtext(author_id::text))
    FROM (SELECT DISTINCT aa.author_id
          FROM old_rows o JOIN new_rows n ON n.id = o.id JOIN article_authors aa ON aa.article_id = n.id
          WHERE o.status = 'published' AND n.status = 'published' AND n.updated_at > o.updated_at
          ORDER BY aa.author_id) moving;
  UPDATE author_sitemap s SET lastmod = moved.lastmod
    FROM (SELECT aa.author_id, max(n.updated_at) AS lastmod
          FROM old_rows o JOIN new_rows n ON n.id = o.id JOIN article_authors aa ON aa.article_id = n.id
          WHERE o.status = 'published' AND n.status = 'published' AND n.updated_at > o.updated_at
          GROUP BY aa.author_id) moved
    WHERE s.author_id = moved.author_id AND s.lastmod < moved.lastmod;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER articles_author_sitemap_update AFTER UPDATE ON articles REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_article_author_sitemap();
--> statement-breakpoint
-- Bylines: the authors added to or removed from a byline count again.
CREATE OR REPLACE FUNCTION frontpage_byline_author_sitemap() RETURNS trigger AS $$
DECLARE
  changed uuid[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(author_id) INTO changed FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(author_id) INTO changed FROM old_rows;
  ELSE
    SELECT array_agg(author_id) || (SELECT array_agg(author_id) FROM new_rows) INTO changed FROM old_rows;
  END IF;
  IF changed IS NOT NULL THEN
    PERFORM frontpage_count_author_sitemap(changed);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER article_authors_sitemap_insert AFTER INSERT ON article_authors REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_byline_author_sitemap();
--> statement-breakpoint
CREATE TRIGGER article_authors_sitemap_update AFTER UPDATE ON article_authors REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_byline_author_sitemap();
--> statement-breakpoint
CREATE TRIGGER article_authors_sitemap_delete AFTER DELETE ON article_authors REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_byline_author_sitemap();
--> statement-breakpoint
-- The authors already there.
SELECT frontpage_count_author_sitemap(array(SELECT id FROM authors));
