import { beforeAll, describe, expect, it } from "vitest";
import { articleAuthors, articles, authors, categories } from "~/db/schema";
import { listAdminArticles } from "./article-list.server";
import { createDb } from "~/db/client.server";
import { NAME_AFTER_RUNS } from "~/db/prepared-statements.server";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { highlightParts, MARK_END, MARK_START, normalizeSearchQuery, SEARCH_QUERY_MAX } from "./search.schema";
import { planMatches, searchArticles } from "./search.server";

let t: TestDatabase;
let politics: string;
let sports: string;
const HOUR = 3_600_000;

async function article(values: Partial<typeof articles.$inferInsert> & { title: string; slug: string }) {
  const [row] = await t.db
    .insert(articles)
    .values({ content: "Nothing to see here.", status: "published", publishedAt: new Date(Date.now() - HOUR), ...values })
    .returning({ id: articles.id });
  return row.id;
}

beforeAll(async () => {
  t = await createTestDatabase();
  [{ id: politics }, { id: sports }] = await t.db
    .insert(categories)
    .values([
      { name: "Politics", slug: "politics" },
      { name: "Sports", slug: "sports" },
    ])
    .returning({ id: categories.id });
  await article({ title: "Council approves budget", slug: "budget", categoryId: politics, content: "The council voted on the harbour bridge tonight after a long debate." });
  await article({ title: "Harbour bridge reopens", slug: "bridge-title", categoryId: politics, content: "Traffic flows again." });
  await article({ title: "Cup final", slug: "cup", categoryId: sports, excerpt: "The harbour side won.", content: "A match report." });
  await article({ title: "Secret harbour plan", slug: "draft", status: "draft", publishedAt: null, content: "harbour harbour harbour" });
  await article({ title: "Harbour tomorrow", slug: "scheduled", status: "scheduled", publishedAt: new Date(Date.now() + HOUR), content: "harbour" });
  await article({ title: "Harbour later", slug: "future", status: "published", publishedAt: new Date(Date.now() + HOUR), content: "harbour" });
});

