import { redirect, type ShouldRevalidateFunction } from "react-router";
import { ArticleForm, type ArticleFormActionData } from "~/components/admin/article-form";
import { ArticleNotesPanel } from "~/components/admin/article-notes-panel";
import { pathAfterArticleSave, withNotice } from "~/components/admin/use-notice-toast";
import { orForbidden, requireCapability } from "~/domain/accounts/guard.server";
import { actorOf as actorOfUser } from "~/domain/accounts/actor";
import { openableArticle } from "~/domain/articles/article-access.server";
import {
  articleFormValues,
  autosaveArticleFromForm,
  getArticleForEdit,
  saveArticleFromForm,
  unpublishArticle,
} from "~/domain/articles/article-admin.server";
import { actorOf } from "~/domain/accounts/actor";
import { ADD_NOTE_INTENT, ARTICLE_NOTE_FIELDS, DELETE_NOTE_INTENT } from "~/domain/articles/corrections.schema";
import { addArticleNote, deleteArticleNote, listArticleNotesForAdmin } from "~/domain/articles/corrections.server";
import { listAuthorChoices } from "~/domain/authors/authors.server";
import { listTagChoices } from "~/domain/tags/tags.server";
import { getPendingVersion } from "~/domain/articles/pending-versions.server";
import { frontPagePlacementOf } from "~/domain/front-page/front-page.server";
import { FrontPageFeatureToggle } from "~/components/admin/front-page-feature-toggle";
import { listCategories } from "~/domain/categories/categories.server";
import { can } from "~/domain/accounts/roles";
import { SEND_BACK_INTENT, SUBMIT_INTENT } from "~/domain/articles/review.schema";
import { getReviewState, sendBack } from "~/domain/articles/review.server";
import { AppError } from "~/lib/app-error";
import { toDateTimeLocal } from "~/lib/dates";
import { formValues, refuse } from "~/lib/forms";
import { newsletterChoiceOf, postalAddressMissing, SEND_BY_EMAIL_FORBIDDEN, storyNewsletterChoices } from "~/domain/newsletters/newsletter-admin.server";
import { SEND_STORY_INTENT } from "~/domain/newsletters/newsletter-admin.schema";
import { sendPublishedStory } from "~/domain/newsletters/published-story-send.server";
import { sendTestEmailOfForm } from "~/domain/newsletters/newsletter-test-email.server";
import { signupsByArticle } from "~/domain/newsletters/subscribers-admin.server";
import { backOfficeMeta } from "~/page-meta";
import { LiveUpdatesPanel } from "~/components/admin/live-updates-panel";
import { getLivePanel } from "~/domain/live/live-admin.server";
import { LIVE_COVERAGE_FIELD } from "~/domain/live/live-admin.schema";
import { listTierChoices } from "~/domain/members/tier-choices.server";
import { StoryLivePanel } from "~/components/admin/story-live-panel";
import { PUBLISHED_FLAG, publicStoryUrl } from "~/domain/articles/story-live.schema";
import { storySendStatus } from "~/domain/newsletters/story-send-status.server";
import type { Route } from "./+types/article-edit";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  // An author opens only their own drafts (403 otherwise); an unknown id goes back to the list below.
  const user = await requireCapability(request, context, "backOffice");
  await orForbidden(openableArticle(context.db, params.id, actorOfUser(user)));
  const canFeature = can(user.role, "frontPage.manage");
  const canSend = can(user.role, "newsletters.send");
  const [article, categories, notes, authors, review, pending, featured, tags, newsletters, signups, live, noPostalAddress] = await Promise.all([
    getArticleForEdit(context.db, params.id),
    listCategories(context.db),
    listArticleNotesForAdmin(context.db, params.id),
    listAuthorChoices(context.db),
    getReviewState(context.db, params.id),
    getPendingVersion(context.db, params.id),
    canFeature ? frontPagePlacementOf(context.db, params.id) : null,
    listTagChoices(context.db),
    canSend ? storyNewsletterChoices(context.db, params.id) : null,
    signupsByArticle(context.db, [params.id]),
    getLivePanel(context.db, params.id, actorOfUser(user)),
    canSend ? postalAddressMissing(context.db) : false,
  ]);
  // Spec: a failed load shows "Error" / "Failed to load article" and returns to the list.
  if (!article) throw redirect(withNotice("/admin/articles", "article-load-failed"));
  // "Access" (issue 40): the paid tiers to choose from, the story's own kept even when archived.
  const accessTiers = await listTierChoices(context.db, article.accessTierId);
  // "Your story is live" (issue 41): right after the save that published it (the redirect's flag), not on later visits.
  const justPublished = new URL(request.url).searchParams.has(PUBLISHED_FLAG) && article.status === "published";
  const storyLive = justPublished
    ? { url: publicStoryUrl(context.env.publicUrl, article.slug), title: article.title, sends: canSend ? await storySendStatus(context.db, params.id) : null }
    : null;
  const { publishedAt, modifiedAt, ...fields } = article;
  return {
    // "Publish at" shows the (planned) publication time on the site's wall clock. A pending version
    // ("Save for later") reopens in the form: its fields in place of the live story's (decision 0033).
    article: {
      ...fields,
      ...(pending && article.status === "published" ? pending.fields : {}),
      publishedAt: publishedAt?.toISOString() ?? null,
      modifiedAt: modifiedAt?.toISOString() ?? null,
      publishAt: publishedAt ? toDateTimeLocal(publishedAt, context.env.TIME_ZONE) : "",
    },
    pending: pending && article.status === "published" ? { savedAt: pending.savedAt, savedByName: pending.savedByName } : null,
    categories: categories.map(({ id, name }) => ({ id, name })),
    accessTiers,
    authors,
    tags: tags.map(({ name }) => ({ name })),
    notes,
    review,
    // What the role may do here (the server refuses the rest): publish, schedule, unpublish, notes, send back.
    canPublish: can(user.role, "articles.publish"),
    // A published story's audience report (issue 42): its own screen checks the story again.
    audienceHref: article.status === "published" && can(user.role, "audience.view") ? `/admin/audience/story/${article.id}` : null,
    // "Send by e-mail" (issue 30): editors and admins only; each newsletter with the story's send to it, once made.
    newsletters:
      newsletters?.map((n) => ({ id: n.id, name: n.name, chosen: n.chosen, send: n.send ? { status: n.send.status, at: n.send.at.toISOString() } : null, subscribers: n.subscribers })) ?? null,
    // No postal address for the e-mails' footer (CAN-SPAM): publishing and "Send now" warn first, and still go.
    postalAddressMissing: noPostalAddress,
    // Confirmed sign-ups from this story's form (whatever they did since).
    signups: signups.get(params.id) ?? 0,
    // "Feature on the front page" (decision 0034): where the story is pinned on the home page, for editors and admins.
    feature: canFeature ? { placement: featured, isPublic: article.status === "published" && publishedAt !== null && publishedAt.getTime() <= Date.now() } : null,
    // Live coverage (issue 31): the story's state, and the "Live updates" panel once it was ever live.
    live: live ? { startedAt: live.story.startedAt, endedAt: live.story.endedAt } : null,
    livePanel: live?.story.startedAt ? live : null,
    storyLive,
    // New at each load: the form starts again from what was just saved (Save Draft and Unpublish stay on this page).
    loadId: crypto.randomUUID(),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = actorOf(await requireCapability(request, context, "backOffice"));
  const formData = await request.formData();
  // "Send by e-mail" is for roles that may send (issue 30): an author's form has no such field, and a
  // request that carries one anyway is refused whatever else it asks, before anything is written.
  const newsletterIds = newsletterChoiceOf(formData);
  if (newsletterIds !== undefined && !can(actor.role, "newsletters.send")) return refuse(new AppError("forbidden", SEND_BY_EMAIL_FORBIDDEN));
  // "Send now" of a story that is public already (issue 39): to one newsletter, once; the server checks
  // the role (publish and send), that the story is public, and that it never went to that newsletter.
  if (formData.get("intent") === SEND_STORY_INTENT) {
    try {
      const newsletterId = String(formData.get("newsletterId") ?? "");
      const sent = await sendPublishedStory(context.db, actor, { articleId: params.id, newsletterId });
      context.log.info({ articleId: params.id, newsletterId, subscribers: sent.subscribers, postalAddressMissing: sent.postalAddressMissing }, "public story sent by e-mail");
      return { ok: true as const, storySent: { newsletterId, newsletterName: sent.newsletterName, subscribers: sent.subscribers } };
    } catch (error) {
      return refuse(error, { intent: SEND_STORY_INTENT });
    }
  }
  // "Send test e-mail": the form's story as it is now (saved or not), to one address; nothing is saved.
  if (formData.get("intent") === "test-email") {
    try {
      const sent = await sendTestEmailOfForm(context.db, actor, formData, { publicUrl: context.env.publicUrl, timeZone: context.env.TIME_ZONE });
      context.log.info({ articleId: params.id, newsletter: sent.newsletterName }, "test e-mail queued");
      return { ok: true as const, testEmail: sent.to };
    } catch (error) {
      return refuse(error, { testEmailTo: String(formData.get("testEmailTo") ?? ""), intent: "test-email" });
    }
  }
  // Correction notes go with publishing rights (decision 0017).
  if ((formData.get("intent") === ADD_NOTE_INTENT || formData.get("intent") === DELETE_NOTE_INTENT) && !can(actor.role, "articles.publish")) {
    return refuse(new AppError("forbidden", "Your role cannot add or delete correction notes."));
  }
  // "Send back" (an editor, on a draft waiting for review): back to its author with a note.
  if (formData.get("intent") === SEND_BACK_INTENT) {
    const { note } = formValues(formData, ["note"]);
    try {
      await sendBack(context.db, params.id, actor, note);
      context.log.info({ articleId: params.id }, "article sent back to its author");
      return redirect(withNotice(`/admin/articles/edit/${params.id}`, "article-sent-back"));
    } catch (error) {
      return refuse(error, { note, intent: SEND_BACK_INTENT });
    }
  }
  // Correction and update notes: their own requests (the notes panel), never saved with the article's fields.
  if (formData.get("intent") === ADD_NOTE_INTENT) {
    const values = formValues(formData, ARTICLE_NOTE_FIELDS);
    try {
      const note = await addArticleNote(context.db, actor, params.id, values);
      context.log.info({ articleId: params.id, noteId: note.id, kind: note.kind }, "article note added");
      return redirect(withNotice(`/admin/articles/edit/${params.id}`, "note-added"));
    } catch (error) {
      return refuse(error, { ...values, intent: ADD_NOTE_INTENT });
    }
  }
  if (formData.get("intent") === DELETE_NOTE_INTENT) {
    const noteId = formValues(formData, ["noteId"]).noteId;
    try {
      await deleteArticleNote(context.db, params.id, noteId, actor);
      context.log.info({ articleId: params.id, noteId }, "article note deleted");
      return redirect(withNotice(`/admin/articles/edit/${params.id}`, "note-deleted"));
    } catch (error) {
      return refuse(error, { noteId, intent: DELETE_NOTE_INTENT });
    }
  }
  // "Unpublish" (its own request, after a confirm): back to draft, the fields as stored.
  if (formData.get("intent") === "unpublish") {
    try {
      const article = await unpublishArticle(context.db, params.id, actor);
      context.log.info({ articleId: article.id, slug: article.slug }, "article unpublished");
      return redirect(withNotice(`/admin/articles/edit/${article.id}`, "article-unpublished"));
    } catch (error) {
      return refuse(error);
    }
  }
  const values = articleFormValues(formData);
  // An autosave (the form's fetcher, a moment after typing stops), no redirect: a draft is saved as a
  // draft, a published story's changes go to its pending version (never to the live story).
  if (formData.get("intent") === "autosave") {
    try {
      const article = await autosaveArticleFromForm(context.db, context.storage, values, { id: params.id, timeZone: context.env.TIME_ZONE, actor });
      context.log.debug({ articleId: article.id, status: article.status }, "article autosaved");
      return { ok: true as const, autosaved: true as const, slug: article.slug, savedAt: new Date().toISOString() };
    } catch (error) {
      return refuse(error);
    }
  }
  try {
    // "Live coverage" ticked (a form that shows it: a story never live) starts it with this save.
    const startLive = Boolean(formData.get(LIVE_COVERAGE_FIELD));
    const article = await saveArticleFromForm(context.db, context.storage, values, { id: params.id, timeZone: context.env.TIME_ZONE, actor, newsletterIds, startLive });
    context.log.info({ articleId: article.id, slug: article.slug, status: article.status }, "article updated");
    if (values.intent === SUBMIT_INTENT) return redirect(withNotice(`/admin/articles/edit/${article.id}`, "article-submitted"));
    if (values.intent === "save-for-later") return redirect(withNotice(`/admin/articles/edit/${article.id}`, "article-saved-for-later"));
    if (values.intent === "discard-pending") return redirect(withNotice(`/admin/articles/edit/${article.id}`, "article-changes-discarded"));
    return redirect(pathAfterArticleSave(article, "article-updated"));
  } catch (error) {
    return refuse(error, values);
  }
}

