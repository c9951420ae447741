import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { Link, useRouteLoaderData } from "react-router";
import { OLDER_UPDATES_PARAM, updateAnchor, updatePermalink, type KeyEventLink, type LiveCoverageData, type LiveUpdateView } from "~/domain/live/live-updates";
import { formatCardDate, inTimeZone, useSiteTimeZone } from "~/lib/dates";
import type { LiveListState } from "./live-stream";
import { UpdateShare } from "./update-share";

// A live story's updates as readers see them (issue 31). Everything renders on the server (the page
// works without JavaScript and is cached whole); in the browser, the live part (./live-stream, one
// small module loaded by import() only while the story is live) folds the stream's events into the
// state below.

export type { LiveCoverageData } from "~/domain/live/live-updates";

/** "3:05 PM" on the site's clock. */
function clockTime(date: string, timeZone: string): string {
  const wall = inTimeZone(date, timeZone);
  const hours = wall.getHours();
  return `${hours % 12 || 12}:${String(wall.getMinutes()).padStart(2, "0")} ${hours < 12 ? "AM" : "PM"}`;
}

/** "Nov 27, 2026 at 3:05 PM". */
const dateAndTime = (date: string, timeZone: string) => `${formatCardDate(date, timeZone)} at ${clockTime(date, timeZone)}`;

const initialState = (data: LiveCoverageData): LiveListState => ({
  updates: data.updates,
  pending: [],
  pinned: data.pinned,
  keyEvents: data.keyEvents,
  live: data.endedAt == null,
  endedAt: data.endedAt,
  arrived: [],
});

type LiveModule = typeof import("./live-stream");

/**
 * The page's live state: the server's list, then (while the story is live, in the browser) the
 * stream's events applied to it. A new update goes straight in when the reader is at the top of the
 * list; scrolled down past it, it waits behind the "{N} new updates" button and the page does not move.
 */
