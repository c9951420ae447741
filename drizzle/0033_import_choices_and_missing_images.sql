-- Issue 39: an import says whether sticky posts become pinned top stories (chosen when it starts), an
-- import may be "Retry missing images" of a site already imported, and each image an import could not
-- have is remembered with its story, so that the retry can bring it and put it in place.
CREATE TABLE "import_missing_images" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"article_id" uuid,
	"page_id" uuid,
	"place" text NOT NULL,
	"url" text NOT NULL,
	"alt" text DEFAULT '' NOT NULL,
	"caption" text DEFAULT '' NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "import_missing_images_one_story" CHECK (("import_missing_images"."article_id" is null) <> ("import_missing_images"."page_id" is null)),
	CONSTRAINT "import_missing_images_place_check" CHECK ("import_missing_images"."place" in ('body', 'featured'))
);
--> statement-breakpoint
ALTER TABLE "imports" ADD COLUMN "pin_sticky" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "imports" ADD COLUMN "retry_media" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "import_missing_images" ADD CONSTRAINT "import_missing_images_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_missing_images" ADD CONSTRAINT "import_missing_images_page_id_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "import_missing_images_source_idx" ON "import_missing_images" USING btree ("source","id");--> statement-breakpoint
CREATE UNIQUE INDEX "import_missing_images_article_once" ON "import_missing_images" USING btree ("article_id","place","url");--> statement-breakpoint
CREATE UNIQUE INDEX "import_missing_images_page_once" ON "import_missing_images" USING btree ("page_id","place","url");