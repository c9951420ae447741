import { useEffect } from "react";
import { useLocation, useNavigate } from "react-router";
import { toast } from "~/components/ui/toaster";

/** A notice a redirect carries to the next page as `?notice=<key>` (only known keys are shown). */
export interface Notice {
  kind: "success" | "error";
  title: string;
  description: string;
}

export const ADMIN_NOTICES = {
  "article-created": { kind: "success", title: "Success", description: "Article created successfully" },
  "article-updated": { kind: "success", title: "Success", description: "Article updated successfully" },
  "article-load-failed": { kind: "error", title: "Error", description: "Failed to load article" },
} as const satisfies Record<string, Notice>;

export type AdminNoticeKey = keyof typeof ADMIN_NOTICES;

/** A path with `?notice=` appended, for a redirect after a successful action. */
export function withNotice(path: string, notice: AdminNoticeKey): string {
  return `${path}${path.includes("?") ? "&" : "?"}notice=${notice}`;
}

// Location keys already announced: a re-run effect (Strict Mode, re-render) must not toast twice.
const shown = new Set<string>();

/** Shows the notice named in the URL once, then removes it from the address bar. */
export function useNoticeToast() {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    const key = params.get("notice");
    if (!key) return;
    if (!shown.has(location.key)) {
      shown.add(location.key);
      const notice = (ADMIN_NOTICES as Record<string, Notice>)[key];
      if (notice) toast[notice.kind](notice.title, notice.description);
    }
    params.delete("notice");
    const search = params.toString();
    navigate({ pathname: location.pathname, search: search ? `?${search}` : "" }, { replace: true, preventScrollReset: true });
  }, [location.key, location.search, location.pathname, navigate]);
}
