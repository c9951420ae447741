import { useEffect } from "react";
import { Link, useFetcher } from "react-router";
import { toast } from "~/components/ui/toaster";
import type { HomePlacement } from "~/domain/front-page/front-page.schema";
import { refusalNotice } from "~/lib/forms";
import type { FrontPageActionData } from "./front-page-editor";

/**
 * "Feature on the front page" in a story's settings (issue 27, decision 0034): on, the story is pinned
 * as one of the home page's top stories until removed; off, its pin goes. It posts with its own fetcher
 * to /admin/front-page (intent=feature/unfeature), so it is never part of the article form's own
 * submission, and the server checks the role and that the story is public. For editors and admins
 * (frontPage.manage): the screen that shows it hides it from authors.
 */
export function FrontPageFeatureToggle({
  articleId,
  placement,
  isPublic,
}: {
  articleId: string;
  /** Where the story is pinned on the home page now (frontPagePlacementOf), or null. */
  placement: HomePlacement | null;
  /** Whether readers can see the story now: only a public story can be featured. */
  isPublic: boolean;
}) {
  const fetcher = useFetcher<FrontPageActionData>({ key: `front-page-feature-${articleId}` });
  const pendingIntent = fetcher.formData?.get("intent");
  const featured = pendingIntent ? pendingIntent === "feature" : placement !== null;

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    if (fetcher.data.ok) toast.success("Front page updated", fetcher.data.message);
    else toast.error(...refusalNotice(fetcher.data));
  }, [fetcher.state, fetcher.data]);

  const hintId = `front-page-feature-hint-${articleId}`;
  return (
    <div className="flex items-start gap-3">
      <input
        id={`front-page-feature-${articleId}`}
        type="checkbox"
        role="switch"
        checked={featured}
        disabled={(!isPublic && !featured) || fetcher.state !== "idle"}
        aria-describedby={hintId}
        onChange={(event) =>
          void fetcher.submit({ intent: event.target.checked ? "feature" : "unfeature", articleId }, { method: "post", action: "/admin/front-page" })
        }
        className="mt-0.5 size-4 accent-brand-700"
      />
      <div className="min-w-0">
        <label htmlFor={`front-page-feature-${articleId}`} className="text-sm font-medium text-slate-900">
          Feature on the front page
        </label>
        <p id={hintId} className="text-xs text-slate-600">
          {placement === "lead"
            ? "This story is the home page's lead. "
            : featured
              ? "A top story on the home page, until removed. "
              : isPublic
                ? "Pins it among the home page's top stories. "
                : "Publish the story first: only a public story can be featured. "}
          <Link to="/admin/front-page" className="text-brand-700 underline underline-offset-2">
            Arrange the front page
          </Link>
        </p>
      </div>
    </div>
  );
}
