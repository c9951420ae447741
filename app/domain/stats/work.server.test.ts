import { beforeAll, describe, expect, it } from "vitest";
import { articleAuthors, articlePendingVersions, articles, authors, user } from "~/db/schema";
import { listAdminArticles } from "~/domain/articles/article-list.server";
import { listStatusText } from "~/domain/articles/article-list.schema";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { greeting, hourIn } from "./work.schema";
import { getDashboardWork } from "./work.server";

let t: TestDatabase;
const minutes = (n: number) => new Date(Date.now() + n * 60_000);

beforeAll(async () => {
  t = await createTestDatabase();
  await t.db.insert(user).values([
    { id: "u-ann", name: "Ann Writer", email: "ann@example.com", emailVerified: true },
    { id: "u-bob", name: "Bob", email: "bob@example.com", emailVerified: true },
  ]);
  const [annAuthor] = await t.db.insert(authors).values({ name: "Ann Writer", slug: "ann-writer", userId: "u-ann" }).returning();
  const [guest] = await t.db.insert(authors).values({ name: "Guest Columnist", slug: "guest" }).returning();
  const rows = await t.db
    .insert(articles)
    .values([
      { title: "Ann's draft", slug: "ann-draft", content: "x", status: "draft", createdById: "u-ann", updatedAt: minutes(-30) },
      { title: "Ann's newer draft", slug: "ann-draft-2", content: "x", status: "draft", createdById: "u-ann", updatedAt: minutes(-5) },
      { title: "Ann's submitted draft", slug: "ann-submitted", content: "x", status: "draft", createdById: "u-ann", reviewRequestedAt: minutes(-20), reviewRequestedById: "u-ann", updatedAt: minutes(-20) },
      { title: "Ann's sent-back draft", slug: "ann-sent-back", content: "x", status: "draft", createdById: "u-ann", reviewNote: "Add a source", reviewNoteByName: "Ed", reviewNoteAt: minutes(-10) },
      // Bylined to Ann's author record, made by Bob: Ann's too (ownedBy).
      { title: "Co-written and scheduled", slug: "co-written", content: "x", status: "scheduled", createdById: "u-bob", publishedAt: minutes(60) },
      { title: "Ann's published story", slug: "ann-published", content: "x", status: "published", createdById: "u-ann", publishedAt: minutes(-60) },
      { title: "Bob's draft", slug: "bob-draft", content: "x", status: "draft", createdById: "u-bob", reviewRequestedAt: minutes(-40), reviewRequestedById: "u-bob" },
      { title: "Bob's published story", slug: "bob-published", content: "x", status: "published", createdById: "u-bob", publishedAt: minutes(-2), authorName: "Bob B." },
    ])
    .returning();
  const id = (slug: string) => rows.find((r) => r.slug === slug)!.id;
  await t.db.insert(articleAuthors).values([
    { articleId: id("co-written"), authorId: guest!.id, position: 0 },
    { articleId: id("co-written"), authorId: annAuthor!.id, position: 1 },
  ]);
  await t.db.insert(articlePendingVersions).values({ articleId: id("ann-published"), fields: {}, savedByName: "Ann Writer" });
});

const titles = (list: { items: { title: string }[] }) => list.items.map((i) => i.title);

