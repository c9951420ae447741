CREATE TABLE "article_sitemap_months" (
	"month" text PRIMARY KEY NOT NULL,
	"articles" integer NOT NULL,
	"lastmod" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- Hand-written: the sitemap index's months, kept by the articles table's own triggers (issue 13).
-- Counts the public articles of some months again (from the (status, published_at) index) and keeps
-- their row, or drops it when none is left. One month at a time under a lock of its own, each count
-- taken after the lock: two saves in one month at once cannot both write a count missing the other.
CREATE OR REPLACE FUNCTION frontpage_count_sitemap_months(months text[]) RETURNS void AS $$
DECLARE
  m text;
  starts timestamptz;
  ends timestamptz;
  n integer;
  newest timestamptz;
BEGIN
  FOR m IN SELECT DISTINCT x FROM unnest(months) x WHERE x IS NOT NULL ORDER BY x LOOP
    PERFORM pg_advisory_xact_lock(hashtext('frontpage_sitemap_month'), hashtext(m));
    starts := (m || '-01')::timestamp AT TIME ZONE 'UTC';
    ends := ((m || '-01')::timestamp + interval '1 month') AT TIME ZONE 'UTC';
    SELECT count(*), max(updated_at) INTO n, newest FROM articles
      WHERE status = 'published' AND published_at >= starts AND published_at < ends;
    IF n = 0 THEN
      DELETE FROM article_sitemap_months WHERE month = m;
    ELSE
      INSERT INTO article_sitemap_months (month, articles, lastmod) VALUES (m, n, newest)
        ON CONFLICT (month) DO UPDATE SET articles = excluded.articles, lastmod = excluded.lastmod;
    END IF;
  END LOOP;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- The months a statement touched: those of the public rows before and after it whose status, date or
-- last change moved (the view recorder's counts move none of them: nothing to do).
CREATE OR REPLACE FUNCTION frontpage_article_sitemap_months() RETURNS trigger AS $$
DECLARE
  months text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(to_char(published_at AT TIME ZONE 'UTC', 'YYYY-MM')) INTO months FROM new_rows WHERE status = 'published';
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(to_char(published_at AT TIME ZONE 'UTC', 'YYYY-MM')) INTO months FROM old_rows WHERE status = 'published';
  ELSE
    SELECT array_agg(to_char(o.published_at AT TIME ZONE 'UTC', 'YYYY-MM')) FILTER (WHERE o.status = 'published')
        || array_agg(to_char(n.published_at AT TIME ZONE 'UTC', 'YYYY-MM')) FILTER (WHERE n.status = 'published')
      INTO months
      FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE o.status IS DISTINCT FROM n.status OR o.published_at IS DISTINCT FROM n.published_at OR o.updated_at IS DISTINCT FROM n.updated_at;
  END IF;
  IF months IS NOT NULL THEN
    PERFORM frontpage_count_sitemap_months(months);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER articles_sitemap_months_insert AFTER INSERT ON articles REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_article_sitemap_months();
--> statement-breakpoint
CREATE TRIGGER articles_sitemap_months_update AFTER UPDATE ON articles REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_article_sitemap_months();
--> statement-breakpoint
CREATE TRIGGER articles_sitemap_months_delete AFTER DELETE ON articles REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_article_sitemap_months();
--> statement-breakpoint
-- The months of the articles already there.
SELECT frontpage_count_sitemap_months(array(
  SELECT DISTINCT to_char(published_at AT TIME ZONE 'UTC', 'YYYY-MM') FROM articles WHERE status = 'published'
));
