import type { AppLoadContext } from "react-router";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { articleAuthors, articles, authors, user, userRoles } from "~/db/schema";
import type { Role } from "~/domain/accounts/roles";
import { createTestAuth, describeThrown, ORIGIN, signIn, signUp } from "~/domain/accounts/test-auth.server";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { loader as overviewLoader } from "./audience";
import { loader as exportLoader } from "./audience-export";
import { loader as nowLoader } from "./audience-now";
import { loader as storyLoader } from "./audience-story";

// The audience screens' scope rules as the server answers them (issue 42, acceptance 4): an author sees
// their own stories' reports and exports and is refused (403) another's, however the request is made;
// editors and admins see every story and the whole site.

type Who = Role | "author2";
let t: TestDatabase;
let context: AppLoadContext;
const cookies = {} as Record<Who, string>;
const ids = {} as { own: string; others: string };

async function account(auth: ReturnType<typeof createTestAuth>, who: Who): Promise<string> {
  const email = `audience-${who}@example.com`;
  await signUp(auth, email, `${who}-password-1`);
  const [row] = await t.db.select({ id: user.id }).from(user).where(eq(user.email, email));
  await t.db.insert(userRoles).values({ userId: row!.id, role: who === "author2" ? "author" : who });
  cookies[who] = (await signIn(auth, email, `${who}-password-1`)).cookie!;
  return row!.id;
}

const request = (path: string, who: Who) => new Request(`${ORIGIN}${path}`, { headers: { cookie: cookies[who], origin: ORIGIN } });
const args = (req: Request, params: Record<string, string> = {}) => ({ request: req, context, params }) as never;

async function outcome(call: () => unknown): Promise<{ status: number; body?: unknown }> {
  try {
    const answer = await call();
    if (answer instanceof Response) return { status: answer.status, body: await answer.text() };
    const init = (answer as { init?: { status?: number } })?.init;
    return { status: init?.status ?? 200, body: answer };
  } catch (error) {
    return describeThrown(error);
  }
}

beforeAll(async () => {
  t = await createTestDatabase();
  const auth = createTestAuth(t.db);
  context = { ...(auth.context as object), env: { TIME_ZONE: "America/New_York" } } as unknown as AppLoadContext;
  await account(auth, "admin");
  await account(auth, "editor");
  const authorUser = await account(auth, "author");
  const otherUser = await account(auth, "author2");
  const [mine, theirs] = await t.db
    .insert(authors)
    .values([
      { name: "Ada Own", slug: "ada-own", userId: authorUser },
      { name: "Bea Other", slug: "bea-other", userId: otherUser },
    ])
    .returning();
  const publishedAt = new Date(Date.now() - 3600_000);
  const [own, others] = await t.db
    .insert(articles)
    .values([
      { title: "Ada's story", slug: "adas-story", content: "Body", status: "published", publishedAt },
      { title: "=Bea's story, \"quoted\"", slug: "beas-story", content: "Body", status: "published", publishedAt },
    ])
    .returning();
  ids.own = own!.id;
  ids.others = others!.id;
  await t.db.insert(articleAuthors).values([
    { articleId: own!.id, authorId: mine!.id, position: 0 },
    { articleId: others!.id, authorId: theirs!.id, position: 0 },
  ]);
  // Two loads of each story a minute ago (today's partition exists: made here in case the template is old).
  await t.db.execute(sql`select audience_make_partitions(current_date - 1, current_date + 1)`);
  for (const [id, host] of [
    [own!.id, "www.google.com"],
    [others!.id, "t.co"],
  ] as const) {
    await t.db.execute(sql`insert into audience_events (at, path, article_id, visitor, new_visitor, new_story_visitor, source, source_host, device)
      select now() - interval '1 minute', '/article/x', ${id}::uuid, decode(md5(${id} || g::text), 'hex'), true, true, ${host === "t.co" ? "social" : "search"}, ${host}, 'desktop'
      from generate_series(1, 2) g`);
  }
});

