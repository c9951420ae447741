import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { articleNewsletters, articles, newsletters, user } from "~/db/schema";
import type { Actor } from "~/domain/accounts/actor";
import { articleForm, saveArticle, setUpArticleFixture, submitArticle, TEST_TIME_ZONE } from "../../../tests/setup/article-fixture";
import { refusal } from "../../../tests/setup/refusal";
import { saveArticleFromForm } from "~/domain/articles/article-admin.server";
import { storyNewsletterChoices } from "./newsletter-admin.server";
import { sendTestEmailOfForm, TEST_EMAIL_ADDRESS_INVALID, TEST_EMAIL_FORBIDDEN } from "./newsletter-test-email.server";

// The article form's "Send by e-mail" and "Send test e-mail" (issue 30): editors and admins only.

const fx = setUpArticleFixture("send-by-email");
const editor: Actor = { id: null, name: "Ed Itor", role: "editor" };
const author: Actor = { id: null, name: "Au Thor", role: "author" };

const storiesId = async () => (await fx.t.db.select({ id: newsletters.id }).from(newsletters).where(eq(newsletters.slug, "stories")))[0]!.id;
const chosenFor = async (slug: string) => {
  const [row] = await fx.t.db.select({ id: articles.id }).from(articles).where(eq(articles.slug, slug));
  return row ? (await fx.t.db.select().from(articleNewsletters).where(eq(articleNewsletters.articleId, row.id))).map((r) => r.newsletterId) : null;
};
const save = (values: Record<string, string>, options: { id?: string; actor: Actor; newsletterIds?: string[] }) =>
  saveArticleFromForm(fx.t.db, fx.storage, articleForm({ authorName: "Desk", ...values }), { timeZone: TEST_TIME_ZONE, ...options });

describe("Send by e-mail on the article form", () => {
  it("an editor's choice is saved with the story, in its save", async () => {
    const saved = await save({ title: "Mailed", slug: "mailed", intent: "draft" }, { actor: editor, newsletterIds: [await storiesId()] });
    expect(await chosenFor(saved.slug)).toEqual([await storiesId()]);
    // A save without the field (an autosave, a role without it) leaves the choice as it is.
    await save({ title: "Mailed again", slug: "mailed", intent: "draft" }, { id: saved.id, actor: editor });
    expect(await chosenFor("mailed")).toEqual([await storiesId()]);
    await save({ title: "Mailed again", slug: "mailed", intent: "draft" }, { id: saved.id, actor: editor, newsletterIds: [] });
    expect(await chosenFor("mailed")).toEqual([]);
  });

  it("a digest is no story's choice: refused with a field message, nothing saved; the form does not offer it", async () => {
    const [digest] = await fx.t.db
      .insert(newsletters)
      .values({ name: "Sunday Digest", slug: "sunday-digest", kind: "digest", digestFrequency: "weekly", digestWeekday: 0, digestTime: "08:00" })
      .returning({ id: newsletters.id });
    const refused = await refusal(save({ title: "Digested", slug: "digested", intent: "draft" }, { actor: editor, newsletterIds: [digest!.id] }));
    expect(refused.status).toBe(400);
    expect(refused.message).toMatch(/is a digest/);
    expect(await chosenFor("digested")).toBeNull();
    const offered = await storyNewsletterChoices(fx.t.db, null);
    expect(offered.map((n) => n.id)).toContain(await storiesId());
    expect(offered.map((n) => n.id)).not.toContain(digest!.id);
  });

  it("an author's post that carries a choice is refused (403) and nothing is saved, new story or own draft", async () => {
    await fx.t.db.insert(user).values({ id: "user-author", name: "Au Thor", email: "author@example.com", emailVerified: true }).onConflictDoNothing();
    const author: Actor = { id: "user-author", name: "Au Thor", role: "author" };
    const refused = await refusal(save({ title: "By an author", slug: "by-an-author", intent: "draft" }, { actor: author, newsletterIds: [await storiesId()] }));
    expect(refused.status).toBe(403);
    expect(await chosenFor("by-an-author")).toBeNull();
    const own = await saveArticle(fx, { title: "Own draft", slug: "own-draft", intent: "draft" }, { actor: author });
    const again = await refusal(save({ title: "Own draft, renamed", slug: "own-draft", intent: "draft" }, { id: own.id, actor: author, newsletterIds: [] }));
    expect(again.status).toBe(403);
    const [stored] = await fx.t.db.select({ title: articles.title }).from(articles).where(eq(articles.id, own.id));
    expect(stored!.title).toBe("Own draft");
    // Without the field, the author's save goes through as before.
    expect((await submitArticle(fx, { title: "Own draft, renamed", slug: "own-draft", intent: "draft" }, { id: own.id, actor: author })).ok).toBe(true);
  });
});

describe("Send test e-mail", () => {
  const formOf = (values: Record<string, string>) => {
    const fd = new FormData();
    for (const [k, v] of Object.entries({ title: "Unsaved title", slug: "unsaved", content: "Body text", authorName: "Desk", intent: "test-email", ...values })) fd.append(k, v);
    return fd;
  };
  it("is refused (403) for an author, and a bad address is a field error", async () => {
    const forbidden = await refusal(sendTestEmailOfForm(fx.t.db, author, formOf({ testEmailTo: "me@example.com" }), { publicUrl: "http://localhost", timeZone: TEST_TIME_ZONE }));
    expect([forbidden.status, forbidden.message]).toEqual([403, TEST_EMAIL_FORBIDDEN]);
    const bad = await refusal(sendTestEmailOfForm(fx.t.db, editor, formOf({ testEmailTo: "nobody" }), { publicUrl: "http://localhost", timeZone: TEST_TIME_ZONE }));
    expect([bad.status, bad.field, bad.message]).toEqual([400, "testEmailTo", TEST_EMAIL_ADDRESS_INVALID]);
  });
});
