import { Form, Link } from "react-router";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { FilterSelect } from "~/components/admin/filter-select";
import { Pagination } from "~/components/pagination";
import { Button } from "~/components/ui/button";
import { requireCapability } from "~/domain/accounts/guard.server";
import { ACTIVITY_KINDS, isActivityKind } from "~/domain/activity/activity.schema";
import { listActivity, listActivityPeople, type ActivityRow } from "~/domain/activity/activity.server";
import { formatPublishDate } from "~/lib/dates";
import { formatQuantity } from "~/lib/numbers";
import { pageCountOrRedirect, pageFromUrl } from "~/lib/pagination";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/activity";

/** Entries per page of the activity log. */
export const ACTIVITY_PAGE_SIZE = 50;

/** Where an entry's object can be opened in the back office (while it exists; a deleted one is its label only). */
function objectLink(row: ActivityRow): string | null {
  if (!row.objectId || row.kind.endsWith(".delete")) return null;
  if (row.objectType === "article") return `/admin/articles/edit/${row.objectId}`;
  if (row.objectType === "author") return "/admin/authors";
  if (row.objectType === "category") return "/admin/categories";
  if (row.objectType === "tag") return "/admin/tags";
  if (row.objectType === "page") return `/admin/pages/edit/${row.objectId}`;
  if (row.objectType === "comment") return "/admin/comments";
  if (row.objectType === "settings") return "/admin/settings";
  if (row.objectType === "newsletter") return `/admin/newsletters/${row.objectId}`;
  if (row.objectType === "tier") return "/admin/members/tiers";
  if (row.objectType === "member") return `/admin/members/${row.objectId}`;
  return null;
}

/** A short, readable line of the entry's details (never more than the facts it keeps). */
function detailsText(row: ActivityRow): string {
  const details = (row.details ?? {}) as Record<string, unknown>;
  const parts: string[] = [];
  if (typeof details.status === "string" && !row.kind.endsWith("publish")) parts.push(`now ${details.status}`);
  if (details.scheduled === true) parts.push("by the scheduler");
  if (typeof details.from === "string") parts.push(`from the ${details.from}`);
  if (Array.isArray(details.changed)) parts.push(details.changed.length ? `changed: ${details.changed.join(", ")}` : "nothing changed");
  if (typeof details.role === "string") parts.push(`role: ${details.role}`);
  if (typeof details.previous === "string") parts.push(`was: ${details.previous}`);
  if (typeof details.note === "string") parts.push(`note: “${details.note.length > 120 ? `${details.note.slice(0, 117)}…` : details.note}”`);
  if (row.ip && row.kind.startsWith("sign_in")) parts.push(`from ${row.ip}`);
  return parts.join(" · ");
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireCapability(request, context, "activity.view");
  const url = new URL(request.url);
  const person = url.searchParams.get("person") || null;
  const requestedKind = url.searchParams.get("kind");
  const kind = isActivityKind(requestedKind) ? requestedKind : null;
  const page = pageFromUrl(request.url);
  const [{ rows, total }, people] = await Promise.all([
    listActivity(context.db, { actorId: person, kind }, page, ACTIVITY_PAGE_SIZE),
    listActivityPeople(context.db),
  ]);
  const pageCount = pageCountOrRedirect(request.url, page, total, ACTIVITY_PAGE_SIZE);
  const timeZone = context.env.TIME_ZONE;
  return {
    entries: rows.map((row) => ({
      id: row.id,
      at: row.at.toISOString(),
      when: formatPublishDate(row.at, timeZone),
      who: row.actorName,
      what: isActivityKind(row.kind) ? ACTIVITY_KINDS[row.kind] : row.kind,
      kind: row.kind,
      object: row.objectLabel,
      link: objectLink(row),
      details: detailsText(row),
    })),
    people,
    person,
    kind,
    page,
    pageCount,
    total,
  };
}

export const meta: Route.MetaFunction = ({ matches }) => backOfficeMeta(matches, { title: "Activity", path: "/admin/activity" });

const SELECT = "h-10 w-64 max-w-full rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900";

export default function AdminActivity({ loaderData }: Route.ComponentProps) {
  const { entries, people, person, kind, page, pageCount, total } = loaderData;
  const query = new URLSearchParams({ ...(person ? { person } : {}), ...(kind ? { kind } : {}) }).toString();
  return (
    <main className="mx-auto w-full min-w-0 max-w-6xl flex-1 px-4 py-8">
      <AdminPageHeader
        title="Activity"
        description={
          <>
            Every back-office change and sign-in, newest first ({formatQuantity(total, "entry", "entries")}). Entries cannot be edited.
          </>
        }
       
      />

      <Form method="get" className="mb-4 flex flex-wrap items-end gap-2" aria-label="Filter activity">
        <FilterSelect
          id="activity-person"
          name="person"
          label="Person"
          value={person}
          allLabel="Everyone"
          options={people.map((p) => [p.id, p.name] as const)}
          className={SELECT}
        />
        <FilterSelect id="activity-kind" name="kind" label="What" value={kind} allLabel="Everything" options={Object.entries(ACTIVITY_KINDS)} className={SELECT} />
        <Button type="submit" variant="outline">
          Filter
        </Button>
      </Form>

      {entries.length === 0 ? (
        <p className="rounded-lg border border-slate-200 bg-white py-16 text-center text-slate-700">Nothing has been recorded{query ? " for this filter" : ""} yet.</p>
      ) : (
        <ol aria-label="Activity, newest first" className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {entries.map((entry) => (
            <li key={entry.id} className="grid gap-x-4 gap-y-1 px-4 py-3 text-sm md:grid-cols-[11rem_minmax(0,14rem)_minmax(0,1fr)]" data-kind={entry.kind}>
              <time dateTime={entry.at} className="text-slate-700">
                {entry.when}
              </time>
              <span className="min-w-0 break-words font-medium text-slate-900">{entry.who}</span>
              <span className="min-w-0 break-words text-slate-800">
                <span className="font-medium">{entry.what}</span>
                {entry.object ? (
                  <>
                    {": "}
                    {entry.link ? (
                      <Link to={entry.link} className="text-brand-700 hover:underline">
                        {entry.object}
                      </Link>
                    ) : (
                      entry.object
                    )}
                  </>
                ) : null}
                {entry.details ? <span className="block text-xs text-slate-600">{entry.details}</span> : null}
              </span>
            </li>
          ))}
        </ol>
      )}
      <Pagination basePath={query ? `/admin/activity?${query}` : "/admin/activity"} page={page} pageCount={pageCount} className="mt-6" />
    </main>
  );
}
