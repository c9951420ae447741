CREATE TABLE "embed_posters" (
	"provider" text NOT NULL,
	"embed_id" text NOT NULL,
	"title" text,
	"author" text,
	"text" text,
	"poster_url" text,
	"fetched_at" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "embed_posters_pk" PRIMARY KEY("provider","embed_id"),
	CONSTRAINT "embed_posters_provider" CHECK ("embed_posters"."provider" in ('youtube', 'x'))
);
