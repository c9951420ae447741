import { useEffect, useState, type FormEvent } from "react";
import { Form, useNavigation, useSubmit } from "react-router";
import { Button } from "~/components/ui/button";
import { Input, Label } from "~/components/ui/input";
import { toast } from "~/components/ui/toaster";
import type { RevisionSummary } from "~/domain/articles/article-revisions.schema";
import {
  FOOTER_POSITION_MAX,
  PAGE_STATUS_LABELS,
  pagePath,
  REQUIRED_PAGE_FIELDS,
  type PageFieldName,
  type PageFormFields,
  type PageStatusName,
} from "~/domain/pages/pages.schema";
import { formatPublishDate, useSiteTimeZone } from "~/lib/dates";
import { MISSING_FIELDS, refusalNotice, type Refusal } from "~/lib/forms";
import { slugify } from "~/lib/slugs";
import { AdminPageHeader } from "./admin-page-header";
import { FieldError } from "./field-error";
import { HistoryPanel } from "./article-history-panel";
import { ConfirmDialog } from "./confirm-dialog";
import { useNoticeToast } from "./use-notice-toast";
import { StoryContentField } from "./story-field";

/** A page as the form starts from: a saved page's fields, id and status (edit), or nothing (new). */
export interface PageFormValues extends PageFormFields {
  id: string;
  status: PageStatusName;
}

/** The form's answer from its action: a refusal (400/403/404/409), absent after a redirect. */
export type PageFormFailure = Refusal<PageFieldName> | undefined;

/**
 * The page form (issue 29): title, address, the story editor (the article form's StoryField), the
 * footer link, and Save draft / Publish (Update page and Unpublish for a live page). History lists the
 * page's saves; restoring one fills the form, and a saving button stores it as a new save.
 */
