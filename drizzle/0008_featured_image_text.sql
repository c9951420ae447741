ALTER TABLE "article_revisions" ADD COLUMN "featured_image_alt" text;--> statement-breakpoint
ALTER TABLE "article_revisions" ADD COLUMN "featured_image_caption" text;--> statement-breakpoint
ALTER TABLE "article_revisions" ADD COLUMN "featured_image_credit" text;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "featured_image_alt" text;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "featured_image_caption" text;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "featured_image_credit" text;