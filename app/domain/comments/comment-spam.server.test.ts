import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { articles } from "~/db/schema";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { createFormTimer } from "~/lib/form-timer.server";
import { createLogger } from "~/lib/logger.server";
import { approveComments, blockCommenter, listCommentsForModeration, unblockCommenter } from "./comment-moderation.server";
import { DUPLICATE_COMMENT, SPAM_REFUSED, STALE_FORM, TOO_FAST, type CommentSpamRules } from "./comment-spam.server";
import { listArticleComments, postComment } from "./comments.server";

let t: TestDatabase;
let articleId: string;
const slug = "spam-target";
const log = createLogger("silent");
const timer = createFormTimer("a-test-secret-of-at-least-32-characters!!");
// The defaults (15 s, 3 s), with the form's stamp set 5 s before each post unless a test says otherwise.
const rules: CommentSpamRules = { intervalSeconds: 15, minFillSeconds: 3, formTimer: timer };
const shownAgo = (ms: number) => timer.issue(new Date(Date.now() - ms));
let n = 0;
/** A fresh commenter (own e-mail and address) unless told otherwise. */
function post(over: Record<string, string> = {}, clientIp = `203.0.113.${++n}`, use: CommentSpamRules = rules) {
  return postComment(
    t.db,
    log,
    slug,
    { authorName: "Sam", authorEmail: `sam${n}@example.org`, content: `Comment ${n}`, parentCommentId: "", imageUrl: "", videoUrl: "", website: "", formStarted: shownAgo(5000), ...over },
    clientIp,
    use,
  );
}

beforeAll(async () => {
  t = await createTestDatabase();
  const [a] = await t.db.insert(articles).values({ title: "Spam target", slug, content: "Body" }).returning({ id: articles.id });
  articleId = a!.id;
});
afterAll(async () => {
  await t?.pool.end().catch(() => {});
});

const postAs = (over: Record<string, string>, clientIp: string, use: CommentSpamRules) => post(over, clientIp, use);

describe("comment spam rules", () => {
  it("publishes an ordinary comment", async () => {
    await expect(post()).resolves.toMatchObject({ held: false });
  });

  it("refuses a filled honeypot", async () => {
    await expect(post({ website: "http://spam.example" })).rejects.toMatchObject({ status: 400, message: SPAM_REFUSED });
  });

  it("refuses a form posted within the minimum fill time, and one with a missing or forged stamp", async () => {
    await expect(post({ formStarted: shownAgo(1000) })).rejects.toMatchObject({ status: 429, message: TOO_FAST });
    await expect(post({ formStarted: "" })).rejects.toMatchObject({ status: 400, message: STALE_FORM });
    const forged = shownAgo(60_000).replace(/\.(.)/, (_, c: string) => `.${c === "A" ? "B" : "A"}`);
    await expect(post({ formStarted: forged })).rejects.toMatchObject({ status: 400, message: STALE_FORM });
    await expect(post({ formStarted: shownAgo(3500) })).resolves.toMatchObject({ held: false });
  });

  it("allows one comment per address and per e-mail every 15 seconds", async () => {
    await post({ authorEmail: "fast@example.org", content: "one" }, "198.51.100.7");
    await expect(post({ authorEmail: "other@example.org", content: "two" }, "198.51.100.7")).rejects.toMatchObject({
      status: 429,
      message: expect.stringMatching(/^Please wait 1[45] seconds before posting another comment\.$/),
    });
    await expect(post({ authorEmail: "FAST@example.org", content: "three" }, "198.51.100.8")).rejects.toMatchObject({ status: 429 });
  });

  it("refuses the same text again from the same person (e-mail or address), spacing and case aside", async () => {
    const text = "Great   article, thanks!";
    await post({ authorEmail: "dup@example.org", content: text }, "198.51.100.20");
    await expect(post({ authorEmail: "Dup@Example.org", content: "great article, THANKS!" }, "198.51.100.21")).rejects.toMatchObject({
      status: 409,
      message: DUPLICATE_COMMENT,
    });
    await expect(post({ authorEmail: "someone.else@example.org", content: text }, "198.51.100.20")).rejects.toMatchObject({ status: 409 });
    // Someone else may say the same thing.
    await expect(post({ authorEmail: "agree@example.org", content: text }, "198.51.100.22")).resolves.toMatchObject({ held: false });
  });

  it("holds a comment with more than two links, invisible to readers until approved", async () => {
    const before = (await listArticleComments(t.db, articleId)).total;
    const links = "See https://a.example, http://b.example/x and www.c.example";
    await expect(post({ content: links })).resolves.toMatchObject({ held: true });
    await expect(post({ content: "Only https://a.example and https://b.example" })).resolves.toMatchObject({ held: false });
    expect((await listArticleComments(t.db, articleId)).total).toBe(before + 1);
    const { threads } = await listArticleComments(t.db, articleId);
    expect(threads.some((c) => c.content === links)).toBe(false);

    const { rows, pending } = await listCommentsForModeration(t.db, 1, 50, "pending");
    expect(pending).toBe(1);
    expect(rows.map((r) => [r.content, r.heldReason])).toEqual([[links, "links"]]);
    expect(await approveComments(t.db, [rows[0]!.id])).toBe(1);
    expect((await listArticleComments(t.db, articleId)).threads.some((c) => c.content === links)).toBe(true);
    expect((await listCommentsForModeration(t.db, 1, 50, "pending")).pending).toBe(0);
  });

  it("holds comments from a blocked e-mail or address until the block is lifted", async () => {
    // (Without the 15 s interval, which would refuse the same e-mail's next comments first.)
    const noInterval = { ...rules, intervalSeconds: 0 };
    const post = (over: Record<string, string>, clientIp = `203.0.113.${++n}`) => postAs(over, clientIp, noInterval);
    await post({ authorEmail: "troll@example.org", content: "first" }, "192.0.2.50");
    const [mine] = (await listCommentsForModeration(t.db, 1, 50, "published")).rows.filter((r) => r.authorEmail === "troll@example.org");
    const byEmail = await blockCommenter(t.db, mine!.id, "email");
    await blockCommenter(t.db, mine!.id, "address");
    await expect(post({ authorEmail: "Troll@example.org", content: "again" })).resolves.toMatchObject({ held: true });
    await expect(post({ authorEmail: "new-name@example.org", content: "from the same place" }, "192.0.2.50")).resolves.toMatchObject({ held: true });
    await unblockCommenter(t.db, byEmail.id);
    await expect(post({ authorEmail: "troll@example.org", content: "after the block" })).resolves.toMatchObject({ held: false });
  });
});
