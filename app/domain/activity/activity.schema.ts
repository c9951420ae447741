// The audit trail's kinds of entry (decision 0017), browser-safe: the activity screen's filter and
// labels read this table, and recordActivity accepts only these kinds.

export const ACTIVITY_KINDS = {
  "article.create": "Article created",
  "article.update": "Article updated",
  "article.publish": "Article published",
  "article.schedule": "Article scheduled",
  "article.unpublish": "Article unpublished",
  "article.delete": "Article deleted",
  "article.submit": "Submitted for review",
  "article.send_back": "Sent back to the author",
  "article.note": "Correction or update note",
  "article.discard_changes": "Changes saved for later discarded",
  "article.revoke_preview_links": "Preview links revoked",
  "author.create": "Author created",
  "author.update": "Author updated",
  "author.delete": "Author deleted",
  "category.create": "Category created",
  "category.update": "Category updated",
  "category.delete": "Category deleted",
  "tag.create": "Tag created",
  "tag.rename": "Tag renamed",
  "tag.merge": "Tags merged",
  "tag.delete": "Tag deleted",
  "page.create": "Page created",
  "page.update": "Page updated",
  "page.publish": "Page published",
  "page.unpublish": "Page unpublished",
  "redirect.create": "Redirect added",
  "redirect.update": "Redirect changed",
  "redirect.delete": "Redirect deleted",
  "redirect.import": "Redirects imported",
  "media.upload": "Media uploaded",
  "media.delete": "Media deleted",
  "comment.delete": "Comment deleted",
  "comment.approve": "Comment approved",
  "comment.block": "Commenter blocked",
  "comment.unblock": "Commenter unblocked",
  "settings.update": "Settings updated",
  "breaking_news.update": "Breaking news changed",
  "front_page.update": "Front page changed",
  "role.change": "Role changed",
  "invitation.create": "Invitation sent",
  "invitation.revoke": "Invitation withdrawn",
  "invitation.accept": "Invitation accepted",
  "sign_in.success": "Signed in",
  "account.two_factor_on": "Two-factor turned on",
  "account.two_factor_off": "Two-factor turned off",
  "account.password_change": "Password changed",
  "account.sign_out_everywhere": "Signed out everywhere",
  "team.require_two_factor": "Two-factor requirement changed",
  "sign_in.failure": "Sign-in failed",
  "sign_in.slowed": "Sign-ins slowed for an account",
  "import.start": "Import started",
  "import.finish": "Import finished",
} as const;

export type ActivityKind = keyof typeof ACTIVITY_KINDS;

export function isActivityKind(value: unknown): value is ActivityKind {
  return typeof value === "string" && Object.hasOwn(ACTIVITY_KINDS, value);
}

/** What an entry is about. */
export type ActivityObjectType = "article" | "author" | "category" | "tag" | "page" | "redirect" | "media" | "comment" | "settings" | "account" | "invitation" | "import";
