-- The front page's own settings (issue 27, decision 0034): "Show the welcome banner" and Explore
-- Topics change the home page alone. A change to website_settings that touched nothing else says so
-- (`homeOnly`), and each process drops only the cached home page (server/page-cache.ts,
-- cacheChangeOf) instead of every page, as migration 0001's generic trigger made it. Any other change
-- to the settings (the site's name, its menu, the banner) still drops every page.
CREATE OR REPLACE FUNCTION frontpage_notify_settings_change() RETURNS trigger AS $$
DECLARE
  home_only boolean;
BEGIN
  SELECT coalesce(bool_and(
           (to_jsonb(o) - 'explore_category_ids' - 'show_welcome_banner' - 'updated_at')
           = (to_jsonb(n) - 'explore_category_ids' - 'show_welcome_banner' - 'updated_at')), false)
    INTO home_only
    FROM old_rows o FULL JOIN new_rows n ON n.id = o.id;
  PERFORM pg_notify('frontpage_changes', json_build_object('table', TG_TABLE_NAME, 'op', TG_OP, 'homeOnly', home_only)::text);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
DROP TRIGGER IF EXISTS website_settings_notify_change ON website_settings;
--> statement-breakpoint
CREATE TRIGGER website_settings_notify_update AFTER UPDATE ON website_settings REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_settings_change();
--> statement-breakpoint
CREATE TRIGGER website_settings_notify_insert_delete AFTER INSERT OR DELETE ON website_settings
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_change();
