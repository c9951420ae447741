CREATE TABLE "audience_conversions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"article_id" uuid,
	"source" text DEFAULT 'direct' NOT NULL,
	"source_host" text DEFAULT '' NOT NULL,
	"utm_source" text DEFAULT '' NOT NULL,
	"utm_medium" text DEFAULT '' NOT NULL,
	"utm_campaign" text DEFAULT '' NOT NULL,
	"ref" text DEFAULT '' NOT NULL,
	CONSTRAINT "audience_conversions_kind" CHECK ("audience_conversions"."kind" in ('newsletter', 'member', 'paid'))
);
--> statement-breakpoint
CREATE TABLE "audience_day_visitors" (
	"day" text NOT NULL,
	"visitor" "bytea" NOT NULL,
	"article_id" uuid NOT NULL,
	CONSTRAINT "audience_day_visitors_day_visitor_article_id_pk" PRIMARY KEY("day","visitor","article_id")
);
--> statement-breakpoint
CREATE TABLE "audience_read_hours" (
	"hour" timestamp with time zone NOT NULL,
	"article_id" uuid NOT NULL,
	"reads" integer NOT NULL,
	"engaged_ms" bigint NOT NULL,
	"engaged_buckets" integer[] NOT NULL,
	"depth_25" integer NOT NULL,
	"depth_50" integer NOT NULL,
	"depth_75" integer NOT NULL,
	"depth_100" integer NOT NULL,
	CONSTRAINT "audience_read_hours_hour_article_id_pk" PRIMARY KEY("hour","article_id")
);
--> statement-breakpoint
CREATE TABLE "audience_rollup_state" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"rolled_until" timestamp with time zone NOT NULL,
	CONSTRAINT "audience_rollup_state_single_row" CHECK ("audience_rollup_state"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "audience_salts" (
	"day" text PRIMARY KEY NOT NULL,
	"salt" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audience_site_hours" (
	"hour" timestamp with time zone NOT NULL,
	"device" text NOT NULL,
	"views" integer NOT NULL,
	"visitors" integer NOT NULL,
	CONSTRAINT "audience_site_hours_hour_device_pk" PRIMARY KEY("hour","device")
);
--> statement-breakpoint
CREATE TABLE "audience_source_hours" (
	"hour" timestamp with time zone NOT NULL,
	"article_id" uuid NOT NULL,
	"source" text NOT NULL,
	"source_host" text DEFAULT '' NOT NULL,
	"utm_source" text DEFAULT '' NOT NULL,
	"utm_medium" text DEFAULT '' NOT NULL,
	"utm_campaign" text DEFAULT '' NOT NULL,
	"ref" text DEFAULT '' NOT NULL,
	"views" integer NOT NULL,
	"visitors" integer NOT NULL,
	CONSTRAINT "audience_source_hours_hour_article_id_source_source_host_utm_source_utm_medium_utm_campaign_ref_pk" PRIMARY KEY("hour","article_id","source","source_host","utm_source","utm_medium","utm_campaign","ref")
);
--> statement-breakpoint
CREATE TABLE "audience_story_hours" (
	"hour" timestamp with time zone NOT NULL,
	"article_id" uuid NOT NULL,
	"views" integer NOT NULL,
	"visitors" integer NOT NULL,
	CONSTRAINT "audience_story_hours_hour_article_id_pk" PRIMARY KEY("hour","article_id")
);
--> statement-breakpoint
ALTER TABLE "website_settings" ADD COLUMN "audience_retention_days" integer DEFAULT 90 NOT NULL;--> statement-breakpoint
ALTER TABLE "audience_conversions" ADD CONSTRAINT "audience_conversions_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audience_conversions_at_idx" ON "audience_conversions" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audience_conversions_article_idx" ON "audience_conversions" USING btree ("article_id","at");--> statement-breakpoint
CREATE INDEX "audience_read_hours_article_idx" ON "audience_read_hours" USING btree ("article_id","hour");--> statement-breakpoint
CREATE INDEX "audience_source_hours_article_idx" ON "audience_source_hours" USING btree ("article_id","hour");--> statement-breakpoint
CREATE INDEX "audience_story_hours_article_idx" ON "audience_story_hours" USING btree ("article_id","hour");