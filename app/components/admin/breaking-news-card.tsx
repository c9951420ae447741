import { Megaphone } from "lucide-react";
import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { SettingsInput } from "~/components/admin/settings-field";
import { Button } from "~/components/ui/button";
import { toast } from "~/components/ui/toaster";
import type { BreakingNews, BreakingNewsField } from "~/domain/settings/breaking-news.schema";
import { formatCommentDate } from "~/lib/dates";
import { refusalNotice, type Refusal } from "~/lib/forms";

export type BreakingNewsActionData = { ok: true; intent: "show-banner" | "remove-banner" } | Refusal<BreakingNewsField>;

/**
 * The dashboard's "Breaking news" card: the banner every reader page shows at its top until it
 * expires or is removed ("Show banner" / "Remove banner"). Works without JavaScript as a plain form.
 */
export function BreakingNewsCard({
  current,
  timeZone,
  defaultExpiresAt,
  liveStories = [],
}: {
  current: BreakingNews | null;
  timeZone: string;
  /** The expiry field's starting value (datetime-local, on the site's clock). */
  defaultExpiresAt: string;
  /** The live stories (issue 31): quick choices for the link (the banner then says "LIVE"). */
  liveStories?: { title: string; slug: string }[];
}) {
  const formRef = useRef<HTMLFormElement>(null);
  /** A quick choice fills the link (and the text, when it is still blank) with the live story's. */
  function choose(story: { title: string; slug: string }) {
    const form = formRef.current;
    if (!form) return;
    const url = form.elements.namedItem("url") as HTMLInputElement | null;
    const text = form.elements.namedItem("text") as HTMLInputElement | null;
    if (url) url.value = `/article/${story.slug}`;
    if (text && text.value.trim() === "") text.value = story.title.slice(0, 200);
    url?.focus();
  }
  const fetcher = useFetcher<BreakingNewsActionData>({ key: "breaking-news" });
  const busy = fetcher.state !== "idle";
  const refusal = fetcher.data && !fetcher.data.ok ? fetcher.data : null;
  const errors = refusal?.fieldErrors ?? {};

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    if (!fetcher.data.ok) toast.error(...refusalNotice(fetcher.data, { marksFields: true }));
    else if (fetcher.data.intent === "show-banner") toast.success("Banner shown", "Every reader page now shows the breaking-news banner.");
    else toast.success("Banner removed", "The breaking-news banner is gone from the site.");
  }, [fetcher.state, fetcher.data]);

  return (
    <section aria-labelledby="breaking-news-heading" className="min-w-0 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="breaking-news-heading" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
        <Megaphone className="h-5 w-5 text-red-700" aria-hidden="true" />
        Breaking news
      </h2>
      <p className="mt-1 text-sm break-words text-slate-700" role="status">
        {current ? (
          <>
            Showing “{current.text}” until {formatCommentDate(current.expiresAt, timeZone)}.
          </>
        ) : (
          "No banner is showing."
        )}
      </p>
      <fetcher.Form ref={formRef} method="post" action="/admin?index" className="mt-4 grid grid-cols-1 gap-4 md:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)]">
        <SettingsInput
          name="text"
          label="Banner text"
          required
          maxLength={200}
          defaultValue={current?.text ?? ""}
          error={errors.text}
        />
        <SettingsInput
          name="url"
          label="Link"
          hint="Optional: https://… or /article/…"
          defaultValue={current?.url ?? ""}
          error={errors.url}
          // Without JavaScript the live stories are the field's suggestions.
          list={liveStories.length > 0 ? "breaking-live-stories" : undefined}
        />
        <SettingsInput
          name="expiresAt"
          label="Expires at"
          type="datetime-local"
          required
          defaultValue={defaultExpiresAt}
          error={errors.expiresAt}
        />
        {liveStories.length > 0 ? (
          <div className="min-w-0 md:col-span-3" data-testid="breaking-live-stories">
            <datalist id="breaking-live-stories">
              {liveStories.map((story) => (
                <option key={story.slug} value={`/article/${story.slug}`}>
                  {story.title}
                </option>
              ))}
            </datalist>
            <p className="text-sm font-medium text-slate-800">Live stories: link the banner to one (it then says LIVE)</p>
            <div className="mt-2 flex flex-wrap gap-2">
              {liveStories.map((story) => (
                <Button key={story.slug} type="button" variant="outline" size="sm" className="max-w-full" onClick={() => choose(story)}>
                  <span aria-hidden="true" className="rounded bg-red-700 px-1 text-[10px] font-bold text-white">
                    LIVE
                  </span>
                  <span className="min-w-0 truncate">{story.title}</span>
                </Button>
              ))}
            </div>
          </div>
        ) : null}
        <div className="flex flex-wrap gap-2 md:col-span-3">
          <Button type="submit" name="intent" value="show-banner" disabled={busy}>
            Show banner
          </Button>
          <Button type="submit" name="intent" value="remove-banner" variant="outline" disabled={busy || !current} formNoValidate>
            Remove banner
          </Button>
        </div>
      </fetcher.Form>
    </section>
  );
}