export function useLiveCoverage(data: LiveCoverageData) {
  const [state, setState] = useState(() => initialState(data));
  // New loader data (another page of updates, a revalidation): start again from it.
  const [shownFor, setShownFor] = useState(data);
  if (shownFor !== data) {
    setShownFor(data);
    setState(initialState(data));
  }
  const listRef = useRef<HTMLOListElement>(null);
  const moduleRef = useRef<LiveModule | null>(null);
  const [revealed, setRevealed] = useState<string | null>(null);

  const { articleId, version, olderPage, olderThan, updates } = data;
  // A teaser of a gated story (issue 40) holds no updates and opens no stream: the stream would refuse it (403).
  const live = data.endedAt == null && !data.withheld;
  const oldest = olderThan ? updates[updates.length - 1] : undefined;
  useEffect(() => {
    if (!live) return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    const oldestShown = oldest ? { createdAt: oldest.createdAt, id: oldest.id } : null;
    void import("./live-stream").then((module) => {
      if (cancelled) return;
      moduleRef.current = module;
      stop = module.followLiveStory(articleId, version, (event) => {
        // At the top: the list's first update is in view (or below it). Scrolled past it: the button.
        const top = listRef.current?.getBoundingClientRect().top ?? 0;
        const reveal = top >= 0;
        setState((current) => module.applyLiveEvent(current, event, { firstPage: !olderPage, oldest: oldestShown, reveal }));
      });
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [articleId, version, live, olderPage, oldest?.id, oldest?.createdAt]); // eslint-disable-line react-hooks/exhaustive-deps

  const reveal = useCallback(() => {
    const module = moduleRef.current;
    if (!module) return;
    setState((current) => {
      if (current.pending[0]) setRevealed(current.pending[0].id);
      return module.revealPending(current);
    });
  }, []);

  // Revealed: to the newest, which takes the focus (a keyboard or screen reader user lands there too).
  useEffect(() => {
    if (!revealed) return;
    const target = document.getElementById(updateAnchor(revealed));
    if (target) {
      const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      target.scrollIntoView({ behavior: still ? "auto" : "smooth", block: "start" });
      target.focus({ preventScroll: true });
    }
    setRevealed(null);
  }, [revealed]);

  return { state, listRef, reveal };
}

/** Under the byline: the red LIVE mark and "Live updates" while live; "Live coverage has ended" with the time once ended. */
export function LiveStatusLine({ live, endedAt }: { live: boolean; endedAt: string | null }) {
  const timeZone = useSiteTimeZone();
  if (!live && endedAt) {
    return (
      <p className="mt-6 flex flex-wrap items-center gap-x-2 gap-y-1 rounded-lg bg-slate-100 px-3 py-2 text-sm text-slate-800" data-testid="live-status" role="status">
        <span className="font-semibold">Live coverage has ended</span>
        <time dateTime={endedAt} className="text-slate-600">
          {dateAndTime(endedAt, timeZone)}
        </time>
      </p>
    );
  }
  return (
    <p className="mt-6 flex items-center gap-2 text-sm font-semibold text-slate-900" data-testid="live-status" role="status">
      <span className="inline-flex items-center gap-1.5 rounded bg-red-700 px-2 py-0.5 text-xs font-bold tracking-wide text-white">
        <span className="live-dot h-2 w-2 rounded-full bg-white" aria-hidden="true" />
        LIVE
      </span>
      <span>Live updates</span>
    </p>
  );
}

function Mark({ children, className }: { children: ReactNode; className: string }) {
  return <span className={`rounded px-1.5 py-0.5 text-xs font-semibold ${className}`}>{children}</span>;
}

/** One update: its time (a permalink), marks, headline, body, author and its one small Share control. */
function LiveUpdateItem({ update, slug, pageUrl, pinnedCopy, arrived }: { update: LiveUpdateView; slug: string; pageUrl: string; pinnedCopy?: boolean; arrived?: boolean }) {
  const timeZone = useSiteTimeZone();
  const root = useRouteLoaderData("root") as { settings?: { siteName?: string } } | undefined;
  const anchor = updateAnchor(update.id);
  const permalink = updatePermalink(slug, update.id);
  const headingId = `${anchor}-heading`;
  return (
    <article
      id={anchor}
      tabIndex={-1}
      aria-labelledby={update.headline ? headingId : undefined}
      data-testid={pinnedCopy ? "pinned-update" : "live-update"}
      className={`live-update scroll-mt-24 border-l-2 py-5 pl-4 focus:outline-none sm:pl-6 ${pinnedCopy ? "rounded-r-lg border-amber-500 bg-amber-50 pr-4" : "border-slate-200"} ${arrived ? "live-update-arrived" : ""}`}
    >
      <header className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <a href={`#${anchor}`} className="font-semibold text-red-700 hover:underline">
          <time dateTime={update.createdAt} title={dateAndTime(update.createdAt, timeZone)}>
            {clockTime(update.createdAt, timeZone)}
          </time>
        </a>
        <span className="text-slate-600">{formatCardDate(update.createdAt, timeZone)}</span>
        {pinnedCopy ? <Mark className="bg-amber-200 text-amber-950">Pinned</Mark> : null}
        {update.keyEvent ? <Mark className="bg-red-100 text-red-800">Key event</Mark> : null}
        {update.editedAt ? (
          <span className="text-slate-600" title={dateAndTime(update.editedAt, timeZone)}>
            Edited
          </span>
        ) : null}
      </header>
      {update.headline ? (
        <h3 id={headingId} className="mt-2 font-serif text-xl font-bold leading-snug text-slate-900">
          {update.headline}
        </h3>
      ) : null}
      {/* Rendered on the server through the story allow-list; its embeds are click-to-load frames with no script of ours. */}
      <div className="story-body live-update-body mt-2" dangerouslySetInnerHTML={{ __html: update.bodyHtml }} />
      <footer className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-2 text-sm text-slate-600">
        <span>
          By{" "}
          {update.author ? (
            <Link to={`/author/${update.author.slug}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
              {update.author.name}
            </Link>
          ) : (
            <span className="font-medium text-slate-900">{root?.settings?.siteName ?? "the newsroom"}</span>
          )}
        </span>
        {/* The lasting address (the page that starts with this update): "#update-…" alone is lost once newer updates push it off the first page. */}
        <a href={permalink} className="text-slate-700 underline underline-offset-2 hover:text-slate-900">
          Permalink<span className="sr-only"> to this update</span>
        </a>
        <UpdateShare url={`${new URL(pageUrl).origin}${permalink}`} title={update.headline ?? update.text.slice(0, 100)} />
      </footer>
    </article>
  );
}

/** The key events; each links to its update on this page, or else to the page that starts with it. */
function KeyEvents({ events, slug, onPage }: { events: KeyEventLink[]; slug: string; onPage: ReadonlySet<string> }) {
  const timeZone = useSiteTimeZone();
  if (events.length === 0) return null;
  return (
    <nav aria-labelledby="key-events-heading" className="rounded-lg border border-slate-200 bg-slate-50 px-4 py-3" data-testid="key-events">
      <h2 id="key-events-heading" className="text-sm font-bold uppercase tracking-wide text-slate-700">
        Key events
      </h2>
      <ol className="mt-2 space-y-1.5">
        {events.map((event) => (
          <li key={event.id} className="flex gap-3 text-sm">
            <time dateTime={event.createdAt} className="shrink-0 tabular-nums text-slate-600">
              {clockTime(event.createdAt, timeZone)}
            </time>
            <a href={onPage.has(event.id) ? `#${updateAnchor(event.id)}` : updatePermalink(slug, event.id)} className="font-medium text-brand-700 underline-offset-2 hover:underline">
              {event.title}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}

const newUpdatesLabel = (n: number) => (n === 1 ? "1 new update" : `${n} new updates`);

/**
 * Below the story: the key events, the pinned update (first page), the updates newest first, and
 * "Show older updates" (a plain link: it works without JavaScript, and each page is cached by its URL).
 */
export function LiveUpdates({ data, state, listRef, onReveal, pageUrl }: {
  data: LiveCoverageData;
  state: LiveListState;
  listRef: React.RefObject<HTMLOListElement | null>;
  onReveal: () => void;
  pageUrl: string;
}) {
  // The first page shows the pinned update on top, at its anchor, and not again in the list.
  const pinnedOnTop = !data.olderPage ? state.pinned : null;
  const shown = pinnedOnTop ? state.updates.filter((u) => u.id !== pinnedOnTop.id) : state.updates;
  const arrived = new Set(state.arrived);
  return (
    <section id="live-updates" aria-labelledby="live-updates-heading" className="mt-10 space-y-6 scroll-mt-24">
      <h2 id="live-updates-heading" className="sr-only">
        Live updates
      </h2>
      <KeyEvents events={state.keyEvents} slug={data.slug} onPage={new Set([...shown.map((u) => u.id), ...(pinnedOnTop ? [pinnedOnTop.id] : [])])} />
      {pinnedOnTop ? <LiveUpdateItem update={pinnedOnTop} slug={data.slug} pageUrl={pageUrl} pinnedCopy /> : null}
      {/* Height 0: the button appearing moves nothing; it sticks under the site's header while the list is in view. */}
      <div className="sticky top-20 z-30 flex h-0 items-start justify-center" aria-live="polite">
        {state.pending.length > 0 ? (
          <button
            type="button"
            onClick={onReveal}
            className="mt-2 rounded-full bg-red-700 px-4 py-2 text-sm font-semibold text-white shadow-lg hover:bg-red-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-700"
            data-testid="new-updates"
          >
            ↑ {newUpdatesLabel(state.pending.length)}
          </button>
        ) : null}
      </div>
      {data.olderPage ? (
        <p className="text-sm">
          <Link to={`/article/${data.slug}#live-updates`} className="font-medium text-brand-700 underline underline-offset-2">
            Back to the latest updates
          </Link>
        </p>
      ) : null}
      <ol ref={listRef} className="space-y-2" data-testid="live-updates">
        {shown.map((update) => (
          <li key={update.id}>
            <LiveUpdateItem update={update} slug={data.slug} pageUrl={pageUrl} arrived={arrived.has(update.id)} pinnedCopy={false} />
          </li>
        ))}
      </ol>
      {data.withheld ? (
        <p className="text-slate-600" data-testid="live-updates-withheld">
          The live updates are part of the whole story.
        </p>
      ) : shown.length === 0 && !pinnedOnTop ? (
        <p className="text-slate-600">No updates yet.</p>
      ) : null}
      {data.olderThan ? (
        <p>
          <Link
            to={`/article/${data.slug}?${OLDER_UPDATES_PARAM}=${data.olderThan}#live-updates`}
            className="inline-flex rounded-md border border-slate-300 px-4 py-2 text-sm font-semibold text-slate-900 hover:bg-slate-50"
          >
            Show older updates
          </Link>
        </p>
      ) : null}
    </section>
  );
}
