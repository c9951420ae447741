import { inArray } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { authors } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { formValues } from "~/lib/forms";
import type { Actor } from "~/domain/accounts/actor";
import { checkCapability } from "~/domain/articles/article-access.server";
import { articleFormValues, readArticleForm } from "~/domain/articles/article-admin.server";
import { isEmailAddress, TEST_VARIANTS, type TestVariant } from "./newsletter-admin.schema";
import { newsletterChoiceOf } from "./newsletter-admin.server";
import { getSettings } from "~/domain/settings/settings.server";
import { isUuid } from "~/lib/ids";
import type { StoryAccessLevel } from "~/domain/members/access";
import { emailSiteOf, emailStoryOf, storyEmailVariants, type NewsletterEmail } from "./newsletter-email.server";
import { queueTestEmail } from "./newsletter-sends.server";
import { activeNewsletters } from "./newsletters.server";

// "Send test e-mail" of the article form (issue 30): the story as the form holds it now, saved or not.

export const TEST_EMAIL_FORBIDDEN = "Your role cannot send test e-mails.";
export const TEST_EMAIL_ADDRESS_REQUIRED = "Enter the address to send the test e-mail to.";
export const TEST_EMAIL_ADDRESS_INVALID = "Enter a valid e-mail address (like you@example.com).";

/** The subject's label of each version of a gated story's test e-mail ("[Test] " comes before it). */
export const TEST_SUBJECT_LABELS = { whole: "[Whole story] ", teaser: "[Free part] " } as const;

const ACCESS_LEVELS: readonly StoryAccessLevel[] = ["public", "members", "paid"];

/**
 * Renders the submitted form's story as the first chosen newsletter (or the first newsletter in use)
 * would send it, and queues it to the one address of `testEmailTo` (logged as newsletter.test by the
 * send engine). Refused (403) for a role without newsletters.send; a bad address is a field error.
 * A Members or Paid story (the form's `access`, and `accessTierId`) goes in the version(s) of
 * `testVariant` (default both), each labelled. Answers how many e-mails were queued.
 */
export async function sendTestEmailOfForm(
  db: Db,
  actor: Actor,
  formData: FormData,
  options: { publicUrl: string; timeZone: string },
): Promise<{ to: string; newsletterName: string; emails: number }> {
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
      ...accessOfForm(formData),
    },
    options.publicUrl,
  );
  const [site, settings] = await Promise.all([emailSiteOf(db, options.publicUrl, options.timeZone), getSettings(db)]);
  const variants = await storyEmailVariants(site, newsletter, story, settings.paywallParagraphs ?? 3);
  const asked = String(formData.get("testVariant") ?? "both");
  const variant: TestVariant = (TEST_VARIANTS as readonly string[]).includes(asked) ? (asked as TestVariant) : "both";
  const labelled = (email: NewsletterEmail, label: string): NewsletterEmail => ({ ...email, subject: `${label}${email.subject}` });
  const emails = !variants.teaser
    ? [variants.whole]
    : [
        ...(variant !== "teaser" ? [labelled(variants.whole, TEST_SUBJECT_LABELS.whole)] : []),
        ...(variant !== "whole" ? [labelled(variants.teaser, TEST_SUBJECT_LABELS.teaser)] : []),
      ];
  for (const email of emails) await queueTestEmail(db, { newsletterId: newsletter.id, to, email }, actor);
  return { to, newsletterName: newsletter.name, emails: emails.length };
}

/** The story's access as the form holds it (fields `access`, `accessTierId`); absent or unknown: public. */
function accessOfForm(formData: FormData): { access: StoryAccessLevel; accessTierId: string | null } {
  const level = String(formData.get("access") ?? "public");
  const tier = String(formData.get("accessTierId") ?? "");
  return { access: (ACCESS_LEVELS as readonly string[]).includes(level) ? (level as StoryAccessLevel) : "public", accessTierId: isUuid(tier) ? tier : null };
}
