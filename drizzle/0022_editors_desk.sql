CREATE TYPE "public"."story_pin_placement" AS ENUM('lead', 'top', 'category');--> statement-breakpoint
CREATE TABLE "article_pending_versions" (
	"article_id" uuid PRIMARY KEY NOT NULL,
	"fields" jsonb NOT NULL,
	"saved_at" timestamp with time zone DEFAULT now() NOT NULL,
	"saved_by_id" text,
	"saved_by_name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"article_id" uuid,
	"text" text NOT NULL,
	"note" text,
	"href" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "story_pins" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"placement" "story_pin_placement" NOT NULL,
	"category_id" uuid,
	"article_id" uuid NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"until" timestamp with time zone,
	"created_by_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "story_pins_category_placement" CHECK (("story_pins"."placement" = 'category') = ("story_pins"."category_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "article_revisions" ADD COLUMN "pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "email_notifications" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "website_settings" ADD COLUMN "show_welcome_banner" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "website_settings" ADD COLUMN "explore_category_ids" uuid[];--> statement-breakpoint
ALTER TABLE "article_pending_versions" ADD CONSTRAINT "article_pending_versions_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "article_pending_versions" ADD CONSTRAINT "article_pending_versions_saved_by_id_user_id_fk" FOREIGN KEY ("saved_by_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "story_pins" ADD CONSTRAINT "story_pins_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "story_pins" ADD CONSTRAINT "story_pins_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "story_pins" ADD CONSTRAINT "story_pins_created_by_id_user_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notifications_user_created_at_idx" ON "notifications" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "notifications_user_unread_idx" ON "notifications" USING btree ("user_id") WHERE "notifications"."read_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "story_pins_one_lead" ON "story_pins" USING btree ("placement") WHERE "story_pins"."placement" = 'lead';--> statement-breakpoint
CREATE UNIQUE INDEX "story_pins_home_article" ON "story_pins" USING btree ("article_id") WHERE "story_pins"."placement" <> 'category';--> statement-breakpoint
CREATE UNIQUE INDEX "story_pins_one_per_category" ON "story_pins" USING btree ("category_id") WHERE "story_pins"."placement" = 'category';--> statement-breakpoint
-- Pins change what the home page (and a category page) shows: announced like the other content tables.
CREATE TRIGGER story_pins_notify_change AFTER INSERT OR UPDATE OR DELETE ON story_pins
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_change();
--> statement-breakpoint
-- Every back-office account gets its author record (issue 27): a byline and an author page from its
-- name. Slugs as lib/slugs.ts makes them; one already taken gets the account id's first characters.
INSERT INTO authors (name, slug, user_id)
SELECT name,
       CASE WHEN n > 1 OR slug = '' OR EXISTS (SELECT 1 FROM authors a WHERE a.slug = c.slug)
            THEN trim(both '-' from slug || '-' || lower(left(regexp_replace(id, '[^a-zA-Z0-9]', '', 'g'), 8)))
            ELSE slug END,
       id
FROM (
  SELECT u.id, trim(u.name) AS name, s.slug, row_number() OVER (PARTITION BY s.slug ORDER BY u.created_at, u.id) AS n
  FROM "user" u
  JOIN user_roles r ON r.user_id = u.id
  CROSS JOIN LATERAL (SELECT trim(both '-' from regexp_replace(lower(u.name), '[^a-z0-9]+', '-', 'g')) AS slug) s
  WHERE NOT EXISTS (SELECT 1 FROM authors a WHERE a.user_id = u.id) AND trim(u.name) <> ''
) c;
