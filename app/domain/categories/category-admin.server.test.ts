import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { articles } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import {
  CATEGORY_SLUG_TAKEN,
  createCategory,
  deleteCategory,
  listAdminCategories,
  updateCategory,
} from "./category-admin.server";
import { refusal } from "../../../tests/setup/refusal";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});


describe("categories", () => {
  it("are listed by name", async () => {
    await createCategory(t.db, { name: "Zebra", slug: "zebra" });
    await createCategory(t.db, { name: "Alpha", slug: "alpha" });
    const names = (await listAdminCategories(t.db)).map((c) => c.name);
    expect(names.indexOf("Alpha")).toBeLessThan(names.indexOf("Zebra"));
  });

  it("a slug already taken is refused with a clear message, on create and on update", async () => {
    await createCategory(t.db, { name: "World News", slug: "world-news" });
    const other = await createCategory(t.db, { name: "Other", slug: "other" });
    const onCreate = await refusal(createCategory(t.db, { name: "World", slug: "world-news" }));
    expect(onCreate).toMatchObject({ code: "slug_taken", field: "slug", message: CATEGORY_SLUG_TAKEN });
    expect((await refusal(updateCategory(t.db, other.id, { name: "Other", slug: "world-news" }))).code).toBe("slug_taken");
    // Keeping its own slug is fine.
    expect(await updateCategory(t.db, other.id, { name: "Others", slug: "other" })).toMatchObject({ name: "Others" });
  });

  it("racing creates of one slug give one category and slug messages, not database errors", async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) => createCategory(t.db, { name: `Race ${i}`, slug: "race" })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(AppError);
  });

  it("deleting a category keeps its articles, without a category", async () => {
    const category = await createCategory(t.db, { name: "Doomed", slug: "doomed" });
    const [article] = await t.db
      .insert(articles)
      .values({ title: "Survivor", slug: "survivor", content: "Still here", categoryId: category.id })
      .returning();
    await deleteCategory(t.db, category.id);
    const [after] = await t.db.select().from(articles).where(eq(articles.id, article!.id));
    expect(after).toMatchObject({ title: "Survivor", categoryId: null });
    expect((await listAdminCategories(t.db)).some((c) => c.id === category.id)).toBe(false);
  });

  it("an unknown id is not found, for update and delete", async () => {
    expect((await refusal(deleteCategory(t.db, "00000000-0000-4000-8000-000000000000"))).code).toBe("not_found");
    expect((await refusal(deleteCategory(t.db, "nonsense"))).code).toBe("not_found");
    expect((await refusal(updateCategory(t.db, "00000000-0000-4000-8000-000000000000", { name: "X", slug: "x" }))).code).toBe(
      "not_found",
    );
  });
});
