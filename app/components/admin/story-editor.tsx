/**
 * The story editor (TipTap 3): loaded on demand by StoryField, in the back office only. It edits
 * the node and mark types of story-document.schema.ts and nothing else; the server checks the
 * document again on save and renders it for readers itself.
 */
import { mergeAttributes, Node, type Editor, type JSONContent } from "@tiptap/core";
import { EditorContent, useEditor, useEditorState } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import {
  Bold,
  Film,
  Heading2,
  Heading3,
  ImageIcon,
  Italic,
  Link2,
  List,
  ListOrdered,
  Loader2,
  Minus,
  Pilcrow,
  Quote,
  Redo2,
  Undo2,
  Upload,
  X,
} from "lucide-react";
import { Dialog } from "radix-ui";
import { useEffect, useId, useState, type FormEvent, type ReactNode } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Input, Label } from "~/components/ui/input";
import type { StoryDocument } from "~/domain/articles/story-document.schema";
import { embedTargetOf, isAllowedImageSrc, isAllowedLinkHref } from "~/domain/articles/story-urls";
import { cn } from "~/lib/cn";
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
        class: "rounded-lg border border-slate-300 bg-slate-50 p-4 text-sm text-slate-700",
      }),
      `${target?.provider === "x" ? "Post on X" : "YouTube video"}: ${target?.url ?? "(not a YouTube or X address)"}`,
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