describe("searchArticles", () => {
  it("finds a word of the body, highlighted in the snippet, and never an unpublished article", async () => {
    const { results, total } = await searchArticles(t.db, "harbour");
    expect(results.map((r) => r.slug).sort()).toEqual(["bridge-title", "budget", "cup"]);
    expect(total).toBe(3);
    const budget = results.find((r) => r.slug === "budget")!;
    expect(budget.snippet).toContain(`${MARK_START}harbour${MARK_END}`);
    expect(budget.category).toEqual({ name: "Politics", slug: "politics" });
    expect(budget.authors).toEqual([]);
  });

  it("quotes the middle of a long paragraph with … at both ends, and a short text whole without them (issue 41)", async () => {
    const long =
      "Fishermen, boat crews, shopkeepers along the quay and the families who have lived on the headland for generations " +
      "packed the town hall on Thursday evening to argue, sometimes loudly and sometimes in tears, about whether the old " +
      "signalbox keeper's cottage should be sold to a developer who promised to restore it or kept by the town as a museum " +
      "that nobody yet knows how to pay for, while the mayor, who had hoped to settle the matter before the summer, listened " +
      "from the stage and took notes without saying a word until well after ten o'clock at night.";
    await article({ title: "A long night at the town hall", slug: "town-hall", content: long });
    await article({ title: "Weather", slug: "weather-short", content: "Fog over the signalbox tonight." });
    const { results } = await searchArticles(t.db, "signalbox");
    const snippet = (slug: string) => results.find((r) => r.slug === slug)!.snippet;
    const townHall = snippet("town-hall");
    expect(townHall).toMatch(/^…\S/);
    expect(townHall).not.toMatch(/^…Fishermen/);
    expect(townHall).toMatch(/[a-z]…$/);
    expect(townHall).toContain(`${MARK_START}signalbox${MARK_END} keeper's cottage`);
    expect(long.replace(/\s+/g, " ")).toContain(townHall.slice(1, -1).replaceAll(MARK_START, "").replaceAll(MARK_END, ""));
    expect(snippet("weather-short")).toBe(`Fog over the ${MARK_START}signalbox${MARK_END} tonight.`);
  });

  it("ranks a title match above an excerpt match above a body match", async () => {
    const { results } = await searchArticles(t.db, "harbour");
    expect(results.map((r) => r.slug)).toEqual(["bridge-title", "cup", "budget"]);
    expect(results[0].titleHighlight).toBe(`${MARK_START}Harbour${MARK_END} bridge reopens`);
  });

  it("stems English words and understands quotes and -word", async () => {
    expect((await searchArticles(t.db, "votes")).results.map((r) => r.slug)).toEqual(["budget"]);
    expect((await searchArticles(t.db, '"bridge reopens"')).results.map((r) => r.slug)).toEqual(["bridge-title"]);
    expect((await searchArticles(t.db, '"reopens bridge"')).results).toEqual([]);
    expect((await searchArticles(t.db, "harbour -council")).results.map((r) => r.slug).sort()).toEqual(["bridge-title", "cup"]);
  });

  it("filters by category and pages the results", async () => {
    expect((await searchArticles(t.db, "harbour", { categoryId: sports })).results.map((r) => r.slug)).toEqual(["cup"]);
    const first = await searchArticles(t.db, "harbour", { pageSize: 2 });
    const second = await searchArticles(t.db, "harbour", { pageSize: 2, page: 2 });
    expect(first.results.map((r) => r.slug)).toEqual(["bridge-title", "cup"]);
    expect(second.results.map((r) => r.slug)).toEqual(["budget"]);
    expect(second.total).toBe(3);
  });

  it("ranks only the newest matches, and counts one past them", async () => {
    // Three public articles match; with room for two, the newest two are ranked and the count says "more".
    const { results, total } = await searchArticles(t.db, "harbour", { candidateLimit: 2 });
    expect(total).toBe(3);
    expect(results).toHaveLength(2);
    const second = await searchArticles(t.db, "harbour", { candidateLimit: 2, page: 2, pageSize: 2 });
    expect(second).toEqual({ results: [], total: 3 });
  });

  it("answers the same whichever way the database finds the matches (statistics say common or rare)", async () => {
    const { sql } = await import("drizzle-orm");
    const before = await searchArticles(t.db, "harbour");
    // Fresh statistics: harbour is in most of these articles, so the date index is walked instead.
    await t.db.execute(sql`analyze articles`);
    const after = await searchArticles(t.db, "harbour");
    expect(after).toEqual(before);
    expect((await searchArticles(t.db, "council")).results.map((r) => r.slug)).toEqual(["budget"]);
  });

  it("looks in a recent window first, and in the whole archive when the window holds too few matches", async () => {
    // "tidewater" is in three stories, published 1 hour, 2 hours and 3 days ago.
    for (const [slug, ago] of [["tide-1", HOUR], ["tide-2", 2 * HOUR], ["tide-3", 72 * HOUR]] as const) {
      await article({ title: `Tide ${slug}`, slug, content: "The tidewater rose.", publishedAt: new Date(Date.now() - ago) });
    }
    const since = (hoursAgo: number) => ({ common: false, since: new Date(Date.now() - hoursAgo * HOUR) });
    const whole = await searchArticles(t.db, "tidewater", { candidateLimit: 2 });
    expect(whole.total).toBe(3);
    expect(whole.results.map((r) => r.slug).sort()).toEqual(["tide-1", "tide-2"]);
    // The window holds none, one, or exactly the candidates without the one past them: the whole archive answers.
    expect(await searchArticles(t.db, "tidewater", { candidateLimit: 2, plan: since(0.5) })).toEqual(whole);
    expect(await searchArticles(t.db, "tidewater", { candidateLimit: 2, plan: since(1.5) })).toEqual(whole);
    expect(await searchArticles(t.db, "tidewater", { candidateLimit: 2, plan: since(2.5) })).toEqual(whole);
    // The window holds the candidates and one past them: the archive's newest matches are all in it.
    const windowed = await searchArticles(t.db, "tidewater", { candidateLimit: 1, plan: since(2.5) });
    expect(windowed).toEqual(await searchArticles(t.db, "tidewater", { candidateLimit: 1 }));
    expect(windowed.total).toBe(2);
    expect(windowed.results.map((r) => r.slug)).toEqual(["tide-1"]);
    expect(await searchArticles(t.db, "tidewater", { candidateLimit: 1, page: 2, pageSize: 1, plan: since(2.5) })).toEqual({ results: [], total: 2 });
    // Walking the date index finds the same.
    expect(await searchArticles(t.db, "tidewater", { candidateLimit: 2, plan: { common: true, since: null } })).toEqual(whole);
  });

  it("finds nothing for an empty query, stop words alone or tsquery syntax a reader cannot mean", async () => {
    expect(await searchArticles(t.db, "")).toEqual({ results: [], total: 0 });
    expect(await searchArticles(t.db, "the")).toEqual({ results: [], total: 0 });
    expect((await searchArticles(t.db, "harbour & | ! ( :*")).total).toBe(3);
  });

  it("keeps the index current: an edited article is found by its new words at once", async () => {
    const id = await article({ title: "Quiet day", slug: "quiet", content: "Nothing happened." });
    expect((await searchArticles(t.db, "lighthouse")).total).toBe(0);
    const { eq } = await import("drizzle-orm");
    await t.db.update(articles).set({ content: "The lighthouse keeper retired." }).where(eq(articles.id, id));
    expect((await searchArticles(t.db, "lighthouse")).results.map((r) => r.slug)).toEqual(["quiet"]);
  });
});

