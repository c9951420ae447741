import { useEffect } from "react";
import { useLocation, useNavigate } from "react-router";
import { toast } from "~/components/ui/toaster";
import { formatPublishDate, useSiteTimeZone } from "~/lib/dates";
import { PUBLISHED_FLAG } from "~/domain/articles/story-live.schema";

/** A notice a redirect carries to the next page as `?notice=<key>` (only known keys are shown). */
export interface Notice {
  kind: "success" | "error";
  title: string;
  description: string;
}

export const ADMIN_NOTICES = {
  "article-created": { kind: "success", title: "Success", description: "Article created successfully" },
  "article-updated": { kind: "success", title: "Success", description: "Article updated successfully" },
  // "Back to articles" of "Your story is live" (issue 41): the list says the story was published.
  "article-published": { kind: "success", title: "Success", description: "Article published successfully" },
  "article-load-failed": { kind: "error", title: "Error", description: "Failed to load article" },
  "article-draft-saved": { kind: "success", title: "Draft saved", description: "Readers will not see it until it is published." },
  // "{date}" is the `at` parameter (an ISO time), shown in the site's time zone.
  "article-scheduled": { kind: "success", title: "Article scheduled", description: "Article scheduled for {date}" },
  "article-unpublished": { kind: "success", title: "Article unpublished", description: "The article is a draft again and no longer public." },
  "article-saved-for-later": { kind: "success", title: "Saved for later", description: "Readers still see the published version until you press Update Article." },
  "article-changes-discarded": { kind: "success", title: "Changes discarded", description: "The form shows the story as readers see it." },
  "article-submitted": { kind: "success", title: "Submitted for review", description: "An editor will publish it or send it back with a note." },
  "article-sent-back": { kind: "success", title: "Sent back", description: "The author sees your note on the draft." },
  "note-added": { kind: "success", title: "Note added", description: "It shows under the byline on the article page." },
  "note-deleted": { kind: "success", title: "Note deleted", description: "It no longer shows on the article page." },
  "page-saved": { kind: "success", title: "Page saved", description: "Readers will not see it until it is published." },
  "page-published": { kind: "success", title: "Page published", description: "Readers see it at its address now." },
  "page-updated": { kind: "success", title: "Page updated", description: "Readers see the new version now." },
  "page-unpublished": { kind: "success", title: "Page unpublished", description: "The page is a draft again and no longer public." },
  "advertiser-added": { kind: "success", title: "Advertiser added", description: "Add a campaign for it next." },
  "advertiser-deleted": { kind: "success", title: "Advertiser deleted", description: "It is no longer listed." },
  "campaign-created": { kind: "success", title: "Campaign created", description: "Add its creatives: it shows only where it has one of the slot's size." },
  "campaign-deleted": { kind: "success", title: "Campaign deleted", description: "It had never been shown, so no figures were lost." },
  "member-deleted": { kind: "success", title: "Member deleted", description: "Only a hash of the address is kept, so an import cannot add them back." },
} as const satisfies Record<string, Notice>;

export type AdminNoticeKey = keyof typeof ADMIN_NOTICES;

/** A path with `?notice=` appended (and `&at=` for a notice naming a time), for a redirect after a successful action. */
export function withNotice(path: string, notice: AdminNoticeKey, at?: Date): string {
  return `${path}${path.includes("?") ? "&" : "?"}notice=${notice}${at ? `&at=${encodeURIComponent(at.toISOString())}` : ""}`;
}

// Location keys already announced: a re-run effect (Strict Mode, re-render) must not toast twice.
const shown = new Set<string>();

/** Shows the notice named in the URL once, then removes it from the address bar. */
export function useNoticeToast() {
  const location = useLocation();
  const navigate = useNavigate();
  const timeZone = useSiteTimeZone();
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    const key = params.get("notice");
    if (!key) return;
    if (!shown.has(location.key)) {
      shown.add(location.key);
      const notice = (ADMIN_NOTICES as Record<string, Notice>)[key];
      const at = params.get("at");
      const date = at && !Number.isNaN(Date.parse(at)) ? formatPublishDate(at, timeZone) : "the chosen time";
      if (notice) toast[notice.kind](notice.title, notice.description.replace("{date}", date));
    }
    params.delete("notice");
    params.delete("at");
    const search = params.toString();
    navigate({ pathname: location.pathname, search: search ? `?${search}` : "" }, { replace: true, preventScrollReset: true });
  }, [location.key, location.search, location.pathname, navigate, timeZone]);
}

/**
 * Where a save of the article form goes: a draft stays in its form (which now offers Preview), a
 * scheduled article goes to the list with "Article scheduled for {date}". A save that made the story
 * public stays on its edit page with "Your story is live" (issue 41); another save of a published
 * story goes to the list with the spec's notice `published` ("Article created/updated successfully").
 */
export function pathAfterArticleSave(
  article: { id: string; status: "draft" | "scheduled" | "published"; publishedAt: Date | null; justPublished?: boolean },
  published: "article-created" | "article-updated",
): string {
  if (article.status === "draft") return withNotice(`/admin/articles/edit/${article.id}`, "article-draft-saved");
  if (article.status === "published" && article.justPublished) return `/admin/articles/edit/${article.id}?${PUBLISHED_FLAG}=1`;
  if (article.status === "scheduled") return withNotice("/admin/articles", "article-scheduled", article.publishedAt ?? undefined);
  return withNotice("/admin/articles", published);
}
