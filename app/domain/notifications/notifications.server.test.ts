import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { articles, comments, notifications, user, userRoles } from "~/db/schema";
import type { Actor } from "~/domain/accounts/actor";
import type { Role } from "~/domain/accounts/roles";
import { publishDueArticles } from "~/domain/articles/scheduler.server";
import { sendBack } from "~/domain/articles/review.server";
import { ensureAccountAuthor } from "~/domain/authors/account-author.server";
import { createComment } from "~/domain/comments/comments.server";
import { saveArticle, setUpArticleFixture } from "../../../tests/setup/article-fixture";
import { countUnread, listNotifications, markAllRead, NOTIFICATION_EMAIL_TASK, openNotification, setEmailNotifications } from "./notifications.server";

const fx = setUpArticleFixture("notifications");

/** A back-office account with its role and its author record (as joining gives it). */
async function person(name: string, role: Role): Promise<Actor & { id: string; authorId: string }> {
  const id = `user-${name}`;
  await fx.t.db.insert(user).values({ id, name, email: `${name}@example.com`, emailVerified: true }).onConflictDoNothing();
  await fx.t.db.insert(userRoles).values({ userId: id, role }).onConflictDoNothing();
  const author = await ensureAccountAuthor(fx.t.db, { id, name, email: `${name}@example.com` });
  return { id, name: `${name} (${name}@example.com)`, role, authorId: author.id };
}

const textsOf = async (userId: string) => (await listNotifications(fx.t.db, userId)).map((n) => n.text);
const emailJobs = async () =>
  (
    await fx.t.db.execute<{ id: string }>(
      sql`select j.payload->>'id' as id from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
          where t.identifier = ${NOTIFICATION_EMAIL_TASK} order by j.id`,
    )
  ).rows.map((r) => r.id);
const clearAll = async () => {
  await fx.t.db.delete(notifications);
  await fx.t.db.execute(sql`delete from graphile_worker._private_jobs`);
};

