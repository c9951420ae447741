import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditEvents, user } from "~/db/schema";
import type { Actor } from "~/domain/accounts/actor";
import { ensureAdminAccount } from "~/domain/accounts/accounts.server";
import { createTestAuth, signIn } from "~/domain/accounts/test-auth.server";
import { saveArticle, setUpArticleFixture } from "../../../tests/setup/article-fixture";
import { deleteArticle, unpublishArticle } from "~/domain/articles/article-admin.server";
import { createCategory, deleteCategory, updateCategory } from "~/domain/categories/category-admin.server";
import { removeBreakingNews, showBreakingNews } from "~/domain/settings/breaking-news.server";
import { updateSettings } from "~/domain/settings/settings.server";
import { getSettings } from "~/domain/settings/settings.server";
import { listActivity, listActivityPeople, recordActivity } from "./activity.server";

// The audit trail (decision 0017): every change is recorded with who, what and the object, in the
// change's own transaction; entries can never be changed or removed.

const fx = setUpArticleFixture("activity");
const editor: Actor = { id: "user-ed", name: "Ed (ed@example.com)", role: "editor" };

const entries = async () =>
  (await fx.t.db.select().from(auditEvents).orderBy(auditEvents.id)).map((e) => [e.kind, e.actorName, e.objectLabel]);

describe("the audit trail", () => {
  it("records each article step, category change and setting with the actor and the object's name", async () => {
    await fx.t.db.insert(user).values({ id: editor.id!, name: "Ed", email: "ed@example.com", emailVerified: true });
    await fx.t.db.execute(sql`truncate audit_events`);
    const draft = await saveArticle(fx, { title: "Trail story", slug: "trail-story", intent: "draft" }, { actor: editor });
    await saveArticle(fx, { title: "Trail story", slug: "trail-story", intent: "publish" }, { id: draft.id, actor: editor });
    await saveArticle(fx, { title: "Trail story, fixed", slug: "trail-story", intent: "publish" }, { id: draft.id, actor: editor });
    await unpublishArticle(fx.t.db, draft.id, editor);
    await saveArticle(fx, { title: "Trail story, fixed", slug: "trail-story", intent: "publish", publishAt: "2031-05-01T09:00" }, { id: draft.id, actor: editor });
    await deleteArticle(fx.t.db, draft.id, editor);
    const category = await createCategory(fx.t.db, { name: "Trail", slug: "trail" }, editor);
    await updateCategory(fx.t.db, category.id, { name: "Trails", slug: "trails" }, editor);
    await deleteCategory(fx.t.db, category.id, editor);
    const settings = await getSettings(fx.t.db);
    await updateSettings(fx.t.db, { ...settingsInput(settings), siteName: "Trail Times" }, editor);
    await showBreakingNews(fx.t.db, { text: "Storm warning", url: "", expiresAt: "2031-01-01T09:00" }, "UTC", new Date("2030-01-01T00:00:00Z"), editor);
    await removeBreakingNews(fx.t.db, new Date(), editor);
    const who = "Ed (ed@example.com)";
    expect(await entries()).toEqual([
      ["article.create", who, "Trail story"],
      ["article.publish", who, "Trail story"],
      ["article.update", who, "Trail story, fixed"],
      ["article.unpublish", who, "Trail story, fixed"],
      ["article.schedule", who, "Trail story, fixed"],
      ["article.delete", who, "Trail story, fixed"],
      ["category.create", who, "Trail"],
      ["category.update", who, "Trails"],
      ["category.delete", who, "Trails"],
      ["settings.update", who, "Website settings"],
      ["breaking_news.update", who, "Storm warning"],
      ["breaking_news.update", who, "Banner removed"],
    ]);
    const [settingsEntry] = await fx.t.db.select().from(auditEvents).where(eq(auditEvents.kind, "settings.update"));
    expect(settingsEntry!.details).toEqual({ changed: ["siteName"] });
    // The screen's query: newest first, by person and by kind.
    const { rows, total } = await listActivity(fx.t.db, { actorId: editor.id, kind: "article.publish" }, 1, 50);
    expect([total, rows[0]!.objectLabel]).toEqual([1, "Trail story"]);
    expect((await listActivity(fx.t.db, {}, 1, 2)).rows.map((r) => r.objectLabel)).toEqual(["Banner removed", "Storm warning"]);
    expect(await listActivityPeople(fx.t.db)).toEqual([{ id: editor.id, name: who }]);
  });

  it("an entry is written with its change or not at all, and can never be changed or deleted", async () => {
    await fx.t.db.execute(sql`truncate audit_events`);
    await expect(
      fx.t.db.transaction(async (tx) => {
        await recordActivity(tx, editor, { kind: "category.create", objectLabel: "Rolled back" });
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(await entries()).toEqual([]);
    await recordActivity(fx.t.db, editor, { kind: "category.create", objectLabel: "Kept" });
    const refused = "audit_events rows cannot be changed or deleted";
    await expect(fx.t.db.execute(sql`update audit_events set actor_name = 'Someone else'`)).rejects.toHaveProperty("cause.message", refused);
    await expect(fx.t.db.execute(sql`delete from audit_events`)).rejects.toHaveProperty("cause.message", refused);
    expect(await entries()).toEqual([["category.create", editor.name, "Kept"]]);
  });

  it("records sign-ins: the account on success, the e-mail tried and the address on failure", async () => {
    const t = createTestAuth(fx.t.db);
    await ensureAdminAccount(t.auth, fx.t.db, "boss@example.com", "boss-password-1");
    await fx.t.db.execute(sql`truncate audit_events`);
    await signIn(t, "boss@example.com", "boss-password-1", "198.51.100.20");
    await signIn(t, "boss@example.com", "wrong-password-1", "198.51.100.21");
    const rows = await fx.t.db.select().from(auditEvents).orderBy(auditEvents.id);
    expect(rows.map((r) => [r.kind, r.actorName, r.objectLabel, r.ip])).toEqual([
      ["sign_in.success", "boss (boss@example.com)", "boss@example.com", "198.51.100.20"],
      ["sign_in.failure", "boss@example.com", "boss@example.com", "198.51.100.21"],
    ]);
    expect(rows[0]!.actorId).toBeTruthy();
  });
});

function settingsInput(settings: Awaited<ReturnType<typeof getSettings>>) {
  const { id: _id, updatedAt: _u, breakingNewsText: _t, breakingNewsUrl: _bu, breakingNewsExpiresAt: _e, ...rest } = settings as Record<string, unknown>;
  return rest as Parameters<typeof updateSettings>[1];
}
