import { beforeAll, describe, expect, it } from "vitest";
import { articles, comments } from "~/db/schema";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { deleteComment, listCommentsForModeration } from "./comment-moderation.server";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});

describe("comment moderation", () => {
  it("lists every comment newest first with its article, and deleting one removes its replies", async () => {
    const [article] = await t.db.insert(articles).values({ title: "Commented", slug: "commented", content: "x" }).returning();
    const base = Date.now() - 60_000;
    const [older] = await t.db
      .insert(comments)
      .values({ articleId: article!.id, authorName: "Ann", authorEmail: "ann@example.com", content: "First", createdAt: new Date(base) })
      .returning();
    await t.db.insert(comments).values({
      articleId: article!.id,
      parentCommentId: older!.id,
      authorName: "Bob",
      authorEmail: "bob@example.com",
      content: "Reply",
      imageUrl: "/media/images/a.png",
      createdAt: new Date(base + 1000),
    });

    const { rows, total } = await listCommentsForModeration(t.db, 1, 50);
    expect(total).toBe(2);
    expect(rows.map((r) => r.content)).toEqual(["Reply", "First"]);
    expect(rows[0]).toMatchObject({
      authorEmail: "bob@example.com",
      isReply: true,
      imageUrl: "/media/images/a.png",
      article: { title: "Commented", slug: "commented" },
    });

    await deleteComment(t.db, older!.id);
    expect((await listCommentsForModeration(t.db, 1, 50)).total).toBe(0);
    await expect(deleteComment(t.db, older!.id)).rejects.toMatchObject({ code: "not_found", status: 404 });
    await expect(deleteComment(t.db, "not-a-uuid")).rejects.toMatchObject({ code: "not_found", status: 404 });
  });

  it("pages hold at most the page size", async () => {
    const [article] = await t.db.insert(articles).values({ title: "Busy", slug: "busy", content: "x" }).returning();
    await t.db.insert(comments).values(
      Array.from({ length: 7 }, (_, i) => ({ articleId: article!.id, authorName: `R${i}`, authorEmail: "r@example.com", content: `c${i}` })),
    );
    const first = await listCommentsForModeration(t.db, 1, 5);
    const second = await listCommentsForModeration(t.db, 2, 5);
    expect(first.rows).toHaveLength(5);
    expect(second.rows).toHaveLength(2);
    expect(first.total).toBe(7);
  });
});
