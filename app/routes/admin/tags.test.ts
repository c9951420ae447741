import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { tags, user, userRoles } from "~/db/schema";
import { createTestAuth, ORIGIN, signIn, signUp } from "~/domain/accounts/test-auth.server";
import { createTag } from "~/domain/tags/tags.server";
import { TAG_NAME_NO_LETTERS } from "~/domain/tags/tags.schema";
import { action, loader } from "~/routes/admin/tags";
import { createTestDatabase } from "../../../tests/setup/test-database";

// /admin/tags as an editor's browser uses it: the route's loader and action over a real database and
// a real session. Bad input answers 400 with the message beside the field of the row it concerns.

const { db } = await createTestDatabase();
const t = createTestAuth(db);
await signUp(t, "editor@example.com", "editor-password-1");
const [editor] = await db.select({ id: user.id }).from(user).where(eq(user.email, "editor@example.com"));
await db.insert(userRoles).values({ userId: editor!.id, role: "editor" });
const { cookie } = await signIn(t, "editor@example.com", "editor-password-1");

async function post(fields: Record<string, string>) {
  const request = new Request(`${ORIGIN}/admin/tags`, {
    method: "POST",
    headers: { cookie: cookie!, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
  const answer = (await action({ request, context: t.context, params: {} } as never)) as { data: Record<string, unknown>; init: { status?: number } | null };
  return { status: answer.init?.status ?? 200, ...answer.data };
}

describe("/admin/tags", () => {
  it("lists tags with their counts, renames, merges and deletes them", async () => {
    const a = await createTag(db, "Old Town");
    const b = await createTag(db, "Harbour");
    const listed = await loader({ request: new Request(`${ORIGIN}/admin/tags`, { headers: { cookie: cookie! } }), context: t.context, params: {} } as never);
    expect(listed.tags.map((tag) => [tag.name, tag.articleCount])).toEqual([
      ["Harbour", 0],
      ["Old Town", 0],
    ]);
    expect(await post({ intent: "rename", id: a.id, name: "Old Quarter" })).toMatchObject({ status: 200, ok: true });
    expect((await db.select().from(tags).where(eq(tags.id, a.id)))[0]).toMatchObject({ name: "Old Quarter", slug: "old-quarter" });
    expect(await post({ intent: "merge", id: a.id, into: b.id })).toMatchObject({ status: 200, ok: true });
    expect(await db.select().from(tags).where(eq(tags.id, a.id))).toEqual([]);
    expect(await post({ intent: "delete", id: b.id })).toMatchObject({ status: 200, ok: true });
  });

  it("refuses bad input with a 400 and the message beside the row's field", async () => {
    const tag = await createTag(db, "Keep");
    const other = await createTag(db, "Other");
    expect(await post({ intent: "rename", id: tag.id, name: "!!!" })).toMatchObject({
      status: 400,
      ok: false,
      id: tag.id,
      intent: "rename",
      fieldErrors: { name: TAG_NAME_NO_LETTERS },
    });
    expect(await post({ intent: "rename", id: tag.id, name: "OTHER" })).toMatchObject({ status: 400, ok: false, fieldErrors: { name: expect.stringContaining("merge") } });
    expect(await post({ intent: "merge", id: tag.id, into: "" })).toMatchObject({ status: 400, ok: false, fieldErrors: { into: expect.any(String) } });
    expect(await post({ intent: "merge", id: tag.id, into: tag.id })).toMatchObject({ status: 400, ok: false });
    expect(await post({ intent: "frobnicate", id: tag.id })).toMatchObject({ status: 400, ok: false });
    expect((await db.select().from(tags).where(eq(tags.id, tag.id)))[0]).toMatchObject({ name: "Keep" });
    expect(other.name).toBe("Other");
  });
});
