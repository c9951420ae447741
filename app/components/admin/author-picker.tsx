import { ArrowDown, ArrowUp, X } from "lucide-react";
import { useState } from "react";
import { Button } from "~/components/ui/button";
import { Label } from "~/components/ui/input";

export interface AuthorChoice {
  id: string;
  name: string;
}

/**
 * The article form's authors, in byline order (decision 0015): a list with Move up / Move down /
 * Remove buttons and a select with "Add author", all ordinary buttons (keyboard usable). The choice
 * travels as comma-separated ids in the hidden `authorIds` field; the server checks each id.
 * Without authors, the Author Name field is the byline.
 */
export function AuthorPicker({
  authors,
  initialIds,
  error,
  onChange,
}: {
  authors: AuthorChoice[];
  initialIds: readonly string[];
  error?: string;
  onChange?: () => void;
}) {
  const byId = new Map(authors.map((a) => [a.id, a]));
  const [ids, setIds] = useState<string[]>(() => initialIds.filter((id) => byId.has(id)));
  const [adding, setAdding] = useState("");
  const [announcement, setAnnouncement] = useState("");
  const available = authors.filter((a) => !ids.includes(a.id));
  const nameOf = (id: string) => byId.get(id)?.name ?? "Unknown author";

  function update(next: string[], message: string) {
    setIds(next);
    setAnnouncement(message);
    onChange?.();
  }
  function move(index: number, by: -1 | 1) {
    const next = [...ids];
    const [id] = next.splice(index, 1);
    next.splice(index + by, 0, id!);
    update(next, `${nameOf(id!)} moved to position ${index + by + 1} of ${next.length}.`);
  }
  function add() {
    const id = adding || available[0]?.id;
    if (!id) return;
    update([...ids, id], `${nameOf(id)} added as author ${ids.length + 1}.`);
    setAdding("");
  }

  return (
    <fieldset className="space-y-2" aria-describedby={error ? "authorIds-error" : "authorIds-hint"}>
      <legend className="text-sm font-medium text-slate-900">Authors</legend>
      <input type="hidden" name="authorIds" value={ids.join(",")} />
      <p id="authorIds-hint" className="text-sm text-slate-600">
        In byline order. With no author chosen, the Author Name below is the byline.
      </p>
      {ids.length > 0 ? (
        <ol className="divide-y divide-slate-200 rounded-md border border-slate-200" aria-label="Chosen authors">
          {ids.map((id, i) => (
            <li key={id} className="flex items-center justify-between gap-2 px-3 py-1.5 text-sm">
              <span className="font-medium text-slate-900">
                {i + 1}. {nameOf(id)}
              </span>
              <span className="flex gap-1">
                <Button type="button" variant="ghost" size="icon-sm" aria-label={`Move ${nameOf(id)} up`} disabled={i === 0} onClick={() => move(i, -1)}>
                  <ArrowUp aria-hidden="true" className="size-4" />
                </Button>
                <Button
                  type="button"
                  variant="ghost"
                  size="icon-sm"
                  aria-label={`Move ${nameOf(id)} down`}
                  disabled={i === ids.length - 1}
                  onClick={() => move(i, 1)}
                >
                  <ArrowDown aria-hidden="true" className="size-4" />
                </Button>
                <Button
                  type="button"
                  variant="ghost"
                  size="icon-sm"
                  aria-label={`Remove ${nameOf(id)}`}
                  onClick={() => update(ids.filter((x) => x !== id), `${nameOf(id)} removed.`)}
                >
                  <X aria-hidden="true" className="size-4" />
                </Button>
              </span>
            </li>
          ))}
        </ol>
      ) : null}
      {available.length > 0 ? (
        <div className="flex gap-2">
          <Label htmlFor="author-add" className="sr-only">
            Author to add
          </Label>
          <select
            id="author-add"
            value={adding}
            onChange={(e) => setAdding(e.target.value)}
            className="h-10 min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900"
          >
            {available.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
          <Button type="button" variant="outline" onClick={add}>
            Add author
          </Button>
        </div>
      ) : authors.length === 0 ? (
        <p className="text-sm text-slate-600">
          No authors yet: <a href="/admin/authors" className="underline underline-offset-2">create them in Authors</a>.
        </p>
      ) : null}
      {error ? (
        <p id="authorIds-error" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <p role="status" className="sr-only">
        {announcement}
      </p>
    </fieldset>
  );
}
