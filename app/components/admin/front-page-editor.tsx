import { ArrowDown, ArrowUp, ExternalLink, GripVertical, Search, X } from "lucide-react";
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import { Form, useFetcher } from "react-router";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { Button } from "~/components/ui/button";
import { Input, Label } from "~/components/ui/input";
import { toast } from "~/components/ui/toaster";
import type { CategorySummary } from "~/domain/categories/categories.schema";
import { MAX_TOP_PINS, type FrontPageIntent, type PinnableStory, type PinView } from "~/domain/front-page/front-page.schema";
import { cn } from "~/lib/cn";
import { formatCardDate, formatPublishDate, toDateTimeLocal, useSiteTimeZone } from "~/lib/dates";
import { refusalNotice, type Refusal } from "~/lib/forms";

export type FrontPageActionData = { ok: true; intent: FrontPageIntent; message: string } | Refusal;

interface FrontPageEditorProps {
  pins: PinView[];
  categories: CategorySummary[];
  exploreCategoryIds: string[] | null;
  query: string;
  results: PinnableStory[];
}

/** Told of each successful change: the preview of the home page reloads. */
const SavedContext = createContext<() => void>(() => {});

/**
 * A form posting one change of the front page with its own fetcher: the answer's toast, then the
 * preview reloads. A plain form without JavaScript (the page reloads with the change).
 */
function ChangeForm({ children, className, label }: { children: ReactNode; className?: string; label?: string }) {
  const fetcher = useFetcher<FrontPageActionData>();
  const onSaved = useContext(SavedContext);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    if (fetcher.data.ok) {
      toast.success("Front page updated", fetcher.data.message);
      onSaved();
    } else toast.error(...refusalNotice(fetcher.data));
  }, [fetcher.state, fetcher.data, onSaved]);
  return (
    <fetcher.Form method="post" action="/admin/front-page" className={className} aria-label={label} aria-busy={fetcher.state !== "idle" || undefined}>
      {children}
    </fetcher.Form>
  );
}

function Hidden({ name, value }: { name: string; value: string }) {
  return <input type="hidden" name={name} value={value} />;
}

const HIDDEN_BECAUSE = {
  "not-public": "the story is no longer public.",
  moved: "the story has moved to another category.",
  ended: "its time has passed.",
} as const;

/** When a pin stops applying, in words. */
function PinStatus({ pin }: { pin: PinView }) {
  const timeZone = useSiteTimeZone();
  if (!pin.showing) return <span className="text-amber-800">Not showing: {HIDDEN_BECAUSE[pin.hiddenBecause ?? "ended"]}</span>;
  return <span>{pin.until ? `Until ${formatPublishDate(pin.until, timeZone)}` : "Until you remove it"}</span>;
}

/** The "until" field of a pin, with its own Save, and Remove. */
function PinControls({ pin, titleId }: { pin: PinView; titleId: string }) {
  const timeZone = useSiteTimeZone();
  const fieldId = `until-${pin.id}`;
  return (
    <div className="mt-2 flex flex-wrap items-end gap-2">
      <ChangeForm className="flex flex-wrap items-end gap-2" label="When the pin ends">
        <Hidden name="intent" value="until" />
        <Hidden name="pinId" value={pin.id} />
        <div className="space-y-1">
          <Label htmlFor={fieldId}>
            Until (optional)
          </Label>
          <Input id={fieldId} type="datetime-local" name="until" defaultValue={pin.until ? toDateTimeLocal(pin.until, timeZone) : ""} />
        </div>
        <Button type="submit" size="sm" variant="outline" aria-describedby={titleId}>
          Save end
        </Button>
      </ChangeForm>
      <ChangeForm>
        <Hidden name="intent" value="unpin" />
        <Hidden name="pinId" value={pin.id} />
        <Button type="submit" size="sm" variant="ghost-destructive" aria-describedby={titleId}>
          <X className="size-4" aria-hidden="true" />
          Remove
        </Button>
      </ChangeForm>
    </div>
  );
}

function PinCard({ pin, children, className }: { pin: PinView; children?: ReactNode; className?: string }) {
  const titleId = `pin-title-${pin.id}`;
  return (
    <div className={cn("rounded-md border p-3", pin.showing ? "border-slate-200 bg-white" : "border-amber-300 bg-amber-50", className)} data-testid="pin">
      <div className="flex items-start gap-2">
        {children}
        <div className="min-w-0 flex-1">
          <a id={titleId} href={`/article/${pin.slug}`} target="_blank" rel="noreferrer" className="font-medium break-words text-slate-900 hover:underline">
            {pin.title}
          </a>
          <p className="text-xs text-slate-600">
            <PinStatus pin={pin} />
          </p>
        </div>
      </div>
      <PinControls pin={pin} titleId={titleId} />
    </div>
  );
}

