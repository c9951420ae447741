import { X } from "lucide-react";
import { useEffect, useId, useState, type KeyboardEvent } from "react";
import { Button } from "~/components/ui/button";
import { Input, Label } from "~/components/ui/input";
import { MAX_TAGS_PER_ARTICLE, normalizeTagName, parseTagNames, tagNameProblem, TOO_MANY_TAGS } from "~/domain/tags/tags.schema";
import { slugify } from "~/lib/slugs";

/**
 * The story's tags (issue 29). The form field is `tags`: the names, comma-separated, in order. Without
 * JavaScript it is that text input itself; once the page runs it becomes chips and a box that offers
 * the existing tags as you type (a datalist), where Enter or a comma adds the typed name: an existing
 * tag when its address matches one, else a new tag, made when the story is saved. The server checks
 * every name again (tags.schema), whatever is sent.
 */
export function TagPicker({
  tags,
  initialNames,
  error,
  onChange,
}: {
  /** Every existing tag's name, to choose from. */
  tags: readonly { name: string }[];
  initialNames: readonly string[];
  /** The server's message on `tags`. */
  error?: string;
  onChange?: () => void;
}) {
  const id = useId();
  const [enhanced, setEnhanced] = useState(false);
  const [names, setNames] = useState<string[]>(() => [...initialNames]);
  const [typing, setTyping] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState("");
  // Rendered on the server as the plain text field; the chips take over once the page runs.
  useEffect(() => setEnhanced(true), []);

  const bySlug = new Map(tags.map((t) => [slugify(t.name), t.name]));
  const chosen = new Set(names.map((n) => slugify(n)));
  const offered = tags.filter((t) => !chosen.has(slugify(t.name)));
  const message = problem ?? error;
  const describedBy = [message ? `${id}-error` : null, `${id}-hint`].filter(Boolean).join(" ");

  function update(next: string[], said: string) {
    setNames(next);
    setAnnouncement(said);
    onChange?.();
  }

  /** Adds the typed names in order (an existing tag keeps its own spelling); stops at the first refused one. */
  function add(...raws: string[]) {
    const next = [...names];
    const said: string[] = [];
    for (const raw of raws) {
      const typed = normalizeTagName(raw);
      if (typed === "") continue;
      const wrong = tagNameProblem(typed);
      if (wrong) return setProblem(`“${typed}”: ${wrong}`);
      const slug = slugify(typed);
      if (next.some((n) => slugify(n) === slug)) continue;
      if (next.length >= MAX_TAGS_PER_ARTICLE) return setProblem(TOO_MANY_TAGS);
      const name = bySlug.get(slug) ?? typed;
      next.push(name);
      said.push(bySlug.has(slug) ? `Tag ${name} added.` : `New tag ${name} added; it is made when the story is saved.`);
    }
    setProblem(null);
    setTyping("");
    if (said.length > 0) update(next, said.join(" "));
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "Enter" || event.key === ",") {
      // Enter adds the tag instead of submitting the story.
      event.preventDefault();
      add(typing);
    } else if (event.key === "Backspace" && typing === "" && names.length > 0) {
      const last = names[names.length - 1]!;
      update(names.slice(0, -1), `Tag ${last} removed.`);
    }
  }

  if (!enhanced) {
    return (
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-text`}>Tags</Label>
        <Input id={`${id}-text`} name="tags" defaultValue={initialNames.join(", ")} aria-describedby={describedBy} aria-invalid={message ? true : undefined} />
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          Separate tags with commas. A new name makes a new tag.
        </p>
        {message ? (
          <p id={`${id}-error`} className="text-sm text-red-700">
            {message}
          </p>
        ) : null}
      </div>
    );
  }

  return (
    <div className="space-y-1.5">
      <input type="hidden" name="tags" value={names.join(",")} />
      <Label htmlFor={`${id}-add`}>Tags</Label>
      {names.length > 0 ? (
        <ul className="flex flex-wrap gap-1.5" aria-label="Chosen tags">
          {names.map((name) => (
            <li key={slugify(name)} className="flex items-center gap-0.5 rounded-full border border-slate-300 bg-slate-50 py-0.5 pr-0.5 pl-2.5 text-sm text-slate-900">
              {name}
              <Button
                type="button"
                variant="ghost"
                size="icon-sm"
                aria-label={`Remove tag ${name}`}
                onClick={() => update(names.filter((n) => n !== name), `Tag ${name} removed.`)}
              >
                <X aria-hidden="true" className="size-3.5" />
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      <Input
        id={`${id}-add`}
        list={`${id}-choices`}
        value={typing}
        autoComplete="off"
        aria-describedby={describedBy}
        aria-invalid={message ? true : undefined}
        onChange={(e) => {
          const value = e.target.value;
          // A pasted list ("a, b, c") adds each name before the last comma.
          if (value.includes(",")) {
            const parts = value.split(",");
            const rest = parts.pop() ?? "";
            add(...parseTagNames(parts.join(",")));
            setTyping(rest);
          } else setTyping(value);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => add(typing)}
      />
      <datalist id={`${id}-choices`}>
        {offered.map((t) => (
          <option key={t.name} value={t.name} />
        ))}
      </datalist>
      <p id={`${id}-hint`} className="text-xs text-slate-600">
        Type to find a tag; Enter or a comma adds it. A new name makes a new tag when the story is saved.
      </p>
      {message ? (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {message}
        </p>
      ) : null}
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
    </div>
  );
}