/**
 * An autosave answers the fetcher only: the form keeps what is typed, so the page's data is not read
 * again. Nor after a shared preview link is made (its own fetcher): reading the data again would
 * remount the form and drop the link. Nor after a request of the "Live updates" panel: its answer
 * carries the panel's new data, and the story being written stays as typed.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, formAction, currentUrl, nextUrl, defaultShouldRevalidate }) =>
  dismissesStoryLive(currentUrl, nextUrl) ||
  formData?.get("intent") === "autosave" ||
  formData?.get("intent") === "test-email" ||
  formData?.get("intent") === SEND_STORY_INTENT ||
  formAction?.endsWith("/preview-link") ||
  formAction?.startsWith("/admin/articles/live/")
    ? false
    : defaultShouldRevalidate;

/** Dismissing "Your story is live" drops its flag from the address only: the form is not read again (nor remounted). */
function dismissesStoryLive(current: URL, next: URL): boolean {
  if (current.pathname !== next.pathname || !current.searchParams.has(PUBLISHED_FLAG) || next.searchParams.has(PUBLISHED_FLAG)) return false;
  const rest = new URLSearchParams(current.search);
  rest.delete(PUBLISHED_FLAG);
  return rest.toString() === next.searchParams.toString();
}

export const meta: Route.MetaFunction = ({ matches, params }) =>
  backOfficeMeta(matches, { title: "Edit Article", path: `/admin/articles/edit/${params.id}` });

