CREATE TABLE "audience_site_source_hours" (
	"hour" timestamp with time zone NOT NULL,
	"source" text NOT NULL,
	"source_host" text DEFAULT '' NOT NULL,
	"utm_source" text DEFAULT '' NOT NULL,
	"utm_medium" text DEFAULT '' NOT NULL,
	"utm_campaign" text DEFAULT '' NOT NULL,
	"ref" text DEFAULT '' NOT NULL,
	"views" integer NOT NULL,
	"visitors" integer NOT NULL,
	CONSTRAINT "audience_site_source_hours_hour_source_source_host_utm_source_utm_medium_utm_campaign_ref_pk" PRIMARY KEY("hour","source","source_host","utm_source","utm_medium","utm_campaign","ref")
);
