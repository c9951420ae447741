import { inArray } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { authors } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { formValues } from "~/lib/forms";
import type { Actor } from "~/domain/accounts/actor";
import { checkCapability } from "~/domain/articles/article-access.server";
import { articleFormValues, readArticleForm } from "~/domain/articles/article-admin.server";
import { isEmailAddress } from "./newsletter-admin.schema";
import { newsletterChoiceOf } from "./newsletter-admin.server";
import { emailSiteOf, emailStoryOf, storyEmail } from "./newsletter-email.server";
import { queueTestEmail } from "./newsletter-sends.server";
import { activeNewsletters } from "./newsletters.server";

// "Send test e-mail" of the article form (issue 30): the story as the form holds it now, saved or not.

export const TEST_EMAIL_FORBIDDEN = "Your role cannot send test e-mails.";
export const TEST_EMAIL_ADDRESS_REQUIRED = "Enter the address to send the test e-mail to.";
export const TEST_EMAIL_ADDRESS_INVALID = "Enter a valid e-mail address (like you@example.com).";

/**
 * Renders the submitted form's story as the first chosen newsletter (or the first newsletter in use)
 * would send it, and queues it to the one address of `testEmailTo` (logged as newsletter.test by the
 * send engine). Refused (403) for a role without newsletters.send; a bad address is a field error.
 */
export async function sendTestEmailOfForm(
  db: Db,
  actor: Actor,
  formData: FormData,
  options: { publicUrl: string; timeZone: string },
): Promise<{ to: string; newsletterName: string }> {
  checkCapability(actor, "newsletters.send", TEST_EMAIL_FORBIDDEN);
  const to = formValues(formData, ["testEmailTo"]).testEmailTo.trim();
  if (to === "") throw new AppError("invalid_input", TEST_EMAIL_ADDRESS_REQUIRED, { field: "testEmailTo" });
  if (!isEmailAddress(to)) throw new AppError("invalid_input", TEST_EMAIL_ADDRESS_INVALID, { field: "testEmailTo" });
  const { input } = readArticleForm({ ...articleFormValues(formData), intent: "draft" }, options.timeZone);
  const chosen = newsletterChoiceOf(formData) ?? [];
  const usable = (await activeNewsletters(db)).filter((n) => n.kind === "stories");
  const newsletter = usable.find((n) => chosen.includes(n.id)) ?? usable[0];
  if (!newsletter) throw new AppError("invalid_input", "There is no newsletter to send with: create one first.");
  const ids = input.authorIds ?? [];
  const found = ids.length ? await db.select({ id: authors.id, name: authors.name, slug: authors.slug }).from(authors).where(inArray(authors.id, ids)) : [];
  const byId = new Map(found.map((a) => [a.id, a]));
  const story = emailStoryOf(
    {
      title: input.title,
      slug: input.slug,
      excerpt: input.excerpt,
      contentDoc: input.contentDoc,
      content: input.content,
      featuredImage: input.featuredImage,
      featuredImageAlt: input.featuredImageAlt,
      featuredImageCaption: input.featuredImageCaption,
      featuredImageCredit: input.featuredImageCredit,
      authorName: input.authorName ?? "",
      authors: ids.map((id) => byId.get(id)).filter((a): a is { id: string; name: string; slug: string } => Boolean(a)),
      publishedAt: null,
    },
    options.publicUrl,
  );
  const email = await storyEmail(await emailSiteOf(db, options.publicUrl, options.timeZone), newsletter, story);
  await queueTestEmail(db, { newsletterId: newsletter.id, to, email }, actor);
  return { to, newsletterName: newsletter.name };
}
