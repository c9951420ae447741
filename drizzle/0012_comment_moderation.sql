CREATE TABLE "comment_blocks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "comment_blocks_kind_check" CHECK ("comment_blocks"."kind" in ('email', 'address'))
);
--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "status" text DEFAULT 'published' NOT NULL;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "held_reason" text;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "author_address" text;--> statement-breakpoint
CREATE UNIQUE INDEX "comment_blocks_kind_value_idx" ON "comment_blocks" USING btree ("kind","value");--> statement-breakpoint
CREATE INDEX "comments_pending_idx" ON "comments" USING btree ("created_at" DESC NULLS LAST) WHERE "comments"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_status_check" CHECK ("comments"."status" in ('published', 'pending'));