CREATE TYPE "public"."ad_creative_kind" AS ENUM('image', 'text');--> statement-breakpoint
CREATE TYPE "public"."ad_priority" AS ENUM('sponsorship', 'standard', 'house');--> statement-breakpoint
CREATE TABLE "ad_campaigns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"advertiser_id" uuid NOT NULL,
	"name" text NOT NULL,
	"starts_on" date NOT NULL,
	"ends_on" date NOT NULL,
	"slots" text[] NOT NULL,
	"category_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"priority" "ad_priority" DEFAULT 'standard' NOT NULL,
	"weight" integer DEFAULT 1 NOT NULL,
	"impression_goal" integer,
	"paused" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ad_campaigns_dates" CHECK ("ad_campaigns"."ends_on" >= "ad_campaigns"."starts_on"),
	CONSTRAINT "ad_campaigns_weight" CHECK ("ad_campaigns"."weight" between 1 and 1000),
	CONSTRAINT "ad_campaigns_goal" CHECK ("ad_campaigns"."impression_goal" is null or "ad_campaigns"."impression_goal" > 0),
	CONSTRAINT "ad_campaigns_slots" CHECK (cardinality("ad_campaigns"."slots") > 0)
);
--> statement-breakpoint
CREATE TABLE "ad_creatives" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"campaign_id" uuid NOT NULL,
	"size" text NOT NULL,
	"kind" "ad_creative_kind" NOT NULL,
	"media_id" uuid,
	"alt" text DEFAULT '' NOT NULL,
	"headline" text DEFAULT '' NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"link_url" text NOT NULL,
	"archived" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ad_creatives_size" CHECK ("ad_creatives"."size" in ('banner', 'box')),
	CONSTRAINT "ad_creatives_image" CHECK ("ad_creatives"."kind" <> 'image' or ("ad_creatives"."media_id" is not null and length(btrim("ad_creatives"."alt")) > 0)),
	CONSTRAINT "ad_creatives_text" CHECK ("ad_creatives"."kind" <> 'text' or length(btrim("ad_creatives"."headline")) > 0)
);
--> statement-breakpoint
CREATE TABLE "ad_days" (
	"day" date NOT NULL,
	"campaign_id" uuid NOT NULL,
	"creative_id" uuid NOT NULL,
	"slot" text NOT NULL,
	"impressions" bigint DEFAULT 0 NOT NULL,
	"viewable" bigint DEFAULT 0 NOT NULL,
	"clicks" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "ad_days_day_campaign_id_creative_id_slot_pk" PRIMARY KEY("day","campaign_id","creative_id","slot")
);
--> statement-breakpoint
CREATE TABLE "ad_marks" (
	"day" date NOT NULL,
	"kind" text NOT NULL,
	"key" "bytea" NOT NULL,
	CONSTRAINT "ad_marks_day_kind_key_pk" PRIMARY KEY("day","kind","key"),
	CONSTRAINT "ad_marks_kind" CHECK ("ad_marks"."kind" in ('click', 'view'))
);
--> statement-breakpoint
CREATE TABLE "advertisers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"contact_name" text DEFAULT '' NOT NULL,
	"contact_email" text DEFAULT '' NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"house" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_grants" (
	"user_id" text NOT NULL,
	"capability" text NOT NULL,
	"granted_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_grants_user_id_capability_pk" PRIMARY KEY("user_id","capability")
);
--> statement-breakpoint
ALTER TABLE "website_settings" ADD COLUMN "ad_consent_required" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "ad_campaigns" ADD CONSTRAINT "ad_campaigns_advertiser_id_advertisers_id_fk" FOREIGN KEY ("advertiser_id") REFERENCES "public"."advertisers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ad_creatives" ADD CONSTRAINT "ad_creatives_campaign_id_ad_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."ad_campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ad_creatives" ADD CONSTRAINT "ad_creatives_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ad_days" ADD CONSTRAINT "ad_days_campaign_id_ad_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."ad_campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ad_days" ADD CONSTRAINT "ad_days_creative_id_ad_creatives_id_fk" FOREIGN KEY ("creative_id") REFERENCES "public"."ad_creatives"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_grants" ADD CONSTRAINT "user_grants_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_grants" ADD CONSTRAINT "user_grants_granted_by_user_id_fk" FOREIGN KEY ("granted_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ad_campaigns_advertiser_idx" ON "ad_campaigns" USING btree ("advertiser_id");--> statement-breakpoint
CREATE INDEX "ad_campaigns_ends_on_idx" ON "ad_campaigns" USING btree ("ends_on");--> statement-breakpoint
CREATE INDEX "ad_creatives_campaign_idx" ON "ad_creatives" USING btree ("campaign_id");--> statement-breakpoint
CREATE INDEX "ad_days_campaign_day_idx" ON "ad_days" USING btree ("campaign_id","day");--> statement-breakpoint
CREATE UNIQUE INDEX "advertisers_name_key" ON "advertisers" USING btree (lower("name"));--> statement-breakpoint
-- Advertising (issue 43): each process holds the live campaigns in memory and reloads them on these
-- notices (app/domain/ads/ad-book.server.ts). No page depends on them (ads are filled at the door).
CREATE TRIGGER advertisers_notify_change AFTER INSERT OR UPDATE OR DELETE ON advertisers
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_change();
--> statement-breakpoint
CREATE TRIGGER ad_campaigns_notify_change AFTER INSERT OR UPDATE OR DELETE ON ad_campaigns
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_change();
--> statement-breakpoint
CREATE TRIGGER ad_creatives_notify_change AFTER INSERT OR UPDATE OR DELETE ON ad_creatives
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_change();
--> statement-breakpoint
