/**
 * The story editor (TipTap 3): loaded on demand by StoryField, in the back office only. It edits
 * the node and mark types of story-document.schema.ts and nothing else; the server checks the
 * document again on save and renders it for readers itself.
 */
import { mergeAttributes, Node, type Editor, type JSONContent } from "@tiptap/core";
import { EditorContent, useEditor, useEditorState } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { TextSelection } from "@tiptap/pm/state";
import {
  Bold,
  Ellipsis,
  Film,
  Heading2,
  Heading3,
  ImageIcon,
  Italic,
  LayoutGrid,
  Link2,
  List,
  ListOrdered,
  Loader2,
  MoveDown,
  MoveUp,
  Minus,
  Pilcrow,
  Quote,
  Redo2,
  Trash2,
  Undo2,
  Upload,
  X,
} from "lucide-react";
import { Dialog, DropdownMenu } from "radix-ui";
import { Fragment, useEffect, useId, useLayoutEffect, useRef, useState, type ComponentType, type FormEvent, type ReactNode } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Input, Label } from "~/components/ui/input";
import { toast } from "~/components/ui/toaster";
import { GALLERY_COUNT_MESSAGE, GALLERY_MAX, GALLERY_MIN_IMAGES, type StoryDocument, type StoryGalleryItem } from "~/domain/articles/story-document.schema";
import { embedTargetOf, isAllowedImageSrc, isAllowedLinkHref, isOwnImageSrc } from "~/domain/articles/story-urls";
import { cn } from "~/lib/cn";
import { InsertButton, InsertMenu, insertOptionsFor, insertPlace, moveFor, type InsertOption } from "./story-insert-menu";
import { cleanPastedHtml } from "./story-paste";
import { useAdminUpload } from "./use-admin-upload";

// ---------------------------------------------------------------- the two nodes of our own

const text = (value: unknown) => (typeof value === "string" ? value : "");

/** An inline image with its alt text, caption and credit (an atom: edited through its dialog). */
const StoryImageNode = Node.create({
  name: "storyImage",
  group: "block",
  atom: true,
  draggable: true,
  selectable: true,
  addAttributes() {
    return {
      src: { default: "", rendered: false },
      alt: { default: "", rendered: false },
      caption: { default: "", rendered: false },
      credit: { default: "", rendered: false },
    };
  },
  parseHTML() {
    return [
      {
        tag: "figure[data-story-image]",
        getAttrs: (element) => ({
          src: element.querySelector("img")?.getAttribute("src") ?? "",
          alt: element.querySelector("img")?.getAttribute("alt") ?? "",
          caption: element.getAttribute("data-caption") ?? "",
          credit: element.getAttribute("data-credit") ?? "",
        }),
      },
    ];
  },
  renderHTML({ node, HTMLAttributes }) {
    const { src, alt, caption, credit } = node.attrs as Record<string, string>;
    const shownSrc = isAllowedImageSrc(text(src)) ? text(src) : "";
    return [
      "figure",
      mergeAttributes(HTMLAttributes, { "data-story-image": "", "data-caption": caption, "data-credit": credit, class: "story-image" }),
      ["img", { src: shownSrc, alt: text(alt) }],
      ["figcaption", {}, [caption, credit ? `(${credit})` : ""].filter(Boolean).join(" ") || "No caption"],
    ];
  },
});

/** A YouTube video or an X post, by its address (shown here as a box naming it). */
const EmbedNode = Node.create({
  name: "embed",
  group: "block",
  atom: true,
  draggable: true,
  selectable: true,
  addAttributes() {
    return { url: { default: "", rendered: false } };
  },
  parseHTML() {
    return [{ tag: "div[data-embed]", getAttrs: (element) => ({ url: element.getAttribute("data-url") ?? "" }) }];
  },
  renderHTML({ node, HTMLAttributes }) {
    const target = embedTargetOf(text(node.attrs.url));
    return [
      "div",
      mergeAttributes(HTMLAttributes, {
        "data-embed": "",
        "data-url": target?.url ?? "",
        class: "rounded-lg border border-slate-300 bg-slate-50 p-4 text-sm break-words text-slate-700",
      }),
      `${target?.provider === "x" ? "Post on X" : "YouTube video"}: ${target?.url ?? "(not a YouTube or X address)"}`,
    ];
  },
});

/** A gallery (issue 41): 2–12 pictures of our media, each with alt text and a caption (an atom: edited through its dialog). */
const GalleryNode = Node.create({
  name: "gallery",
  group: "block",
  atom: true,
  draggable: true,
  selectable: true,
  addAttributes() {
    return { images: { default: [], rendered: false } };
  },
  parseHTML() {
    return [
      {
        tag: "div[data-story-gallery]",
        getAttrs: (element) => ({
          images: [...element.querySelectorAll("img")].map((img) => ({ src: img.getAttribute("src") ?? "", alt: img.getAttribute("alt") ?? "", caption: img.getAttribute("data-caption") ?? "" })),
        }),
      },
    ];
  },
  renderHTML({ node, HTMLAttributes }) {
    const images = galleryItemsOf(node.attrs.images);
    return [
      "div",
      mergeAttributes(HTMLAttributes, { "data-story-gallery": "", class: "rounded-lg border border-slate-300 bg-slate-50 p-2" }),
      ["p", { class: "m-0 mb-2 text-sm font-semibold text-slate-700" }, `Gallery of ${images.length} images (select it, then Edit gallery)`],
      [
        "div",
        { class: "grid grid-cols-3 gap-1 sm:grid-cols-4" },
        ...images.map((image) => ["img", { src: isOwnImageSrc(image.src) ? `${image.src}?w=320` : "", alt: image.alt, "data-caption": image.caption, class: "aspect-square w-full rounded object-cover" }]),
      ],
    ];
  },
});

