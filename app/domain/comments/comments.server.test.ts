import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { articles, comments, media } from "~/db/schema";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { AppError } from "~/lib/app-error";
import { formValues, refuse } from "~/lib/forms";
import { COMMENT_FIELDS } from "./comments.schema";
import { COMMENT_POST_LIMIT, commentInputSchema, createComment, listArticleComments, postComment } from "./comments.server";
import { createLogger } from "~/lib/logger.server";

let t: TestDatabase;
let articleId: string;

const input = (over: Record<string, string> = {}) =>
  commentInputSchema.parse({ authorName: "Ann", authorEmail: "ann@example.org", content: "Hello", ...over });

beforeAll(async () => {
  t = await createTestDatabase();
  const [a] = await t.db.insert(articles).values({ title: "A", slug: "a", content: "Body" }).returning({ id: articles.id });
  articleId = a!.id;
});
afterAll(async () => {
  await t?.pool.end().catch(() => {});
});

describe("comments", () => {
  it("lists top-level comments newest first with replies underneath, oldest first", async () => {
    const first = await createComment(t.db, articleId, input({ content: "first" }));
    await new Promise((r) => setTimeout(r, 5));
    const second = await createComment(t.db, articleId, input({ content: "second" }));
    await createComment(t.db, articleId, input({ content: "reply 1", parentCommentId: first.id }));
    await new Promise((r) => setTimeout(r, 5));
    await createComment(t.db, articleId, input({ content: "reply 2", parentCommentId: first.id }));

    const { threads } = await listArticleComments(t.db, articleId);
    expect(threads.map((c) => c.content)).toEqual(["second", "first"]);
    expect(threads[0]!.id).toBe(second.id);
    expect(threads[1]!.replies.map((r) => r.content)).toEqual(["reply 1", "reply 2"]);
  });

  it("never returns the commenter's e-mail address", async () => {
    const { threads } = await listArticleComments(t.db, articleId);
    expect(JSON.stringify(threads)).not.toContain("ann@example.org");
    expect(Object.keys(threads[0]!)).not.toContain("authorEmail");
  });

  it("refuses a reply to a reply", async () => {
    const top = await createComment(t.db, articleId, input());
    const reply = await createComment(t.db, articleId, input({ parentCommentId: top.id }));
    const attempt = createComment(t.db, articleId, input({ parentCommentId: reply.id }));
    await expect(attempt).rejects.toBeInstanceOf(AppError);
    await expect(attempt).rejects.toMatchObject({ status: 400, message: expect.stringContaining("one level deep") });
  });

  it("refuses a reply to a comment of another article", async () => {
    const [other] = await t.db.insert(articles).values({ title: "B", slug: "b", content: "Body" }).returning({ id: articles.id });
    const foreign = await createComment(t.db, other!.id, input());
    await expect(createComment(t.db, articleId, input({ parentCommentId: foreign.id }))).rejects.toMatchObject({ status: 400 });
  });

  it("accepts only attachments that were uploaded to our store, of the right kind", async () => {
    await expect(createComment(t.db, articleId, input({ imageUrl: "/media/images/1-abc.png" }))).rejects.toMatchObject({ status: 400 });
    await t.db.insert(media).values([
      { bucket: "images", name: "1-abc.png", originalName: "a.png", contentType: "image/png", size: 10, source: "comment" },
      { bucket: "videos", name: "2-def.mp4", originalName: "b.mp4", contentType: "video/mp4", size: 10, source: "comment" },
    ]);
    const ok = await createComment(t.db, articleId, input({ imageUrl: "/media/images/1-abc.png", videoUrl: "/media/videos/2-def.mp4" }));
    expect(ok.imageUrl).toBe("/media/images/1-abc.png");
    expect(ok.videoUrl).toBe("/media/videos/2-def.mp4");
    expect(() => input({ imageUrl: "https://evil.example/x.png" })).toThrow();
  });

  it("requires name, e-mail and text after trimming", () => {
    for (const blank of [{ authorName: "  " }, { authorEmail: " " }, { content: "\n " }]) {
      const result = commentInputSchema.safeParse({ authorName: "Ann", authorEmail: "ann@example.org", content: "x", ...blank });
      expect(result.success).toBe(false);
      expect(result.error!.issues[0]!.message).toBe("Please fill in all required fields.");
    }
    expect(commentInputSchema.safeParse({ authorName: "Ann", authorEmail: "not-an-email", content: "x" }).success).toBe(false);
  });

  it("pages of threads: the newest first, then those after a given one; the count covers every comment", async () => {
    const [a] = await t.db.insert(articles).values({ title: "Busy", slug: "busy", content: "Body" }).returning({ id: articles.id });
    const first = await createComment(t.db, a!.id, input({ content: "first" }));
    await createComment(t.db, a!.id, input({ content: "second" }));
    const third = await createComment(t.db, a!.id, input({ content: "third" }));
    await createComment(t.db, a!.id, input({ content: "reply to first", parentCommentId: first.id }));
    await createComment(t.db, a!.id, input({ content: "reply to third", parentCommentId: third.id }));
    const shape = (page: Awaited<ReturnType<typeof listArticleComments>>) => ({
      threads: page.threads.map((c) => [c.content, c.replies.map((r) => r.content)]),
      olderThreads: page.olderThreads,
      total: page.total,
    });

    const newest = await listArticleComments(t.db, a!.id, { limit: 2 });
    expect(shape(newest)).toEqual({ threads: [["third", ["reply to third"]], ["second", []]], olderThreads: 1, total: 5 });
    const older = await listArticleComments(t.db, a!.id, { limit: 2, olderThan: newest.threads[1]!.id });
    expect(shape(older)).toEqual({ threads: [["first", ["reply to first"]]], olderThreads: 0, total: 5 });
    // A cursor that is no top-level comment of this article (a reply, another article's, junk) gives the newest page.
    for (const olderThan of [newest.threads[0]!.replies[0]!.id, "00000000-0000-4000-8000-000000000000", "x' or 1=1"]) {
      expect(shape(await listArticleComments(t.db, a!.id, { limit: 2, olderThan }))).toEqual(shape(newest));
    }
  });

  it("counts as before when the first page has no thread: a published reply under a held thread, and no comment at all", async () => {
    const [a] = await t.db.insert(articles).values({ title: "Quiet", slug: "quiet", content: "Body" }).returning({ id: articles.id });
    expect(await listArticleComments(t.db, a!.id)).toEqual({ threads: [], olderThreads: 0, total: 0 });
    const parent = await createComment(t.db, a!.id, input({ content: "soon held" }));
    await createComment(t.db, a!.id, input({ content: "a reply", parentCommentId: parent.id }));
    expect(await listArticleComments(t.db, a!.id)).toMatchObject({ olderThreads: 0, total: 2 });
    await t.db.update(comments).set({ status: "pending" }).where(eq(comments.id, parent.id));
    expect(await listArticleComments(t.db, a!.id)).toEqual({ threads: [], olderThreads: 0, total: 1 });
  });

  it("deleting an article deletes its comments", async () => {
    await t.db.delete(articles).where(eq(articles.id, articleId));
    expect(await t.db.select().from(comments).where(eq(comments.articleId, articleId))).toHaveLength(0);
  });
});

