-- Hand-written, to append to the generated migration "slug_redirects_and_corrections" (decision 0012).
--
-- Adding or deleting a correction/update note changes what the article page shows, so it must clear
-- every process's page cache like any other content change: the notes table announces its changes on
-- the change channel of migration 0001. (Adding a note also sets articles.modified_at in the same
-- transaction; modified_at is not among the columns of articles_notify_change, so this trigger is
-- what announces it. A save with "Show as updated" writes the article's listed columns and is
-- announced by articles_notify_change as every save is.)
CREATE TRIGGER article_corrections_notify_change AFTER INSERT OR UPDATE OR DELETE ON article_corrections
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_change();--> statement-breakpoint
-- Redirect rows change only together with an article's slug (announced by articles_notify_change),
-- but a row written or removed on its own (a take-over, direct SQL) changes what /article/{old}
-- answers as well.
CREATE TRIGGER article_slug_redirects_notify_change AFTER INSERT OR UPDATE OR DELETE ON article_slug_redirects
  FOR EACH STATEMENT EXECUTE FUNCTION frontpage_notify_change();