export function PageForm({ page, failure }: { page: PageFormValues | null; failure: PageFormFailure }) {
  const navigation = useNavigation();
  const submit = useSubmit();
  const timeZone = useSiteTimeZone();
  useNoticeToast();
  const [restored, setRestored] = useState<{ seq: number; fields: PageFormFields } | null>(null);
  const shown: Partial<PageFormFields> = { ...(page ?? {}), ...(restored?.fields ?? {}) };
  const values = restored ? undefined : failure?.values;
  const [title, setTitle] = useState(values?.title ?? shown.title ?? "");
  const [slug, setSlug] = useState(values?.slug ?? shown.slug ?? "");
  // A new page's address follows its title until the slug is typed in.
  const [slugTyped, setSlugTyped] = useState(Boolean(page) || Boolean(values?.slug));
  const [uploads, setUploads] = useState(0);
  const [unpublishing, setUnpublishing] = useState(false);
  const status = page?.status;
  const busy = navigation.state !== "idle" || uploads > 0;
  const errors: Partial<Record<PageFieldName, string>> = { ...failure?.fieldErrors };

  useEffect(() => {
    if (!failure) return;
    document.querySelector<HTMLElement>('#page-form [aria-invalid="true"]')?.focus();
    toast.error(...refusalNotice(failure, { marksFields: true }));
  }, [failure]);

  function restore(fields: PageFormFields, revision: RevisionSummary) {
    setTitle(fields.title);
    setSlug(fields.slug);
    setRestored((previous) => ({ seq: (previous?.seq ?? 0) + 1, fields }));
    toast.success(
      "Version restored",
      `The form holds the version of ${formatPublishDate(revision.savedAt, timeZone)}. Press ${status === "published" ? "Update page" : "Save draft or Publish"} to save it.`,
    );
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const form = new FormData(event.currentTarget);
    if (REQUIRED_PAGE_FIELDS.some((name) => String(form.get(name) ?? "").trim() === "")) {
      event.preventDefault();
      toast.error(MISSING_FIELDS.title, MISSING_FIELDS.description);
    } else if (uploads > 0) {
      event.preventDefault();
      toast.error("Upload in progress", "Please wait until the upload has finished.");
    }
  }

  const describedBy = (name: PageFieldName, hint?: string) => (errors[name] ? `${name}-error` : hint);
  const invalid = (name: PageFieldName) => (errors[name] ? true : undefined);
  const showInFooter = values ? values.showInFooter === "on" : (shown.showInFooter ?? false);
  const footerPosition = values?.footerPosition ?? String(shown.footerPosition ?? 0);

  return (
    <main className="mx-auto w-full min-w-0 max-w-4xl flex-1 px-4 py-6 lg:py-8">
      <AdminPageHeader title={page ? "Edit Page" : "Create New Page"} back={{ to: "/admin/pages", label: "Back to Pages" }} />
      <Form key={restored?.seq ?? 0} id="page-form" method="post" noValidate onSubmit={onSubmit} className="space-y-6 rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
        <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 pb-4">
          <p className="text-sm text-slate-700" data-testid="page-status">
            {status ? (
              <>
                Status: <span className="font-semibold text-slate-900">{PAGE_STATUS_LABELS[status]}</span>
                {status === "published" ? (
                  <>
                    {" · "}
                    <a href={pagePath(page!.slug)} className="text-brand-700 underline" target="_blank" rel="noreferrer">
                      View page
                    </a>
                  </>
                ) : null}
              </>
            ) : (
              "A new page is a draft until you publish it."
            )}
          </p>
          {page ? <HistoryPanel<PageFormFields> historyUrl={`/admin/pages/edit/${page.id}/history`} note="Each save of this page, newest first." buttons="Save draft, Publish, Update page" restoreDisabled={uploads > 0} onRestore={restore} /> : null}
        </div>

        <div className="space-y-2">
          <Label htmlFor="title">Title *</Label>
          <Input
            id="title"
            name="title"
            value={title}
            maxLength={300}
            aria-required="true"
            aria-invalid={invalid("title")}
            aria-describedby={describedBy("title")}
            onChange={(e) => {
              setTitle(e.target.value);
              if (!slugTyped) setSlug(slugify(e.target.value));
            }}
          />
          <FieldError id="title-error" message={errors.title} />
        </div>

        <div className="space-y-2">
          <Label htmlFor="slug">Slug *</Label>
          <Input
            id="slug"
            name="slug"
            value={slug}
            aria-required="true"
            aria-invalid={invalid("slug")}
            aria-describedby={describedBy("slug", "slug-hint")}
            onChange={(e) => {
              setSlugTyped(true);
              setSlug(e.target.value);
            }}
          />
          {errors.slug ? null : (
            <p id="slug-hint" className="text-xs text-slate-600">
              The page's address: {pagePath(slug || "…")}. Addresses the site uses itself (about, admin, search, …) cannot be taken.
            </p>
          )}
          <FieldError id="slug-error" message={errors.slug} />
        </div>

        <StoryContentField
          storedDoc={shown.contentDoc ?? null}
          submittedDoc={values?.contentDoc}
          text={values?.content ?? shown.content ?? ""}
          error={errors.contentDoc ?? errors.content}
          onUploadingChange={(uploading) => setUploads((n) => n + (uploading ? 1 : -1))}
        />

        <fieldset className="space-y-3 rounded-md border border-slate-200 p-4">
          <legend className="px-1 text-sm font-semibold text-slate-900">Footer</legend>
          <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
            <input type="checkbox" name="showInFooter" value="on" defaultChecked={showInFooter} className="size-4 rounded border-slate-300" />
            Show in footer
          </label>
          <div className="space-y-1">
            <Label htmlFor="footerPosition">Footer position</Label>
            <div className="w-28">
              <Input
                id="footerPosition"
                name="footerPosition"
                type="number"
                inputMode="numeric"
                min={0}
                max={FOOTER_POSITION_MAX}
                defaultValue={footerPosition}
                aria-invalid={invalid("footerPosition")}
                aria-describedby={describedBy("footerPosition", "footerPosition-hint")}
              />
            </div>
            {errors.footerPosition ? null : (
              <p id="footerPosition-hint" className="text-xs text-slate-600">
                Lower numbers come first, after the Company links. Only published pages are listed.
              </p>
            )}
            <FieldError id="footerPosition-error" message={errors.footerPosition} />
          </div>
        </fieldset>

        <div className="flex flex-wrap gap-3 border-t border-slate-200 pt-4">
          {status === "published" ? (
            <>
              <Button type="submit" name="intent" value="publish" disabled={busy}>
                Update page
              </Button>
              <Button type="button" variant="outline" disabled={busy} onClick={() => setUnpublishing(true)}>
                Unpublish
              </Button>
            </>
          ) : (
            <>
              <Button type="submit" name="intent" value="draft" variant="outline" disabled={busy}>
                Save draft
              </Button>
              <Button type="submit" name="intent" value="publish" disabled={busy}>
                Publish
              </Button>
            </>
          )}
        </div>
      </Form>
      <ConfirmDialog
        open={unpublishing}
        onOpenChange={setUnpublishing}
        title="Unpublish this page?"
        description={`Readers will no longer find it at ${pagePath(page?.slug ?? "")}, in the footer or in the sitemap. Unsaved changes in the form are not kept.`}
        confirmLabel="Unpublish"
        onConfirm={() => void submit({ intent: "unpublish" }, { method: "post" })}
      />
    </main>
  );
}