/** The top stories, in order: dragged into place, or moved with Move up / Move down (also without a mouse or JavaScript). */
function TopStories({ pins }: { pins: PinView[] }) {
  const reorder = useFetcher<FrontPageActionData>();
  const onSaved = useContext(SavedContext);
  const [order, setOrder] = useState(() => pins.map((pin) => pin.id));
  const dragged = useRef<string | null>(null);
  const key = pins.map((pin) => pin.id).join(",");
  useEffect(() => setOrder(key ? key.split(",") : []), [key]);
  useEffect(() => {
    if (reorder.state !== "idle" || !reorder.data) return;
    if (reorder.data.ok) {
      toast.success("Front page updated", reorder.data.message);
      onSaved();
    } else toast.error(...refusalNotice(reorder.data));
  }, [reorder.state, reorder.data, onSaved]);
  const byId = new Map(pins.map((pin) => [pin.id, pin]));
  const shown = order.map((id) => byId.get(id)).filter((pin): pin is PinView => pin !== undefined);

  if (shown.length === 0) return <p className="text-sm text-slate-600">No pinned top stories: the newest stories follow the lead.</p>;
  return (
    <ol className="space-y-2" aria-label="Pinned top stories, in order">
      {shown.map((pin, index) => (
        <li
          key={pin.id}
          draggable
          onDragStart={(event) => {
            dragged.current = pin.id;
            event.dataTransfer.effectAllowed = "move";
            event.dataTransfer.setData("text/plain", pin.id);
          }}
          onDragOver={(event) => {
            const from = dragged.current;
            if (!from || from === pin.id) return;
            event.preventDefault();
            setOrder((current) => {
              const next = current.filter((id) => id !== from);
              next.splice(next.indexOf(pin.id) + (current.indexOf(from) < current.indexOf(pin.id) ? 1 : 0), 0, from);
              return next;
            });
          }}
          onDrop={(event) => event.preventDefault()}
          onDragEnd={() => {
            dragged.current = null;
            if (order.join(",") !== key) void reorder.submit({ intent: "reorder", order: order.join(",") }, { method: "post", action: "/admin/front-page" });
          }}
        >
          <PinCard pin={pin}>
            <span className="mt-0.5 cursor-grab text-slate-500" title="Drag to reorder" aria-hidden="true">
              <GripVertical className="size-4" />
            </span>
            <span className="mt-0.5 w-5 shrink-0 text-sm font-semibold text-slate-700">{index + 1}.</span>
            <div className="order-last flex shrink-0 gap-1">
              <ChangeForm>
                <Hidden name="intent" value="move" />
                <Hidden name="pinId" value={pin.id} />
                <Hidden name="direction" value="up" />
                <Button type="submit" variant="outline" size="icon-sm" disabled={index === 0} aria-label={`Move up: ${pin.title}`} title="Move up">
                  <ArrowUp className="size-4" aria-hidden="true" />
                </Button>
              </ChangeForm>
              <ChangeForm>
                <Hidden name="intent" value="move" />
                <Hidden name="pinId" value={pin.id} />
                <Hidden name="direction" value="down" />
                <Button
                  type="submit"
                  variant="outline"
                  size="icon-sm"
                  disabled={index === shown.length - 1}
                  aria-label={`Move down: ${pin.title}`}
                  title="Move down"
                >
                  <ArrowDown className="size-4" aria-hidden="true" />
                </Button>
              </ChangeForm>
            </div>
          </PinCard>
        </li>
      ))}
    </ol>
  );
}

/** A story the search found: pin it as the lead, a top story, or first in its category, until an optional time. */
function SearchResult({ story, categories, topFull }: { story: PinnableStory; categories: CategorySummary[]; topFull: boolean }) {
  const timeZone = useSiteTimeZone();
  const fieldId = `pin-until-${story.id}`;
  const category = categories.find((c) => c.id === story.categoryId);
  return (
    <li className="rounded-md border border-slate-200 bg-white p-3" data-testid="search-result">
      <p className="font-medium break-words text-slate-900">{story.title}</p>
      <p className="text-xs text-slate-600">
        {story.categoryName ?? "No category"} · {formatCardDate(story.publishedAt, timeZone)}
      </p>
      <ChangeForm className="mt-2 flex flex-wrap items-end gap-2" label={`Pin “${story.title}”`}>
        <Hidden name="intent" value="pin" />
        <Hidden name="articleId" value={story.id} />
        <Hidden name="categoryId" value={story.categoryId ?? ""} />
        <div className="space-y-1">
          <Label htmlFor={fieldId}>
            Until (optional)
          </Label>
          <Input id={fieldId} type="datetime-local" name="until" />
        </div>
        <Button type="submit" size="sm" name="placement" value="lead">
          Make it the lead
        </Button>
        <Button
          type="submit"
          size="sm"
          variant="outline"
          name="placement"
          value="top"
          disabled={topFull}
          title={topFull ? `At most ${MAX_TOP_PINS} top stories` : undefined}
        >
          Add to top stories
        </Button>
        {category ? (
          <Button type="submit" size="sm" variant="outline" name="placement" value="category">
            First in {category.name}
          </Button>
        ) : null}
      </ChangeForm>
    </li>
  );
}

