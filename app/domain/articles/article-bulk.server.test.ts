import { and, count, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { articleRevisions, articles, auditEvents, categories, user } from "~/db/schema";
import type { Actor } from "~/domain/accounts/actor";
import type { Role } from "~/domain/accounts/roles";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { refusal } from "../../../tests/setup/refusal";
import { MAY_NOT_PUBLISH, NOT_YOURS } from "./article-access.server";
import { applyBulkAction, CATEGORY_GONE, CATEGORY_REQUIRED, NOTHING_SELECTED, TOO_MANY_SELECTED } from "./article-bulk.server";
import { allForbidden, BULK_MAX, bulkStatus, bulkSummary } from "./article-list.schema";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});

async function account(name: string, role: Role): Promise<Actor> {
  const id = `user-${name}`;
  await t.db.insert(user).values({ id, name, email: `${name}@example.com`, emailVerified: true }).onConflictDoNothing();
  return { id, name: `${name} (${name}@example.com)`, role };
}

let counter = 0;
async function story(owner: Actor, status: "draft" | "published" | "scheduled", categoryId: string | null = null) {
  counter += 1;
  const [row] = await t.db
    .insert(articles)
    .values({
      title: `${owner.id} ${status} ${counter}`,
      slug: `bulk-${counter}`,
      content: "Body",
      status,
      categoryId,
      createdById: owner.id,
      publishedAt: status === "scheduled" ? new Date(Date.now() + 86_400_000) : status === "published" ? new Date(Date.now() - 60_000) : null,
    })
    .returning();
  return row!;
}

const read = async (id: string) => (await t.db.select().from(articles).where(eq(articles.id, id)))[0];
const revisions = async (id: string) => (await t.db.select({ n: count() }).from(articleRevisions).where(eq(articleRevisions.articleId, id)))[0]!.n;
const audit = async (id: string, kind: string) =>
  (await t.db.select({ n: count() }).from(auditEvents).where(and(eq(auditEvents.objectId, id), eq(auditEvents.kind, kind))))[0]!.n;

async function category(slug: string) {
  const [row] = await t.db.insert(categories).values({ name: slug[0]!.toUpperCase() + slug.slice(1), slug }).onConflictDoNothing().returning();
  return row ?? (await t.db.select().from(categories).where(eq(categories.slug, slug)))[0]!;
}