/** A gallery node's pictures as the editor keeps them (anything else dropped). */
function galleryItemsOf(value: unknown): StoryGalleryItem[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((item): item is Record<string, unknown> => Boolean(item) && typeof item === "object")
    .map((item) => ({ src: text(item.src), alt: text(item.alt), caption: text(item.caption) }));
}

/**
 * "Paywall here" (issue 40): where a Members or Paid story's free part ends. A divider the writer sees
 * and readers never do (every renderer passes it by); the first one counts.
 */
const PaywallNode = Node.create({
  name: "paywall",
  group: "block",
  atom: true,
  draggable: true,
  selectable: true,
  parseHTML() {
    return [{ tag: "div[data-paywall]" }];
  },
  renderHTML({ HTMLAttributes }) {
    return [
      "div",
      mergeAttributes(HTMLAttributes, {
        "data-paywall": "",
        class: "my-4 border-y-2 border-dashed border-amber-500 bg-amber-50 py-1 text-center text-xs font-semibold tracking-wide text-amber-900 uppercase",
      }),
      "Paywall here",
    ];
  },
});

// ---------------------------------------------------------------- toolbar

/**
 * Inserts a block (an image, an embed) and puts the caret in the paragraph after it (made if there is
 * none): the block is not left selected, so the writer's next keystroke goes on after it instead of
 * replacing it.
 */
function insertBlock(editor: Editor, node: { type: string; attrs: Record<string, unknown> }) {
  editor.chain().focus().insertContent(node).run();
  const after = editor.state.selection.to;
  if (editor.state.doc.resolve(after).nodeAfter?.isTextblock) editor.commands.setTextSelection(after + 1);
  else editor.chain().insertContentAt(after, { type: "paragraph" }).setTextSelection(after + 1).run();
}

/** One tool of the toolbar (a button, or an item of "More" when the toolbar is narrow). */
interface Tool {
  label: string;
  icon: ComponentType<{ className?: string; "aria-hidden"?: "true" }>;
  pressed?: boolean;
  disabled?: boolean;
  onSelect: () => void;
  /** Tools of one group sit together, between separators. */
  group: number;
  /** Shown in the narrow toolbar too (a phone); the others are under "More" there. */
  primary?: boolean;
}

function ToolButton({
  label,
  pressed,
  disabled,
  onClick,
  narrow,
  children,
}: {
  label: string;
  pressed?: boolean;
  disabled?: boolean;
  onClick: () => void;
  /** Whether the button shows when the toolbar is narrow (under 36rem: a phone, or a narrow writing column). */
  narrow: "shown" | "hidden";
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      disabled={disabled}
      onClick={onClick}
      className={cn(
        "size-9 shrink-0 items-center justify-center rounded-md hover:bg-slate-100 disabled:opacity-40",
        narrow === "shown" ? "inline-flex" : "hidden @xl:inline-flex",
        pressed ? "bg-brand-100 text-brand-800" : "text-slate-800",
      )}
    >
      {children}
    </button>
  );
}

/** "More": the tools a narrow toolbar has no room for, in a menu (one row instead of three on a phone). */
function MoreTools({ tools, editor }: { tools: Tool[]; editor: Editor }) {
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger asChild>
        <button
          type="button"
          aria-label="More formatting"
          title="More formatting"
          className="ml-auto inline-flex size-9 shrink-0 items-center justify-center rounded-md text-slate-800 hover:bg-slate-100 @xl:hidden"
        >
          <Ellipsis aria-hidden="true" className="size-4" />
        </button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={4}
          // The chosen tool works on the writing area: the keyboard goes back there, not to "More".
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            editor.commands.focus();
          }}
          className="z-50 min-w-52 rounded-md border border-slate-300 bg-white p-1 shadow-lg"
        >
          {tools.map((tool) =>
            tool.pressed === undefined ? (
              <DropdownMenu.Item
                key={tool.label}
                disabled={tool.disabled}
                onSelect={tool.onSelect}
                className="flex cursor-pointer items-center gap-3 rounded px-2 py-2 text-sm text-slate-900 outline-none data-[disabled]:opacity-40 data-[highlighted]:bg-slate-100"
              >
                <tool.icon aria-hidden="true" className="size-4" />
                {tool.label}
              </DropdownMenu.Item>
            ) : (
              <DropdownMenu.CheckboxItem
                key={tool.label}
                checked={tool.pressed}
                disabled={tool.disabled}
                onSelect={tool.onSelect}
                className="flex cursor-pointer items-center gap-3 rounded px-2 py-2 text-sm text-slate-900 outline-none data-[disabled]:opacity-40 data-[highlighted]:bg-slate-100 data-[state=checked]:font-semibold"
              >
                <tool.icon aria-hidden="true" className="size-4" />
                {tool.label}
              </DropdownMenu.CheckboxItem>
            ),
          )}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

// ---------------------------------------------------------------- dialogs

