import { useEffect, useRef, useState, type ComponentType } from "react";
import { Label, Textarea } from "~/components/ui/input";
import { readingMinutes, storyFromPlainText, storyPlainText, wordCount } from "~/domain/articles/story-document";
import type { StoryDocument } from "~/domain/articles/story-document.schema";
import { FieldError } from "./field-error";
import type { StoryEditorProps } from "./story-editor";

/**
 * A submitted or stored document, if it looks like one. (Stored documents were checked on save; a
 * refused one the editor cannot read opens empty — TipTap drops invalid content — and the server
 * checks everything again. No zod here: its document schema stays on the server.)
 */
function openable(value: unknown): StoryDocument | null {
  let doc = value;
  if (typeof value === "string") {
    if (value.trim() === "") return null;
    try {
      doc = JSON.parse(value);
    } catch {
      return null;
    }
  }
  const looksLikeOne = doc !== null && typeof doc === "object" && (doc as { type?: unknown }).type === "doc" && Array.isArray((doc as { content?: unknown }).content);
  return looksLikeOne ? (doc as StoryDocument) : null;
}

/**
 * The article form's Content field. The rich-text editor (story-editor.tsx) is loaded only here, in
 * the browser, after the page is up; until then, and without JavaScript, the field is a plain
 * textarea named "content" (saved as a plain-text story). With the editor, the form carries the
 * document as JSON in "contentDoc" and its plain text in "content" (the server derives its own).
 * A plain-text story opens in the editor as paragraphs with its exact text.
 */
export function StoryField({
  labelId,
  textareaId,
  storedDoc,
  submittedDoc,
  text,
  describedBy,
  invalid,
  onUploadingChange,
  onEdited,
  paywall = false,
}: {
  labelId: string;
  textareaId: string;
  storedDoc: unknown;
  submittedDoc: string | undefined;
  text: string;
  describedBy?: string;
  invalid?: boolean;
  onUploadingChange: (uploading: boolean) => void;
  /** Called on each change the writer makes to the story (typing, a dialog's insert): the form has an unsaved change. */
  onEdited?: () => void;
  /** Whether the editor's insert menu offers "Paywall here" (issue 40: stories, not pages). */
  paywall?: boolean;
}) {
  const [Editor, setEditor] = useState<ComponentType<StoryEditorProps> | null>(null);
  const [plain, setPlain] = useState(text);
  const [doc, setDoc] = useState<StoryDocument | null>(null);
  // Whether the writer typed in the textarea before the editor arrived (then the editor starts from that text).
  const typed = useRef(false);

  useEffect(() => {
    let live = true;
    void import("./story-editor").then((module) => {
      if (!live) return;
      const start = typed.current ? null : (openable(submittedDoc) ?? openable(storedDoc));
      setDoc(start ?? storyFromPlainText(plainRef.current));
      setEditor(() => module.default);
    });
    return () => {
      live = false;
    };
    // Loaded once; the starting document is read when the editor arrives.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const plainRef = useRef(plain);
  plainRef.current = plain;

  const currentText = Editor && doc ? storyPlainText(doc) : plain;
  const words = wordCount(currentText);

  return (
    <>
      {Editor && doc ? (
        <>
          <input type="hidden" name="contentDoc" value={JSON.stringify(doc)} />
          <input type="hidden" name="content" value={currentText} />
          <Editor
            initialDoc={doc}
            labelId={labelId}
            describedBy={describedBy}
            invalid={invalid}
            onChange={(next) => {
              setDoc(next);
              onEdited?.();
            }}
            onUploadingChange={onUploadingChange}
            paywall={paywall}
          />
        </>
      ) : (
        <>
          <input type="hidden" name="contentDoc" value="" />
          <Textarea
            id={textareaId}
            name="content"
            rows={12}
            value={plain}
            onChange={(e) => {
              typed.current = true;
              setPlain(e.target.value);
              onEdited?.();
            }}
            aria-required="true"
            aria-invalid={invalid}
            aria-describedby={describedBy}
          />
          <noscript>
            <p className="text-xs text-slate-600">
              Without JavaScript the story is edited as plain text: saving keeps its words and paragraphs, not its formatting.
            </p>
          </noscript>
        </>
      )}
      <p className="text-xs text-slate-600" data-testid="story-counts">
        {words} {words === 1 ? "word" : "words"} · {readingMinutes(words)} min read
      </p>
    </>
  );
}

/**
 * The "Content *" field of the article and page forms: its label (which names the editor's writing
 * area, aria-labelledby; before it loads, the textarea), the StoryField and its error beside it.
 */
export function StoryContentField({
  storedDoc,
  submittedDoc,
  text,
  error,
  onUploadingChange,
  onEdited,
  paywall = false,
}: {
  storedDoc: unknown;
  submittedDoc: string | undefined;
  text: string;
  /** The server's message for the story (its document or its text), if it refused it. */
  error: string | undefined;
  onUploadingChange: (uploading: boolean) => void;
  onEdited?: () => void;
  /** Issue 40: offer "Paywall here" (the article form). */
  paywall?: boolean;
}) {
  return (
    <div className="space-y-2">
      <Label id="content-label" htmlFor="content">
        Content *
      </Label>
      <StoryField
        labelId="content-label"
        textareaId="content"
        storedDoc={storedDoc}
        submittedDoc={submittedDoc}
        text={text}
        invalid={error ? true : undefined}
        describedBy={error ? "content-error" : undefined}
        onUploadingChange={onUploadingChange}
        onEdited={onEdited}
        paywall={paywall}
      />
      <FieldError id="content-error" message={error} />
    </div>
  );
}
