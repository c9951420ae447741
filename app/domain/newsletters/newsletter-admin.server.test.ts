import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { articleNewsletters, auditEvents, categories, newsletters, newsletterSends, subscribers, subscriptions } from "~/db/schema";
import type { Actor } from "~/domain/accounts/actor";
import { parseForm } from "~/lib/forms";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { refusal } from "../../../tests/setup/refusal";
import {
  DIGEST_TIME_INVALID,
  DIGEST_WEEKDAY_REQUIRED,
  LAST_NEWSLETTER_KEPT,
  newsletterFormSchema,
  newsletterScheduleLabel,
  REPLY_TO_INVALID,
  type NewsletterInput,
} from "./newsletter-admin.schema";
import {
  archiveNewsletter,
  createNewsletter,
  listNewslettersForAdmin,
  readNewsletterForm,
  setArticleNewsletters,
  storyNewsletterChoices,
  updateNewsletter,
} from "./newsletter-admin.server";
import { newTokenKey } from "./subscriber-tokens.server";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});

const editor: Actor = { id: null, name: "Ed Itor", role: "editor" };
const author: Actor = { id: null, name: "Au Thor", role: "author" };

const form = (values: Record<string, string>, categoryIds: string[] = []) => {
  const fd = new FormData();
  for (const [k, v] of Object.entries({ description: "", isPublic: "on", senderName: "", replyTo: "", kind: "stories", digestFrequency: "", digestWeekday: "", digestTime: "", trackEngagement: "", ...values })) fd.append(k, v);
  for (const id of categoryIds) fd.append("digestCategoryIds", id);
  return readNewsletterForm(fd);
};
const input = (values: Record<string, string>, categoryIds: string[] = []): NewsletterInput => form(values, categoryIds).parse();

describe("the newsletter form's rules", () => {
  it("a digest needs a valid HH:MM time, and a weekly one its day", async () => {
    const late = await refusal(() => input({ name: "Evening", kind: "digest", digestFrequency: "daily", digestTime: "25:00" }));
    expect(late.fieldErrors).toMatchObject({ digestTime: DIGEST_TIME_INVALID });
    const noDay = await refusal(() => input({ name: "Weekly", kind: "digest", digestFrequency: "weekly", digestTime: "07:30", digestWeekday: "" }));
    expect(noDay.fieldErrors).toMatchObject({ digestWeekday: DIGEST_WEEKDAY_REQUIRED });
    const weekly = input({ name: "Weekly", kind: "digest", digestFrequency: "weekly", digestTime: "07:30", digestWeekday: "1" });
    expect(weekly).toMatchObject({ kind: "digest", digestFrequency: "weekly", digestWeekday: 1, digestTime: "07:30" });
    expect(newsletterScheduleLabel(weekly)).toBe("Weekly on Monday at 07:30");
    expect(newsletterScheduleLabel(input({ name: "D", kind: "digest", digestFrequency: "daily", digestTime: "18:05", digestWeekday: "3" }))).toBe("Daily at 18:05");
  });

  it("a Stories newsletter keeps no schedule, whatever the form sent; tracking is off unless ticked", () => {
    const stories = input({ name: "Breaking", digestFrequency: "weekly", digestTime: "99:99", digestWeekday: "9" });
    expect(stories).toMatchObject({ kind: "stories", digestFrequency: null, digestWeekday: null, digestTime: null, trackEngagement: false });
    expect(newsletterScheduleLabel(stories)).toBe("Stories");
  });

  it("a reply-to must be an e-mail address, and the name is required", async () => {
    expect((await refusal(() => input({ name: "X", replyTo: "not an address" }))).fieldErrors).toMatchObject({ replyTo: REPLY_TO_INVALID });
    expect((await refusal(() => input({ name: "  " }))).code).toBe("missing_fields");
    expect(() => parseForm(newsletterFormSchema, { name: "X", description: "", isPublic: "", senderName: "", replyTo: "a@b.co", kind: "stories", digestFrequency: "", digestWeekday: "", digestTime: "", trackEngagement: "on" })).not.toThrow();
  });

});

