/**
 * The story editor's insert menu (decision 0035): opened by the "+" button beside an empty paragraph
 * or by typing "/" at the start of one. A listbox of the blocks a story can hold; arrows move, Enter
 * chooses, Escape closes. From "/" the keyboard stays in the writing area (which points at the active
 * option with aria-activedescendant) and the letters typed after "/" narrow the list; from "+" the
 * list itself takes the keyboard. Part of the editor's lazy chunk (imported by story-editor.tsx only).
 */
import type { Editor } from "@tiptap/core";
import { AtSign, Film, Heading2, ImageIcon, LayoutGrid, List, LockKeyhole, Minus, Plus, Quote } from "lucide-react";
import { useEffect, useLayoutEffect, useRef, type KeyboardEvent, type ReactNode } from "react";
import { cn } from "~/lib/cn";

export type InsertChoice = "heading" | "list" | "quote" | "divider" | "image" | "gallery" | "youtube" | "x" | "paywall";

export interface InsertOption {
  choice: InsertChoice;
  label: string;
  hint: string;
  /** Other words "/" finds it by. */
  keywords: string[];
  icon: ReactNode;
}

const iconClass = "size-4 shrink-0 text-slate-700";

export const INSERT_OPTIONS: readonly InsertOption[] = [
  { choice: "heading", label: "Heading", hint: "A subheading", keywords: ["subheading", "h2", "title"], icon: <Heading2 aria-hidden="true" className={iconClass} /> },
  { choice: "list", label: "List", hint: "A bulleted list", keywords: ["bullet", "ul", "points"], icon: <List aria-hidden="true" className={iconClass} /> },
  { choice: "quote", label: "Quote", hint: "A block quote", keywords: ["blockquote", "citation"], icon: <Quote aria-hidden="true" className={iconClass} /> },
  { choice: "divider", label: "Divider", hint: "A horizontal rule", keywords: ["rule", "hr", "line", "separator"], icon: <Minus aria-hidden="true" className={iconClass} /> },
  { choice: "image", label: "Image", hint: "Upload or choose one, with alt text", keywords: ["picture", "photo", "figure"], icon: <ImageIcon aria-hidden="true" className={iconClass} /> },
  { choice: "gallery", label: "Gallery", hint: "2–12 images in a grid, with captions", keywords: ["images", "photos", "slideshow", "grid"], icon: <LayoutGrid aria-hidden="true" className={iconClass} /> },
  { choice: "youtube", label: "YouTube", hint: "A video, loaded on the reader's click", keywords: ["video", "embed"], icon: <Film aria-hidden="true" className={iconClass} /> },
  { choice: "x", label: "X post", hint: "A post, loaded on the reader's click", keywords: ["twitter", "tweet", "embed"], icon: <AtSign aria-hidden="true" className={iconClass} /> },
  // Issue 40: where a Members or Paid story's free part ends (stories only: the article form offers it).
  { choice: "paywall", label: "Paywall here", hint: "Readers without access stop here", keywords: ["paywall", "members", "subscribers", "gate"], icon: <LockKeyhole aria-hidden="true" className={iconClass} /> },
];

/** The options "/" + `query` finds (all of them for an empty query); "Paywall here" only where `paywall` (a story, not a page). */
export function insertOptionsFor(query: string, { paywall = false }: { paywall?: boolean } = {}): readonly InsertOption[] {
  const q = query.trim().toLowerCase();
  const offered = paywall ? INSERT_OPTIONS : INSERT_OPTIONS.filter((o) => o.choice !== "paywall");
  if (!q) return offered;
  return offered.filter((o) => o.label.toLowerCase().startsWith(q) || o.keywords.some((k) => k.startsWith(q)));
}

/** Where the caret is: in an empty paragraph of its own at the top level (the "+" button's place), and the "/" text typed there. */
export function insertPlace(editor: Editor): { pos: number; slashQuery: string | null } | null {
  const { selection } = editor.state;
  const { $from, empty } = selection;
  if (!empty || $from.depth !== 1 || $from.parent.type.name !== "paragraph") return null;
  const textOf = $from.parent.textContent;
  if (textOf === "") return { pos: $from.pos, slashQuery: null };
  // "/" and letters, typed at the start of the paragraph, with the caret at their end.
  const slash = /^\/([a-z0-9 ]{0,20})$/i.exec(textOf);
  if (slash && $from.parentOffset === textOf.length && $from.parent.childCount === 1 && $from.parent.firstChild?.marks.length === 0) {
    return { pos: $from.start(), slashQuery: slash[1]! };
  }
  return null;
}

/** The "+" button beside an empty paragraph. */
export function InsertButton({ top, expanded, menuId, onOpen }: { top: number; expanded: boolean; menuId: string; onOpen: () => void }) {
  return (
    <button
      type="button"
      aria-label="Insert block"
      title="Insert block"
      aria-haspopup="listbox"
      aria-expanded={expanded}
      aria-controls={expanded ? menuId : undefined}
      // Keeps the writing area's caret (and focus, for a mouse) where it is.
      onMouseDown={(event) => event.preventDefault()}
      onClick={onOpen}
      style={{ top }}
      className="absolute right-2 z-10 inline-flex size-8 items-center justify-center rounded-full border border-slate-300 bg-white text-slate-700 shadow-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600"
    >
      <Plus aria-hidden="true" className="size-4" />
    </button>
  );
}