describe("the dashboard's work by role", () => {
  it("an author sees their drafts, what was sent back, their scheduled and published stories — nobody else's", async () => {
    const work = await getDashboardWork(t.db, { id: "u-ann", role: "author" });
    expect(work.map((l) => l.key)).toEqual(["myDrafts", "sentBack", "myScheduled", "myPublished"]);
    const [drafts, sentBack, scheduled, published] = work;
    // The last saved first.
    expect(titles(drafts!)).toEqual(["Ann's newer draft", "Ann's submitted draft", "Ann's draft"]);
    expect(drafts!.items.find((i) => i.title === "Ann's submitted draft")!.detail).toBe("In review");
    expect(drafts!.items.every((i) => i.href === `/admin/articles/edit/${i.id}`)).toBe(true);
    expect(sentBack!.items).toEqual([expect.objectContaining({ title: "Ann's sent-back draft", detail: "by Ed" })]);
    // Scheduled: not hers to edit any more (an author edits drafts only), so no link.
    expect(scheduled!.items).toEqual([expect.objectContaining({ title: "Co-written and scheduled", href: null })]);
    expect(published!.items).toEqual([expect.objectContaining({ title: "Ann's published story", href: "/article/ann-published" })]);
  });

  it("an editor sees the review queue (longest waiting first), everything scheduled and recently published", async () => {
    const work = await getDashboardWork(t.db, { id: "u-ed", role: "editor" });
    expect(work.map((l) => l.key)).toEqual(["review", "scheduled", "published"]);
    const [review, scheduled, published] = work;
    expect(titles(review!)).toEqual(["Bob's draft", "Ann's submitted draft"]);
    expect(review!.items[0]!.detail).toBe("by Bob (bob@example.com)");
    expect(titles(scheduled!)).toEqual(["Co-written and scheduled"]);
    expect(titles(published!)).toEqual(["Bob's published story", "Ann's published story"]);
    expect(published!.items.every((i) => i.href === `/admin/articles/edit/${i.id}`)).toBe(true);
    expect(review!.total).toBe(2);
  });

  it("greets by name, by the site's clock, and never by e-mail address", () => {
    expect(greeting("Ann Writer", "ann@example.com", 9)).toBe("Good morning, Ann Writer");
    expect(greeting("Ann Writer", "ann@example.com", 14)).toBe("Good afternoon, Ann Writer");
    expect(greeting("Ann Writer", "ann@example.com", 20)).toBe("Good evening, Ann Writer");
    expect(greeting("ann@example.com", "ann@example.com", 9)).toBe("Welcome");
    expect(greeting("  ", "ann@example.com", 9)).toBe("Welcome");
    // 14:30 UTC is 09:30 in New York (winter) and 20:00 in India.
    expect(hourIn(new Date("2025-01-15T14:30:00Z"), "America/New_York")).toBe(9);
    expect(hourIn(new Date("2025-01-15T14:30:00Z"), "Asia/Kolkata")).toBe(20);
  });
});

describe("the article list", () => {
  it("shows the byline's authors, the review state and the last save; Mine keeps the viewer's own stories", async () => {
    const { rows } = await listAdminArticles(t.db, 1, 50, {}, "u-ann");
    const bySlug = new Map(rows.map((r) => [r.slug, r]));
    expect(bySlug.get("co-written")!.authorNames).toEqual(["Guest Columnist", "Ann Writer"]);
    expect(bySlug.get("bob-published")!.authorNames).toEqual(["Bob B."]);
    const status = (slug: string) => listStatusText(bySlug.get(slug)!, "America/New_York");
    expect(status("ann-submitted")).toBe("In review");
    expect(status("ann-sent-back")).toBe("Draft · Sent back");
    expect(status("ann-draft")).toBe("Draft");
    expect(status("co-written")).toMatch(/^Scheduled for [A-Z][a-z]{2} \d{1,2}, \d{4} at \d{1,2}:\d{2} [AP]M$/);
    expect(status("ann-published")).toBe("Published · Changes not yet public");
    expect(status("bob-published")).toBe("Published");

    // "In review" (?status=review) narrows the list to the drafts waiting in the queue.
    const queued = await listAdminArticles(t.db, 1, 50, { status: "draft", inReview: true }, "u-ann");
    expect(queued.rows.map((r) => r.slug).sort()).toEqual(["ann-submitted", "bob-draft"]);
    expect(bySlug.get("ann-draft")!.updatedAt).toBeInstanceOf(Date);

    const mine = await listAdminArticles(t.db, 1, 50, { mineOf: "u-ann" }, "u-ann");
    expect(new Set(mine.rows.map((r) => r.slug))).toEqual(new Set(["ann-draft", "ann-draft-2", "ann-submitted", "ann-sent-back", "co-written", "ann-published"]));
    expect(mine.total).toBe(6);
    expect(mine.rows.every((r) => r.own)).toBe(true);
  });
});