/** Which categories Explore Topics shows, and in what order (all of them, as the navigation orders them, unless chosen). */
function ExploreTopics({ categories, chosen }: { categories: CategorySummary[]; chosen: string[] | null }) {
  const initial = () => [...(chosen ?? []), ...categories.map((c) => c.id).filter((id) => !chosen?.includes(id))];
  const [order, setOrder] = useState(initial);
  const [checked, setChecked] = useState(() => new Set(chosen ?? categories.map((c) => c.id)));
  const [mode, setMode] = useState<"all" | "chosen">(chosen ? "chosen" : "all");
  const byId = new Map(categories.map((c) => [c.id, c]));
  const move = (index: number, by: -1 | 1) =>
    setOrder((current) => {
      const next = [...current];
      [next[index], next[index + by]] = [next[index + by]!, next[index]!];
      return next;
    });
  return (
    <ChangeForm label="Explore Topics">
      <Hidden name="intent" value="explore" />
      <fieldset className="space-y-2">
        <legend className="sr-only">What Explore Topics shows</legend>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" name="explore" value="all" checked={mode === "all"} onChange={() => setMode("all")} className="accent-brand-700" />
          Every category, in the navigation's order
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" name="explore" value="chosen" checked={mode === "chosen"} onChange={() => setMode("chosen")} className="accent-brand-700" />
          These categories, in this order
        </label>
      </fieldset>
      <ol className={cn("mt-3 space-y-1", mode === "all" && "opacity-60")} aria-label="Categories of Explore Topics">
        {order.map((id, index) => {
          const category = byId.get(id);
          if (!category) return null;
          return (
            <li key={id} className="flex items-center gap-2 rounded border border-slate-200 bg-white px-2 py-1">
              <input
                id={`explore-${id}`}
                type="checkbox"
                name="categoryIds"
                value={id}
                checked={checked.has(id)}
                disabled={mode === "all"}
                onChange={(event) =>
                  setChecked((current) => {
                    const next = new Set(current);
                    if (event.target.checked) next.add(id);
                    else next.delete(id);
                    return next;
                  })
                }
                className="size-4 accent-brand-700"
              />
              <label htmlFor={`explore-${id}`} className="flex-1 text-sm">
                {category.name}
              </label>
              <Button
                type="button"
                variant="ghost"
                size="icon-sm"
                disabled={mode === "all" || index === 0}
                onClick={() => move(index, -1)}
                aria-label={`Move up: ${category.name}`}
              >
                <ArrowUp className="size-4" aria-hidden="true" />
              </Button>
              <Button
                type="button"
                variant="ghost"
                size="icon-sm"
                disabled={mode === "all" || index === order.length - 1}
                onClick={() => move(index, 1)}
                aria-label={`Move down: ${category.name}`}
              >
                <ArrowDown className="size-4" aria-hidden="true" />
              </Button>
            </li>
          );
        })}
      </ol>
      <Button type="submit" size="sm" className="mt-3">
        Save Explore Topics
      </Button>
    </ChangeForm>
  );
}

/**
 * How the preview shows the home page in a column `width` px wide: on a desktop (the two columns side
 * by side) a desktop's 1280 px page scaled down; on a phone or tablet, the page at that width.
 */
function previewFrame(width: number, desktop: boolean) {
  if (!desktop) return { width, height: 760, scale: 1 };
  return { width: 1280, height: 1600, scale: width / 1280 };
}

/** The home page as readers see it, reloaded after each change. */
function HomePreview({ version }: { version: number }) {
  const box = useRef<HTMLDivElement>(null);
  const [frame, setFrame] = useState(() => previewFrame(600, true));
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setFrame(previewFrame(element.clientWidth, window.matchMedia("(min-width: 1024px)").matches)));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return (
    <section aria-labelledby="preview-heading" className="min-w-0 lg:sticky lg:top-20 lg:self-start">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h2 id="preview-heading" className="text-lg font-semibold text-slate-900">
          Preview of the home page
        </h2>
        <a href="/" target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 text-sm text-brand-700 hover:underline">
          Open the home page
          <ExternalLink className="size-3.5" aria-hidden="true" />
        </a>
      </div>
      <div ref={box} className="w-full overflow-hidden rounded-md border border-slate-300 bg-white" style={{ height: frame.height * frame.scale }}>
        <iframe
          key={version}
          src="/"
          title="Preview of the home page"
          tabIndex={-1}
          className="origin-top-left"
          style={{ width: frame.width, height: frame.height, transform: frame.scale === 1 ? undefined : `scale(${frame.scale})` }}
        />
      </div>
    </section>
  );
}

