CREATE TABLE "audience_read_days" (
	"day" timestamp with time zone NOT NULL,
	"article_id" uuid NOT NULL,
	"reads" integer NOT NULL,
	"engaged_ms" bigint NOT NULL,
	"engaged_buckets" integer[] NOT NULL,
	"depth_25" integer NOT NULL,
	"depth_50" integer NOT NULL,
	"depth_75" integer NOT NULL,
	"depth_100" integer NOT NULL,
	CONSTRAINT "audience_read_days_day_article_id_pk" PRIMARY KEY("day","article_id")
);
--> statement-breakpoint
CREATE TABLE "audience_story_days" (
	"day" timestamp with time zone NOT NULL,
	"article_id" uuid NOT NULL,
	"views" integer NOT NULL,
	"visitors" integer NOT NULL,
	CONSTRAINT "audience_story_days_day_article_id_pk" PRIMARY KEY("day","article_id")
);
