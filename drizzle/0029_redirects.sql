CREATE TABLE "redirects" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"from_path" text NOT NULL,
	"to_path" text NOT NULL,
	"status_code" integer DEFAULT 301 NOT NULL,
	"hits" bigint DEFAULT 0 NOT NULL,
	"last_hit_at" timestamp with time zone,
	"source" text DEFAULT 'manual' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "redirects_status_code_check" CHECK ("redirects"."status_code" in (301, 302))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "redirects_from_path_key" ON "redirects" USING btree ("from_path");--> statement-breakpoint

-- Redirects (issue 29, decision 0040) are answered before routing from a map each process keeps in
-- memory; a change notice makes every process read the table again. The hit counter's flush (the
-- view recorder: `hits = hits + n, last_hit_at = …`) names neither path nor status, so it is silent:
-- counting never makes a process reload.
CREATE TRIGGER redirects_notify_change AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF from_path, to_path, status_code ON redirects
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_change();
