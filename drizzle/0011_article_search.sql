ALTER TABLE "articles" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', coalesce(title, '')), 'A') || setweight(to_tsvector('english', coalesce(excerpt, '')), 'B') || setweight(to_tsvector('english', coalesce(content, '')), 'C')) STORED;--> statement-breakpoint
CREATE INDEX "articles_search_vector_idx" ON "articles" USING gin ("search_vector");--> statement-breakpoint
-- Keep the table's rows narrow (decision 0018): a row's long text (body, search vector) goes to TOAST
-- storage beyond 256 bytes, so index and bitmap scans over many articles read few pages, and a vector
-- is only read where a search ranks or highlights it.
ALTER TABLE "articles" SET (toast_tuple_target = 256);