describe("a story's report and its export, by role", () => {
  it("an author opens their own story's report and export", async () => {
    const report = await outcome(() => storyLoader(args(request(`/admin/audience/story/${ids.own}`, "author"), { id: ids.own })));
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({ report: { article: { title: "Ada's story" }, totals: { views: 2, visitors: 2 } } });
    const csv = await outcome(() => exportLoader(args(request(`/admin/audience/export?story=${ids.own}&table=sources&period=today`, "author"))));
    expect(csv).toEqual({ status: 200, body: "source,host,views,visitors\r\nsearch,www.google.com,2,2\r\n" });
  });

  it("an author asking for another author's report or export, by a crafted address, is refused with 403", async () => {
    expect(await outcome(() => storyLoader(args(request(`/admin/audience/story/${ids.others}`, "author"), { id: ids.others })))).toEqual({ status: 403 });
    for (const table of ["sources", "series", "campaigns"]) {
      const answer = await outcome(() => exportLoader(args(request(`/admin/audience/export?story=${ids.others}&table=${table}&period=30d`, "author"))));
      expect(answer.status, table).toBe(403);
    }
  });

  it("editors and admins open any story's report and export (200)", async () => {
    for (const role of ["editor", "admin"] as const) {
      const report = await outcome(() => storyLoader(args(request(`/admin/audience/story/${ids.others}`, role), { id: ids.others })));
      expect(report.status, role).toBe(200);
      const csv = await outcome(() => exportLoader(args(request(`/admin/audience/export?story=${ids.others}&table=sources&period=7d`, role))));
      expect(csv, role).toEqual({ status: 200, body: "source,host,views,visitors\r\nsocial,t.co,2,2\r\n" });
    }
  });

  it("an unknown story is 404, and an export of no table is 400", async () => {
    const missing = "00000000-0000-4000-8000-000000000000";
    expect(await outcome(() => storyLoader(args(request(`/admin/audience/story/${missing}`, "editor"), { id: missing })))).toEqual({ status: 404 });
    expect((await outcome(() => exportLoader(args(request(`/admin/audience/export?table=everything`, "editor"))))).status).toBe(400);
  });
});

describe("the overview's scope", () => {
  it("an author's overview, export and Right now hold their own stories only; an editor's the whole site", async () => {
    const asAuthor = await outcome(() => overviewLoader(args(request("/admin/audience?period=today", "author"))));
    expect(asAuthor.body).toMatchObject({ siteWide: false, overview: { totals: { views: 2 } } });
    expect(JSON.stringify(asAuthor.body)).not.toContain("Bea");
    const stories = await outcome(() => exportLoader(args(request("/admin/audience/export?table=stories&period=today", "author"))));
    expect(stories.body).toContain("Ada's story");
    expect(stories.body).not.toContain("Bea");
    const now = await outcome(() => nowLoader(args(request("/admin/audience/now", "author"))));
    expect(JSON.parse(now.body as string)).toMatchObject({ views: 2, stories: [{ title: "Ada's story" }] });

    const asEditor = await outcome(() => overviewLoader(args(request("/admin/audience?period=today", "editor"))));
    expect(asEditor.body).toMatchObject({ siteWide: true, overview: { totals: { views: 4, visitors: 4 } } });
    // The story list's export: quoted where needed, and a title starting with = leaves as text.
    const csv = await outcome(() => exportLoader(args(request("/admin/audience/export?table=stories&period=today", "editor"))));
    expect(csv.body).toContain(`"'=Bea's story, ""quoted""",Bea Other,,2,2,,`);
  });

  it("a chosen range that ends before it starts is refused with 400 and the field's message", async () => {
    const answer = await outcome(() => overviewLoader(args(request("/admin/audience?period=range&from=2026-11-10&to=2026-11-01", "editor"))));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ data: { overview: null, rangeError: { field: "to", message: expect.stringMatching(/\w/) } } });
  });
});
