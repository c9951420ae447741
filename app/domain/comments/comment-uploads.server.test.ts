import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { articles, comments, media } from "~/db/schema";
import { createLocalStorage, type Storage } from "~/lib/storage.server";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { pruneAbandonedCommentUploads } from "./comment-uploads.server";

let t: TestDatabase;
let storage: Storage;
let root: string;

async function storeFile(name: string, source: string, ageHours: number) {
  await fs.mkdir(path.join(root, "images"), { recursive: true });
  await fs.writeFile(path.join(root, "images", name), "x");
  await t.db.insert(media).values({
    bucket: "images",
    name,
    originalName: name,
    contentType: "image/png",
    size: 1,
    source,
    createdAt: sql`now() - make_interval(hours => ${ageHours})` as unknown as Date,
  });
}

const exists = (name: string) => fs.access(path.join(root, "images", name)).then(() => true, () => false);

beforeAll(async () => {
  t = await createTestDatabase();
  root = await fs.mkdtemp(path.join(os.tmpdir(), "frontpage-prune-"));
  storage = createLocalStorage(root);
});
afterAll(async () => {
  await t?.pool.end().catch(() => {});
  await fs.rm(root, { recursive: true, force: true });
});

describe("pruning abandoned comment uploads", () => {
  it("removes old comment uploads nothing uses, and keeps used, recent and library files", async () => {
    const [a] = await t.db.insert(articles).values({ title: "A", slug: "a", content: "x", featuredImage: "/media/images/4-used-by-article.png" }).returning();
    await storeFile("1-abandoned.png", "comment", 48);
    await storeFile("2-attached.png", "comment", 48);
    await storeFile("3-recent.png", "comment", 1);
    await storeFile("4-used-by-article.png", "comment", 48);
    await storeFile("5-library.png", "library", 48);
    await t.db.insert(comments).values({ articleId: a!.id, authorName: "N", authorEmail: "n@example.org", content: "c", imageUrl: "/media/images/2-attached.png" });

    expect(await pruneAbandonedCommentUploads(t.db, storage)).toBe(1);

    const names = (await t.db.select({ name: media.name }).from(media)).map((r) => r.name).sort();
    expect(names).toEqual(["2-attached.png", "3-recent.png", "4-used-by-article.png", "5-library.png"]);
    expect(await exists("1-abandoned.png")).toBe(false);
    expect(await exists("2-attached.png")).toBe(true);
    expect(await exists("3-recent.png")).toBe(true);
  });

  it("frees an attachment once its comment is deleted", async () => {
    await t.db.delete(comments).where(eq(comments.imageUrl, "/media/images/2-attached.png"));
    expect(await pruneAbandonedCommentUploads(t.db, storage)).toBe(1);
    expect(await exists("2-attached.png")).toBe(false);
  });
});
