import { redirect } from "react-router";
import { ArticleForm } from "~/components/admin/article-form";
import { LIVE_COVERAGE_FIELD } from "~/domain/live/live-admin.schema";
import { pathAfterArticleSave, withNotice } from "~/components/admin/use-notice-toast";
import { can } from "~/domain/accounts/roles";
import { SUBMIT_INTENT } from "~/domain/articles/review.schema";
import { requireCapability } from "~/domain/accounts/guard.server";
import { articleFormValues, saveArticleFromForm } from "~/domain/articles/article-admin.server";
import { actorOf } from "~/domain/accounts/actor";
import { getAuthorForUser, listAuthorChoices } from "~/domain/authors/authors.server";
import { listCategories } from "~/domain/categories/categories.server";
import { listTagChoices } from "~/domain/tags/tags.server";
import { refuse } from "~/lib/forms";
import { AppError } from "~/lib/app-error";
import { newsletterChoiceOf, postalAddressMissing, SEND_BY_EMAIL_FORBIDDEN, storyNewsletterChoices } from "~/domain/newsletters/newsletter-admin.server";
import { sendTestEmailOfForm } from "~/domain/newsletters/newsletter-test-email.server";
import { backOfficeMeta } from "~/page-meta";
import { listTierChoices } from "~/domain/members/tier-choices.server";
import type { Route } from "./+types/article-new";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireCapability(request, context, "articles.create");
  const canSend = can(user.role, "newsletters.send");
  const [categories, authors, own, tags, newsletters, noPostalAddress, accessTiers] = await Promise.all([
    listCategories(context.db),
    listAuthorChoices(context.db),
    getAuthorForUser(context.db, user.id),
    listTagChoices(context.db),
    canSend ? storyNewsletterChoices(context.db, null) : null,
    canSend ? postalAddressMissing(context.db) : false,
    // "Access" (issue 40): the paid tiers a Paid story may name.
    listTierChoices(context.db),
  ]);
  // A new article is the signed-in user's own, when they have an author record (decision 0015).
  return {
    categories: categories.map(({ id, name }) => ({ id, name })),
    accessTiers,
    authors,
    tags: tags.map(({ name }) => ({ name })),
    defaultAuthorIds: own ? [own.id] : [],
    canPublish: can(user.role, "articles.publish"),
    // "Send by e-mail" (issue 30): editors and admins only.
    newsletters: newsletters?.map((n) => ({ id: n.id, name: n.name, chosen: false, send: null, subscribers: n.subscribers })) ?? null,
    // No postal address for the e-mails' footer (CAN-SPAM): the publish panel warns, sending is not blocked.
    postalAddressMissing: noPostalAddress,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(await requireCapability(request, context, "articles.create"));
  const formData = await request.formData();
  // "Send by e-mail" and "Send test e-mail" are for roles that may send (issue 30): refused before anything is written.
  const newsletterIds = newsletterChoiceOf(formData);
  if (newsletterIds !== undefined && !can(actor.role, "newsletters.send")) return refuse(new AppError("forbidden", SEND_BY_EMAIL_FORBIDDEN));
  if (formData.get("intent") === "test-email") {
    try {
      const sent = await sendTestEmailOfForm(context.db, actor, formData, { publicUrl: context.env.publicUrl, timeZone: context.env.TIME_ZONE });
      context.log.info({ newsletter: sent.newsletterName }, "test e-mail queued");
      return { ok: true as const, testEmail: sent.to };
    } catch (error) {
      return refuse(error, { testEmailTo: String(formData.get("testEmailTo") ?? ""), intent: "test-email" });
    }
  }
  const values = articleFormValues(formData);
  try {
    // "Live coverage" ticked: the story is live from its first save (issue 31).
    const startLive = Boolean(formData.get(LIVE_COVERAGE_FIELD));
    const article = await saveArticleFromForm(context.db, context.storage, values, { timeZone: context.env.TIME_ZONE, actor, newsletterIds, startLive });
    context.log.info({ articleId: article.id, slug: article.slug, status: article.status }, "article created");
    if (values.intent === SUBMIT_INTENT) return redirect(withNotice(`/admin/articles/edit/${article.id}`, "article-submitted"));
    return redirect(pathAfterArticleSave(article, "article-created"));
  } catch (error) {
    return refuse(error, values);
  }
}

export const meta: Route.MetaFunction = ({ matches }) =>
  backOfficeMeta(matches, { title: "Create New Article", path: "/admin/articles/new" });

export default function NewArticle({ loaderData, actionData }: Route.ComponentProps) {
  return <ArticleForm mode="create" article={null} categories={loaderData.categories}
      accessTiers={loaderData.accessTiers}
      authors={loaderData.authors}
      tags={loaderData.tags}
      defaultAuthorIds={loaderData.defaultAuthorIds}
      canPublish={loaderData.canPublish}
      newsletters={loaderData.newsletters}
      postalAddressMissing={loaderData.postalAddressMissing}
      failure={actionData && "testEmail" in actionData ? undefined : actionData} />;
}
