import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import { categories } from "~/db/schema";
import { articleFormValues, saveArticleFromForm } from "~/domain/articles/article-admin.server";
import type { Actor } from "~/domain/accounts/actor";
import { refuse } from "~/lib/forms";
import { createLocalStorage, type Storage } from "~/lib/storage.server";
import { createTestDatabase, type TestDatabase } from "./test-database";

/** The site time zone the article integration tests read "Publish at" in. */
export const TEST_TIME_ZONE = "America/New_York";

/** What an article integration test works with: its own database and media folder. */
export interface ArticleFixture {
  t: TestDatabase;
  storage: Storage;
  mediaRoot: string;
}

/**
 * A database and a media store for this test file, made before its tests and the folder removed after
 * them. The object is filled in by `beforeAll`: read its fields inside tests and hooks only.
 */
export function setUpArticleFixture(name: string): ArticleFixture {
  const fixture = {} as ArticleFixture;
  beforeAll(async () => {
    fixture.t = await createTestDatabase();
    fixture.mediaRoot = await fs.mkdtemp(path.join(os.tmpdir(), `frontpage-${name}-`));
    fixture.storage = createLocalStorage(fixture.mediaRoot);
  });
  afterAll(async () => {
    await fs.rm(fixture.mediaRoot, { recursive: true, force: true });
  });
  return fixture;
}

/** The article form's values as a browser posts them (a body text unless given), read as the routes read them. */
export function articleForm(values: Record<string, string>) {
  const fd = new FormData();
  for (const [k, v] of Object.entries({ content: "Body text", ...values })) fd.append(k, v);
  return articleFormValues(fd);
}

/** The category of this fixture's stories when a test names none (created on first use). */
export async function fixtureCategoryId(fx: ArticleFixture): Promise<string> {
  const slug = "fixture-desk";
  await fx.t.db.insert(categories).values({ name: "Desk", slug }).onConflictDoNothing();
  const [row] = await fx.t.db.select({ id: categories.id }).from(categories).where(eq(categories.slug, slug));
  return row!.id;
}

/**
 * Saves the form as the article routes do; a refusal is thrown as the AppError the route would answer with.
 * Publishing needs a category and a byline (decision 0033): a test that names neither gets the fixture's
 * category and "Desk Writer" as the author name, as a form filled in by a writer would send them.
 */
export async function saveArticle(fx: ArticleFixture, values: Record<string, string>, options: { id?: string; actor?: Actor } = {}) {
  const filled = { ...values };
  if (!("categoryId" in filled)) filled.categoryId = await fixtureCategoryId(fx);
  if (!("authorName" in filled) && !("authorIds" in filled)) filled.authorName = "Desk Writer";
  return saveArticleFromForm(fx.t.db, fx.storage, articleForm(filled), { ...options, timeZone: TEST_TIME_ZONE });
}

/** What the article routes answer for a submitted form: the saved article, or the refusal and its status. */
export async function submitArticle(fx: ArticleFixture, values: Record<string, string>, options: { id?: string; actor?: Actor } = {}) {
  try {
    return { ok: true as const, article: await saveArticle(fx, values, options) };
  } catch (error) {
    const answer = refuse(error, articleForm(values));
    return { ok: false as const, status: answer.init?.status, failure: answer.data };
  }
}
