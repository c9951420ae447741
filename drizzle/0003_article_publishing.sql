CREATE TYPE "public"."article_status" AS ENUM('draft', 'scheduled', 'published');--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "status" "article_status" DEFAULT 'published' NOT NULL;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "published_at" timestamp with time zone;--> statement-breakpoint
-- Backfill (hand-written): every existing article was public, and has been since it was created.
UPDATE "articles" SET "status" = 'published', "published_at" = "created_at";--> statement-breakpoint
CREATE INDEX "articles_status_published_at_idx" ON "articles" USING btree ("status","published_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "articles_category_status_published_at_idx" ON "articles" USING btree ("category_id","status","published_at" DESC NULLS LAST);--> statement-breakpoint
-- Hand-written: an article inserted as published (or scheduled) without a publication time is
-- published as of its creation, as the backfill above says of the old rows (the media library's
-- "Publish Article", the demo seed and direct writes name no published_at). Before the check below.
CREATE OR REPLACE FUNCTION frontpage_article_published_at() RETURNS trigger AS $$
BEGIN
  IF NEW.published_at IS NULL AND NEW.status <> 'draft' THEN
    NEW.published_at := NEW.created_at;
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER articles_published_at_default BEFORE INSERT ON articles
  FOR EACH ROW EXECUTE FUNCTION frontpage_article_published_at();--> statement-breakpoint
ALTER TABLE "articles" ADD CONSTRAINT "articles_published_at_set" CHECK ("articles"."status" = 'draft' or "articles"."published_at" is not null);--> statement-breakpoint
-- Hand-written: the change trigger of 0001 fires only on updates of the listed columns. Publishing,
-- scheduling and unpublishing change only status and published_at, and must clear every process's
-- page cache and refresh the dashboards too, so the trigger now names them.
DROP TRIGGER "articles_notify_change" ON "articles";--> statement-breakpoint
CREATE TRIGGER articles_notify_change AFTER INSERT OR DELETE OR UPDATE OF
  title, slug, excerpt, content, featured_image, video_url, author_name, category_id, created_at, status, published_at
  ON articles FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_change();
