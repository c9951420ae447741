ALTER TABLE "website_settings" ADD COLUMN "breaking_news_text" text;--> statement-breakpoint
ALTER TABLE "website_settings" ADD COLUMN "breaking_news_url" text;--> statement-breakpoint
ALTER TABLE "website_settings" ADD COLUMN "breaking_news_expires_at" timestamp with time zone;