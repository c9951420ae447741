CREATE TABLE "member_account" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"user_id" uuid NOT NULL,
	"access_token" text,
	"refresh_token" text,
	"id_token" text,
	"access_token_expires_at" timestamp with time zone,
	"refresh_token_expires_at" timestamp with time zone,
	"scope" text,
	"password" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "member_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"member_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "member_invoices" (
	"stripe_invoice_id" text PRIMARY KEY NOT NULL,
	"member_id" uuid,
	"stripe_subscription_id" text,
	"amount_paid" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "member_reads" (
	"member_id" uuid NOT NULL,
	"article_id" uuid NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "member_reads_pk" PRIMARY KEY("member_id","article_id")
);
--> statement-breakpoint
CREATE TABLE "member_session" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip_address" text,
	"user_agent" text,
	"user_id" uuid NOT NULL,
	CONSTRAINT "member_session_token_unique" UNIQUE("token")
);
--> statement-breakpoint
CREATE TABLE "member_subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"member_id" uuid,
	"stripe_subscription_id" text NOT NULL,
	"stripe_customer_id" text NOT NULL,
	"tier_id" uuid,
	"status" text NOT NULL,
	"cadence" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"current_period_end" timestamp with time zone,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"trial_end" timestamp with time zone,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "member_tiers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"benefits" text[] DEFAULT '{}'::text[] NOT NULL,
	"monthly_price" integer NOT NULL,
	"yearly_price" integer NOT NULL,
	"currency" text NOT NULL,
	"trial_days" integer DEFAULT 0 NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"archived_at" timestamp with time zone,
	"stripe_product_id" text,
	"stripe_monthly_price_id" text,
	"stripe_yearly_price_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "member_tiers_prices" CHECK ("member_tiers"."monthly_price" >= 0 and "member_tiers"."yearly_price" >= 0 and "member_tiers"."trial_days" >= 0)
);
--> statement-breakpoint
CREATE TABLE "member_verification" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"identifier" text NOT NULL,
	"value" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stripe_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"stripe_created_at" timestamp with time zone NOT NULL,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "free_content" text;--> statement-breakpoint
ALTER TABLE "articles" drop column "search_vector";--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', coalesce(title, '')), 'A') || setweight(to_tsvector('english', coalesce(excerpt, '')), 'B') || setweight(to_tsvector('english', coalesce(free_content, content, '')), 'C')) STORED;--> statement-breakpoint
ALTER TABLE "subscribers" ALTER COLUMN "token_key" SET DEFAULT replace(gen_random_uuid()::text, '-', '');--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "access" text DEFAULT 'public' NOT NULL;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "access_tier_id" uuid;--> statement-breakpoint
ALTER TABLE "subscribers" ADD COLUMN "email_verified" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "subscribers" ADD COLUMN "image" text;--> statement-breakpoint
ALTER TABLE "subscribers" ADD COLUMN "stripe_customer_id" text;--> statement-breakpoint
ALTER TABLE "subscribers" ADD COLUMN "comp_tier_id" uuid;--> statement-breakpoint
ALTER TABLE "subscribers" ADD COLUMN "comp_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscribers" ADD COLUMN "access_changed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "website_settings" ADD COLUMN "paywall_paragraphs" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "website_settings" ADD COLUMN "meter_anonymous" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "website_settings" ADD COLUMN "meter_members" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "member_account" ADD CONSTRAINT "member_account_user_id_subscribers_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."subscribers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_events" ADD CONSTRAINT "member_events_member_id_subscribers_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."subscribers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_invoices" ADD CONSTRAINT "member_invoices_member_id_subscribers_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."subscribers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_reads" ADD CONSTRAINT "member_reads_member_id_subscribers_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."subscribers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_reads" ADD CONSTRAINT "member_reads_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_session" ADD CONSTRAINT "member_session_user_id_subscribers_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."subscribers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_subscriptions" ADD CONSTRAINT "member_subscriptions_member_id_subscribers_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."subscribers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_subscriptions" ADD CONSTRAINT "member_subscriptions_tier_id_member_tiers_id_fk" FOREIGN KEY ("tier_id") REFERENCES "public"."member_tiers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_account_user_id_idx" ON "member_account" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "member_events_member_created_at_idx" ON "member_events" USING btree ("member_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "member_invoices_member_idx" ON "member_invoices" USING btree ("member_id");--> statement-breakpoint
CREATE INDEX "member_reads_member_read_at_idx" ON "member_reads" USING btree ("member_id","read_at");--> statement-breakpoint
CREATE INDEX "member_session_user_id_idx" ON "member_session" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "member_subscriptions_stripe_key" ON "member_subscriptions" USING btree ("stripe_subscription_id");--> statement-breakpoint
CREATE INDEX "member_subscriptions_member_idx" ON "member_subscriptions" USING btree ("member_id");--> statement-breakpoint
CREATE INDEX "member_subscriptions_status_idx" ON "member_subscriptions" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "member_tiers_slug_key" ON "member_tiers" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "member_verification_identifier_idx" ON "member_verification" USING btree ("identifier");--> statement-breakpoint
ALTER TABLE "articles" ADD CONSTRAINT "articles_access_tier_id_member_tiers_id_fk" FOREIGN KEY ("access_tier_id") REFERENCES "public"."member_tiers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscribers" ADD CONSTRAINT "subscribers_comp_tier_id_member_tiers_id_fk" FOREIGN KEY ("comp_tier_id") REFERENCES "public"."member_tiers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "subscribers_stripe_customer_key" ON "subscribers" USING btree ("stripe_customer_id");--> statement-breakpoint
ALTER TABLE "articles" ADD CONSTRAINT "articles_access_known" CHECK ("articles"."access" in ('public', 'members', 'paid'));--> statement-breakpoint
CREATE INDEX "articles_search_vector_idx" ON "articles" USING gin ("search_vector");--> statement-breakpoint
-- A confirmed newsletter subscriber has proved their address: the same member, signed in by link.
UPDATE "subscribers" SET "email_verified" = true WHERE "confirmed_at" IS NOT NULL;--> statement-breakpoint
-- Members sign in by their address, which Better Auth looks up lower-cased (decision 0054).
UPDATE "subscribers" SET "email" = lower("email") WHERE "email" <> lower("email");