/** A small accessible dialog holding a form of its own (kept from reaching the article form). */
function ToolDialog({
  open,
  onOpenChange,
  title,
  description,
  onSubmit,
  submitLabel,
  submitDisabled,
  error,
  extraActions,
  editor,
  children,
}: {
  editor: Editor;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  onSubmit: () => void;
  submitLabel: string;
  submitDisabled?: boolean;
  error?: string;
  extraActions?: ReactNode;
  children: ReactNode;
}) {
  const errorId = useId();
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // The dialog is portalled, but React events still bubble to the article form: stop here.
    event.stopPropagation();
    onSubmit();
  }
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/50" />
        <Dialog.Content
          // Back to the writing area (not the toolbar button), where the writer was.
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            editor.commands.focus();
          }}
          className="fixed top-1/2 left-1/2 z-50 max-h-[90vh] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg bg-white p-6 shadow-xl">
          <Dialog.Title className="text-lg font-semibold text-slate-900">{title}</Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-slate-700">{description}</Dialog.Description>
          <form onSubmit={submit} className="mt-4 space-y-4" aria-describedby={error ? errorId : undefined} noValidate>
            {children}
            {error ? (
              <p id={errorId} role="alert" className="text-sm text-red-700">
                {error}
              </p>
            ) : null}
            <div className="flex flex-wrap gap-3">
              <Button type="submit" disabled={submitDisabled}>
                {submitLabel}
              </Button>
              {extraActions}
              <Dialog.Close asChild>
                <Button type="button" variant="outline">
                  Cancel
                </Button>
              </Dialog.Close>
            </div>
          </form>
          <Dialog.Close asChild>
            <Button type="button" variant="ghost" size="icon" className="absolute top-3 right-3" aria-label="Close">
              <X className="size-4" aria-hidden="true" />
            </Button>
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function LinkDialog({ editor, open, onOpenChange }: { editor: Editor; open: boolean; onOpenChange: (open: boolean) => void }) {
  const id = useId();
  const current = text(editor.getAttributes("link").href);
  const [href, setHref] = useState(current);
  const [error, setError] = useState<string>();
  useEffect(() => {
    if (open) {
      setHref(text(editor.getAttributes("link").href));
      setError(undefined);
    }
  }, [open, editor]);

  function apply() {
    const value = href.trim();
    if (value === "") {
      editor.chain().focus().extendMarkRange("link").unsetLink().run();
      onOpenChange(false);
      return;
    }
    if (!isAllowedLinkHref(value)) {
      setError("Links must start with http://, https:// or mailto:.");
      return;
    }
    const chain = editor.chain().focus().extendMarkRange("link");
    if (editor.state.selection.empty && !editor.isActive("link")) {
      chain.insertContent({ type: "text", text: value, marks: [{ type: "link", attrs: { href: value } }] }).run();
    } else {
      chain.setLink({ href: value }).run();
    }
    onOpenChange(false);
  }

  return (
    <ToolDialog
      editor={editor}
      open={open}
      onOpenChange={onOpenChange}
      title={current ? "Edit link" : "Add link"}
      description="The selected text links to this address (http, https or mailto)."
      onSubmit={apply}
      submitLabel="Apply link"
      error={error}
      extraActions={
        current ? (
          <Button
            type="button"
            variant="outline"
            onClick={() => {
              editor.chain().focus().extendMarkRange("link").unsetLink().run();
              onOpenChange(false);
            }}
          >
            Remove link
          </Button>
        ) : null
      }
    >
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-href`}>Link address</Label>
        <Input id={`${id}-href`} type="url" value={href} onChange={(e) => setHref(e.target.value)} placeholder="https://" autoFocus />
      </div>
    </ToolDialog>
  );
}

interface LibraryImage {
  name: string;
  originalName: string;
  url: string;
}
interface MediaLoaderData {
  media: { images: { items: LibraryImage[] } };
}

const EMPTY_IMAGE = { src: "", alt: "", caption: "", credit: "" };

function ImageDialog({
  editor,
  open,
  onOpenChange,
  onUploadingChange,
  file,
  onFileTaken,
}: {
  editor: Editor;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onUploadingChange: (uploading: boolean) => void;
  /** An image pasted or dropped into the story: uploaded as the dialog opens, which then asks for its alt text. */
  file?: File | null;
  onFileTaken?: () => void;
}) {
  const id = useId();
  // A pasted or dropped image is a new one, whatever the caret is on.
  const [fromFile, setFromFile] = useState(false);
  const editing = editor.isActive("storyImage") && !file && !fromFile;
  const [image, setImage] = useState(EMPTY_IMAGE);
  const [error, setError] = useState<string>();
  const library = useFetcher<MediaLoaderData>();
  const { input, inputProps, uploading, upload } = useAdminUpload(
    "image",
    (stored) => setImage((img) => ({ ...img, src: stored.url })),
    onUploadingChange,
  );

  useEffect(() => {
    if (!open) return;
    const attrs = editor.isActive("storyImage") && !file ? editor.getAttributes("storyImage") : {};
    setImage({ src: text(attrs.src), alt: text(attrs.alt), caption: text(attrs.caption), credit: text(attrs.credit) });
    setError(undefined);
    setFromFile(Boolean(file));
    if (file) {
      onFileTaken?.();
      void upload(file);
    }
    // Read when the dialog opens (a pasted or dropped file is taken once).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, editor]);

  function apply() {
    const attrs = { src: image.src.trim(), alt: image.alt.trim(), caption: image.caption.trim(), credit: image.credit.trim() };
    if (!attrs.src) return setError("Upload an image or choose one from the Media Library.");
    if (!isAllowedImageSrc(attrs.src)) return setError("The image must come from the Media Library or an https address.");
    if (!attrs.alt) return setError("Describe the image in its alt text.");
    if (editing) editor.chain().focus().updateAttributes("storyImage", attrs).run();
    else insertBlock(editor, { type: "storyImage", attrs });
    onOpenChange(false);
  }

  const images = library.data?.media.images.items ?? [];
  return (
    <ToolDialog
      editor={editor}
      open={open}
      onOpenChange={onOpenChange}
      title={editing ? "Edit image" : "Insert image"}
      description="Upload an image or choose one from the Media Library, then describe it."
      onSubmit={apply}
      submitLabel={editing ? "Update image" : "Insert image"}
      submitDisabled={uploading}
      error={error}
    >
      {uploading ? (
        <p role="status" className="flex items-center gap-2 text-sm text-slate-700">
          <Loader2 aria-hidden="true" className="size-4 animate-spin" />
          Uploading the image…
        </p>
      ) : null}
      <div className="flex flex-wrap gap-3">
        <input {...inputProps} tabIndex={-1} aria-label="Upload inline image" />
        <Button type="button" variant="outline" disabled={uploading} onClick={() => input.current?.click()}>
          {uploading ? <Loader2 aria-hidden="true" className="size-4 animate-spin" /> : <Upload aria-hidden="true" className="size-4" />}
          {uploading ? "Uploading..." : "Upload image"}
        </Button>
        <Button type="button" variant="outline" onClick={() => library.load("/admin/media")} disabled={library.state !== "idle"}>
          {library.state !== "idle" ? "Loading..." : "Choose from Media Library"}
        </Button>
      </div>
      {library.data ? (
        images.length > 0 ? (
          <ul aria-label="Media Library images" className="grid max-h-56 grid-cols-3 gap-2 overflow-y-auto">
            {images.map((item) => (
              <li key={item.name}>
                <button
                  type="button"
                  aria-pressed={image.src === item.url}
                  aria-label={`Choose ${item.originalName}`}
                  onClick={() => setImage((img) => ({ ...img, src: item.url }))}
                  className={cn("block w-full rounded-md border-2", image.src === item.url ? "border-brand-700" : "border-transparent")}
                >
                  <img src={`${item.url}?w=320`} alt="" className="aspect-video w-full rounded object-cover" loading="lazy" />
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-700">The Media Library has no images yet.</p>
        )
      ) : null}
      {image.src ? <img src={image.src} alt="Chosen image preview" className="max-h-40 rounded-md border border-slate-200" /> : null}
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-alt`}>Alt text *</Label>
        <Input id={`${id}-alt`} value={image.alt} onChange={(e) => setImage({ ...image, alt: e.target.value })} aria-required="true" maxLength={500} />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-caption`}>Caption</Label>
        <Input id={`${id}-caption`} value={image.caption} onChange={(e) => setImage({ ...image, caption: e.target.value })} maxLength={1000} />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-credit`}>Credit</Label>
        <Input id={`${id}-credit`} value={image.credit} onChange={(e) => setImage({ ...image, credit: e.target.value })} maxLength={200} />
      </div>
    </ToolDialog>
  );
}

