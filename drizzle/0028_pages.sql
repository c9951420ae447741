-- Pages (issue 29): standalone pages written in the story editor (an ethics policy, a masthead), at
-- /{slug} once published, with their saves in page_revisions (like article_revisions) and, when asked,
-- a link in the site's footer.
CREATE TYPE "public"."page_status" AS ENUM('draft', 'published');--> statement-breakpoint
CREATE TABLE "page_revisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"page_id" uuid NOT NULL,
	"title" text NOT NULL,
	"slug" text NOT NULL,
	"content" text NOT NULL,
	"content_doc" jsonb,
	"status" "page_status" NOT NULL,
	"show_in_footer" boolean NOT NULL,
	"footer_position" integer NOT NULL,
	"saved_by_id" text,
	"saved_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"slug" text NOT NULL,
	"content" text NOT NULL,
	"content_doc" jsonb,
	"status" "page_status" DEFAULT 'draft' NOT NULL,
	"published_at" timestamp with time zone,
	"show_in_footer" boolean DEFAULT false NOT NULL,
	"footer_position" integer DEFAULT 0 NOT NULL,
	"created_by_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "page_revisions" ADD CONSTRAINT "page_revisions_page_id_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "page_revisions" ADD CONSTRAINT "page_revisions_saved_by_id_user_id_fk" FOREIGN KEY ("saved_by_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pages" ADD CONSTRAINT "pages_created_by_id_user_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "page_revisions_page_created_at_idx" ON "page_revisions" USING btree ("page_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "pages_slug_key" ON "pages" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "pages_footer_idx" ON "pages" USING btree ("status","show_in_footer","footer_position");;--> statement-breakpoint

-- A published page shows at /{slug}, in the pages sitemap and, with show_in_footer, in the footer of
-- every page: a statement that touches a published page (before or after it) sends migration 0001's
-- generic notice, which drops every cached page and the site frame's footer links (decision 0028).
-- Drafts are nobody's business: saving one sends nothing.
CREATE OR REPLACE FUNCTION frontpage_notify_page_change() RETURNS trigger AS $$
DECLARE
  public_rows boolean;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT EXISTS (SELECT 1 FROM new_rows WHERE status = 'published') INTO public_rows;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT EXISTS (SELECT 1 FROM old_rows WHERE status = 'published') INTO public_rows;
  ELSE
    SELECT EXISTS (SELECT 1 FROM old_rows WHERE status = 'published')
      OR EXISTS (SELECT 1 FROM new_rows WHERE status = 'published') INTO public_rows;
  END IF;
  IF public_rows THEN
    PERFORM pg_notify('frontpage_changes', json_build_object('table', TG_TABLE_NAME, 'op', TG_OP)::text);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER pages_notify_insert AFTER INSERT ON pages REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_page_change();
--> statement-breakpoint
CREATE TRIGGER pages_notify_update AFTER UPDATE ON pages REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_page_change();
--> statement-breakpoint
CREATE TRIGGER pages_notify_delete AFTER DELETE ON pages REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_page_change();
