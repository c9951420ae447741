import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { isUniqueViolation } from "~/db/pg-errors";
import { articleNewsletters, categories, newsletters, newsletterSends } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { isUuid } from "~/lib/ids";
import { slugify } from "~/lib/slugs";
import type { Actor } from "~/domain/accounts/actor";
import { checkCapability } from "~/domain/articles/article-access.server";
import { recordActivity } from "~/domain/activity/activity.server";
import { getSettings } from "~/domain/settings/settings.server";
import { formValues, parseForm } from "~/lib/forms";
import {
  LAST_NEWSLETTER_KEPT,
  NAME_REQUIRED,
  NEWSLETTER_ARCHIVED,
  NEWSLETTER_FIELDS,
  NEWSLETTER_GONE,
  newsletterFormSchema,
  type NewsletterFieldName,
  type NewsletterInput,
} from "./newsletter-admin.schema";
import type { Newsletter } from "./newsletters.server";

// The newsroom's side of newsletters (issue 30): /admin/newsletters' list and writes, and the article
// form's "Send by e-mail" choice. A site always keeps at least one newsletter that is not archived.

/** A database handle or an open transaction. */
type Queryable = Db | Parameters<Parameters<Db["transaction"]>[0]>[0];

const gone = () => new AppError("not_found", NEWSLETTER_GONE);

// ---------------------------------------------------------------- reads

export interface AdminNewsletterRow extends Newsletter {
  /** Active subscribers who receive it. */
  subscriberCount: number;
  /** When its latest send was made (any state), or null. */
  lastSendAt: Date | null;
}

/**
 * A column of a select from `newsletters`: how many active subscribers receive each (whom a send made
 * now would reach). The table is named in full: Drizzle writes a column of a one-table select unqualified.
 */
export const activeSubscriberCount = () =>
  sql<number>`(select count(*)::int from subscriptions s join subscribers p on p.id = s.subscriber_id
    where s.newsletter_id = "newsletters"."id" and p.status = 'active')`;

/** Every newsletter, those in use first (in order), then the archived ones, with subscriber counts and last send. */
export async function listNewslettersForAdmin(db: Db): Promise<AdminNewsletterRow[]> {
  const rows = await db
    .select({
      newsletter: newsletters,
      subscriberCount: activeSubscriberCount(),
      lastSendAt: sql<Date | null>`(select max(created_at) from newsletter_sends ns where ns.newsletter_id = "newsletters"."id")`,
    })
    .from(newsletters)
    .orderBy(sql`${newsletters.archivedAt} is not null`, asc(newsletters.position), asc(newsletters.createdAt));
  return rows.map((r) => ({ ...r.newsletter, subscriberCount: Number(r.subscriberCount), lastSendAt: r.lastSendAt ? new Date(r.lastSendAt) : null }));
}

/** One newsletter with its counts (/admin/newsletters/:id), or null. */
export async function newsletterForAdmin(db: Db, id: string): Promise<AdminNewsletterRow | null> {
  if (!isUuid(id)) return null;
  return (await listNewslettersForAdmin(db)).find((n) => n.id === id) ?? null;
}

// ---------------------------------------------------------------- writes

/** The digest's categories, each of which must still exist (none chosen: every category). */
async function checkCategories(db: Queryable, ids: string[] | null): Promise<string[] | null> {
  if (!ids || ids.length === 0) return null;
  const unique = [...new Set(ids)];
  const known = unique.every(isUuid) ? await db.select({ id: categories.id }).from(categories).where(inArray(categories.id, unique)) : [];
  if (known.length !== unique.length) {
    throw new AppError<NewsletterFieldName>("unknown_category", "A chosen category no longer exists: reload the page and choose again.", { field: "digestCategoryIds" });
  }
  return unique;
}

/** A slug from the name, free among every newsletter (archived ones keep theirs): "weekly", "weekly-2", … */
async function freeSlug(db: Queryable, name: string): Promise<string> {
  const base = slugify(name) || "newsletter";
  const taken = new Set(
    (await db.select({ slug: newsletters.slug }).from(newsletters).where(sql`${newsletters.slug} = ${base} or ${newsletters.slug} like ${`${base}-%`}`)).map((r) => r.slug),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

function columnsOf(input: NewsletterInput) {
  return {
    name: input.name,
    description: input.description,
    isPublic: input.isPublic,
    senderName: input.senderName,
    replyTo: input.replyTo,
    kind: input.kind,
    digestFrequency: input.digestFrequency,
    digestWeekday: input.digestWeekday,
    digestTime: input.digestTime,
    digestCategoryIds: input.kind === "digest" ? input.digestCategoryIds : null,
    trackEngagement: input.trackEngagement,
  };
}

/** Creates a newsletter (its slug from the name, made unique), logged as newsletter.create. */
export async function createNewsletter(db: Db, actor: Actor, input: NewsletterInput): Promise<Newsletter> {
  checkCapability(actor, "newsletters.manage", "Your role cannot manage newsletters.");
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.transaction(async (tx) => {
        const digestCategoryIds = await checkCategories(tx, input.digestCategoryIds);
        const [{ next }] = (await tx.select({ next: sql<number>`coalesce(max(${newsletters.position}), -1) + 1` }).from(newsletters)) as [{ next: number }];
        const [row] = await tx
          .insert(newsletters)
          .values({ ...columnsOf({ ...input, digestCategoryIds }), slug: await freeSlug(tx, input.name), position: Number(next) })
          .returning();
        await recordActivity(tx, actor, {
          kind: "newsletter.create",
          objectType: "newsletter",
          objectId: row!.id,
          objectLabel: row!.name,
          details: { kind: row!.kind, slug: row!.slug },
        });
        return row!;
      });
    } catch (error) {
      // Two newsletters of the same name created at once: the second takes the next free slug.
      if (isUniqueViolation(error) && attempt < 3) continue;
      throw error;
    }
  }
}