/**
 * A gallery's pictures (issue 41): uploaded (several at once) or chosen from the Media Library, each
 * with its alt text (required) and caption, moved up or down, removed. The server checks the same
 * rules on save (story-document.schema.ts).
 */
function GalleryDialog({
  editor,
  open,
  onOpenChange,
  onUploadingChange,
}: {
  editor: Editor;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onUploadingChange: (uploading: boolean) => void;
}) {
  const id = useId();
  const editing = editor.isActive("gallery");
  const [images, setImages] = useState<StoryGalleryItem[]>([]);
  const [error, setError] = useState<string>();
  const library = useFetcher<MediaLoaderData>();
  const add = (src: string) => setImages((list) => (list.some((item) => item.src === src) || list.length >= GALLERY_MAX ? list : [...list, { src, alt: "", caption: "" }]));
  const { input, inputProps, uploading, upload } = useAdminUpload("image", (stored) => add(stored.url), onUploadingChange);

  useEffect(() => {
    if (!open) return;
    setImages(editor.isActive("gallery") ? galleryItemsOf(editor.getAttributes("gallery").images) : []);
    setError(undefined);
  }, [open, editor]);

  const update = (index: number, change: Partial<StoryGalleryItem>) => setImages((list) => list.map((item, i) => (i === index ? { ...item, ...change } : item)));
  const move = (index: number, by: -1 | 1) =>
    setImages((list) => {
      const next = [...list];
      const [item] = next.splice(index, 1);
      next.splice(index + by, 0, item!);
      return next;
    });

  function apply() {
    const list = images.map((item) => ({ src: item.src.trim(), alt: item.alt.trim(), caption: item.caption.trim() }));
    if (list.length < GALLERY_MIN_IMAGES || list.length > GALLERY_MAX) return setError(GALLERY_COUNT_MESSAGE);
    const missing = list.findIndex((item) => !item.alt);
    if (missing >= 0) return setError(`Describe image ${missing + 1} in its alt text.`);
    if (editing) editor.chain().focus().updateAttributes("gallery", { images: list }).run();
    else insertBlock(editor, { type: "gallery", attrs: { images: list } });
    onOpenChange(false);
  }

  const libraryImages = library.data?.media.images.items ?? [];
  return (
    <ToolDialog
      editor={editor}
      open={open}
      onOpenChange={onOpenChange}
      title={editing ? "Edit gallery" : "Insert gallery"}
      description={`Upload images or choose them from the Media Library (${GALLERY_MIN_IMAGES} to ${GALLERY_MAX}), then describe each one.`}
      onSubmit={apply}
      submitLabel={editing ? "Update gallery" : "Insert gallery"}
      submitDisabled={uploading}
      error={error}
    >
      {uploading ? (
        <p role="status" className="flex items-center gap-2 text-sm text-slate-700">
          <Loader2 aria-hidden="true" className="size-4 animate-spin" />
          Uploading the images…
        </p>
      ) : null}
      <div className="flex flex-wrap gap-3">
        <input
          {...inputProps}
          multiple
          onChange={(event) => {
            const files = [...(event.currentTarget.files ?? [])];
            void (async () => {
              for (const file of files) await upload(file);
            })();
          }}
          tabIndex={-1}
          aria-label="Upload gallery images"
        />
        <Button type="button" variant="outline" disabled={uploading || images.length >= GALLERY_MAX} onClick={() => input.current?.click()}>
          {uploading ? <Loader2 aria-hidden="true" className="size-4 animate-spin" /> : <Upload aria-hidden="true" className="size-4" />}
          {uploading ? "Uploading..." : "Upload images"}
        </Button>
        <Button type="button" variant="outline" onClick={() => library.load("/admin/media")} disabled={library.state !== "idle"}>
          {library.state !== "idle" ? "Loading..." : "Choose from Media Library"}
        </Button>
      </div>
      {library.data ? (
        libraryImages.length > 0 ? (
          <ul aria-label="Media Library images" className="grid max-h-56 grid-cols-3 gap-2 overflow-y-auto">
            {libraryImages.map((item) => {
              const chosen = images.some((image) => image.src === item.url);
              return (
                <li key={item.name}>
                  <button
                    type="button"
                    aria-pressed={chosen}
                    aria-label={`Add ${item.originalName}`}
                    onClick={() => (chosen ? setImages((list) => list.filter((image) => image.src !== item.url)) : add(item.url))}
                    className={cn("block w-full rounded-md border-2", chosen ? "border-brand-700" : "border-transparent")}
                  >
                    <img src={`${item.url}?w=320`} alt="" className="aspect-video w-full rounded object-cover" loading="lazy" />
                  </button>
                </li>
              );
            })}
          </ul>
        ) : (
          <p className="text-sm text-slate-700">The Media Library has no images yet.</p>
        )
      ) : null}
      <p className="text-sm font-medium text-slate-800" aria-live="polite">
        {images.length === 0 ? "No images yet." : `${images.length} of at most ${GALLERY_MAX} images`}
      </p>
      <ol aria-label="Gallery images" className="space-y-3">
        {images.map((image, index) => (
          <li key={image.src} className="flex gap-3 rounded-md border border-slate-200 p-2">
            <img src={isOwnImageSrc(image.src) ? `${image.src}?w=320` : image.src} alt="" className="size-20 shrink-0 rounded object-cover" />
            <div className="min-w-0 flex-1 space-y-2">
              <div className="space-y-1">
                <Label htmlFor={`${id}-alt-${index}`}>Alt text of image {index + 1} *</Label>
                <Input id={`${id}-alt-${index}`} value={image.alt} onChange={(e) => update(index, { alt: e.target.value })} aria-required="true" maxLength={500} />
              </div>
              <div className="space-y-1">
                <Label htmlFor={`${id}-caption-${index}`}>Caption of image {index + 1}</Label>
                <Input id={`${id}-caption-${index}`} value={image.caption} onChange={(e) => update(index, { caption: e.target.value })} maxLength={1000} />
              </div>
              <div className="flex gap-1">
                <Button type="button" variant="ghost" size="icon" aria-label={`Move image ${index + 1} up`} disabled={index === 0} onClick={() => move(index, -1)}>
                  <MoveUp aria-hidden="true" className="size-4" />
                </Button>
                <Button type="button" variant="ghost" size="icon" aria-label={`Move image ${index + 1} down`} disabled={index === images.length - 1} onClick={() => move(index, 1)}>
                  <MoveDown aria-hidden="true" className="size-4" />
                </Button>
                <Button type="button" variant="ghost" size="icon" aria-label={`Remove image ${index + 1}`} onClick={() => setImages((list) => list.filter((_, i) => i !== index))}>
                  <Trash2 aria-hidden="true" className="size-4" />
                </Button>
              </div>
            </div>
          </li>
        ))}
      </ol>
    </ToolDialog>
  );
}