/** The menu itself: rendered while open, placed under the paragraph it inserts into. */
export function InsertMenu({
  id,
  optionIdPrefix,
  options,
  active,
  top,
  takesFocus,
  onActiveChange,
  onChoose,
  onClose,
}: {
  id: string;
  /** Option i's id is `${optionIdPrefix}-${i}` (the writing area's aria-activedescendant names it). */
  optionIdPrefix: string;
  options: readonly InsertOption[];
  active: number;
  top: number;
  /** Opened by "+": the list takes the keyboard. Opened by "/": the writing area keeps it. */
  takesFocus: boolean;
  onActiveChange: (index: number) => void;
  onChoose: (option: InsertOption) => void;
  onClose: (refocusEditor: boolean) => void;
}) {
  const list = useRef<HTMLUListElement>(null);
  const optionId = optionIdPrefix;
  useEffect(() => {
    if (takesFocus) list.current?.focus();
  }, [takesFocus]);
  useEffect(() => {
    list.current?.querySelector<HTMLElement>(`[data-index="${active}"]`)?.scrollIntoView({ block: "nearest" });
  }, [active]);
  // Collision handling (issue 41): the menu stays in the viewport, on a phone and near its right or bottom edge.
  useLayoutEffect(() => {
    const menu = list.current;
    if (!menu) return;
    const fit = () => fitInViewport(menu);
    fit();
    window.addEventListener("resize", fit);
    return () => window.removeEventListener("resize", fit);
  }, [top, options.length]);

  function onKeyDown(event: KeyboardEvent<HTMLUListElement>) {
    const step = moveFor(event.key, active, options.length);
    if (step !== null) {
      event.preventDefault();
      onActiveChange(step);
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      const option = options[active];
      if (option) onChoose(option);
    } else if (event.key === "Escape" || event.key === "Tab") {
      event.preventDefault();
      // Escape is the menu's: the settings sheet or a dialog around it stays open.
      event.stopPropagation();
      onClose(true);
    }
  }

  return (
    <ul
      ref={list}
      id={id}
      role="listbox"
      aria-label="Insert block"
      tabIndex={-1}
      aria-activedescendant={options[active] ? `${optionId}-${active}` : undefined}
      onKeyDown={onKeyDown}
      onBlur={(event) => {
        if (takesFocus && !event.currentTarget.contains(event.relatedTarget as Node | null)) onClose(false);
      }}
      style={{ top }}
      className="absolute left-2 z-30 max-h-80 w-64 max-w-[calc(100%-1rem)] overflow-y-auto rounded-md border border-slate-300 bg-white p-1 shadow-lg focus:outline-2 focus:outline-brand-600"
    >
      {options.map((option, index) => (
        <li
          key={option.choice}
          id={`${optionId}-${index}`}
          data-index={index}
          role="option"
          aria-selected={index === active}
          onMouseDown={(event) => event.preventDefault()}
          onMouseMove={() => index !== active && onActiveChange(index)}
          onClick={() => onChoose(option)}
          className={cn("flex cursor-pointer items-center gap-3 rounded px-2 py-1.5 text-sm", index === active ? "bg-brand-100 text-brand-900" : "text-slate-900")}
        >
          {option.icon}
          <span className="min-w-0">
            <span className="block font-medium">{option.label}</span>
            <span className="block text-xs text-slate-600">{option.hint}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The space kept between the menu and the viewport's edges (px). */
const VIEWPORT_MARGIN = 8;

/**
 * Keeps the open menu inside the viewport: no taller than the viewport (it scrolls inside itself), moved
 * left when it would cross the right edge, and the page scrolled just enough to show its bottom.
 */
export function fitInViewport(menu: HTMLElement) {
  menu.style.maxHeight = "";
  menu.style.translate = "";
  const room = window.innerHeight - 2 * VIEWPORT_MARGIN;
  if (menu.getBoundingClientRect().height > room) menu.style.maxHeight = `${Math.max(room, 120)}px`;
  const rect = menu.getBoundingClientRect();
  const overRight = rect.right - (document.documentElement.clientWidth - VIEWPORT_MARGIN);
  if (overRight > 0) menu.style.translate = `${-Math.min(overRight, Math.max(rect.left - VIEWPORT_MARGIN, 0))}px 0`;
  if (rect.bottom > window.innerHeight - VIEWPORT_MARGIN || rect.top < VIEWPORT_MARGIN) menu.scrollIntoView({ block: "nearest" });
}

/** The active option after an arrow (wrapping), Home or End; null for any other key. */
export function moveFor(key: string, active: number, count: number): number | null {
  if (count === 0) return null;
  if (key === "ArrowDown") return (active + 1) % count;
  if (key === "ArrowUp") return (active - 1 + count) % count;
  if (key === "Home") return 0;
  if (key === "End") return count - 1;
  return null;
}