describe("notifications", () => {
  it("a submitted story tells editors and admins it waits for review (not its author); an editor's note sent back reaches its author and creator, not the editor", async () => {
    await clearAll();
    const ann = await person("ann", "author");
    const ed = await person("ed", "editor");
    const ada = await person("ada", "admin");
    const draft = await saveArticle(fx, { title: "Ann's scoop", slug: "ann-scoop-1", intent: "submit", authorIds: ann.authorId }, { actor: ann });

    expect(await textsOf(ed.id)).toEqual(["'Ann's scoop' is waiting for review"]);
    expect(await textsOf(ada.id)).toEqual(["'Ann's scoop' is waiting for review"]);
    expect(await textsOf(ann.id)).toEqual([]);
    expect((await listNotifications(fx.t.db, ed.id))[0]!.href).toBe(`/admin/articles/edit/${draft.id}`);

    await sendBack(fx.t.db, draft.id, ed, "Add a second source, please.");
    const [sent] = await listNotifications(fx.t.db, ann.id);
    expect([sent!.text, sent!.note, sent!.read]).toEqual(["ed sent back 'Ann's scoop'", "Add a second source, please.", false]);
    // The editor who acted is not told of it; the admin is not one of the story's people.
    expect(await textsOf(ed.id)).toEqual(["'Ann's scoop' is waiting for review"]);
    expect(await textsOf(ada.id)).toEqual(["'Ann's scoop' is waiting for review"]);
  });

  it("a save that publishes tells the story's people but not the editor who pressed the button; so does the scheduler (its creator too)", async () => {
    await clearAll();
    const ann = await person("ann", "author");
    const ed = await person("ed", "editor");
    const draft = await saveArticle(fx, { title: "Ann's report", slug: "ann-report", intent: "draft", authorIds: ann.authorId }, { actor: ann });
    await saveArticle(fx, { title: "Ann's report", slug: "ann-report", intent: "publish", authorIds: ann.authorId }, { id: draft.id, actor: ed });
    expect(await textsOf(ann.id)).toEqual(["'Ann's report' was published"]);
    expect(await textsOf(ed.id)).toEqual([]);

    // Written by the editor for Ann, scheduled, published by the scheduler: both hear of it.
    const later = await saveArticle(fx, { title: "Night desk", slug: "night-desk", intent: "draft", authorIds: ann.authorId }, { actor: ed });
    await fx.t.db.update(articles).set({ status: "scheduled", publishedAt: sql`now() - interval '1 minute'` }).where(eq(articles.id, later.id));
    expect((await publishDueArticles(fx.t.db)).map((a) => a.id)).toEqual([later.id]);
    expect(await textsOf(ann.id)).toEqual(["'Night desk' was published", "'Ann's report' was published"]);
    expect(await textsOf(ed.id)).toEqual(["'Night desk' was published"]);
    // It leads to the story's page: an author may not open a published story's edit page.
    expect((await listNotifications(fx.t.db, ann.id)).map((n) => n.href)).toEqual(["/article/night-desk", "/article/ann-report"]);

    // Published at once by the editor with Ann's byline: she hears of it too.
    await saveArticle(fx, { title: "Straight out", slug: "straight-out", intent: "publish", authorIds: ann.authorId }, { actor: ed });
    expect((await textsOf(ann.id))[0]).toBe("'Straight out' was published");
  });

  it("a story saved again while it waits for review tells the desk once, not once per save", async () => {
    await clearAll();
    const ann = await person("ann", "author");
    const ed = await person("ed", "editor");
    const draft = await saveArticle(fx, { title: "Ann's second", slug: "ann-second", intent: "submit", authorIds: ann.authorId }, { actor: ann });
    await saveArticle(fx, { title: "Ann's second, better", slug: "ann-second", intent: "submit", authorIds: ann.authorId }, { id: draft.id, actor: ann });
    expect(await textsOf(ed.id)).toEqual(["'Ann's second' is waiting for review"]);
    // Sent back, then submitted again: a new request, told again.
    await sendBack(fx.t.db, draft.id, ed, "One more source.");
    await saveArticle(fx, { title: "Ann's second, sourced", slug: "ann-second", intent: "submit", authorIds: ann.authorId }, { id: draft.id, actor: ann });
    expect(await textsOf(ed.id)).toEqual(["'Ann's second, sourced' is waiting for review", "'Ann's second' is waiting for review"]);
  });

  it("comments entering moderation keep ONE unread notice per editor, its count brought up to date; once read, the next comment starts a new one", async () => {
    await clearAll();
    await fx.t.db.delete(comments);
    const ann = await person("ann", "author");
    const ed = await person("ed", "editor");
    const ada = await person("ada", "admin");
    const story = await saveArticle(fx, { title: "Talked about", slug: "talked-about", intent: "publish" }, { actor: ed });
    const comment = (n: number, held: boolean) =>
      createComment(fx.t.db, story.id, { authorName: `Reader ${n}`, authorEmail: `r${n}@example.com`, content: `Comment ${n}` }, held ? { heldReason: "links" } : {});

    await comment(1, true);
    expect(await textsOf(ed.id)).toEqual(["1 comment waits for moderation"]);
    await comment(2, false); // published at once: nothing to moderate
    await Promise.all([comment(3, true), comment(4, true)]);
    expect(await textsOf(ed.id)).toEqual(["3 comments wait for moderation"]);
    expect(await textsOf(ada.id)).toEqual(["3 comments wait for moderation"]);
    expect(await textsOf(ann.id)).toEqual([]);
    // One e-mail per notice, not one per comment.
    const rows = await fx.t.db.select({ id: notifications.id }).from(notifications).where(eq(notifications.kind, "comments.pending"));
    expect(rows).toHaveLength(2);
    expect((await emailJobs()).sort()).toEqual(rows.map((r) => r.id).sort());

    expect(await markAllRead(fx.t.db, ed.id)).toBe(1);
    await comment(5, true);
    expect(await textsOf(ed.id)).toEqual(["4 comments wait for moderation", "3 comments wait for moderation"]);
    expect(await countUnread(fx.t.db, ed.id)).toBe(1);
    expect(await textsOf(ada.id)).toEqual(["4 comments wait for moderation"]);
  });

  it("opening a notification marks it read and answers where it leads; another person's cannot be opened", async () => {
    await clearAll();
    const ann = await person("ann", "author");
    const ed = await person("ed", "editor");
    const draft = await saveArticle(fx, { title: "To open", slug: "to-open", intent: "submit", authorIds: ann.authorId }, { actor: ann });
    const [item] = await listNotifications(fx.t.db, ed.id);
    expect(await countUnread(fx.t.db, ed.id)).toBe(1);
    await expect(openNotification(fx.t.db, ann.id, item!.id)).rejects.toMatchObject({ code: "not_found" });
    expect(await openNotification(fx.t.db, ed.id, item!.id)).toBe(`/admin/articles/edit/${draft.id}`);
    expect(await countUnread(fx.t.db, ed.id)).toBe(0);
    expect((await listNotifications(fx.t.db, ed.id))[0]!.read).toBe(true);
    await expect(openNotification(fx.t.db, ed.id, "not-an-id")).rejects.toMatchObject({ code: "not_found" });
  });

  it("an e-mail is queued, once, for each notification of a person who keeps e-mail on, and none for one who turned it off", async () => {
    await clearAll();
    const ann = await person("ann", "author");
    const ed = await person("ed", "editor");
    const ada = await person("ada", "admin");
    await setEmailNotifications(fx.t.db, ada.id, false);
    await saveArticle(fx, { title: "Mail me", slug: "mail-me", intent: "submit", authorIds: ann.authorId }, { actor: ann });
    const [edsNotice] = await listNotifications(fx.t.db, ed.id);
    expect(await textsOf(ada.id)).toEqual(["'Mail me' is waiting for review"]);
    expect(await emailJobs()).toEqual([edsNotice!.id]);
    await setEmailNotifications(fx.t.db, ada.id, true);
  });

  it("a refused change leaves no notification behind (same transaction)", async () => {
    await clearAll();
    const ann = await person("ann", "author");
    const ed = await person("ed", "editor");
    const draft = await saveArticle(fx, { title: "Not queued", slug: "not-queued", intent: "draft", authorIds: ann.authorId }, { actor: ann });
    await expect(sendBack(fx.t.db, draft.id, ed, "No")).rejects.toMatchObject({ status: 409 });
    expect(await fx.t.db.select().from(notifications).where(and(eq(notifications.articleId, draft.id)))).toEqual([]);
    expect(await emailJobs()).toEqual([]);
  });
});
