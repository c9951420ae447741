CREATE TABLE "article_authors" (
	"article_id" uuid NOT NULL,
	"author_id" uuid NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "article_authors_article_id_author_id_pk" PRIMARY KEY("article_id","author_id")
);
--> statement-breakpoint
CREATE TABLE "authors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"bio" text,
	"photo_url" text,
	"role_title" text,
	"website_url" text,
	"x_url" text,
	"linkedin_url" text,
	"user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "article_revisions" ADD COLUMN "author_ids" uuid[];--> statement-breakpoint
ALTER TABLE "article_authors" ADD CONSTRAINT "article_authors_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "article_authors" ADD CONSTRAINT "article_authors_author_id_authors_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."authors"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "authors" ADD CONSTRAINT "authors_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "article_authors_author_article_idx" ON "article_authors" USING btree ("author_id","article_id");--> statement-breakpoint
CREATE UNIQUE INDEX "authors_slug_key" ON "authors" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "authors_user_id_key" ON "authors" USING btree ("user_id") WHERE "authors"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "authors_name_idx" ON "authors" USING btree ("name");--> statement-breakpoint
-- Hand-written (decision 0015): every distinct existing byline becomes an author, linked first on its
-- articles, so old articles link to an author page too. The slug is derived as app/lib/slugs.ts
-- slugify does (lowercase, runs of other characters become one hyphen, none at either end, at most
-- 200 characters; "author" when nothing is left), made unique with -2, -3, ... in name order.
INSERT INTO "authors" ("name", "slug")
SELECT "name",
       CASE WHEN "n" = 1 THEN "base" ELSE left("base", 190) || '-' || "n" END
FROM (
  SELECT "name", "base", row_number() OVER (PARTITION BY "base" ORDER BY "name") AS "n"
  FROM (
    SELECT "name",
           coalesce(nullif(trim(BOTH '-' FROM left(trim(LEADING '-' FROM regexp_replace(lower("name"), '[^a-z0-9]+', '-', 'g')), 200)), ''), 'author') AS "base"
    FROM (SELECT DISTINCT trim("author_name") AS "name" FROM "articles" WHERE trim("author_name") <> '') AS "names"
  ) AS "derived"
) AS "numbered";
--> statement-breakpoint
INSERT INTO "article_authors" ("article_id", "author_id", "position")
SELECT "articles"."id", "authors"."id", 0
FROM "articles" JOIN "authors" ON "authors"."name" = trim("articles"."author_name");
--> statement-breakpoint
-- Authors and bylines are shown on reader pages: their changes clear the page caches (migration 0001).
CREATE TRIGGER authors_notify_change AFTER INSERT OR UPDATE OR DELETE ON authors
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_change();
--> statement-breakpoint
CREATE TRIGGER article_authors_notify_change AFTER INSERT OR UPDATE OR DELETE ON article_authors
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_change();
