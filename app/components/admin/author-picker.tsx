import { ArrowDown, ArrowUp, X } from "lucide-react";
import { useState } from "react";
import { Button } from "~/components/ui/button";
import { Input, Label } from "~/components/ui/input";
import { joinNames } from "~/domain/authors/byline";

export interface AuthorChoice {
  id: string;
  name: string;
}

/**
 * The story's one byline control (decisions 0015 and 0035): its authors in byline order — a list with
 * Move up / Move down / Remove buttons and "Add author" — or, when no author fits, a free-text byline
 * ("Author Name", shown only while no author is chosen). The form fields are the server's as before:
 * the chosen ids as comma-separated `authorIds` (the server checks each) and the text as `authorName`
 * (kept in a hidden field while authors are chosen, so nothing typed is lost by adding one).
 */
export function AuthorPicker({
  authors,
  initialIds,
  initialName,
  error,
  nameError,
  onChange,
}: {
  authors: AuthorChoice[];
  initialIds: readonly string[];
  initialName: string;
  /** The server's message on `authorIds` / on `authorName`. */
  error?: string;
  nameError?: string;
  onChange?: () => void;
}) {
  const byId = new Map(authors.map((a) => [a.id, a]));
  const [ids, setIds] = useState<string[]>(() => initialIds.filter((id) => byId.has(id)));
  const [name, setName] = useState(initialName);
  const [adding, setAdding] = useState("");
  const [announcement, setAnnouncement] = useState("");
  const available = authors.filter((a) => !ids.includes(a.id));
  const nameOf = (id: string) => byId.get(id)?.name ?? "Unknown author";
  // The free text is the byline only without authors; a refusal on it shows it whatever is chosen.
  const typing = ids.length === 0 || Boolean(nameError);

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

  const describedBy = [error ? "authorIds-error" : null, "authorIds-hint"].filter(Boolean).join(" ");
  return (
    <fieldset className="min-w-0 space-y-2" aria-describedby={describedBy}>
      <legend className="text-sm font-medium text-slate-900">Byline</legend>
      <input type="hidden" name="authorIds" value={ids.join(",")} />
      <p id="authorIds-hint" className="text-xs text-slate-600">
        {ids.length > 0
          ? `Readers see: By ${joinNames(ids.map(nameOf))}.`
          : "Choose the story's authors, in byline order. When no author fits, type the byline in Author Name."}
      </p>
      {ids.length > 0 ? (
        <ol className="divide-y divide-slate-200 rounded-md border border-slate-200" aria-label="Chosen authors">
          {ids.map((id, i) => (
            <li key={id} className="flex items-center justify-between gap-2 py-1 pr-1 pl-3 text-sm">
              <span className="min-w-0 font-medium break-words text-slate-900">
                {i + 1}. {nameOf(id)}
              </span>
              <span className="flex shrink-0">
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
                  onClick={() =>
                    update(
                      ids.filter((x) => x !== id),
                      ids.length === 1 ? `${nameOf(id)} removed. Type the byline in Author Name, or add an author.` : `${nameOf(id)} removed.`,
                    )
                  }
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
      {typing ? (
        <div className="space-y-1.5 pt-1">
          <Label htmlFor="authorName">Author Name</Label>
          <Input
            id="authorName"
            name="authorName"
            value={name}
            maxLength={120}
            onChange={(e) => setName(e.target.value)}
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? "authorName-error authorName-hint" : "authorName-hint"}
          />
          <p id="authorName-hint" className="text-xs text-slate-600">
            A byline without an author page, e.g. a news agency. Empty: “Frontpage Newsroom”.
          </p>
          {nameError ? (
            <p id="authorName-error" className="text-sm text-red-700">
              {nameError}
            </p>
          ) : null}
        </div>
      ) : (
        <input type="hidden" name="authorName" value={name} />
      )}
      <p role="status" className="sr-only">
        {announcement}
      </p>
    </fieldset>
  );
}
