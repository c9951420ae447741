CREATE TYPE "public"."article_correction_kind" AS ENUM('correction', 'update');--> statement-breakpoint
CREATE TABLE "article_corrections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"article_id" uuid NOT NULL,
	"kind" "article_correction_kind" NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by_id" text,
	"created_by_name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "article_slug_redirects" (
	"old_slug" text PRIMARY KEY NOT NULL,
	"article_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "modified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "article_corrections" ADD CONSTRAINT "article_corrections_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "article_corrections" ADD CONSTRAINT "article_corrections_created_by_id_user_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "article_slug_redirects" ADD CONSTRAINT "article_slug_redirects_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "article_corrections_article_created_at_idx" ON "article_corrections" USING btree ("article_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "article_slug_redirects_article_idx" ON "article_slug_redirects" USING btree ("article_id");--> statement-breakpoint
--
-- Adding or deleting a correction/update note changes what the article page shows, so it must clear
-- every process's page cache like any other content change: the notes table announces its changes on
-- the change channel of migration 0001. (Adding a note also sets articles.modified_at in the same
-- transaction; modified_at is not among the columns of articles_notify_change, so this trigger is
-- what announces it. A save with "Show as updated" writes the article's listed columns and is
-- announced by articles_notify_change as every save is.)
CREATE TRIGGER article_corrections_notify_change AFTER INSERT OR UPDATE OR DELETE ON article_corrections
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_change();--> statement-breakpoint
-- Redirect rows change only together with an article's slug (announced by articles_notify_change),
-- but a row written or removed on its own (a take-over, direct SQL) changes what /article/{old}
-- answers as well.
CREATE TRIGGER article_slug_redirects_notify_change AFTER INSERT OR UPDATE OR DELETE ON article_slug_redirects
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_change();