describe("planMatches", () => {
  const now = new Date("2026-11-26T00:00:00Z");
  const oldest = new Date("2016-11-26T00:00:00Z");
  const base = { total: 100_000, oldest, now, wanted: 501, inCategory: false };
  it("walks the date index for a word in a tenth of the archive or more", () => {
    expect(planMatches({ ...base, expected: 10_000 })).toEqual({ common: true, since: null });
  });
  it("sizes a recent window for twice the matches wanted, at an even rate of publication", () => {
    // 8,016 expected matches over ten years: 1,002 of them in the newest eighth of the span.
    expect(planMatches({ ...base, expected: 8_016 })).toEqual({ common: false, since: new Date(now.getTime() - (now.getTime() - oldest.getTime()) / 8) });
  });
  it("keeps the whole archive when the window would be most of it, in a category, or with nothing published", () => {
    expect(planMatches({ ...base, expected: 1_500 })).toEqual({ common: false, since: null });
    expect(planMatches({ ...base, expected: 0 })).toEqual({ common: false, since: null });
    expect(planMatches({ ...base, expected: 8_016, inCategory: true })).toEqual({ common: false, since: null });
    expect(planMatches({ ...base, expected: 8_016, oldest: null })).toEqual({ common: false, since: null });
  });
});

describe("the query and its highlights", () => {
  it("normalises what was typed", () => {
    expect(normalizeSearchQuery("  harbour \n\t bridge  ")).toBe("harbour bridge");
    expect(normalizeSearchQuery(`a${MARK_START}b\u0000c`)).toBe("a b c");
    expect(normalizeSearchQuery(null)).toBe("");
    expect(normalizeSearchQuery("x".repeat(500))).toHaveLength(SEARCH_QUERY_MAX);
  });

  it("splits a snippet into plain and marked runs", () => {
    expect(highlightParts(`The ${MARK_START}harbour${MARK_END} at ${MARK_START}dawn${MARK_END}`)).toEqual([
      { text: "The ", marked: false },
      { text: "harbour", marked: true },
      { text: " at ", marked: false },
      { text: "dawn", marked: true },
    ]);
    expect(highlightParts("<b>plain</b>")).toEqual([{ text: "<b>plain</b>", marked: false }]);
  });
});

describe("the admin article list's search and filters", () => {
  it("finds drafts too, and narrows by status, category and author together", async () => {
    const [ada] = await t.db.insert(authors).values({ name: "Ada Writer", slug: "ada-writer" }).returning({ id: authors.id });
    const adaDraft = await article({ title: "Ada's ferry notes", slug: "ada-ferry", status: "draft", publishedAt: null, categoryId: sports, content: "ferry timetable" });
    const adaPublished = await article({ title: "Ferry strike", slug: "ferry-strike", categoryId: politics, content: "ferry crews walked out" });
    await article({ title: "Ferry museum", slug: "ferry-museum", categoryId: politics, content: "old ferry boats" });
    await t.db.insert(articleAuthors).values([
      { articleId: adaDraft, authorId: ada.id, position: 0 },
      { articleId: adaPublished, authorId: ada.id, position: 0 },
    ]);
    const slugs = async (filter: Parameters<typeof listAdminArticles>[3]) => {
      const { rows, total } = await listAdminArticles(t.db, 1, 50, filter);
      expect(total).toBe(rows.length);
      return rows.map((r) => r.slug).sort();
    };
    expect(await slugs({ q: "ferry" })).toEqual(["ada-ferry", "ferry-museum", "ferry-strike"]);
    expect(await slugs({ q: "ferry", status: "draft" })).toEqual(["ada-ferry"]);
    expect(await slugs({ q: "ferry", categoryId: politics })).toEqual(["ferry-museum", "ferry-strike"]);
    expect(await slugs({ authorId: ada.id })).toEqual(["ada-ferry", "ferry-strike"]);
    expect(await slugs({ authorId: ada.id, categoryId: politics, status: "published" })).toEqual(["ferry-strike"]);
    expect(await slugs({ q: "timetable", authorId: ada.id })).toEqual(["ada-ferry"]);
  });

  it("pages a search: the second page holds the rest, totals agree", async () => {
    const first = await listAdminArticles(t.db, 1, 2, { q: "harbour" });
    const second = await listAdminArticles(t.db, 2, 2, { q: "harbour" });
    // Six articles mention harbour, drafts and scheduled ones included (the back office sees them all).
    expect(first.total).toBe(6);
    expect(first.rows).toHaveLength(2);
    expect(second.rows).toHaveLength(2);
    expect(new Set([...first.rows, ...second.rows].map((r) => r.id)).size).toBe(4);
  });
});

describe("search statements", () => {
  it("are planned for the reader's words at every run, however often they run (a generic plan suits no word)", async () => {
    const { db, pool } = createDb(t.url, 1);
    try {
      for (let run = 0; run < NAME_AFTER_RUNS + 6; run++) await searchArticles(db, "tram");
      const { rows } = await pool.query<{ statement: string }>("select statement from pg_prepared_statements");
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.filter((r) => r.statement.includes("websearch_to_tsquery"))).toEqual([]);
    } finally {
      await pool.end();
    }
  });
});
