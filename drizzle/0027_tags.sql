-- Tags (issue 29): any number per article besides its category, each with a public page /tag/{slug}
-- and an RSS feed; a merged (or renamed) tag's old slug redirects through tag_slug_redirects. A
-- revision keeps the story's tag names as saved.
CREATE TABLE "article_tags" (
	"article_id" uuid NOT NULL,
	"tag_id" uuid NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "article_tags_article_id_tag_id_pk" PRIMARY KEY("article_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "tag_slug_redirects" (
	"old_slug" text PRIMARY KEY NOT NULL,
	"tag_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tags" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "article_revisions" ADD COLUMN "tag_names" text[];--> statement-breakpoint
ALTER TABLE "article_tags" ADD CONSTRAINT "article_tags_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "article_tags" ADD CONSTRAINT "article_tags_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_slug_redirects" ADD CONSTRAINT "tag_slug_redirects_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "article_tags_tag_article_idx" ON "article_tags" USING btree ("tag_id","article_id");--> statement-breakpoint
CREATE INDEX "tag_slug_redirects_tag_idx" ON "tag_slug_redirects" USING btree ("tag_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tags_slug_key" ON "tags" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "tags_name_idx" ON "tags" USING btree ("name");--> statement-breakpoint

-- Page-cache notices (decision 0028, migration 0016) learn the stories' tags: a notice naming public
-- stories also names, in `tags`, the slugs of the tags on them (their current tags, and the tags of the
-- byline-like article_tags rows the statement changed), so each process drops those tags' pages and
-- feeds. The six-argument function of 0016 stays, as a call of this one with no extra tags.
CREATE OR REPLACE FUNCTION frontpage_notify_stories(tbl text, op text, ids uuid[], slugs text[], category_ids uuid[], author_ids uuid[], tag_ids uuid[]) RETURNS void AS $$
DECLARE
  story_ids uuid[] := ARRAY(SELECT DISTINCT x FROM unnest(ids) x WHERE x IS NOT NULL);
  payload text;
BEGIN
  IF cardinality(story_ids) > 50 THEN
    payload := json_build_object('table', tbl, 'op', op)::text;
  ELSE
    payload := json_build_object('table', tbl, 'op', op, 'public', json_build_object(
      'ids', to_json(story_ids),
      'slugs', (SELECT coalesce(json_agg(DISTINCT lower(s)), '[]') FROM unnest(slugs) s WHERE s IS NOT NULL AND cardinality(story_ids) > 0),
      'categories', (SELECT coalesce(json_agg(DISTINCT lower(c.slug)), '[]') FROM categories c WHERE c.id = ANY(category_ids) AND cardinality(story_ids) > 0),
      'authors', (SELECT coalesce(json_agg(DISTINCT lower(au.slug)), '[]') FROM authors au
        WHERE cardinality(story_ids) > 0
          AND (au.id = ANY(author_ids) OR au.id IN (SELECT aa.author_id FROM article_authors aa WHERE aa.article_id = ANY(story_ids)))),
      'tags', (SELECT coalesce(json_agg(DISTINCT lower(tg.slug)), '[]') FROM tags tg
        WHERE cardinality(story_ids) > 0
          AND (tg.id = ANY(tag_ids) OR tg.id IN (SELECT at.tag_id FROM article_tags at WHERE at.article_id = ANY(story_ids))))
    ))::text;
    IF octet_length(payload) > 7900 THEN
      payload := json_build_object('table', tbl, 'op', op)::text;
    END IF;
  END IF;
  PERFORM pg_notify('frontpage_changes', payload);
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION frontpage_notify_stories(tbl text, op text, ids uuid[], slugs text[], category_ids uuid[], author_ids uuid[]) RETURNS void AS $$
BEGIN
  PERFORM frontpage_notify_stories(tbl, op, ids, slugs, category_ids, author_ids, '{}'::uuid[]);
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint

-- Migration 0016's function for a story's parts, now also for article_tags (whose rows name tag_id).
CREATE OR REPLACE FUNCTION frontpage_notify_story_part_change() RETURNS trigger AS $$
DECLARE
  parts jsonb[];
  ids uuid[];
  slugs text[];
  category_ids uuid[];
  author_ids uuid[];
  tag_ids uuid[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(to_jsonb(r)) INTO parts FROM new_rows r;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(to_jsonb(r)) INTO parts FROM old_rows r;
  ELSE
    SELECT array_agg(to_jsonb(r)) || (SELECT array_agg(to_jsonb(r)) FROM new_rows r) INTO parts FROM old_rows r;
  END IF;
  SELECT array_agg((p->>'article_id')::uuid), array_agg(p->>'old_slug') || array_agg(a.slug), array_agg(a.category_id),
      array_agg((p->>'author_id')::uuid), array_agg((p->>'tag_id')::uuid)
    INTO ids, slugs, category_ids, author_ids, tag_ids
    FROM unnest(parts) p LEFT JOIN articles a ON a.id = (p->>'article_id')::uuid
    WHERE a.id IS NULL OR a.status = 'published';
  PERFORM frontpage_notify_stories(TG_TABLE_NAME, TG_OP, coalesce(ids, '{}'), coalesce(slugs, '{}'), coalesce(category_ids, '{}'),
    coalesce(author_ids, '{}'), coalesce(tag_ids, '{}'));
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER article_tags_notify_insert AFTER INSERT ON article_tags REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_story_part_change();
--> statement-breakpoint
CREATE TRIGGER article_tags_notify_update AFTER UPDATE ON article_tags REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_story_part_change();
--> statement-breakpoint
CREATE TRIGGER article_tags_notify_delete AFTER DELETE ON article_tags REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_story_part_change();
--> statement-breakpoint

-- A tag renamed or deleted (a merge deletes the merged tag) drops every cached page (migration 0001's
-- generic notice): its name shows on every page of its stories and its old address must stop being
-- served. Rare enough that precision is not worth it. A new tag shows nowhere until a story carries
-- it (that article_tags row names it), so an insert sends nothing; nor does a new old address, which
-- only ever comes with a merge's or rename's own notice.
CREATE TRIGGER tags_notify_change AFTER UPDATE OR DELETE ON tags
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_change();
