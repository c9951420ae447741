-- Every change to published content is announced on one channel, so that every app process
-- (page cache, admin dashboard stream) hears it, whoever made the change.
CREATE OR REPLACE FUNCTION frontpage_notify_change() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('frontpage_changes', json_build_object('table', TG_TABLE_NAME, 'op', TG_OP)::text);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- View counts change constantly and are not content: updates of "views" alone stay silent,
-- so they never flush the page cache.
CREATE TRIGGER articles_notify_change AFTER INSERT OR DELETE OR UPDATE OF
  title, slug, excerpt, content, featured_image, video_url, author_name, category_id, created_at
  ON articles FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_change();
--> statement-breakpoint
CREATE TRIGGER categories_notify_change AFTER INSERT OR UPDATE OR DELETE ON categories
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_change();
--> statement-breakpoint
CREATE TRIGGER comments_notify_change AFTER INSERT OR UPDATE OR DELETE ON comments
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_change();
--> statement-breakpoint
CREATE TRIGGER website_settings_notify_change AFTER INSERT OR UPDATE OR DELETE ON website_settings
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_change();
