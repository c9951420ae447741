import { CalendarClock, FilePen, Inbox, Newspaper, Undo2, type LucideIcon } from "lucide-react";
import { Link } from "react-router";
import { formatCount } from "~/domain/stats/periods";
import { WORK_LISTS, type WorkList, type WorkListKey } from "~/domain/stats/work.schema";
import { formatPublishDate } from "~/lib/dates";

const ICONS: Record<WorkListKey, LucideIcon> = {
  myDrafts: FilePen,
  sentBack: Undo2,
  myScheduled: CalendarClock,
  myPublished: Newspaper,
  review: Inbox,
  scheduled: CalendarClock,
  published: Newspaper,
};

/** Lists that ask for action stand out while they hold something. */
const URGENT: ReadonlySet<WorkListKey> = new Set(["sentBack", "review"]);

/** Where "See all" goes for each list (the article list, filtered). */
const SEE_ALL: Record<WorkListKey, string> = {
  myDrafts: "/admin/articles?status=draft&mine=1",
  sentBack: "/admin/articles?status=draft&mine=1",
  myScheduled: "/admin/articles?status=scheduled&mine=1",
  myPublished: "/admin/articles?status=published&mine=1",
  review: "/admin/articles?status=review",
  scheduled: "/admin/articles?status=scheduled",
  published: "/admin/articles?status=published",
};

function WorkCard({ list, timeZone }: { list: WorkList; timeZone: string }) {
  const { title, empty, timeLabel } = WORK_LISTS[list.key];
  const Icon = ICONS[list.key];
  const headingId = `work-${list.key}`;
  const urgent = URGENT.has(list.key) && list.total > 0;
  return (
    <section
      aria-labelledby={headingId}
      className={`min-w-0 rounded-lg border bg-white p-5 ${urgent ? "border-amber-400" : "border-slate-200"}`}
      data-work={list.key}
    >
      <h2 id={headingId} className="mb-3 flex items-center gap-2 text-base font-semibold text-slate-900">
        <Icon className={`h-5 w-5 ${urgent ? "text-amber-700" : "text-brand-700"}`} aria-hidden="true" />
        {title} ({formatCount(list.total)})
      </h2>
      {list.items.length === 0 ? (
        <p className="text-sm text-slate-700">{empty}</p>
      ) : (
        <ul className="divide-y divide-slate-200">
          {list.items.map((item) => (
            <li key={item.id} className="py-2 text-sm">
              {item.href ? (
                <Link to={item.href} className="block font-medium break-words text-brand-700 hover:underline">
                  {item.title}
                </Link>
              ) : (
                <span className="block font-medium break-words text-slate-900">{item.title}</span>
              )}
              <span className="block text-xs text-slate-700">
                {timeLabel} <time dateTime={item.at}>{formatPublishDate(item.at, timeZone)}</time>
                {item.detail ? ` · ${item.detail}` : null}
              </span>
            </li>
          ))}
        </ul>
      )}
      {list.total > list.items.length ? (
        <p className="mt-2 text-sm">
          <Link to={SEE_ALL[list.key]} className="text-brand-700 underline">
            See all {formatCount(list.total)}
          </Link>
        </p>
      ) : null}
    </section>
  );
}

/** The dashboard's first block: the viewer's work, by role (an author's four lists, an editor's three). */
export function DashboardWork({ lists, timeZone }: { lists: WorkList[]; timeZone: string }) {
  return (
    <div className={`grid gap-4 md:grid-cols-2 ${lists.length === 3 ? "xl:grid-cols-3" : "xl:grid-cols-4"}`}>
      {lists.map((list) => (
        <WorkCard key={list.key} list={list} timeZone={timeZone} />
      ))}
    </div>
  );
}