describe("posting a comment from the form's fields", () => {
  const log = createLogger("silent");
  /** What POST /api/articles/:slug/comments answers a form with these fields (absent ones left out). */
  async function post(slug: string, sent: Record<string, string>, clientIp?: string) {
    const form = new FormData();
    for (const [name, value] of Object.entries(sent)) form.set(name, value);
    try {
      await postComment(t.db, log, slug, formValues(form, COMMENT_FIELDS), clientIp);
      return { status: 201, result: { ok: true } };
    } catch (error) {
      const answer = refuse(error);
      return { status: answer.init?.status, result: answer.data };
    }
  }
  const fields = { authorName: " Bo ", authorEmail: "bo@example.org", content: "Posted through the form" };
  let formArticleId = "";
  beforeAll(async () => {
    const [a] = await t.db.insert(articles).values({ title: "Form", slug: "form-article", content: "Body" }).returning({ id: articles.id });
    formArticleId = a!.id;
  });

  it("saves a valid comment and answers 201 ok", async () => {
    expect(await post("form-article", fields)).toEqual({ status: 201, result: { ok: true } });
    const { threads } = await listArticleComments(t.db, formArticleId);
    expect(threads[0]).toMatchObject({ authorName: "Bo", content: "Posted through the form" });
  });

  it("a blank field answers 400 with the spec's missing-fields flag, and nothing is saved", async () => {
    const before = (await t.db.select().from(comments)).length;
    expect(await post("form-article", { ...fields, content: "   " })).toEqual({
      status: 400,
      result: { ok: false, code: "missing_fields", error: "Please fill in all required fields.", fieldErrors: { content: "Please fill in all required fields." } },
    });
    expect((await t.db.select().from(comments)).length).toBe(before);
  });

  it.each(["authorName", "authorEmail", "content"])("a form without the %s field at all gets the same missing-fields answer", async (left) => {
    const { [left as keyof typeof fields]: _, ...rest } = fields;
    expect(await post("form-article", rest)).toMatchObject({
      status: 400,
      result: { ok: false, code: "missing_fields", error: "Please fill in all required fields.", fieldErrors: { [left]: "Please fill in all required fields." } },
    });
  });

  it("an address may post 30 comments an hour; the next is refused with 429 and saved nowhere", async () => {
    for (let i = 0; i < COMMENT_POST_LIMIT.max; i++) {
      expect((await post("form-article", { ...fields, content: `Comment ${i}` }, "192.0.2.77")).status).toBe(201);
    }
    const before = (await t.db.select().from(comments)).length;
    expect(await post("form-article", fields, "192.0.2.77")).toEqual({
      status: 429,
      result: { ok: false, code: "rate_limited", error: "You have posted many comments in a short time. Try again in 60 minutes.", fieldErrors: {} },
    });
    expect((await t.db.select().from(comments)).length).toBe(before);
    expect((await post("form-article", fields, "192.0.2.78")).status).toBe(201);
  });

  it("an unknown article answers 404 and a reply to a reply 400, each with a message for the toast", async () => {
    expect(await post("no-such-article", fields)).toEqual({
      status: 404,
      result: { ok: false, code: "not_found", error: "That article no longer exists.", fieldErrors: {} },
    });
    const top = await createComment(t.db, formArticleId, input({ content: "top" }));
    const reply = await createComment(t.db, formArticleId, input({ content: "reply", parentCommentId: top.id }));
    const answer = await post("form-article", { ...fields, parentCommentId: reply.id });
    expect(answer.status).toBe(400);
    expect(answer.result).toEqual({
      ok: false,
      code: "invalid_input",
      error: "Replies can only be one level deep: reply to the original comment instead.",
      fieldErrors: {},
    });
  });
});
