CREATE TABLE "article_revisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"article_id" uuid NOT NULL,
	"title" text NOT NULL,
	"slug" text NOT NULL,
	"excerpt" text,
	"content" text NOT NULL,
	"content_doc" jsonb,
	"category_id" uuid,
	"author_name" text NOT NULL,
	"featured_image" text,
	"video_url" text,
	"status" "article_status" NOT NULL,
	"published_at" timestamp with time zone,
	"saved_by_id" text,
	"saved_by_name" text NOT NULL,
	"autosave" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "article_revisions" ADD CONSTRAINT "article_revisions_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "article_revisions" ADD CONSTRAINT "article_revisions_saved_by_id_user_id_fk" FOREIGN KEY ("saved_by_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "article_revisions_article_created_at_idx" ON "article_revisions" USING btree ("article_id","created_at" DESC NULLS LAST);