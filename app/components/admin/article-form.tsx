import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { Form, Link, useNavigation, useSubmit } from "react-router";
import { Button } from "~/components/ui/button";
import { Input, Label, Textarea } from "~/components/ui/input";
import { toast } from "~/components/ui/toaster";
import {
  FEATURED_IMAGE_ALT_HINT,
  FEATURED_IMAGE_ALT_REQUIRED,
  FEATURED_IMAGE_TEXT_MAX,
  IN_REVIEW_LABEL,
  isFeaturedImageAltMissing,
  isStoryAccessLevel,
  STORY_ACCESS_HINTS,
  STORY_ACCESS_LABELS,
  STORY_ACCESS_LEVELS,
  REQUIRED_ARTICLE_FIELDS,
  TAKE_OVER_SLUG_LABEL,
  wasPublished,
  type ArticleFieldName,
  type ArticleFormFields,
  type ArticleFormFailure,
  type ArticleStatusName,
  type PendingVersionInfo,
} from "~/domain/articles/articles.schema";
import { formatPublishDate, useSiteTimeZone } from "~/lib/dates";
import { MISSING_FIELDS, refusalNotice } from "~/lib/forms";
import type { RevisionFields, RevisionSummary } from "~/domain/articles/article-revisions.schema";
import { REVIEW_NOTE_MAX, SEND_BACK_INTENT, type ReviewState } from "~/domain/articles/review.schema";
import { AdminPageHeader } from "./admin-page-header";
import { ArticleHistoryPanel } from "./article-history-panel";
import { ConfirmDialog } from "./confirm-dialog";
import { useDraftAutosave, type AutosaveStatus } from "./use-draft-autosave";
import { LEAVE_PROMPT, useLeaveGuard } from "./use-leave-guard";
import { useNoticeToast } from "./use-notice-toast";
import { slugify } from "~/lib/slugs";
import { parseTagNames } from "~/domain/tags/tags.schema";
import { ArticleUploadField } from "./article-upload-field";
import { ArticleSettingsPanel, SettingsSection, SettingsSheetButton, settingsAreASheet } from "./article-settings-panel";
import { SeoPreviewSection } from "./seo-preview-section";
import { AuthorPicker, type AuthorChoice } from "./author-picker";
import { TagPicker } from "./tag-picker";
import { PublishActions, PublishStatusLine } from "./publish-actions";
import { FieldError } from "./field-error";
import { StoryContentField } from "./story-field";
import { SendByEmailSection, type StoryNewsletterOption } from "./send-by-email";
import { LIVE_COVERAGE_FIELD } from "~/domain/live/live-admin.schema";

export interface ArticleFormValues extends ArticleFormFields {
  /** A saved article's id, status and stored publication time (edit mode). */
  id?: string;
  status?: ArticleStatusName;
  publishedAt?: string | null;
  /** When readers are told it was last updated (null: never). */
  modifiedAt?: string | null;
}

/** A saved article's status as the back office says it ("Scheduled for …" in the site's time zone, "In review" for a draft in the queue). */
export function statusLabel(status: ArticleStatusName, publishedAt: Date | string | null, timeZone: string, inReview = false): string {
  if (status === "scheduled" && publishedAt) return `Scheduled for ${formatPublishDate(publishedAt, timeZone)}`;
  if (status === "draft" && inReview) return IN_REVIEW_LABEL;
  return status === "draft" ? "Draft" : "Published";
}

/** The form's answer from its action: a failure (400/404), absent after a redirect. */
export type ArticleFormActionData = ArticleFormFailure | undefined;


/** The autosave's indicator: "Saving…", "Saved" (a published story: "Saved for later"), or why it was not saved. */
function AutosaveIndicator({ status, paused, pending }: { status: AutosaveStatus; paused: boolean; pending: boolean }) {
  let text = "";
  if (status.state === "saving") text = "Saving…";
  else if (status.state === "failed") text = `Not saved: ${status.reason}`;
  else if (paused) text = "Autosave is off until you save the restored version.";
  else if (status.state === "saved") text = pending ? "Saved for later" : "Saved";
  return (
    <span role="status" data-testid="autosave-status" className={status.state === "failed" ? "font-medium text-red-700" : "text-slate-700"}>
      {text}
    </span>
  );
}

