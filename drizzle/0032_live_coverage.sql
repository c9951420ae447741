-- Live coverage (issue 31): any article can be a live story. It is live while live_started_at is set
-- and live_ended_at is not; "End live coverage" sets live_ended_at (the updates stay), a restart
-- clears it again. Changing either is a change to the story, announced by articles_notify_update
-- (migration 0016): its cards' LIVE badge is on home, category, tag and author pages.
ALTER TABLE "articles" ADD COLUMN "live_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "live_ended_at" timestamp with time zone;--> statement-breakpoint
-- Every change to an update (post, edit, delete, pin) takes the next number of this sequence as the
-- row's `version`: a reader's event stream names it as the event id, and a reconnecting reader asks
-- for the rows changed since the one it saw last (Last-Event-ID).
CREATE SEQUENCE "live_update_versions";--> statement-breakpoint
CREATE TABLE "live_updates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"article_id" uuid NOT NULL,
	"headline" text,
	"content" text NOT NULL,
	"content_doc" jsonb NOT NULL,
	"author_id" uuid,
	"key_event" boolean DEFAULT false NOT NULL,
	"pinned" boolean DEFAULT false NOT NULL,
	"created_by_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"edited_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"version" bigint DEFAULT nextval('live_update_versions') NOT NULL
);
--> statement-breakpoint
ALTER SEQUENCE "live_update_versions" OWNED BY "live_updates"."version";--> statement-breakpoint
ALTER TABLE "live_updates" ADD CONSTRAINT "live_updates_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_updates" ADD CONSTRAINT "live_updates_author_id_authors_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."authors"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_updates" ADD CONSTRAINT "live_updates_created_by_id_user_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- The page's list (newest first, then "Show older updates" by keyset) and the catch-up by version.
CREATE INDEX "live_updates_article_created_idx" ON "live_updates" USING btree ("article_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "live_updates"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "live_updates_article_version_idx" ON "live_updates" USING btree ("article_id","version");--> statement-breakpoint
-- One pinned update per story.
CREATE UNIQUE INDEX "live_updates_one_pinned_key" ON "live_updates" USING btree ("article_id") WHERE "live_updates"."pinned" and "live_updates"."deleted_at" is null;--> statement-breakpoint

-- A change to updates names its stories (id, slug, the newest version), so each process drops only
-- those stories' pages and feeds and pushes the rows to their readers' streams. More than 20 stories in
-- one statement: the notice names none, and every page is dropped.
CREATE OR REPLACE FUNCTION frontpage_notify_live_update_change() RETURNS trigger AS $$
DECLARE
  stories json;
  n integer;
BEGIN
  SELECT count(DISTINCT c.article_id) INTO n FROM changed_rows c;
  IF n > 20 THEN
    PERFORM pg_notify('frontpage_changes', json_build_object('table', TG_TABLE_NAME, 'op', TG_OP)::text);
    RETURN NULL;
  END IF;
  SELECT coalesce(json_agg(json_build_object('id', s.article_id, 'slug', a.slug, 'version', s.version)), '[]') INTO stories
    FROM (SELECT c.article_id, max(c.version) AS version FROM changed_rows c GROUP BY c.article_id) s
    JOIN articles a ON a.id = s.article_id;
  PERFORM pg_notify('frontpage_changes', json_build_object('table', TG_TABLE_NAME, 'op', TG_OP, 'live', stories)::text);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER live_updates_notify_insert AFTER INSERT ON live_updates REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_live_update_change();
--> statement-breakpoint
CREATE TRIGGER live_updates_notify_update AFTER UPDATE ON live_updates REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_live_update_change();
--> statement-breakpoint
CREATE TRIGGER live_updates_notify_delete AFTER DELETE ON live_updates REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_live_update_change();
