-- A change to comments names the articles whose comments changed (their slugs, at most 50), so each
-- app process clears only those articles' pages (decision 0024). More, or none found (an article's
-- own deletion took its comments with it), and the notice names none: every page is cleared.
CREATE OR REPLACE FUNCTION frontpage_notify_comment_change() RETURNS trigger AS $$
DECLARE
  slugs text[];
BEGIN
  SELECT array_agg(DISTINCT a.slug) INTO slugs FROM changed_rows c JOIN articles a ON a.id = c.article_id;
  IF slugs IS NULL OR cardinality(slugs) > 50 THEN
    PERFORM pg_notify('frontpage_changes', json_build_object('table', TG_TABLE_NAME, 'op', TG_OP)::text);
  ELSE
    PERFORM pg_notify('frontpage_changes', json_build_object('table', TG_TABLE_NAME, 'op', TG_OP, 'articles', to_json(slugs))::text);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
DROP TRIGGER IF EXISTS comments_notify_change ON comments;
--> statement-breakpoint
CREATE TRIGGER comments_notify_insert AFTER INSERT ON comments REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_comment_change();
--> statement-breakpoint
CREATE TRIGGER comments_notify_update AFTER UPDATE ON comments REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_comment_change();
--> statement-breakpoint
CREATE TRIGGER comments_notify_delete AFTER DELETE ON comments REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_comment_change();
