-- Imports from WordPress or Ghost (issue 29). An import is a row here and runs as a job of the queue
-- (decision 0032); what it wrote is remembered per source id in imported_rows, so running it again
-- (after a restart, or with a newer export of the same site) adds only what is not there yet.
CREATE TABLE "imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"file_name" text NOT NULL,
	"file_path" text NOT NULL,
	"media_dir" text,
	"skip_media" boolean DEFAULT false NOT NULL,
	"dry_run" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"phase" text,
	"total" integer DEFAULT 0 NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"summary" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"error" text,
	"created_by_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"heartbeat_at" timestamp with time zone,
	CONSTRAINT "imports_kind_check" CHECK ("imports"."kind" in ('wordpress', 'ghost')),
	CONSTRAINT "imports_status_check" CHECK ("imports"."status" in ('waiting', 'running', 'done', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_created_by_id_user_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "imports_created_at_idx" ON "imports" USING btree ("created_at" DESC);--> statement-breakpoint
CREATE TABLE "import_notes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"import_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"what" text NOT NULL,
	"message" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "import_notes" ADD CONSTRAINT "import_notes_import_id_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "import_notes_import_idx" ON "import_notes" USING btree ("import_id","id");--> statement-breakpoint
-- A resumed import reads its file again: a note already written is not written twice.
CREATE UNIQUE INDEX "import_notes_once" ON "import_notes" USING btree ("import_id", md5("kind" || '|' || "what" || '|' || "message"));--> statement-breakpoint
-- Two imports never run at once: at most one row is "running".
CREATE UNIQUE INDEX "imports_one_running" ON "imports" USING btree ((true)) WHERE "status" = 'running';--> statement-breakpoint
CREATE TABLE "imported_rows" (
	"source" text NOT NULL,
	"source_type" text NOT NULL,
	"source_id" text NOT NULL,
	"target_id" text NOT NULL,
	"target_path" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "imported_rows_pk" PRIMARY KEY("source","source_type","source_id")
);
