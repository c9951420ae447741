CREATE TABLE "audit_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" text,
	"actor_name" text NOT NULL,
	"kind" text NOT NULL,
	"object_type" text,
	"object_id" text,
	"object_label" text,
	"details" jsonb,
	"ip" text
);
--> statement-breakpoint
CREATE TABLE "invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by_id" text,
	"invited_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"accepted_by_id" text,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "invitations_role_known" CHECK ("invitations"."role" in ('admin', 'editor', 'author'))
);
--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "created_by_id" text;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "review_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "review_requested_by_id" text;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "review_note" text;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "review_note_by_name" text;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "review_note_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_invited_by_id_user_id_fk" FOREIGN KEY ("invited_by_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_accepted_by_id_user_id_fk" FOREIGN KEY ("accepted_by_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_events_at_idx" ON "audit_events" USING btree ("at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_events_actor_at_idx" ON "audit_events" USING btree ("actor_id","at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_events_kind_at_idx" ON "audit_events" USING btree ("kind","at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_events_object_idx" ON "audit_events" USING btree ("object_type","object_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invitations_token_hash_key" ON "invitations" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "invitations_email_idx" ON "invitations" USING btree ("email");--> statement-breakpoint
ALTER TABLE "articles" ADD CONSTRAINT "articles_created_by_id_user_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "articles" ADD CONSTRAINT "articles_review_requested_by_id_user_id_fk" FOREIGN KEY ("review_requested_by_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "articles_created_by_idx" ON "articles" USING btree ("created_by_id");--> statement-breakpoint
CREATE INDEX "articles_review_queue_idx" ON "articles" USING btree ("review_requested_at") WHERE "articles"."review_requested_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "user_roles_user_key" ON "user_roles" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_role_known" CHECK ("user_roles"."role" in ('admin', 'editor', 'author'));--> statement-breakpoint
-- The audit trail is append-only (decision 0017): no UPDATE or DELETE of a row passes, from the app or
-- from anyone else holding the app's login. (TRUNCATE, an owner's maintenance, is not a row change.)
CREATE FUNCTION frontpage_audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events rows cannot be changed or deleted' USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION frontpage_audit_events_append_only();--> statement-breakpoint
-- An article made before roles belongs to whoever saved its first revision (when that is known).
UPDATE articles a SET created_by_id = first.saved_by_id
  FROM (
    SELECT DISTINCT ON (article_id) article_id, saved_by_id
    FROM article_revisions ORDER BY article_id, created_at ASC
  ) first
  WHERE first.article_id = a.id AND a.created_by_id IS NULL AND first.saved_by_id IS NOT NULL;