function ToolButton({
  label,
  pressed,
  disabled,
  onClick,
  children,
}: {
  label: string;
  pressed?: boolean;
  disabled?: boolean;
  onClick: () => void;
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
        "inline-flex size-9 items-center justify-center rounded-md hover:bg-slate-100 disabled:opacity-40",
        pressed ? "bg-brand-100 text-brand-800" : "text-slate-800",
      )}
    >
      {children}
    </button>
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
}: {
  editor: Editor;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onUploadingChange: (uploading: boolean) => void;
}) {
  const id = useId();
  const editing = editor.isActive("storyImage");
  const [image, setImage] = useState(EMPTY_IMAGE);
  const [error, setError] = useState<string>();
  const library = useFetcher<MediaLoaderData>();
  const { input, inputProps, uploading } = useAdminUpload("image", (stored) => setImage((img) => ({ ...img, src: stored.url })), onUploadingChange);

  useEffect(() => {
    if (!open) return;
    const attrs = editor.isActive("storyImage") ? editor.getAttributes("storyImage") : {};
    setImage({ src: text(attrs.src), alt: text(attrs.alt), caption: text(attrs.caption), credit: text(attrs.credit) });
    setError(undefined);
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

function EmbedDialog({ editor, open, onOpenChange }: { editor: Editor; open: boolean; onOpenChange: (open: boolean) => void }) {
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
        <Input id={`${id}-url`} type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://www.youtube.com/watch?v=…" autoFocus />
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
}

export default function StoryEditor({ initialDoc, labelId, describedBy, invalid, onChange, onUploadingChange }: StoryEditorProps) {
  const [dialog, setDialog] = useState<"link" | "image" | "embed" | null>(null);
  // The writing area's attributes follow the form's last answer (error state, its message).
  const attributes: Record<string, string> = {
    role: "textbox",
    "aria-multiline": "true",
    "aria-labelledby": labelId,
    "aria-required": "true",
    class: cn(
      "story-body min-h-72 rounded-b-md border bg-white px-4 py-3 text-base focus:outline-2 focus:outline-brand-600",
      invalid ? "border-red-600" : "border-slate-300",
    ),
  };
  if (describedBy) attributes["aria-describedby"] = describedBy;
  if (invalid) attributes["aria-invalid"] = "true";
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
    ],
    // Read once, when the editor is made (later renders update the options, not the document).
    content: initialDoc as JSONContent,
    immediatelyRender: true,
    editorProps: { attributes },
    onUpdate: ({ editor }) => onChange(editor.getJSON() as StoryDocument),
  });

  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
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
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
    }),
  });

  if (!editor || !state) return null;
  const run = (command: (chain: ReturnType<Editor["chain"]>) => ReturnType<Editor["chain"]>) => () => command(editor.chain().focus()).run();

  return (
    <div>
      <div
        role="toolbar"
        aria-label="Story formatting"
        className="flex flex-wrap items-center gap-1 rounded-t-md border border-b-0 border-slate-300 bg-slate-50 p-1"
      >
        <ToolButton label="Paragraph" pressed={state.paragraph} onClick={run((c) => c.setParagraph())}>
          <Pilcrow aria-hidden="true" className="size-4" />
        </ToolButton>
        <ToolButton label="Subheading" pressed={state.h2} onClick={run((c) => c.toggleHeading({ level: 2 }))}>
          <Heading2 aria-hidden="true" className="size-4" />
        </ToolButton>
        <ToolButton label="Minor subheading" pressed={state.h3} onClick={run((c) => c.toggleHeading({ level: 3 }))}>
          <Heading3 aria-hidden="true" className="size-4" />
        </ToolButton>
        <span className="mx-1 h-6 w-px bg-slate-300" aria-hidden="true" />
        <ToolButton label="Bold" pressed={state.bold} onClick={run((c) => c.toggleBold())}>
          <Bold aria-hidden="true" className="size-4" />
        </ToolButton>
        <ToolButton label="Italic" pressed={state.italic} onClick={run((c) => c.toggleItalic())}>
          <Italic aria-hidden="true" className="size-4" />
        </ToolButton>
        <ToolButton label="Link" pressed={state.link} onClick={() => setDialog("link")}>
          <Link2 aria-hidden="true" className="size-4" />
        </ToolButton>
        <span className="mx-1 h-6 w-px bg-slate-300" aria-hidden="true" />
        <ToolButton label="Bulleted list" pressed={state.bulletList} onClick={run((c) => c.toggleBulletList())}>
          <List aria-hidden="true" className="size-4" />
        </ToolButton>
        <ToolButton label="Numbered list" pressed={state.orderedList} onClick={run((c) => c.toggleOrderedList())}>
          <ListOrdered aria-hidden="true" className="size-4" />
        </ToolButton>
        <ToolButton label="Block quote" pressed={state.blockquote} onClick={run((c) => c.toggleBlockquote())}>
          <Quote aria-hidden="true" className="size-4" />
        </ToolButton>
        <ToolButton label="Horizontal rule" onClick={run((c) => c.setHorizontalRule())}>
          <Minus aria-hidden="true" className="size-4" />
        </ToolButton>
        <span className="mx-1 h-6 w-px bg-slate-300" aria-hidden="true" />
        <ToolButton label={state.image ? "Edit image" : "Insert image"} pressed={state.image} onClick={() => setDialog("image")}>
          <ImageIcon aria-hidden="true" className="size-4" />
        </ToolButton>
        <ToolButton label={state.embed ? "Edit embed" : "Embed video or post"} pressed={state.embed} onClick={() => setDialog("embed")}>
          <Film aria-hidden="true" className="size-4" />
        </ToolButton>
        <span className="mx-1 h-6 w-px bg-slate-300" aria-hidden="true" />
        <ToolButton label="Undo" disabled={!state.canUndo} onClick={run((c) => c.undo())}>
          <Undo2 aria-hidden="true" className="size-4" />
        </ToolButton>
        <ToolButton label="Redo" disabled={!state.canRedo} onClick={run((c) => c.redo())}>
          <Redo2 aria-hidden="true" className="size-4" />
        </ToolButton>
      </div>
      <EditorContent editor={editor} />
      <LinkDialog editor={editor} open={dialog === "link"} onOpenChange={(open) => setDialog(open ? "link" : null)} />
      <ImageDialog
        editor={editor}
        open={dialog === "image"}
        onOpenChange={(open) => setDialog(open ? "image" : null)}
        onUploadingChange={onUploadingChange}
      />
      <EmbedDialog editor={editor} open={dialog === "embed"} onOpenChange={(open) => setDialog(open ? "embed" : null)} />
    </div>
  );
}
