-- Targeted page-cache invalidation for stories (decision 0028). A change to an article, its byline,
-- its corrections or its old addresses names the public stories it touched, so each app process drops
-- only the pages that show them and the lists they are on: not every page, as the triggers of
-- 0001/0003/0007/0009 made it. A change to drafts or scheduled stories alone names none (an autosave
-- touches no reader page); the notice still goes out for the admin dashboards.

-- The one notice of a statement: `ids` the public stories changed, `slugs` their addresses (before and
-- after), `category_ids` their categories (before and after), `author_ids` authors whose bylines
-- changed (each story's current authors are added here). More than 50 stories, or a notice over
-- PostgreSQL's 8,000 bytes, and it names none: every page is dropped.
CREATE OR REPLACE FUNCTION frontpage_notify_stories(tbl text, op text, ids uuid[], slugs text[], category_ids uuid[], author_ids uuid[]) RETURNS void AS $$
DECLARE
  story_ids uuid[] := ARRAY(SELECT DISTINCT x FROM unnest(ids) x WHERE x IS NOT NULL);
  payload text;
BEGIN
  IF cardinality(story_ids) > 50 THEN
    payload := json_build_object('table', tbl, 'op', op)::text;
  ELSE
    payload := json_build_object('table', tbl, 'op', op, 'public', json_build_object(
      'ids', to_json(story_ids),
      'slugs', (SELECT coalesce(json_agg(DISTINCT lower(s)), '[]') FROM unnest(slugs) s WHERE s IS NOT NULL AND cardinality(story_ids) > 0),
      'categories', (SELECT coalesce(json_agg(DISTINCT lower(c.slug)), '[]') FROM categories c WHERE c.id = ANY(category_ids) AND cardinality(story_ids) > 0),
      'authors', (SELECT coalesce(json_agg(DISTINCT lower(au.slug)), '[]') FROM authors au
        WHERE cardinality(story_ids) > 0
          AND (au.id = ANY(author_ids) OR au.id IN (SELECT aa.author_id FROM article_authors aa WHERE aa.article_id = ANY(story_ids))))
    ))::text;
    IF octet_length(payload) > 7900 THEN
      payload := json_build_object('table', tbl, 'op', op)::text;
    END IF;
  END IF;
  PERFORM pg_notify('frontpage_changes', payload);
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint

-- Articles: a story is public before or after the statement when its status is 'published' then. An
-- update that changed nothing readers see (the view recorder's counts, the search vector, updated_at
-- alone: app/lib/view-recorder.server.ts changes views and nothing else) sends nothing at all.
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
        ELSE (to_jsonb(o) - ARRAY['views', 'search_vector', 'updated_at']) IS DISTINCT FROM (to_jsonb(n) - ARRAY['views', 'search_vector', 'updated_at']) END;
    IF changed = 0 THEN
      RETURN NULL;
    END IF;
  END IF;
  PERFORM frontpage_notify_stories(TG_TABLE_NAME, TG_OP, coalesce(ids, '{}'), coalesce(slugs, '{}'), coalesce(category_ids, '{}'), '{}');
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint

-- A story's byline, corrections and old addresses: rows of a public story, or of one deleted with
-- them (its deletion's own notice could no longer read its authors), name it; rows of a draft or a
-- scheduled story name none.
CREATE OR REPLACE FUNCTION frontpage_notify_story_part_change() RETURNS trigger AS $$
DECLARE
  parts jsonb[];
  ids uuid[];
  slugs text[];
  category_ids uuid[];
  author_ids uuid[];
BEGIN
  -- The changed rows, as they were and as they are (the three tables' rows all name article_id;
  -- bylines also author_id, old addresses also old_slug).
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(to_jsonb(r)) INTO parts FROM new_rows r;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(to_jsonb(r)) INTO parts FROM old_rows r;
  ELSE
    SELECT array_agg(to_jsonb(r)) || (SELECT array_agg(to_jsonb(r)) FROM new_rows r) INTO parts FROM old_rows r;
  END IF;
  SELECT array_agg((p->>'article_id')::uuid), array_agg(p->>'old_slug') || array_agg(a.slug), array_agg(a.category_id), array_agg((p->>'author_id')::uuid)
    INTO ids, slugs, category_ids, author_ids
    FROM unnest(parts) p LEFT JOIN articles a ON a.id = (p->>'article_id')::uuid
    WHERE a.id IS NULL OR a.status = 'published';
  PERFORM frontpage_notify_stories(TG_TABLE_NAME, TG_OP, coalesce(ids, '{}'), coalesce(slugs, '{}'), coalesce(category_ids, '{}'), coalesce(author_ids, '{}'));
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint

DROP TRIGGER IF EXISTS articles_notify_change ON articles;
--> statement-breakpoint
CREATE TRIGGER articles_notify_insert AFTER INSERT ON articles REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_article_change();
--> statement-breakpoint
CREATE TRIGGER articles_notify_update AFTER UPDATE ON articles REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_article_change();
--> statement-breakpoint
CREATE TRIGGER articles_notify_delete AFTER DELETE ON articles REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_article_change();
--> statement-breakpoint

DROP TRIGGER IF EXISTS article_authors_notify_change ON article_authors;
--> statement-breakpoint
CREATE TRIGGER article_authors_notify_insert AFTER INSERT ON article_authors REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_story_part_change();
--> statement-breakpoint
CREATE TRIGGER article_authors_notify_update AFTER UPDATE ON article_authors REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_story_part_change();
--> statement-breakpoint
CREATE TRIGGER article_authors_notify_delete AFTER DELETE ON article_authors REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_story_part_change();
--> statement-breakpoint

DROP TRIGGER IF EXISTS article_corrections_notify_change ON article_corrections;
--> statement-breakpoint
CREATE TRIGGER article_corrections_notify_insert AFTER INSERT ON article_corrections REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_story_part_change();
--> statement-breakpoint
CREATE TRIGGER article_corrections_notify_update AFTER UPDATE ON article_corrections REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_story_part_change();
--> statement-breakpoint
CREATE TRIGGER article_corrections_notify_delete AFTER DELETE ON article_corrections REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_story_part_change();
--> statement-breakpoint

DROP TRIGGER IF EXISTS article_slug_redirects_notify_change ON article_slug_redirects;
--> statement-breakpoint
CREATE TRIGGER article_slug_redirects_notify_insert AFTER INSERT ON article_slug_redirects REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_story_part_change();
--> statement-breakpoint
CREATE TRIGGER article_slug_redirects_notify_update AFTER UPDATE ON article_slug_redirects REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_story_part_change();
--> statement-breakpoint
CREATE TRIGGER article_slug_redirects_notify_delete AFTER DELETE ON article_slug_redirects REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_story_part_change();