/**
 * The article form of both create and edit mode: one component, posted to the route's action.
 * In edit mode a draft autosaves; leaving with unsaved changes asks first; "History" lists the
 * article's saves and can load one into the form (saved only by the form's buttons).
 */
export function ArticleForm({
  mode,
  article,
  categories,
  accessTiers = [],
  authors = [],
  tags = [],
  defaultAuthorIds = [],
  failure,
  canPublish = true,
  pending = null,
  featureToggle = null,
  review = null,
  sendBackFailure,
  before,
  after,
  newsletters = null,
  postalAddressMissing = false,
  signups = null,
  audienceHref = null,
  live = null,
}: {
  mode: "create" | "edit";
  article: ArticleFormValues | null;
  categories: { id: string; name: string }[];
  /** "Access" (issue 40): the paid tiers a Paid story may name (archived: only the story's own). */
  accessTiers?: { id: string; name: string; archived: boolean }[];
  /** Every author to choose from, and the choice of a new article (the signed-in user's own author record). */
  authors?: AuthorChoice[];
  /** Every existing tag, for the tag picker (issue 29). */
  tags?: { name: string }[];
  defaultAuthorIds?: string[];
  failure: ArticleFormActionData;
  /**
   * Whether the signed-in role may publish, schedule and unpublish (decision 0017). Without it the form
   * offers "Save Draft" and "Submit for review" only; the server refuses the rest whatever is sent.
   */
  canPublish?: boolean;
  /** A published story's pending version ("Save for later"): the form holds its fields (edit mode). */
  pending?: PendingVersionInfo | null;
  /** "Feature on the front page" (editors and admins): posts on its own, never with the article's fields. */
  featureToggle?: ReactNode;
  /** Where the article stands in the review queue (edit mode). */
  review?: ReviewState | null;
  /** A refused "Send back" (its note was missing or too long). */
  sendBackFailure?: string;
  /** Shown at the top of the page, above the form ("Your story is live" right after publishing). */
  before?: ReactNode;
  /** Shown below the form (the edit page's correction and update notes). */
  after?: ReactNode;
  /** "Send by e-mail" (issue 30): the newsletters to choose, for a role that may send; null hides it. */
  newsletters?: StoryNewsletterOption[] | null;
  /** The settings have no postal address for the e-mails' footer (CAN-SPAM): sending warns first. */
  postalAddressMissing?: boolean;
  /** How many confirmed sign-ups this story's form brought (edit mode). */
  signups?: number | null;
  /** A published story's audience report (issue 42), for those who may see it. */
  audienceHref?: string | null;
  /**
   * Live coverage (issue 31): the story's live state. Never started (or a new story): the "Live coverage"
   * checkbox, saved with the story. Started: its state, and the way to the "Live updates" panel.
   */
  live?: { startedAt: string | null; endedAt: string | null } | null;
}) {
  const saved = article;
  // After a refused save the submitted values are shown again (what the server received).
  if (failure?.values) {
    const v = failure.values;
    article = {
      id: article?.id,
      status: article?.status,
      publishedAt: article?.publishedAt,
      modifiedAt: article?.modifiedAt,
      publishAt: v.publishAt ?? "",
      title: v.title ?? "",
      slug: v.slug ?? "",
      authorName: v.authorName ?? "",
      authorIds: (v.authorIds ?? "").split(",").filter(Boolean),
      tags: parseTagNames(v.tags ?? ""),
      content: v.content ?? "",
      excerpt: v.excerpt ?? null,
      categoryId: v.categoryId || null,
      featuredImage: v.featuredImage || null,
      featuredImageAlt: v.featuredImageAlt ?? null,
      featuredImageCaption: v.featuredImageCaption ?? null,
      featuredImageCredit: v.featuredImageCredit ?? null,
      videoUrl: v.videoUrl || null,
      seoTitle: v.seoTitle ?? null,
      seoDescription: v.seoDescription ?? null,
      socialImage: v.socialImage || null,
      featuredImageFocus: saved?.featuredImageFocus ?? null,
      access: isStoryAccessLevel(v.access) ? v.access : undefined,
      accessTierId: v.accessTierId || null,
    };
  }
  const navigation = useNavigation();
  const submit = useSubmit();
  const timeZone = useSiteTimeZone();
  useNoticeToast();
  const status = article?.status;
  const savedPublishAt = article?.publishedAt ?? null;
  // "Restore this version": the revision's fields replace the form's (remounted by `restored.seq`), unsaved.
  const [restored, setRestored] = useState<{ seq: number; fields: RevisionFields } | null>(null);
  if (restored) article = { ...article, ...restored.fields };
  const [title, setTitle] = useState(article?.title ?? "");
  const [slug, setSlug] = useState(article?.slug ?? "");
  // The slug follows the title for a new article and a draft that was never public; a published
  // (or once published) article keeps its address unless the editor edits the slug (decision 0012).
  const savedWasPublic = saved?.status ? wasPublished({ status: saved.status, publishedAt: saved.publishedAt ?? null }) : false;
  const slugFollowsTitle = mode === "create" || (saved?.status === "draft" && !savedWasPublic);
  const movesAddress = savedWasPublic && saved?.slug !== undefined && slug !== "" && slug !== saved.slug;
  // Taking an address over from another story breaks that story's old link: an editor's decision.
  const offerTakeOver = canPublish && (failure?.code === "slug_redirects" || Boolean(failure?.values?.takeOverSlug));
  const [uploads, setUploads] = useState(0);
  const [featuredImage, setFeaturedImage] = useState(article?.featuredImage ?? "");
  // The browser's own check of the alt text rule (the server's answer replaces it).
  const [altError, setAltError] = useState<string | undefined>(undefined);
  useEffect(() => setAltError(undefined), [failure]);
  const errors: Partial<Record<ArticleFieldName, string>> = { ...failure?.fieldErrors };
  if (altError) errors.featuredImageAlt = altError;

  // Unsaved changes: each change counts; a refused save's values are unsaved from the start.
  const [edits, setEdits] = useState(failure ? 1 : 0);
  const edited = () => setEdits((n) => n + 1);
  const formRef = useRef<HTMLFormElement>(null);
  // A published story autosaves to its pending version, never to the live story (decision 0033).
  const autosaves = mode === "edit" && (status === "draft" || status === "published");
  const autosave = useDraftAutosave({
    // A saved draft or published story, and not after a restore (a restored version is saved only by the buttons).
    enabled: autosaves && !restored,
    form: formRef,
    edits,
    // Not while a save (or its redirect) is under way: the page that follows starts from what was saved.
    busy: navigation.state !== "idle" || uploads > 0,
  });
  const dirty = edits !== autosave.savedEdits;
  // From the form's own submit (or Unpublish) until its answer: no prompt for that navigation.
  const submittingForm = useRef(false);
  useEffect(() => {
    if (navigation.state === "idle") submittingForm.current = false;
  }, [navigation.state]);
  const blocker = useLeaveGuard(dirty, submittingForm);
  const leaving = useRef(false);
  useEffect(() => {
    if (blocker.state === "unblocked") leaving.current = false;
  }, [blocker.state]);

  function restore(fields: RevisionFields, revision: RevisionSummary) {
    setTitle(fields.title);
    setSlug(fields.slug);
    setRestored((previous) => ({ seq: (previous?.seq ?? 0) + 1, fields }));
    edited();
    toast.success(
      "Version restored",
      `The form holds the version of ${formatPublishDate(revision.savedAt, timeZone)}. ${status === "published" ? "Press Update Article or Save for later" : "Press Save Draft or Publish…"} to save it.`,
    );
  }

  // The settings sheet of phones (decision 0035): a field in it that needs the writer opens it first.
  const [settingsOpen, setSettingsOpen] = useState(false);
  const settingsButton = useRef<HTMLButtonElement>(null);
  const focusInSheet = useRef<HTMLElement | null>(null);
  function focusField(field: HTMLElement | null | undefined) {
    if (!field) return;
    if (settingsAreASheet() && field.closest("#article-settings") && !settingsOpen) {
      focusInSheet.current = field;
      setSettingsOpen(true);
    } else {
      field.focus();
    }
  }
  useEffect(() => {
    if (!settingsOpen || !focusInSheet.current) return;
    focusInSheet.current.focus();
    focusInSheet.current = null;
  }, [settingsOpen]);

  // Each answer of the action is announced once as the spec's notice.
  useEffect(() => {
    if (!failure) return;
    // Take the keyboard (and the eye) to the first field the server refused.
    focusField(document.querySelector<HTMLElement>('#article-form [aria-invalid="true"]'));
    toast.error(...refusalNotice(failure, { marksFields: true }));
    // Once per answer of the action.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [failure]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const form = new FormData(event.currentTarget);
    const blank = REQUIRED_ARTICLE_FIELDS.some((name) => String(form.get(name) ?? "").trim() === "");
    if (blank) {
      event.preventDefault();
      toast.error(MISSING_FIELDS.title, MISSING_FIELDS.description);
    } else if (uploads > 0) {
      event.preventDefault();
      toast.error("Upload in progress", "Please wait until the upload has finished.");
    } else if (isFeaturedImageAltMissing(String(form.get("featuredImage") ?? ""), String(form.get("featuredImageAlt") ?? ""))) {
      // The server refuses it the same way (400 on the alt field); saying so here saves the round trip.
      event.preventDefault();
      setAltError(FEATURED_IMAGE_ALT_REQUIRED);
      focusField(document.getElementById("featuredImageAlt"));
      toast.error("Error", FEATURED_IMAGE_ALT_REQUIRED);
    } else {
      submittingForm.current = true;
    }
  }

  const describedBy = (name: ArticleFieldName) => (errors[name] ? `${name}-error` : undefined);
  const invalid = (name: ArticleFieldName) => (errors[name] ? true : undefined);

  return (
    <main className="mx-auto w-full min-w-0 max-w-6xl flex-1 px-4 py-6 lg:py-8">
      <AdminPageHeader title={mode === "create" ? "Create New Article" : "Edit Article"} back={{ to: "/admin/articles", label: "Back to Articles" }} />

      {before}

      {review ? <ReviewCallout review={review} canPublish={canPublish} failure={sendBackFailure} /> : null}

      <ConfirmDialog
        open={blocker.state === "blocked"}
        onOpenChange={(open) => {
          // Closing by "Stay", Escape or the overlay cancels; "Leave" closes it too, after proceeding.
          if (!open && blocker.state === "blocked" && !leaving.current) blocker.reset();
        }}
        title={LEAVE_PROMPT.title}
        description={LEAVE_PROMPT.description}
        confirmLabel={LEAVE_PROMPT.leave}
        cancelLabel={LEAVE_PROMPT.stay}
        onConfirm={() => {
          if (blocker.state !== "blocked") return;
          leaving.current = true;
          blocker.proceed();
        }}
      />

      {/* The writing screen (decision 0035): the story in one column, its settings in a panel beside it (a sheet on phones), one form. */}
      <Form
        key={restored?.seq ?? 0}
        ref={formRef}
        id="article-form"
        method="post"
        noValidate
        onSubmit={onSubmit}
        onChange={edited}
        onInput={edited}
        className="lg:grid lg:grid-cols-[minmax(0,1fr)_18rem] lg:items-start lg:gap-6 xl:grid-cols-[minmax(0,1fr)_20rem]"
      >
        <div className="min-w-0 space-y-6 rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
          <div className="flex flex-wrap items-start justify-end gap-3 border-b border-slate-200 pb-4">
            <div className="min-w-0 flex-1 basis-72">
              <PublishActions
                mode={mode}
                status={status}
                canPublish={canPublish}
                hasPending={Boolean(pending) || (status === "published" && autosave.savedAt !== null)}
                resubmit={Boolean(review?.requestedAt)}
                publishAt={article?.publishAt ?? ""}
                publishAtError={errors.publishAt}
                categories={categories}
                formRef={formRef}
                formId="article-form"
                timeZone={timeZone}
                busy={uploads > 0}
                failure={failure}
                newsletters={newsletters}
                postalAddressMissing={postalAddressMissing}
                onIntent={(intent) => {
                  submittingForm.current = true;
                  void submit({ intent }, { method: "post" });
                }}
              />
            </div>

            <SettingsSheetButton open={settingsOpen} onOpen={() => setSettingsOpen(true)} buttonRef={settingsButton} />
          </div>

          <div className="space-y-2">
            <Label htmlFor="title">Title *</Label>
            {/* A headline wraps as it will on the page: a one-line text area that grows, Enter never adds a line. */}
            <textarea
              id="title"
              name="title"
              rows={1}
              className="field-sizing-content block min-h-12 w-full resize-none rounded-md border border-slate-300 bg-white px-3 py-2 text-2xl leading-tight font-bold text-slate-900 sm:text-3xl"
              value={title}
              aria-required="true"
              aria-invalid={invalid("title")}
              aria-describedby={describedBy("title")}
              onKeyDown={(e) => {
                if (e.key === "Enter") e.preventDefault();
              }}
              onChange={(e) => {
                const value = e.target.value.replace(/\s*[\r\n]+\s*/g, " ");
                setTitle(value);
                if (slugFollowsTitle) setSlug(slugify(value));
              }}
            />
            <FieldError id="title-error" message={errors.title} />
          </div>

          <div className="space-y-2">
            <Label htmlFor="excerpt">Excerpt</Label>
            <Textarea
              id="excerpt"
              name="excerpt"
              rows={3}
              defaultValue={article?.excerpt ?? ""}
              aria-invalid={invalid("excerpt")}
              aria-describedby={describedBy("excerpt") ?? "excerpt-hint"}
            />
            {errors.excerpt ? null : (
              <p id="excerpt-hint" className="text-xs text-slate-600">
                The standfirst: under the headline on the story's page, and on its cards.
              </p>
            )}
            <FieldError id="excerpt-error" message={errors.excerpt} />
          </div>

          <StoryContentField
            storedDoc={article?.contentDoc ?? null}
            submittedDoc={restored ? undefined : failure?.values?.contentDoc}
            text={article?.content ?? ""}
            error={errors.contentDoc ?? errors.content}
            onUploadingChange={(busy) => setUploads((n) => n + (busy ? 1 : -1))}
            onEdited={edited}
            paywall
          />
        </div>

        <ArticleSettingsPanel open={settingsOpen} onOpenChange={setSettingsOpen} returnFocus={settingsButton}>
          {/* No "Publishing" heading with nothing under it (a new story of an author). */}
          {(article?.id && status) || featureToggle || signups !== null || (mode === "edit" && canPublish) ? (
          <SettingsSection title="Publishing">
            {article?.id && status ? (
              <PublishStatusLine
                articleId={article.id}
                statusText={statusLabel(status, savedPublishAt, timeZone, Boolean(review?.requestedAt))}
                pendingSavedAt={status === "published" ? (autosave.savedAt ?? pending?.savedAt ?? null) : null}
                timeZone={timeZone}
                history={<ArticleHistoryPanel articleId={article.id} restoreDisabled={uploads > 0} onRestore={restore} />}
                autosave={autosaves ? <AutosaveIndicator status={autosave.status} paused={Boolean(restored)} pending={status === "published"} /> : null}
              />
            ) : null}

            {featureToggle ? (
              // Its own request: a change of it is no unsaved edit of the story (nor a reason to autosave).
              <div onChange={(e) => e.stopPropagation()} onInput={(e) => e.stopPropagation()}>
                {featureToggle}
              </div>
            ) : null}

            {signups !== null ? (
              <p className="text-sm text-slate-700" data-testid="article-signups">
                Newsletter sign-ups from this story: {signups}
              </p>
            ) : null}

            {audienceHref ? (
              <p className="text-sm">
                <Link to={audienceHref} className="font-medium text-brand-700 hover:underline">
                  Audience: views, sources and reading
                </Link>
              </p>
            ) : null}

            {mode === "edit" && canPublish ? (
              <div className="space-y-1">
                <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
                  <input
                    type="checkbox"
                    name="showAsUpdated"
                    value="on"
                    defaultChecked={Boolean(failure?.values?.showAsUpdated)}
                    aria-describedby="showAsUpdated-hint"
                    className="size-4 rounded border-slate-300"
                  />
                  Show as updated
                </label>
                <p id="showAsUpdated-hint" className="text-xs text-slate-600">
                  Readers see “Updated” with today's date next to the publication date (for a substantial change).
                </p>
              </div>
            ) : null}
          </SettingsSection>
          ) : null}

          <SettingsSection title="Featured image">
            <ArticleUploadField
              kind="image"
              name="featuredImage"
              defaultUrl={article?.featuredImage ?? null}
              error={errors.featuredImage}
              onUploadingChange={(busy) => setUploads((n) => n + (busy ? 1 : -1))}
              onChange={edited}
              onUrlChange={(url) => {
                setFeaturedImage(url);
                if (!url) setAltError(undefined);
              }}
            >
              {featuredImage ? (
                <div className="space-y-4 pt-2">
                  <div className="space-y-2">
                    <Label htmlFor="featuredImageAlt">Alt text *</Label>
                    <Input
                      id="featuredImageAlt"
                      name="featuredImageAlt"
                      defaultValue={article?.featuredImageAlt ?? ""}
                      maxLength={FEATURED_IMAGE_TEXT_MAX.alt}
                      aria-required="true"
                      aria-invalid={invalid("featuredImageAlt")}
                      aria-describedby={errors.featuredImageAlt ? "featuredImageAlt-error featuredImageAlt-hint" : "featuredImageAlt-hint"}
                    />
                    <p id="featuredImageAlt-hint" className="text-xs text-slate-600">
                      {FEATURED_IMAGE_ALT_HINT}
                    </p>
                    <FieldError id="featuredImageAlt-error" message={errors.featuredImageAlt} />
                  </div>
                  <div className="space-y-2">
                    <Label htmlFor="featuredImageCaption">Caption</Label>
                    <Textarea
                      id="featuredImageCaption"
                      name="featuredImageCaption"
                      rows={2}
                      defaultValue={article?.featuredImageCaption ?? ""}
                      maxLength={FEATURED_IMAGE_TEXT_MAX.caption}
                      aria-invalid={invalid("featuredImageCaption")}
                      aria-describedby={describedBy("featuredImageCaption")}
                    />
                    <FieldError id="featuredImageCaption-error" message={errors.featuredImageCaption} />
                  </div>
                  <div className="space-y-2">
                    <Label htmlFor="featuredImageCredit">Credit</Label>
                    <Input
                      id="featuredImageCredit"
                      name="featuredImageCredit"
                      defaultValue={article?.featuredImageCredit ?? ""}
                      maxLength={FEATURED_IMAGE_TEXT_MAX.credit}
                      placeholder="e.g. Jane Doe / Agency"
                      aria-invalid={invalid("featuredImageCredit")}
                      aria-describedby={describedBy("featuredImageCredit")}
                    />
                    <FieldError id="featuredImageCredit-error" message={errors.featuredImageCredit} />
                  </div>
                </div>
              ) : null}
            </ArticleUploadField>

          </SettingsSection>

          <SettingsSection title="Access">
            <AccessSetting
              key={restored?.seq ?? 0}
              access={article?.access ?? "public"}
              tierId={article?.accessTierId ?? null}
              tiers={accessTiers}
              error={errors.access ?? errors.accessTierId}
              errorField={errors.access ? "access" : "accessTierId"}
            />
          </SettingsSection>

          <SettingsSection title="Live coverage">
            <LiveCoverageSetting live={live} />
          </SettingsSection>

          {newsletters ? (
            <SettingsSection title="Send by e-mail">
              <SendByEmailSection
                options={newsletters}
                alreadyPublic={status === "published"}
                postalAddressMissing={postalAddressMissing}
                timeZone={timeZone}
                formRef={formRef}
              />
            </SettingsSection>
          ) : null}

          <SettingsSection title="Address">
            <div className="space-y-2">
              <Label htmlFor="slug">Slug *</Label>
              <Input
                id="slug"
                name="slug"
                value={slug}
                aria-required="true"
                aria-invalid={invalid("slug")}
                aria-describedby={describedBy("slug") ?? "slug-hint"}
                onChange={(e) => setSlug(e.target.value)}
              />
              {errors.slug ? (
                <FieldError id="slug-error" message={errors.slug} />
              ) : movesAddress ? (
                <p id="slug-hint" className="text-xs text-amber-800" data-testid="slug-redirect-hint">
                  The old address /article/{saved?.slug} will redirect to the new one, /article/{slug}.
                </p>
              ) : (
                <p id="slug-hint" className="text-xs text-slate-600">
                  The article's address: /article/{slug || "…"}
                </p>
              )}
              {offerTakeOver ? (
                <label className="flex items-center gap-2 text-sm text-slate-800">
                  <input
                    type="checkbox"
                    name="takeOverSlug"
                    value="on"
                    defaultChecked={Boolean(failure?.values?.takeOverSlug)}
                    className="size-4 rounded border-slate-300"
                  />
                  {TAKE_OVER_SLUG_LABEL}
                </label>
              ) : null}
            </div>
          </SettingsSection>

          <SettingsSection title="Category and byline">
            <div className="space-y-2">
              <Label htmlFor="categoryId">Category</Label>
              <select
                id="categoryId"
                name="categoryId"
                defaultValue={article?.categoryId ?? ""}
                aria-invalid={invalid("categoryId")}
                aria-describedby={describedBy("categoryId")}
                className="h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900"
              >
                <option value="">No category</option>
                {categories.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </select>
              <FieldError id="categoryId-error" message={errors.categoryId} />
            </div>

            <AuthorPicker
              authors={authors}
              initialIds={article?.authorIds ?? (article ? [] : defaultAuthorIds)}
              initialName={article?.authorName ?? ""}
              error={errors.authorIds}
              nameError={errors.authorName}
              onChange={edited}
            />

            <TagPicker tags={tags} initialNames={article?.tags ?? []} error={errors.tags} onChange={edited} />
          </SettingsSection>

          <SettingsSection title="Video">
            <ArticleUploadField
              kind="video"
              name="videoUrl"
              defaultUrl={article?.videoUrl ?? null}
              error={errors.videoUrl}
              onUploadingChange={(busy) => setUploads((n) => n + (busy ? 1 : -1))}
              onChange={edited}
            />
          </SettingsSection>

          <SeoPreviewSection article={article ?? undefined} featuredImage={featuredImage} errors={errors} onUploadingChange={(busy) => setUploads((n) => n + (busy ? 1 : -1))} onChange={edited} />
        </ArticleSettingsPanel>
      </Form>
      {after}
    </main>
  );
}

/**
 * The review queue on the article's form: "In review since …" (with "Send back" and a note for an
 * editor), or the editor's note when the draft was sent back. A plain form: works without JavaScript.
 */
function ReviewCallout({ review, canPublish, failure }: { review: ReviewState; canPublish: boolean; failure?: string }) {
  const timeZone = useSiteTimeZone();
  if (review.requestedAt) {
    return (
      <section aria-labelledby="review-heading" className="mb-6 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950">
        <h2 id="review-heading" className="font-semibold">
          {IN_REVIEW_LABEL} since {formatPublishDate(review.requestedAt, timeZone)}
        </h2>
        {canPublish ? (
          <Form method="post" className="mt-3 space-y-2">
            <input type="hidden" name="intent" value={SEND_BACK_INTENT} />
            <Label htmlFor="review-note">Note for the author</Label>
            <Textarea
              id="review-note"
              name="note"
              rows={3}
              maxLength={REVIEW_NOTE_MAX}
              required
              aria-invalid={failure ? true : undefined}
              aria-describedby={failure ? "review-note-error" : "review-note-hint"}
              className="bg-white"
            />
            {failure ? (
              <p id="review-note-error" className="text-sm font-medium text-red-700">
                {failure}
              </p>
            ) : (
              <p id="review-note-hint" className="text-xs text-amber-900">
                Publish or schedule it with the buttons below, or send it back to the author with this note.
              </p>
            )}
            <Button type="submit" variant="outline">
              Send back
            </Button>
          </Form>
        ) : (
          <p className="mt-1">An editor will publish it or send it back with a note. You can still edit it.</p>
        )}
      </section>
    );
  }
  if (!review.note) return null;
  return (
    <section aria-labelledby="review-heading" className="mb-6 rounded-md border border-sky-300 bg-sky-50 p-4 text-sm text-sky-950">
      <h2 id="review-heading" className="font-semibold">
        Sent back by {review.noteByName ?? "an editor"}
        {review.noteAt ? ` on ${formatPublishDate(review.noteAt, timeZone)}` : ""}
      </h2>
      <p className="mt-1 whitespace-pre-wrap break-words">{review.note}</p>
    </section>
  );
}

/**
 * The story's "Live coverage" setting (issue 31): a checkbox while it has never been live (ticked, the
 * save starts it), then its state and a link to the "Live updates" panel below the form, where it is
 * ended and restarted.
 */
function LiveCoverageSetting({ live }: { live: { startedAt: string | null; endedAt: string | null } | null }) {
  if (!live?.startedAt) {
    return (
      <div className="space-y-1">
        <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
          <input type="checkbox" name={LIVE_COVERAGE_FIELD} value="on" aria-describedby="liveCoverage-hint" className="size-4 rounded border-slate-300" />
          Live coverage
        </label>
        <p id="liveCoverage-hint" className="text-xs text-slate-600">
          A live story: timestamped updates under it, newest first, with a LIVE badge on its cards. Starts when you save.
        </p>
      </div>
    );
  }
  return (
    // Its state (live since, ended) is the panel's: it changes there without reloading this form.
    <p className="text-sm text-slate-800" data-testid="article-live-state">
      This story has live coverage.{" "}
      <a href="#live-updates" className="text-brand-700 underline underline-offset-2">
        Live updates
      </a>
    </p>
  );
}

/**
 * The story's "Access" (issue 40): Public, Members or Paid, and a Paid story's tier ("Any paid tier" or
 * one of them). Readers without access get the story up to its "Paywall here" block (or the setting's
 * number of paragraphs) and a call to action. Anyone who may edit the story may set it; the server
 * checks the tier.
 */
function AccessSetting({
  access: initial,
  tierId,
  tiers,
  error,
  errorField,
}: {
  access: "public" | "members" | "paid";
  tierId: string | null;
  tiers: { id: string; name: string; archived: boolean }[];
  error: string | undefined;
  errorField: "access" | "accessTierId";
}) {
  const [access, setAccess] = useState(initial);
  return (
    <div className="space-y-3">
      <fieldset className="space-y-2" aria-describedby={error && errorField === "access" ? "access-error" : "access-hint"}>
        <legend className="sr-only">Who may read the whole story</legend>
        {STORY_ACCESS_LEVELS.map((level) => (
          <label key={level} className="flex items-center gap-2 text-sm font-medium text-slate-800">
            <input
              type="radio"
              name="access"
              value={level}
              checked={access === level}
              onChange={() => setAccess(level)}
              aria-invalid={error && errorField === "access" ? true : undefined}
              className="size-4 border-slate-300"
            />
            {STORY_ACCESS_LABELS[level]}
          </label>
        ))}
      </fieldset>
      <p id="access-hint" className="text-xs text-slate-600">
        {STORY_ACCESS_HINTS[access]}
        {access === "public" ? "" : " Readers without access see it up to “Paywall here” (in the + menu), or its first paragraphs."}
      </p>
      {access === "paid" ? (
        <div className="space-y-2">
          <Label htmlFor="accessTierId">Tier</Label>
          <select
            id="accessTierId"
            name="accessTierId"
            defaultValue={tierId ?? ""}
            aria-invalid={error && errorField === "accessTierId" ? true : undefined}
            aria-describedby={error && errorField === "accessTierId" ? "accessTierId-error" : undefined}
            className="h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900"
          >
            <option value="">Any paid tier</option>
            {tiers.map((tier) => (
              <option key={tier.id} value={tier.id}>
                {tier.archived ? `${tier.name} (archived)` : tier.name}
              </option>
            ))}
          </select>
          <FieldError id="accessTierId-error" message={errorField === "accessTierId" ? error : undefined} />
        </div>
      ) : null}
      <FieldError id="access-error" message={errorField === "access" ? error : undefined} />
    </div>
  );
}
