-- Audience analytics (issue 42, decision 0058): the raw events, partitioned by UTC day so a day past
-- the retention is dropped whole. drizzle-kit has no partitioned tables, so they live here and are
-- read and written with SQL (app/domain/audience).

-- A counted page load (the view rule: no bots, no prefetches, cache hits included).
CREATE TABLE "audience_events" (
	"at" timestamp with time zone NOT NULL,
	"path" text NOT NULL,
	"article_id" uuid,
	"visitor" bytea NOT NULL,
	"new_visitor" boolean NOT NULL,
	"new_story_visitor" boolean NOT NULL,
	"source" text NOT NULL,
	"source_host" text NOT NULL DEFAULT '',
	"utm_source" text NOT NULL DEFAULT '',
	"utm_medium" text NOT NULL DEFAULT '',
	"utm_campaign" text NOT NULL DEFAULT '',
	"ref" text NOT NULL DEFAULT '',
	"device" text NOT NULL,
	CONSTRAINT "audience_events_source" CHECK ("source" in ('search', 'social', 'newsletter', 'other', 'direct', 'internal')),
	CONSTRAINT "audience_events_device" CHECK ("device" in ('desktop', 'phone', 'tablet'))
) PARTITION BY RANGE ("at");
--> statement-breakpoint
CREATE INDEX "audience_events_at_idx" ON "audience_events" ("at");
--> statement-breakpoint
-- A story page's script reporting how long the page was visible and how far the story was read, a
-- report every few seconds at most per page load (load_id: a random id the page holds in memory only).
CREATE TABLE "audience_reads" (
	"at" timestamp with time zone NOT NULL,
	"article_id" uuid NOT NULL,
	"visitor" bytea NOT NULL,
	"load_id" uuid NOT NULL,
	"engaged_ms" integer NOT NULL,
	"depth" smallint NOT NULL,
	CONSTRAINT "audience_reads_engaged" CHECK ("engaged_ms" >= 0),
	CONSTRAINT "audience_reads_depth" CHECK ("depth" in (0, 25, 50, 75, 100))
) PARTITION BY RANGE ("at");
--> statement-breakpoint
CREATE INDEX "audience_reads_at_idx" ON "audience_reads" ("at");
--> statement-breakpoint
-- Makes the UTC-day partitions of both raw tables from `first_day` to `last_day` that are missing
-- (audience_events_20261129, audience_reads_20261129): run by the migration and the hourly job.
CREATE FUNCTION audience_make_partitions(first_day date, last_day date) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
	d date;
	made integer := 0;
	parent text;
	child text;
BEGIN
	d := first_day;
	WHILE d <= last_day LOOP
		FOREACH parent IN ARRAY ARRAY['audience_events', 'audience_reads'] LOOP
			child := parent || '_' || to_char(d, 'YYYYMMDD');
			IF to_regclass(child) IS NULL THEN
				EXECUTE format(
					'CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)',
					child, parent, (d::timestamp AT TIME ZONE 'UTC'), ((d + 1)::timestamp AT TIME ZONE 'UTC')
				);
				made := made + 1;
			END IF;
		END LOOP;
		d := d + 1;
	END LOOP;
	RETURN made;
END;
$$;
--> statement-breakpoint
SELECT audience_make_partitions((now() AT TIME ZONE 'UTC')::date - 1, (now() AT TIME ZONE 'UTC')::date + 7);
--> statement-breakpoint
-- The rollup starts at the first hour of the raw events' first partition.
INSERT INTO "audience_rollup_state" ("id", "rolled_until") VALUES (1, date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '1 day');
