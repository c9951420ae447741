ALTER TABLE "articles" ADD COLUMN "featured_image_focal_x" real;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "featured_image_focal_y" real;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "seo_title" text;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "seo_description" text;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "social_image" text;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "focal_x" real;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "focal_y" real;--> statement-breakpoint
ALTER TABLE "articles" ADD CONSTRAINT "articles_featured_image_focal_range" CHECK (("articles"."featured_image_focal_x" is null) = ("articles"."featured_image_focal_y" is null) and coalesce("articles"."featured_image_focal_x" between 0 and 1 and "articles"."featured_image_focal_y" between 0 and 1, true));--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_focal_point_range" CHECK (("media"."focal_x" is null) = ("media"."focal_y" is null) and coalesce("media"."focal_x" between 0 and 1 and "media"."focal_y" between 0 and 1, true));