function EmbedDialog({
  editor,
  open,
  onOpenChange,
  kind,
}: {
  editor: Editor;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** What the insert menu asked for ("YouTube" or "X post"): only the address's example differs. */
  kind?: "youtube" | "x";
}) {
  const id = useId();
  const [url, setUrl] = useState("");
  const [error, setError] = useState<string>();
  useEffect(() => {
    if (open) {
      setUrl(editor.isActive("embed") ? text(editor.getAttributes("embed").url) : "");
      setError(undefined);
    }
  }, [open, editor]);

  function apply() {
    const target = embedTargetOf(url);
    if (!target) return setError("Only YouTube videos and X posts can be embedded: paste the video's or the post's address.");
    if (editor.isActive("embed")) editor.chain().focus().updateAttributes("embed", { url: target.url }).run();
    else insertBlock(editor, { type: "embed", attrs: { url: target.url } });
    onOpenChange(false);
  }

  return (
    <ToolDialog
      editor={editor}
      open={open}
      onOpenChange={onOpenChange}
      title="Embed a video or post"
      description="A YouTube video or an X post. Readers see a link that loads nothing from YouTube or X until they open it."
      onSubmit={apply}
      submitLabel="Embed"
      error={error}
    >
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-url`}>YouTube or X address</Label>
        <Input
          id={`${id}-url`}
          type="url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          placeholder={kind === "x" ? "https://x.com/…/status/…" : "https://www.youtube.com/watch?v=…"}
          autoFocus
        />
      </div>
    </ToolDialog>
  );
}

// ---------------------------------------------------------------- the editor

export interface StoryEditorProps {
  initialDoc: StoryDocument;
  labelId: string;
  describedBy?: string;
  invalid?: boolean;
  onChange: (doc: StoryDocument) => void;
  onUploadingChange: (uploading: boolean) => void;
  /** Whether the insert menu offers "Paywall here" (a story; not a page). */
  paywall?: boolean;
}

export default function StoryEditor({ initialDoc, labelId, describedBy, invalid, onChange, onUploadingChange, paywall = false }: StoryEditorProps) {
  const [dialog, setDialog] = useState<"link" | "image" | "embed" | "gallery" | null>(null);
  const [embedKind, setEmbedKind] = useState<"youtube" | "x" | undefined>(undefined);
  // An image pasted or dropped into the story, waiting for the image dialog to upload it.
  const [pendingImage, setPendingImage] = useState<File | null>(null);
  // The insert menu: opened by "+" (the list takes the keyboard) or by "/" (the writing area keeps it).
  const [menu, setMenu] = useState<{ by: "button" | "slash"; active: number } | null>(null);
  // A "/" the writer closed with Escape stays text until the paragraph changes.
  const [dismissedSlash, setDismissedSlash] = useState<string | null>(null);
  const wrapper = useRef<HTMLDivElement>(null);
  // The editor's view is there (measuring the caret's line needs it).
  const [mounted, setMounted] = useState(false);
  const menuId = useId();
  const hintId = useId();

  // The writing area's attributes follow the form's last answer (error state, its message).
  const attributes: Record<string, string> = {
    role: "textbox",
    "aria-multiline": "true",
    "aria-labelledby": labelId,
    "aria-required": "true",
    "aria-describedby": [describedBy, hintId].filter(Boolean).join(" "),
    class: cn(
      "story-body min-h-72 rounded-b-md border bg-white py-3 pr-12 pl-4 text-base focus:outline-2 focus:outline-brand-600",
      invalid ? "border-red-600" : "border-slate-300",
    ),
  };
  if (invalid) attributes["aria-invalid"] = "true";

  // ProseMirror's handlers are set once, when the editor is made: they reach the current component through this ref.
  const handlers = useRef<{ imageFile: (file: File, at: number | null) => void; slashKey: (key: string) => boolean }>({
    imageFile: () => {},
    slashKey: () => false,
  });

  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3] },
        code: false,
        codeBlock: false,
        strike: false,
        underline: false,
        link: {
          openOnClick: false,
          // Typing after a link does not extend it (autolink would make the mark inclusive); pasted addresses still link.
          autolink: false,
          defaultProtocol: "https",
          HTMLAttributes: { rel: "noopener", target: null },
          isAllowedUri: (url) => isAllowedLinkHref(url),
        },
      }),
      StoryImageNode,
      EmbedNode,
      GalleryNode,
      PaywallNode,
    ],
    // Read once, when the editor is made (later renders update the options, not the document).
    content: initialDoc as JSONContent,
    immediatelyRender: true,
    editorProps: {
      attributes,
      // Word, Google Docs and web pages: headings, links, lists, bold and italic, nothing else (story-paste.ts).
      transformPastedHTML: (html) => cleanPastedHtml(html),
      handlePaste: (_view, event) => {
        const image = imageOf(event.clipboardData?.files);
        // A word processor puts a picture of the copied text beside the text: the text is what was meant.
        if (!image || (event.clipboardData?.getData("text/plain") ?? "").trim() !== "") return false;
        event.preventDefault();
        handlers.current.imageFile(image, null);
        return true;
      },
      handleDrop: (view, event, _slice, moved) => {
        const files = event.dataTransfer?.files;
        if (moved || !files || files.length === 0) return false;
        event.preventDefault();
        const image = imageOf(files);
        if (!image) {
          toast.error("Upload failed", "Only images can be dropped into the story: JPEG, PNG, GIF or WebP.");
          return true;
        }
        handlers.current.imageFile(image, view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos ?? null);
        return true;
      },
      handleKeyDown: (_view, event) => handlers.current.slashKey(event.key) && (event.preventDefault(), true),
    },
    onUpdate: ({ editor }) => onChange(editor.getJSON() as StoryDocument),
    onCreate: () => setMounted(true),
  });

  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => {
      const place = e ? insertPlace(e) : null;
      return {
        paragraph: e.isActive("paragraph"),
        h2: e.isActive("heading", { level: 2 }),
        h3: e.isActive("heading", { level: 3 }),
        bold: e.isActive("bold"),
        italic: e.isActive("italic"),
        link: e.isActive("link"),
        bulletList: e.isActive("bulletList"),
        orderedList: e.isActive("orderedList"),
        blockquote: e.isActive("blockquote"),
        image: e.isActive("storyImage"),
        embed: e.isActive("embed"),
        gallery: e.isActive("gallery"),
        canUndo: e.can().undo(),
        canRedo: e.can().redo(),
        placePos: place?.pos ?? null,
        slashQuery: place?.slashQuery ?? null,
      };
    },
  });

  // Where the "+" button and the menu go: the empty paragraph's line, measured after it is laid out.
  const [lineTop, setLineTop] = useState<{ top: number; bottom: number } | null>(null);
  const placePos = state?.placePos ?? null;
  useLayoutEffect(() => {
    if (!editor || !mounted || placePos === null || !wrapper.current) return setLineTop(null);
    try {
      const at = editor.view.coordsAtPos(placePos);
      const box = wrapper.current.getBoundingClientRect();
      setLineTop({ top: at.top - box.top, bottom: at.bottom - box.top });
    } catch {
      setLineTop(null);
    }
  }, [editor, mounted, placePos, state?.slashQuery]);

  const slashQuery = state?.slashQuery ?? null;
  const slashKey = slashQuery === null ? null : `${placePos}:${slashQuery}`;
  const slashOpen = slashQuery !== null && slashKey !== dismissedSlash;
  const options = insertOptionsFor(menu?.by === "button" ? "" : (slashQuery ?? ""), { paywall });
  // "/" opens the menu as it is typed, and closes it when nothing matches or the caret leaves.
  const open = menu?.by === "button" ? (placePos !== null && slashQuery === null ? menu : null) : slashOpen && options.length > 0 ? { by: "slash" as const, active: menu?.by === "slash" ? Math.min(menu.active, options.length - 1) : 0 } : null;

  function choose(option: InsertOption) {
    if (!editor) return;
    const place = insertPlace(editor);
    let chain = editor.chain().focus();
    // From "/": the "/" and the letters after it go before the block comes.
    if (place?.slashQuery !== null && place) chain = chain.deleteRange({ from: place.pos, to: editor.state.selection.from });
    setMenu(null);
    if (option.choice === "heading") chain.setHeading({ level: 2 }).run();
    else if (option.choice === "list") chain.toggleBulletList().run();
    else if (option.choice === "quote") chain.toggleBlockquote().run();
    else if (option.choice === "divider") chain.setHorizontalRule().run();
    else if (option.choice === "paywall") {
      chain.run();
      insertBlock(editor, { type: "paywall", attrs: {} });
    } else {
      chain.run();
      if (option.choice === "image") setDialog("image");
      else if (option.choice === "gallery") setDialog("gallery");
      else {
        setEmbedKind(option.choice);
        setDialog("embed");
      }
    }
  }

  handlers.current = {
    imageFile: (file, at) => {
      if (!editor) return;
      // A drop puts the image where it was dropped: the caret goes there, and the dialog inserts at the caret.
      if (at !== null) {
        editor.commands.command(({ tr }) => {
          tr.setSelection(TextSelection.near(tr.doc.resolve(Math.min(at, tr.doc.content.size))));
          return true;
        });
      }
      setMenu(null);
      setPendingImage(file);
      setDialog("image");
    },
    slashKey: (key) => {
      if (!open || open.by !== "slash") return false;
      const step = moveFor(key, open.active, options.length);
      if (step !== null && (key === "ArrowDown" || key === "ArrowUp")) {
        setMenu({ by: "slash", active: step });
        return true;
      }
      if (key === "Enter" || key === "Tab") {
        const option = options[open.active];
        if (option) choose(option);
        return true;
      }
      if (key === "Escape") {
        setDismissedSlash(slashKey);
        setMenu(null);
        return true;
      }
      return false;
    },
  };

  // From "/", the writing area points at the menu's active option (the caret never leaves it).
  const activeDescendant = open?.by === "slash" ? `${menuId}-option-${open.active}` : null;
  useEffect(() => {
    // The view exists once the editor is mounted (TipTap throws on reading it before).
    const dom = editor && mounted ? editor.view.dom : null;
    if (!dom) return;
    if (activeDescendant) {
      dom.setAttribute("aria-controls", menuId);
      dom.setAttribute("aria-activedescendant", activeDescendant);
    } else {
      dom.removeAttribute("aria-controls");
      dom.removeAttribute("aria-activedescendant");
    }
  }, [editor, mounted, activeDescendant, menuId]);

  if (!editor || !state) return null;
  const run = (command: (chain: ReturnType<Editor["chain"]>) => ReturnType<Editor["chain"]>) => () => command(editor.chain().focus()).run();

  // Every tool once: the toolbar shows them all when it has room, else the first ones and "More" for the rest.
  const tools: Tool[] = [
    { label: "Paragraph", icon: Pilcrow, pressed: state.paragraph, onSelect: run((c) => c.setParagraph()), group: 0 },
    { label: "Subheading", icon: Heading2, pressed: state.h2, onSelect: run((c) => c.toggleHeading({ level: 2 })), group: 0, primary: true },
    { label: "Minor subheading", icon: Heading3, pressed: state.h3, onSelect: run((c) => c.toggleHeading({ level: 3 })), group: 0 },
    { label: "Bold", icon: Bold, pressed: state.bold, onSelect: run((c) => c.toggleBold()), group: 1, primary: true },
    { label: "Italic", icon: Italic, pressed: state.italic, onSelect: run((c) => c.toggleItalic()), group: 1, primary: true },
    { label: "Link", icon: Link2, pressed: state.link, onSelect: () => setDialog("link"), group: 1, primary: true },
    { label: "Bulleted list", icon: List, pressed: state.bulletList, onSelect: run((c) => c.toggleBulletList()), group: 2, primary: true },
    { label: "Numbered list", icon: ListOrdered, pressed: state.orderedList, onSelect: run((c) => c.toggleOrderedList()), group: 2 },
    { label: "Block quote", icon: Quote, pressed: state.blockquote, onSelect: run((c) => c.toggleBlockquote()), group: 2 },
    { label: "Horizontal rule", icon: Minus, onSelect: run((c) => c.setHorizontalRule()), group: 2 },
    { label: state.image ? "Edit image" : "Insert image", icon: ImageIcon, pressed: state.image, onSelect: () => setDialog("image"), group: 3, primary: true },
    {
      label: state.embed ? "Edit embed" : "Embed video or post",
      icon: Film,
      pressed: state.embed,
      onSelect: () => {
        setEmbedKind(undefined);
        setDialog("embed");
      },
      group: 3,
    },
    { label: state.gallery ? "Edit gallery" : "Insert gallery", icon: LayoutGrid, pressed: state.gallery, onSelect: () => setDialog("gallery"), group: 3 },
    { label: "Undo", icon: Undo2, disabled: !state.canUndo, onSelect: run((c) => c.undo()), group: 4 },
    { label: "Redo", icon: Redo2, disabled: !state.canRedo, onSelect: run((c) => c.redo()), group: 4 },
  ];

  return (
    <div ref={wrapper} className="relative">
      {/* Sticky: the toolbar stays in view while writing (under the admin header, when a layout makes it sticky: --admin-sticky-top). */}
      <div className="@container sticky z-20" style={{ top: "var(--admin-sticky-top, 0px)" }}>
        <div
          role="toolbar"
          aria-label="Story formatting"
          className="flex flex-nowrap items-center gap-0.5 rounded-t-md border border-b-0 border-slate-300 bg-slate-50 p-1 @xl:flex-wrap"
        >
          {tools.map((tool, index) => (
            <Fragment key={tool.label}>
              {index > 0 && tools[index - 1]!.group !== tool.group ? (
                <span className="mx-0.5 hidden h-6 w-px bg-slate-300 @xl:block" aria-hidden="true" />
              ) : null}
              <ToolButton label={tool.label} pressed={tool.pressed} disabled={tool.disabled} onClick={tool.onSelect} narrow={tool.primary ? "shown" : "hidden"}>
                <tool.icon aria-hidden="true" className="size-4" />
              </ToolButton>
            </Fragment>
          ))}
          <MoreTools tools={tools.filter((t) => !t.primary)} editor={editor} />
        </div>
      </div>
      <EditorContent editor={editor} />
      {lineTop && placePos !== null && slashQuery === null ? (
        <InsertButton
          top={lineTop.top + (lineTop.bottom - lineTop.top) / 2 - 16}
          expanded={open?.by === "button"}
          menuId={menuId}
          onOpen={() => setMenu(open?.by === "button" ? null : { by: "button", active: 0 })}
        />
      ) : null}
      {open && lineTop ? (
        <InsertMenu
          id={menuId}
          optionIdPrefix={`${menuId}-option`}
          options={options}
          active={open.active}
          top={lineTop.bottom + 4}
          takesFocus={open.by === "button"}
          onActiveChange={(active) => setMenu({ by: open.by, active })}
          onChoose={choose}
          onClose={(refocus) => {
            if (open.by === "slash") setDismissedSlash(slashKey);
            setMenu(null);
            if (refocus) editor.commands.focus();
          }}
        />
      ) : null}
      <p id={hintId} className="mt-1 text-xs text-slate-600">
        Type / on an empty line, or press +, to insert a heading, list, quote, divider, image, gallery, YouTube video or X post. Paste or drop an
        image to upload it.
      </p>
      <LinkDialog editor={editor} open={dialog === "link"} onOpenChange={(open) => setDialog(open ? "link" : null)} />
      <ImageDialog
        editor={editor}
        open={dialog === "image"}
        onOpenChange={(open) => {
          setDialog(open ? "image" : null);
          if (!open) setPendingImage(null);
        }}
        onUploadingChange={onUploadingChange}
        file={pendingImage}
        onFileTaken={() => setPendingImage(null)}
      />
      <GalleryDialog editor={editor} open={dialog === "gallery"} onOpenChange={(open) => setDialog(open ? "gallery" : null)} onUploadingChange={onUploadingChange} />
      <EmbedDialog editor={editor} open={dialog === "embed"} kind={embedKind} onOpenChange={(open) => setDialog(open ? "embed" : null)} />
    </div>
  );
}

/** The first image among pasted or dropped files. */
function imageOf(files: FileList | null | undefined): File | null {
  return Array.from(files ?? []).find((file) => file.type.startsWith("image/")) ?? null;
}