/** Saves a newsletter's settings (its slug stays: links and imports name it), logged as newsletter.update. */
export async function updateNewsletter(db: Db, actor: Actor, id: string, input: NewsletterInput): Promise<Newsletter> {
  checkCapability(actor, "newsletters.manage", "Your role cannot manage newsletters.");
  if (!isUuid(id)) throw gone();
  return db.transaction(async (tx) => {
    const [stored] = await tx.select().from(newsletters).where(eq(newsletters.id, id)).for("update");
    if (!stored) throw gone();
    if (stored.archivedAt) throw new AppError("invalid_input", NEWSLETTER_ARCHIVED, { status: 409 });
    const digestCategoryIds = await checkCategories(tx, input.digestCategoryIds);
    const columns = columnsOf({ ...input, digestCategoryIds });
    const changed = (Object.keys(columns) as (keyof typeof columns)[]).filter((key) => JSON.stringify(columns[key]) !== JSON.stringify(stored[key]));
    const [row] = await tx
      .update(newsletters)
      .set({ ...columns, updatedAt: new Date() })
      .where(eq(newsletters.id, id))
      .returning();
    await recordActivity(tx, actor, { kind: "newsletter.update", objectType: "newsletter", objectId: id, objectLabel: row!.name, details: { changed } });
    return row!;
  });
}

/**
 * Archives a newsletter: it leaves the sign-up forms and the publish panel, its subscribers and sends
 * stay. The last newsletter not archived is refused (a site always keeps one). Newsletters are locked
 * together, so two archives at once cannot leave none.
 */
