DROP INDEX "articles_status_published_at_idx";--> statement-breakpoint
DROP INDEX "articles_category_status_published_at_idx";--> statement-breakpoint
CREATE INDEX "articles_status_published_at_idx" ON "articles" USING btree ("status","published_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "articles_category_status_published_at_idx" ON "articles" USING btree ("category_id","status","published_at" DESC NULLS LAST,"id" DESC NULLS LAST);