import { expect, test, type Browser } from "./fixtures";
import { signInAsAdmin, toastWith } from "./admin-session";
import { query } from "./db";
import { asReader, primeCache } from "./readers";

// Targeted invalidation (decision 0028): an edit of a published story drops the pages that show it
// and the lists it is on, at once; another story's cached page stays cached.

const created: string[] = [];
test.afterAll(async () => {
  await query(`delete from articles where id = any($1::uuid[])`, [created]);
});

/** One anonymous read of `path`: its X-Cache and body. */
function read(browser: Browser, path: string): Promise<{ cache: string | undefined; text: string }> {
  return asReader(browser, async (reader) => {
    const answer = await reader.request.get(path);
    expect(answer.status()).toBe(200);
    return { cache: answer.headers()["x-cache"], text: await answer.text() };
  });
}

test("editing a published story drops its page, home and its category's pages at once; another story's page stays cached", async ({ page, browser }) => {
  test.slow();
  const run = Date.now().toString(36);
  const [first] = await query<{ id: string; slug: string }>(`select id, slug from categories order by name limit 1`);
  const [edited] = await query<{ id: string }>(
    `insert into articles (title, slug, content, category_id) values ($1, $2, 'Quokkas by the harbour.', $3) returning id`,
    [`Quokka harbour ${run}`, `quokka-harbour-${run}`, first!.id],
  );
  created.push(edited!.id);

  const home = await primeCache(browser, "/");
  expect(home["cache-tag"]!.split(",")).toEqual(expect.arrayContaining(["site", "home", `story:${edited!.id}`]));
  // Another category's story whose page does not show this one (its related stories may: the newest).
  const others = await query<{ id: string; slug: string }>(
    `select id, slug from articles where status = 'published' and category_id <> $1 order by published_at limit 6`,
    [first!.id],
  );
  let otherSlug: string | null = null;
  for (const candidate of others) {
    const tags = (await primeCache(browser, `/article/${candidate.slug}`))["cache-tag"]!.split(",");
    expect(tags).toContain(`story:${candidate.id}`);
    if (!tags.includes(`story:${edited!.id}`)) {
      otherSlug = candidate.slug;
      break;
    }
  }
  expect(otherSlug, "a story page that does not show the new story").not.toBeNull();
  await primeCache(browser, `/article/quokka-harbour-${run}`);
  const category = await primeCache(browser, `/category/${first!.slug}`);
  expect(category["cache-tag"]!.split(",")).toEqual(expect.arrayContaining([`category:${first!.slug}`, `story:${edited!.id}`]));

  await signInAsAdmin(page);
  await page.goto(`/admin/articles/edit/${edited!.id}`, { waitUntil: "networkidle" });
  await page.getByLabel("Title *").fill(`Quokka harbour reopened ${run}`);
  await page.getByRole("button", { name: "Update Article" }).click();
  await expect(toastWith(page, "Article updated successfully")).toBeVisible();

  // At once, with no retry: the write answered after this process heard what it changed.
  for (const path of [`/article/quokka-harbour-${run}`, "/", `/category/${first!.slug}`]) {
    const after = await read(browser, path);
    expect(after.cache, path).toBe("MISS");
    expect(after.text, path).toContain(`Quokka harbour reopened ${run}`);
  }
  expect((await read(browser, `/article/${otherSlug}`)).cache).toBe("HIT");
});
