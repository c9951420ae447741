-- Revocable shared preview links (issue 28): each story's preview key is signed into its preview
-- links (app/domain/articles/preview-links.server.ts), and "Revoke preview links" gives it a new random
-- value, so every link made before stops opening. Empty until a story's first revocation: a link made
-- before this column existed was signed without a key, and keeps working until it expires.
ALTER TABLE "articles" ADD COLUMN "preview_key" text DEFAULT '' NOT NULL;
--> statement-breakpoint

-- A new preview key is nothing readers see: like the view counts, it sends no change notice (migration
-- 0016's function, with preview_key among the columns a notice ignores), so revoking a published
-- story's links drops none of its cached pages.
CREATE OR REPLACE FUNCTION frontpage_notify_article_change() RETURNS trigger AS $$
DECLARE
  changed integer;
  ids uuid[];
  slugs text[];
  category_ids uuid[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT count(*), array_agg(id), array_agg(slug), array_agg(category_id) INTO changed, ids, slugs, category_ids
      FROM new_rows WHERE status = 'published';
  ELSIF TG_OP = 'DELETE' THEN
    SELECT count(*), array_agg(id), array_agg(slug), array_agg(category_id) INTO changed, ids, slugs, category_ids
      FROM old_rows WHERE status = 'published';
  ELSE
    SELECT count(*),
        array_agg(o.id) FILTER (WHERE o.status = 'published' OR n.status = 'published'),
        array_agg(o.slug) FILTER (WHERE o.status = 'published' OR n.status = 'published')
          || array_agg(n.slug) FILTER (WHERE o.status = 'published' OR n.status = 'published'),
        array_agg(o.category_id) FILTER (WHERE o.status = 'published' OR n.status = 'published')
          || array_agg(n.category_id) FILTER (WHERE o.status = 'published' OR n.status = 'published')
      INTO changed, ids, slugs, category_ids
      FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE CASE WHEN o.views IS DISTINCT FROM n.views THEN false
        ELSE (to_jsonb(o) - ARRAY['views', 'search_vector', 'updated_at', 'preview_key']) IS DISTINCT FROM (to_jsonb(n) - ARRAY['views', 'search_vector', 'updated_at', 'preview_key']) END;
    IF changed = 0 THEN
      RETURN NULL;
    END IF;
  END IF;
  PERFORM frontpage_notify_stories(TG_TABLE_NAME, TG_OP, coalesce(ids, '{}'), coalesce(slugs, '{}'), coalesce(category_ids, '{}'), '{}');
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
