-- Story pins' change notices name the pages they change (issue 27, decision 0034): `home` when a lead
-- or top-story pin was written, `categories` the slugs of the category pages whose pin was, so each
-- process drops exactly those cached pages (server/page-cache.ts, cacheChangeOf) instead of every page,
-- as migration 0022's generic trigger made it. Transition tables need one trigger per operation.
CREATE OR REPLACE FUNCTION frontpage_notify_story_pin_change() RETURNS trigger AS $$
DECLARE
  pins jsonb[];
  home boolean;
  slugs json;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(to_jsonb(r)) INTO pins FROM new_rows r;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(to_jsonb(r)) INTO pins FROM old_rows r;
  ELSE
    SELECT array_agg(to_jsonb(r)) || (SELECT array_agg(to_jsonb(r)) FROM new_rows r) INTO pins FROM old_rows r;
  END IF;
  IF pins IS NULL THEN
    RETURN NULL;
  END IF;
  SELECT coalesce(bool_or(p->>'placement' <> 'category'), false) INTO home FROM unnest(pins) p;
  SELECT coalesce(json_agg(DISTINCT lower(c.slug)), '[]') INTO slugs
    FROM unnest(pins) p JOIN categories c ON c.id = (p->>'category_id')::uuid
    WHERE p->>'placement' = 'category';
  PERFORM pg_notify('frontpage_changes', json_build_object('table', TG_TABLE_NAME, 'op', TG_OP, 'pins', json_build_object('home', home, 'categories', slugs))::text);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
DROP TRIGGER IF EXISTS story_pins_notify_change ON story_pins;
--> statement-breakpoint
CREATE TRIGGER story_pins_notify_insert AFTER INSERT ON story_pins REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_story_pin_change();
--> statement-breakpoint
CREATE TRIGGER story_pins_notify_update AFTER UPDATE ON story_pins REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_story_pin_change();
--> statement-breakpoint
CREATE TRIGGER story_pins_notify_delete AFTER DELETE ON story_pins REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_story_pin_change();