describe("bulk actions on the article list, by role", () => {
  it("an author may not unpublish anything: every story is refused with the reason and stays public", async () => {
    const ann = await account("ann", "author");
    const bob = await account("bob", "author");
    const own = await story(ann, "published");
    const other = await story(bob, "scheduled");
    const result = await applyBulkAction(t.db, "unpublish", [own.id, other.id], ann);
    expect(result.outcomes).toEqual([
      { id: own.id, title: own.title, ok: false, reason: MAY_NOT_PUBLISH, code: "forbidden" },
      { id: other.id, title: other.title, ok: false, reason: MAY_NOT_PUBLISH, code: "forbidden" },
    ]);
    // Nothing done, all for the role: the route answers 403.
    expect(allForbidden(result)).toBe(true);
    expect(bulkStatus(result)).toBe(403);
    expect(bulkSummary(result)).toBe("0 stories unpublished; 2 refused.");
    expect((await read(own.id))!.status).toBe("published");
    expect((await read(other.id))!.status).toBe("scheduled");
  });

  it("an author moves their own drafts only: others' stories and their own published one are refused; the move records a revision and the audit trail", async () => {
    const ann = await account("ann", "author");
    const bob = await account("bob", "author");
    const news = await category("news");
    const sport = await category("sport");
    const mine = await story(ann, "draft", news.id);
    const minePublished = await story(ann, "published", news.id);
    const bobs = await story(bob, "draft", news.id);
    const result = await applyBulkAction(t.db, "move", [mine.id, bobs.id, minePublished.id], ann, { categoryId: sport.id });
    expect(result.outcomes.map((o) => [o.id, o.ok, o.reason])).toEqual([
      [mine.id, true, undefined],
      [bobs.id, false, NOT_YOURS],
      [minePublished.id, false, NOT_YOURS],
    ]);
    expect(bulkSummary(result)).toBe("1 story moved; 2 refused.");
    expect(allForbidden(result)).toBe(false);
    expect((await read(mine.id))!.categoryId).toBe(sport.id);
    expect((await read(bobs.id))!.categoryId).toBe(news.id);
    expect((await read(minePublished.id))!.categoryId).toBe(news.id);
    expect(await revisions(mine.id)).toBe(1);
    expect(await revisions(bobs.id)).toBe(0);
    expect(await audit(mine.id, "article.update")).toBe(1);
    expect(await audit(bobs.id, "article.update")).toBe(0);
  });

  it("an author deletes their own drafts (checkMayDelete) and nobody else's", async () => {
    const ann = await account("ann", "author");
    const bob = await account("bob", "author");
    const mine = await story(ann, "draft");
    const minePublished = await story(ann, "published");
    const bobs = await story(bob, "draft");
    const result = await applyBulkAction(t.db, "delete", [mine.id, minePublished.id, bobs.id], ann);
    expect(result.outcomes.map((o) => [o.ok, o.reason])).toEqual([
      [true, undefined],
      [false, NOT_YOURS],
      [false, NOT_YOURS],
    ]);
    expect(await read(mine.id)).toBeUndefined();
    expect(await read(minePublished.id)).toBeDefined();
    expect(await read(bobs.id)).toBeDefined();
    expect(await audit(mine.id, "article.delete")).toBe(1);
  });

  it("an editor unpublishes, moves and deletes anyone's stories; a draft or a vanished story is reported, the rest go on", async () => {
    const ed = await account("ed", "editor");
    const bob = await account("bob", "author");
    const world = await category("world");
    const live = await story(bob, "published");
    const planned = await story(bob, "scheduled");
    const draft = await story(bob, "draft");
    const vanished = "00000000-0000-4000-8000-000000000000";

    const unpublished = await applyBulkAction(t.db, "unpublish", [live.id, draft.id, vanished, planned.id], ed);
    expect(unpublished.outcomes.map((o) => [o.title, o.ok, o.reason])).toEqual([
      [live.title, true, undefined],
      [draft.title, false, "This article is already a draft."],
      [vanished, false, "This article no longer exists."],
      [planned.title, true, undefined],
    ]);
    expect(bulkSummary(unpublished)).toBe("2 stories unpublished; 2 refused.");
    expect(bulkStatus(unpublished)).toBe(200);
    // Nothing done for the stories' states (a draft cannot be unpublished) is a 409; for vanished ones a 404.
    expect(bulkStatus(await applyBulkAction(t.db, "unpublish", [draft.id, vanished], ed))).toBe(409);
    expect(bulkStatus(await applyBulkAction(t.db, "unpublish", [vanished], ed))).toBe(404);
    const after = await t.db.select({ status: articles.status }).from(articles).where(inArray(articles.id, [live.id, planned.id]));
    expect(after.map((r) => r.status)).toEqual(["draft", "draft"]);
    expect(await audit(live.id, "article.unpublish")).toBe(1);

    const moved = await applyBulkAction(t.db, "move", [live.id, draft.id], ed, { categoryId: world.id });
    expect(moved.outcomes.every((o) => o.ok)).toBe(true);
    expect((await read(draft.id))!.categoryId).toBe(world.id);

    const deleted = await applyBulkAction(t.db, "delete", [live.id, draft.id, planned.id, live.id], ed);
    // A story named twice is done once.
    expect(deleted.outcomes).toHaveLength(3);
    expect(bulkSummary(deleted)).toBe("3 stories deleted.");
    expect(await t.db.select().from(articles).where(inArray(articles.id, [live.id, draft.id, planned.id]))).toEqual([]);
  });

  it("refuses the whole request, changing nothing, without a selection, with too many, or with no or an unknown category", async () => {
    const ed = await account("ed", "editor");
    const s = await story(ed, "draft");
    expect((await refusal(applyBulkAction(t.db, "delete", [], ed))).message).toBe(NOTHING_SELECTED);
    const tooMany = Array.from({ length: BULK_MAX + 1 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`);
    expect((await refusal(applyBulkAction(t.db, "delete", tooMany, ed))).message).toBe(TOO_MANY_SELECTED);
    expect((await refusal(applyBulkAction(t.db, "move", [s.id], ed, { categoryId: "" }))).message).toBe(CATEGORY_REQUIRED);
    const gone = await refusal(applyBulkAction(t.db, "move", [s.id], ed, { categoryId: "00000000-0000-4000-8000-000000000001" }));
    expect([gone.message, gone.status]).toEqual([CATEGORY_GONE, 400]);
    expect(await read(s.id)).toMatchObject({ categoryId: null });
    expect(await revisions(s.id)).toBe(0);
  });
});