export async function archiveNewsletter(db: Db, actor: Actor, id: string): Promise<Newsletter> {
  checkCapability(actor, "newsletters.manage", "Your role cannot manage newsletters.");
  if (!isUuid(id)) throw gone();
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('frontpage.newsletters'))`);
    const active = await tx.select({ id: newsletters.id }).from(newsletters).where(isNull(newsletters.archivedAt));
    const [stored] = await tx.select().from(newsletters).where(eq(newsletters.id, id));
    if (!stored) throw gone();
    if (stored.archivedAt) throw new AppError("invalid_input", "This newsletter is already archived.", { status: 409 });
    if (active.length <= 1) throw new AppError("invalid_input", LAST_NEWSLETTER_KEPT, { status: 409 });
    const [row] = await tx.update(newsletters).set({ archivedAt: new Date(), updatedAt: new Date() }).where(eq(newsletters.id, id)).returning();
    // A story not yet public no longer goes to it.
    await tx.delete(articleNewsletters).where(
      and(
        eq(articleNewsletters.newsletterId, id),
        sql`not exists (select 1 from newsletter_sends ns where ns.newsletter_id = ${articleNewsletters.newsletterId} and ns.article_id = ${articleNewsletters.articleId})`,
      ),
    );
    await recordActivity(tx, actor, { kind: "newsletter.archive", objectType: "newsletter", objectId: id, objectLabel: row!.name });
    return row!;
  });
}

// ---------------------------------------------------------------- the article form's "Send by e-mail"

export interface StoryNewsletterChoice {
  id: string;
  name: string;
  /** Chosen for this story (article_newsletters). */
  chosen: boolean;
  /** The story's send to it, once made: then the choice cannot change. */
  send: { status: string; at: Date } | null;
  /** Active subscribers now: whom a send made now would reach. */
  subscribers: number;
}

/**
 * What the publish panel offers: each Stories newsletter not archived (and any newsletter this story was
 * already sent to), whether it is chosen, and the story's send to it.
 */
export async function storyNewsletterChoices(db: Db, articleId: string | null): Promise<StoryNewsletterChoice[]> {
  const [list, chosen, sends] = await Promise.all([
    db
      .select({ id: newsletters.id, name: newsletters.name, kind: newsletters.kind, archivedAt: newsletters.archivedAt, subscribers: activeSubscriberCount() })
      .from(newsletters)
      .orderBy(asc(newsletters.position), asc(newsletters.createdAt)),
    articleId && isUuid(articleId)
      ? db.select({ newsletterId: articleNewsletters.newsletterId }).from(articleNewsletters).where(eq(articleNewsletters.articleId, articleId))
      : [],
    articleId && isUuid(articleId)
      ? db
          .select({ newsletterId: newsletterSends.newsletterId, status: newsletterSends.status, createdAt: newsletterSends.createdAt, finishedAt: newsletterSends.finishedAt })
          .from(newsletterSends)
          .where(and(eq(newsletterSends.articleId, articleId), eq(newsletterSends.kind, "story")))
      : [],
  ]);
  const chosenIds = new Set(chosen.map((c) => c.newsletterId));
  const sendOf = new Map(sends.map((s) => [s.newsletterId, { status: s.status, at: s.finishedAt ?? s.createdAt }]));
  return list
    // A digest goes by itself on its schedule, with every story since the last: it is no story's choice.
    .filter((n) => (n.kind === "stories" && !n.archivedAt) || sendOf.has(n.id))
    .map((n) => ({ id: n.id, name: n.name, chosen: chosenIds.has(n.id) || sendOf.has(n.id), send: sendOf.get(n.id) ?? null, subscribers: Number(n.subscribers) }));
}

export const SEND_BY_EMAIL_FORBIDDEN = "Your role cannot send stories by e-mail.";

/**
 * Whether the settings have no postal address, which every newsletter's footer should carry (the US
 * CAN-SPAM Act): the screens that send warn before sending; the send itself goes (a warning, not a block).
 */
export async function postalAddressMissing(db: Db): Promise<boolean> {
  return (await getSettings(db)).postalAddress.trim() === "";
}

/**
 * Replaces the story's "Send by e-mail" choice, inside the article save's transaction (before the
 * transaction's publish hook reads it). Only Stories newsletters not archived may be chosen; a newsletter the
 * story was already sent to stays chosen whatever the form says (a send is never undone). Refused (403)
 * for a role without newsletters.send.
 */
export async function setArticleNewsletters(tx: Queryable, articleId: string, newsletterIds: readonly string[], actor: Actor): Promise<void> {
  checkCapability(actor, "newsletters.send", SEND_BY_EMAIL_FORBIDDEN);
  const wanted = [...new Set(newsletterIds)];
  if (!wanted.every(isUuid)) throw new AppError("invalid_input", "Choose newsletters from the list.", { field: "newsletterIds" });
  const usable = wanted.length
    ? await tx
        .select({ id: newsletters.id })
        .from(newsletters)
        .where(and(inArray(newsletters.id, wanted), isNull(newsletters.archivedAt), eq(newsletters.kind, "stories")))
    : [];
  const sent = await tx
    .select({ newsletterId: newsletterSends.newsletterId })
    .from(newsletterSends)
    .where(and(eq(newsletterSends.articleId, articleId), eq(newsletterSends.kind, "story")));
  const sentIds = new Set(sent.map((s) => s.newsletterId));
  const usableIds = new Set(usable.map((u) => u.id));
  if (wanted.some((id) => !sentIds.has(id) && !usableIds.has(id))) {
    throw new AppError("invalid_input", "A chosen newsletter is archived, is a digest (it goes on its own schedule) or no longer exists: reload the page and choose again.", { field: "newsletterIds" });
  }
  const next = new Set([...usableIds, ...sentIds]);
  await tx.delete(articleNewsletters).where(eq(articleNewsletters.articleId, articleId));
  if (next.size > 0) await tx.insert(articleNewsletters).values([...next].map((newsletterId) => ({ articleId, newsletterId })));
}

// ---------------------------------------------------------------- the form

/** The submitted newsletter form: its fields as typed (to refill the form) and the checked input; throws the AppError of a broken rule. */
export function readNewsletterForm(formData: FormData): { values: Record<string, string>; parse: () => NewsletterInput } {
  const values = formValues(formData, NEWSLETTER_FIELDS);
  const categoryIds = formData.getAll("digestCategoryIds").filter((v): v is string => typeof v === "string" && v !== "");
  return {
    values: { ...values, digestCategoryIds: categoryIds.join(",") },
    parse: () => ({ ...parseForm(newsletterFormSchema, values, { required: ["name"], missingMessage: NAME_REQUIRED }), digestCategoryIds: categoryIds }),
  };
}

/**
 * The "Send by e-mail" choice a submitted article form carries: the ticked newsletters when the form
 * has the field (its marker `newsletterChoice`, or any `newsletterIds`), else undefined (the form of a
 * role that cannot send has none: the choice stays as it is).
 */
export function newsletterChoiceOf(formData: FormData): string[] | undefined {
  if (!formData.has("newsletterChoice") && !formData.has("newsletterIds")) return undefined;
  return formData.getAll("newsletterIds").filter((v): v is string => typeof v === "string" && v !== "");
}
