-- Newsletters (issue 30): the newsroom's lists, their readers and every send, each recipient a row.
CREATE TABLE "newsletters" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_public" boolean DEFAULT true NOT NULL,
	"sender_name" text,
	"reply_to" text,
	"kind" text DEFAULT 'stories' NOT NULL,
	"digest_frequency" text,
	"digest_weekday" integer,
	"digest_time" text,
	"digest_category_ids" uuid[],
	"track_engagement" boolean DEFAULT false NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"archived_at" timestamp with time zone,
	"last_digest_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "newsletters_kind_check" CHECK ("newsletters"."kind" in ('stories', 'digest')),
	CONSTRAINT "newsletters_digest_check" CHECK ("newsletters"."kind" = 'stories' or ("newsletters"."digest_frequency" in ('daily', 'weekly') and "newsletters"."digest_time" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$' and ("newsletters"."digest_frequency" = 'daily' or "newsletters"."digest_weekday" between 0 and 6)))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "newsletters_slug_key" ON "newsletters" USING btree ("slug");--> statement-breakpoint
CREATE TABLE "subscribers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"token_key" text NOT NULL,
	"consent_source" text,
	"consent_at" timestamp with time zone,
	"signup_article_id" uuid,
	"confirmed_at" timestamp with time zone,
	"unsubscribed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscribers_status_check" CHECK ("subscribers"."status" in ('pending', 'active', 'unsubscribed', 'bounced', 'complained'))
);
--> statement-breakpoint
ALTER TABLE "subscribers" ADD CONSTRAINT "subscribers_signup_article_id_articles_id_fk" FOREIGN KEY ("signup_article_id") REFERENCES "public"."articles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "subscribers_email_key" ON "subscribers" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "subscribers_status_created_at_idx" ON "subscribers" USING btree ("status", "created_at" DESC);--> statement-breakpoint
CREATE INDEX "subscribers_signup_article_idx" ON "subscribers" USING btree ("signup_article_id") WHERE "signup_article_id" IS NOT NULL;--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"subscriber_id" uuid NOT NULL,
	"newsletter_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscriptions_pk" PRIMARY KEY("subscriber_id","newsletter_id")
);
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_subscriber_id_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."subscribers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_newsletter_id_newsletters_id_fk" FOREIGN KEY ("newsletter_id") REFERENCES "public"."newsletters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "subscriptions_newsletter_idx" ON "subscriptions" USING btree ("newsletter_id", "subscriber_id");--> statement-breakpoint
-- A person deleted at their request (GDPR) leaves only this: a later CSV import cannot add them back.
CREATE TABLE "subscriber_tombstones" (
	"email_hash" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- What the editor chose under "Send by e-mail": sent when the story becomes public, once.
CREATE TABLE "article_newsletters" (
	"article_id" uuid NOT NULL,
	"newsletter_id" uuid NOT NULL,
	CONSTRAINT "article_newsletters_pk" PRIMARY KEY("article_id","newsletter_id")
);
--> statement-breakpoint
ALTER TABLE "article_newsletters" ADD CONSTRAINT "article_newsletters_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "article_newsletters" ADD CONSTRAINT "article_newsletters_newsletter_id_newsletters_id_fk" FOREIGN KEY ("newsletter_id") REFERENCES "public"."newsletters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE TABLE "newsletter_sends" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"newsletter_id" uuid NOT NULL,
	"article_id" uuid,
	"kind" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"subject" text NOT NULL,
	"created_by_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"recipients" integer DEFAULT 0 NOT NULL,
	"note" text,
	CONSTRAINT "newsletter_sends_kind_check" CHECK ("newsletter_sends"."kind" in ('story', 'digest')),
	CONSTRAINT "newsletter_sends_status_check" CHECK ("newsletter_sends"."status" in ('queued', 'sending', 'sent', 'cancelled', 'failed', 'skipped'))
);
--> statement-breakpoint
ALTER TABLE "newsletter_sends" ADD CONSTRAINT "newsletter_sends_newsletter_id_newsletters_id_fk" FOREIGN KEY ("newsletter_id") REFERENCES "public"."newsletters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "newsletter_sends" ADD CONSTRAINT "newsletter_sends_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "newsletter_sends" ADD CONSTRAINT "newsletter_sends_created_by_id_user_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Exactly once per story and newsletter: updating, unpublishing and republishing never send again.
CREATE UNIQUE INDEX "newsletter_sends_story_once" ON "newsletter_sends" USING btree ("newsletter_id", "article_id") WHERE "kind" = 'story';--> statement-breakpoint
CREATE INDEX "newsletter_sends_newsletter_created_at_idx" ON "newsletter_sends" USING btree ("newsletter_id", "created_at" DESC);--> statement-breakpoint
-- Each recipient of a send, frozen when the send starts: what was sent, deferred, bounced or failed.
CREATE TABLE "send_recipients" (
	"send_id" uuid NOT NULL,
	"subscriber_id" uuid NOT NULL,
	"email" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"may_be_duplicate" boolean DEFAULT false NOT NULL,
	"opened_at" timestamp with time zone,
	"clicked_at" timestamp with time zone,
	"unsubscribed_at" timestamp with time zone,
	CONSTRAINT "send_recipients_pk" PRIMARY KEY("send_id","subscriber_id"),
	CONSTRAINT "send_recipients_status_check" CHECK ("send_recipients"."status" in ('queued', 'sending', 'sent', 'deferred', 'bounced', 'complained', 'failed', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "send_recipients" ADD CONSTRAINT "send_recipients_send_id_newsletter_sends_id_fk" FOREIGN KEY ("send_id") REFERENCES "public"."newsletter_sends"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "send_recipients_send_status_idx" ON "send_recipients" USING btree ("send_id", "status");--> statement-breakpoint
-- The site's postal address (CAN-SPAM: every newsletter's footer) and the sign-up form's blocked domains.
ALTER TABLE "website_settings" ADD COLUMN "postal_address" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "website_settings" ADD COLUMN "newsletter_blocked_domains" text[] DEFAULT '{}' NOT NULL;
--> statement-breakpoint
-- What readers see of the newsletters (the sign-up forms' choices, /newsletter, the privacy policy's
-- tracking list) is in cached pages: a change to it is announced like any content. A digest's
-- last_digest_at and updated_at alone stay silent, so sending never flushes the page cache.
CREATE TRIGGER newsletters_notify_change AFTER INSERT OR DELETE OR UPDATE OF name, slug, description, is_public, kind, track_engagement, position, archived_at ON newsletters
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_change();
--> statement-breakpoint
-- A site always has one public Stories newsletter, named after the site (issue 30): the one its sign-up
-- forms offer until the newsroom makes more. An existing site takes its name; a new one the seed's.
INSERT INTO "newsletters" ("name", "slug", "description", "kind", "is_public", "position")
SELECT coalesce((SELECT "site_name" FROM "website_settings" WHERE "id" = 1), 'Frontpage'), 'stories', 'Our latest stories, as they are published.', 'stories', true, 0;