/** Whether an answer of the action concerns the notes panel rather than the article form. */
const isNoteAnswer = (answer: object | undefined) => {
  const intent = answer && "values" in answer ? (answer.values as { intent?: string } | undefined)?.intent : undefined;
  return intent === ADD_NOTE_INTENT || intent === DELETE_NOTE_INTENT || intent === SEND_BACK_INTENT || intent === "test-email" || intent === SEND_STORY_INTENT;
};

/** A refused "Send back" (a missing note): its message, shown beside the note. */
function sendBackFailureOf(answer: object | undefined): string | undefined {
  if (!answer || !("values" in answer) || (answer.values as { intent?: string } | undefined)?.intent !== SEND_BACK_INTENT) return undefined;
  return (answer as { error?: string }).error;
}

export default function EditArticle({ loaderData, actionData }: Route.ComponentProps) {
  const { article } = loaderData;
  // Keyed by load: moving to another article's form, or back to this one after a save, starts from
  // the stored values (with nothing unsaved). A refused save reloads nothing and keeps the form.
  return (
    <ArticleForm
      key={loaderData.loadId}
      mode="edit"
      article={article}
      categories={loaderData.categories}
      accessTiers={loaderData.accessTiers}
      authors={loaderData.authors}
      tags={loaderData.tags}
      failure={isNoteAnswer(actionData) || (actionData && actionData.ok) ? undefined : (actionData as ArticleFormActionData)}
      canPublish={loaderData.canPublish}
      newsletters={loaderData.newsletters}
      postalAddressMissing={loaderData.postalAddressMissing}
      signups={loaderData.signups}
      audienceHref={loaderData.audienceHref}
      pending={loaderData.pending}
      featureToggle={
        loaderData.feature ? <FrontPageFeatureToggle articleId={article.id} placement={loaderData.feature.placement} isPublic={loaderData.feature.isPublic} /> : null
      }
      review={loaderData.review}
      sendBackFailure={sendBackFailureOf(actionData)}
      live={loaderData.live}
      before={loaderData.storyLive ? <StoryLivePanel {...loaderData.storyLive} /> : null}
      after={
        <>
          {loaderData.livePanel ? <LiveUpdatesPanel key={loaderData.loadId} initial={loaderData.livePanel} authors={loaderData.authors} /> : null}
          {loaderData.canPublish ? <ArticleNotesPanel key={loaderData.loadId} articleStatus={article.status} notes={loaderData.notes} /> : null}
        </>
      }
    />
  );
}
