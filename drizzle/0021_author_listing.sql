CREATE TABLE "author_listing" (
	"author_id" uuid NOT NULL,
	"article_id" uuid NOT NULL,
	"published_at" timestamp with time zone NOT NULL,
	CONSTRAINT "author_listing_article_id_author_id_pk" PRIMARY KEY("article_id","author_id")
);
--> statement-breakpoint
ALTER TABLE "author_listing" ADD CONSTRAINT "author_listing_author_id_authors_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."authors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "author_listing" ADD CONSTRAINT "author_listing_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "author_listing_author_published_at_idx" ON "author_listing" USING btree ("author_id","published_at" DESC NULLS LAST,"article_id" DESC NULLS LAST);--> statement-breakpoint
-- Hand-written: the authors' listings, kept by triggers (issue 13, decision 0031). Sets the rows of
-- some stories (or, given null, of every story) to their bylines as they stand: a published story's
-- bylines in, at its publication time; any other story's out.
CREATE OR REPLACE FUNCTION frontpage_list_bylines(article_ids uuid[]) RETURNS void AS $$
BEGIN
  IF article_ids IS NULL THEN
    DELETE FROM author_listing;
    INSERT INTO author_listing (author_id, article_id, published_at)
      SELECT aa.author_id, a.id, a.published_at
      FROM articles a JOIN article_authors aa ON aa.article_id = a.id
      WHERE a.status = 'published' AND a.published_at IS NOT NULL;
    RETURN;
  END IF;
  DELETE FROM author_listing l USING unnest(article_ids) AS x(id)
    WHERE l.article_id = x.id
      AND NOT EXISTS (SELECT 1 FROM article_authors aa JOIN articles a ON a.id = aa.article_id
                      WHERE aa.article_id = l.article_id AND aa.author_id = l.author_id
                        AND a.status = 'published' AND a.published_at IS NOT NULL);
  INSERT INTO author_listing (author_id, article_id, published_at)
    SELECT aa.author_id, a.id, a.published_at
    FROM unnest(article_ids) AS x(id) JOIN articles a ON a.id = x.id JOIN article_authors aa ON aa.article_id = a.id
    WHERE a.status = 'published' AND a.published_at IS NOT NULL
    ON CONFLICT (article_id, author_id) DO UPDATE SET published_at = excluded.published_at
      WHERE author_listing.published_at IS DISTINCT FROM excluded.published_at;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Articles: a story whose status or publication time changed is listed again (a view count, an edit
-- of its text: nothing to do).
CREATE OR REPLACE FUNCTION frontpage_article_author_listing() RETURNS trigger AS $$
DECLARE
  changed uuid[];
BEGIN
  SELECT array_agg(n.id) INTO changed
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE o.status IS DISTINCT FROM n.status OR o.published_at IS DISTINCT FROM n.published_at;
  IF changed IS NOT NULL THEN
    PERFORM frontpage_list_bylines(changed);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER articles_author_listing_update AFTER UPDATE ON articles REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_article_author_listing();
--> statement-breakpoint
-- Bylines: the stories whose bylines changed are listed again (a new story's byline, an author added
-- or removed; a deleted story's rows go with it).
CREATE OR REPLACE FUNCTION frontpage_byline_author_listing() RETURNS trigger AS $$
DECLARE
  changed uuid[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT article_id) INTO changed FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT article_id) INTO changed FROM old_rows;
  ELSE
    SELECT array_agg(DISTINCT article_id) INTO changed FROM (SELECT article_id FROM old_rows UNION SELECT article_id FROM new_rows) both_sides;
  END IF;
  IF changed IS NOT NULL THEN
    PERFORM frontpage_list_bylines(changed);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER article_authors_listing_insert AFTER INSERT ON article_authors REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_byline_author_listing();
--> statement-breakpoint
CREATE TRIGGER article_authors_listing_update AFTER UPDATE ON article_authors REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_byline_author_listing();
--> statement-breakpoint
CREATE TRIGGER article_authors_listing_delete AFTER DELETE ON article_authors REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_byline_author_listing();
--> statement-breakpoint
-- The stories already there.
SELECT frontpage_list_bylines(NULL);