export function FrontPageEditor({ pins, categories, exploreCategoryIds, query, results }: FrontPageEditorProps) {
  const [version, setVersion] = useState(0);
  const reloadPreview = useCallback(() => setVersion((v) => v + 1), []);
  const lead = pins.find((pin) => pin.placement === "lead");
  const tops = pins.filter((pin) => pin.placement === "top");
  const topFull = tops.length >= MAX_TOP_PINS;
  const categoryPins = new Map(pins.filter((pin) => pin.placement === "category").map((pin) => [pin.categoryId, pin]));

  const sectionClass = "rounded-lg border border-slate-200 bg-slate-50 p-4";
  const headingClass = "text-lg font-semibold text-slate-900";
  return (
    <SavedContext.Provider value={reloadPreview}>
      <main className="mx-auto w-full min-w-0 max-w-7xl flex-1 px-4 py-8">
        <AdminPageHeader
          title="Front page"
          description="Choose the home page's lead and top stories, each category page's first story, and Explore Topics. The rest of each page fills with the newest stories. Changes are public at once."
        />
        <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
          <div className="min-w-0 space-y-6">
            <section aria-labelledby="lead-heading" className={sectionClass}>
              <h2 id="lead-heading" className={headingClass}>
                Lead story
              </h2>
              <div className="mt-3">{lead ? <PinCard pin={lead} /> : <p className="text-sm text-slate-600">No pinned lead: the newest story leads.</p>}</div>
            </section>

            <section aria-labelledby="top-heading" className={sectionClass}>
              <h2 id="top-heading" className={headingClass}>
                Top stories{" "}
                <span className="text-sm font-normal text-slate-600">
                  ({tops.length} of {MAX_TOP_PINS})
                </span>
              </h2>
              <p className="mb-3 text-sm text-slate-600">After the lead, in this order. Drag a story, or use Move up and Move down.</p>
              <TopStories pins={tops} />
            </section>

            <section aria-labelledby="add-heading" className={sectionClass}>
              <h2 id="add-heading" className={headingClass}>
                Add a story
              </h2>
              <Form method="get" className="mt-3 flex gap-2" role="search" preventScrollReset>
                <Label htmlFor="front-page-search" className="sr-only">
                  Search published stories by title
                </Label>
                <Input id="front-page-search" type="search" name="q" defaultValue={query} placeholder="Search published stories by title" className="flex-1" />
                <Button type="submit" variant="outline">
                  <Search className="size-4" aria-hidden="true" />
                  Search
                </Button>
              </Form>
              {query ? (
                results.length > 0 ? (
                  <ul className="mt-3 space-y-2" aria-label="Stories found">
                    {results.map((story) => (
                      <SearchResult key={story.id} story={story} categories={categories} topFull={topFull} />
                    ))}
                  </ul>
                ) : (
                  <p className="mt-3 text-sm text-slate-600" role="status">
                    No published story has “{query}” in its title.
                  </p>
                )
              ) : null}
            </section>

            <section aria-labelledby="categories-heading" className={sectionClass}>
              <h2 id="categories-heading" className={headingClass}>
                Category pages
              </h2>
              <p className="mb-3 text-sm text-slate-600">One story can lead each category page. Find it above and choose “First in …”.</p>
              <ul className="space-y-2">
                {categories.map((category) => {
                  const pin = categoryPins.get(category.id);
                  return (
                    <li key={category.id}>
                      <h3 className="text-sm font-semibold text-slate-800">{category.name}</h3>
                      {pin ? <PinCard pin={pin} className="mt-1" /> : <p className="text-sm text-slate-600">Newest first.</p>}
                    </li>
                  );
                })}
              </ul>
            </section>

            <section aria-labelledby="explore-heading" className={sectionClass}>
              <h2 id="explore-heading" className={cn(headingClass, "mb-3")}>
                Explore Topics
              </h2>
              <ExploreTopics key={(exploreCategoryIds ?? ["all"]).join(",")} categories={categories} chosen={exploreCategoryIds} />
            </section>
          </div>
          <HomePreview version={version} />
        </div>
      </main>
    </SavedContext.Provider>
  );
}
