import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { AppLoadContext } from "react-router";
import { auditEvents, authors, liveUpdates, user, userRoles } from "~/db/schema";
import { createTestAuth, ORIGIN, signIn, signUp } from "~/domain/accounts/test-auth.server";
import { saveArticleFromForm } from "~/domain/articles/article-admin.server";
import { LIVE_REFUSALS } from "~/domain/live/live-admin.schema";
import { action as liveAction } from "~/routes/admin/article-live";
import { articleForm, fixtureCategoryId, setUpArticleFixture, TEST_TIME_ZONE } from "../../../tests/setup/article-fixture";

// POST /admin/articles/live/:id as a browser (or a crafted request) sends it, over a real session and
// database (issue 31, acceptance 5): an author not on the story's byline is answered 403 whatever they
// ask, and nothing is written; the author on the byline and an editor post.

const fx = setUpArticleFixture("article-live-route");

/** A published live story with this author on its byline. */
async function story(authorId: string) {
  const saved = await saveArticleFromForm(
    fx.t.db,
    fx.storage,
    articleForm({ title: "Live story", slug: "live-story", intent: "publish", categoryId: await fixtureCategoryId(fx), authorIds: authorId, authorName: "" }),
    { timeZone: TEST_TIME_ZONE, startLive: true },
  );
  return saved.id;
}

const doc = (text: string) => JSON.stringify({ type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text }] }] });
const rowsOf = async (articleId: string) => fx.t.db.select().from(liveUpdates).where(eq(liveUpdates.articleId, articleId));
const activityOf = async (articleId: string) =>
  (await fx.t.db.select({ kind: auditEvents.kind }).from(auditEvents).where(eq(auditEvents.objectId, articleId)).orderBy(auditEvents.id)).map((r) => r.kind);

describe("POST /admin/articles/live/:id, crafted", () => {
  let t: ReturnType<typeof createTestAuth>;
  let context: AppLoadContext;
  const cookies: Record<string, string> = {};

  beforeAll(async () => {
    t = createTestAuth(fx.t.db);
    context = { ...(t.context as object), storage: fx.storage } as AppLoadContext;
    for (const [email, role] of [
      ["route-author@example.com", "author"],
      ["route-byline@example.com", "author"],
      ["route-editor@example.com", "editor"],
    ] as const) {
      await signUp(t, email, "live-password-1");
      const [row] = await fx.t.db.select({ id: user.id }).from(user).where(eq(user.email, email));
      await fx.t.db.insert(userRoles).values({ userId: row!.id, role });
      await fx.t.db.insert(authors).values({ name: email, slug: email.split("@")[0]!, userId: row!.id });
      cookies[email] = (await signIn(t, email, "live-password-1")).cookie!;
    }
  });

  async function post(email: string, articleId: string, fields: Record<string, string>): Promise<Record<string, unknown> & { status: number }> {
    const request = new Request(`${ORIGIN}/admin/articles/live/${articleId}`, {
      method: "POST",
      headers: { cookie: cookies[email]!, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields),
    });
    // A refusal is data() with its status; success is the plain answer (200).
    const answer = (await liveAction({ request, context, params: { id: articleId } } as never)) as Record<string, unknown>;
    if ("data" in answer && "init" in answer) return { status: (answer.init as { status?: number } | null)?.status ?? 200, ...(answer.data as object) };
    return { status: 200, ...answer };
  }

  it("answers 403 to an author not on the byline and writes nothing; the byline's author and an editor post", async () => {
    const [byline] = await fx.t.db.select({ id: authors.id }).from(authors).innerJoin(user, eq(user.id, authors.userId)).where(eq(user.email, "route-byline@example.com"));
    const id = await story(byline!.id);
    const crafted = { intent: "post", headline: "Hijacked", contentDoc: doc("Not on the byline."), content: "", authorId: "", keyEvent: "on" };
    const refused = await post("route-author@example.com", id, crafted);
    expect(refused).toMatchObject({ status: 403, ok: false, code: "forbidden", error: LIVE_REFUSALS.notOnByline });
    for (const intent of ["pin", "end", "start", "delete"]) {
      expect((await post("route-author@example.com", id, { intent, updateId: "5b0c7a5e-3f7e-4a53-9d8e-1f0b3d7c2a11" })).status, intent).toBe(403);
    }
    expect(await rowsOf(id)).toEqual([]);
    expect(await activityOf(id)).toEqual(["article.create", "live.start"]);

    const own = await post("route-byline@example.com", id, { ...crafted, headline: "From the scene", keyEvent: "" });
    expect(own).toMatchObject({ status: 200, ok: true, intent: "post" });
    expect(((own as unknown as { panel: { updates: { headline: string }[] } }).panel.updates).map((u) => u.headline)).toEqual(["From the scene"]);
    expect((await post("route-editor@example.com", id, { ...crafted, headline: "From the desk" })).status).toBe(200);
    expect((await post("route-editor@example.com", id, { intent: "end" })).status).toBe(200);
    expect(await post("route-byline@example.com", id, crafted)).toMatchObject({ status: 409, error: LIVE_REFUSALS.ended });
    expect((await rowsOf(id)).map((r) => r.headline).sort()).toEqual(["From the desk", "From the scene"]);
  });
});