describe("newsletters in the back office", () => {
  it("are created with a unique slug from the name, logged, and listed with their active subscribers", async () => {
    const first = await createNewsletter(t.db, editor, input({ name: "Morning Brief", kind: "digest", digestFrequency: "daily", digestTime: "07:00" }));
    const second = await createNewsletter(t.db, editor, input({ name: "Morning brief!" }));
    expect(first.slug).toBe("morning-brief");
    expect(second.slug).toBe("morning-brief-2");
    const [active, pending] = await t.db
      .insert(subscribers)
      .values([
        { email: "one@example.com", status: "active", tokenKey: newTokenKey() },
        { email: "two@example.com", status: "pending", tokenKey: newTokenKey() },
      ])
      .returning();
    await t.db.insert(subscriptions).values([
      { subscriberId: active!.id, newsletterId: first.id },
      { subscriberId: pending!.id, newsletterId: first.id },
    ]);
    const listed = (await listNewslettersForAdmin(t.db)).find((n) => n.id === first.id)!;
    expect(listed.subscriberCount).toBe(1);
    expect(listed.lastSendAt).toBeNull();
    const logged = await t.db.select().from(auditEvents).where(and(eq(auditEvents.kind, "newsletter.create"), eq(auditEvents.objectId, first.id)));
    expect(logged).toHaveLength(1);
  });

  it("an edit keeps the slug and names what changed; an author may not manage newsletters", async () => {
    const created = await createNewsletter(t.db, editor, input({ name: "Sports" }));
    const saved = await updateNewsletter(t.db, editor, created.id, input({ name: "Sports Weekly", kind: "digest", digestFrequency: "weekly", digestWeekday: "5", digestTime: "16:00", trackEngagement: "on" }));
    expect(saved).toMatchObject({ slug: "sports", name: "Sports Weekly", digestWeekday: 5, trackEngagement: true });
    const [entry] = await t.db.select().from(auditEvents).where(and(eq(auditEvents.kind, "newsletter.update"), eq(auditEvents.objectId, created.id)));
    expect((entry!.details as { changed: string[] }).changed).toEqual(expect.arrayContaining(["name", "kind", "digestTime", "trackEngagement"]));
    expect((await refusal(createNewsletter(t.db, author, input({ name: "Mine" })))).status).toBe(403);
  });

  it("a digest's categories must exist", async () => {
    const [desk] = await t.db.insert(categories).values({ name: "Desk", slug: "desk" }).returning();
    const ok = await createNewsletter(t.db, editor, input({ name: "Desk digest", kind: "digest", digestFrequency: "daily", digestTime: "06:00" }, [desk!.id]));
    expect(ok.digestCategoryIds).toEqual([desk!.id]);
    const bad = await refusal(createNewsletter(t.db, editor, input({ name: "Ghost digest", kind: "digest", digestFrequency: "daily", digestTime: "06:00" }, ["5b0c7a5e-3f7e-4a53-9d8e-1f0b3d7c2a11"])));
    expect(bad.field).toBe("digestCategoryIds");
  });

  it("archiving the last newsletter not archived is refused with a clear message", async () => {
    const all = await t.db.select().from(newsletters);
    const [keep, ...others] = all.filter((n) => !n.archivedAt);
    for (const n of others) await archiveNewsletter(t.db, editor, n.id);
    const refused = await refusal(archiveNewsletter(t.db, editor, keep!.id));
    expect(refused.message).toBe(LAST_NEWSLETTER_KEPT);
    expect(refused.status).toBe(409);
    const [still] = await t.db.select().from(newsletters).where(eq(newsletters.id, keep!.id));
    expect(still!.archivedAt).toBeNull();
    expect(await t.db.select().from(auditEvents).where(eq(auditEvents.kind, "newsletter.archive"))).toHaveLength(others.length);
  });
});

describe("a story's “Send by e-mail” choice", () => {
  it("is saved for newsletters not archived; one already sent stays chosen; an author is refused (403) and nothing changes", async () => {
    const { articles } = await import("~/db/schema");
    const [story] = await t.db.insert(articles).values({ title: "Floods", slug: "floods-mail", content: "Body", authorName: "Desk" }).returning();
    const a = await createNewsletter(t.db, editor, input({ name: "Letter A" }));
    const b = await createNewsletter(t.db, editor, input({ name: "Letter B" }));
    await t.db.transaction((tx) => setArticleNewsletters(tx, story!.id, [a.id], editor));
    expect((await storyNewsletterChoices(t.db, story!.id)).filter((c) => c.chosen).map((c) => c.id)).toEqual([a.id]);

    const forbidden = await refusal(t.db.transaction((tx) => setArticleNewsletters(tx, story!.id, [b.id], author)));
    expect(forbidden.status).toBe(403);
    expect((await t.db.select().from(articleNewsletters).where(eq(articleNewsletters.articleId, story!.id))).map((r) => r.newsletterId)).toEqual([a.id]);

    await t.db.insert(newsletterSends).values({ newsletterId: a.id, articleId: story!.id, kind: "story", status: "sent", subject: "Floods" });
    await t.db.transaction((tx) => setArticleNewsletters(tx, story!.id, [b.id], editor));
    const choices = await storyNewsletterChoices(t.db, story!.id);
    expect(choices.find((c) => c.id === a.id)).toMatchObject({ chosen: true, send: { status: "sent" } });
    expect(choices.find((c) => c.id === b.id)).toMatchObject({ chosen: true, send: null });

    await archiveNewsletter(t.db, editor, b.id);
    const archived = await refusal(t.db.transaction((tx) => setArticleNewsletters(tx, story!.id, [b.id], editor)));
    expect(archived.code).toBe("invalid_input");
  });
});
