import { eq } from "drizzle-orm";
import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { articles, auditEvents, memberTiers } from "~/db/schema";
import { ArticleView, type ArticleViewData } from "~/components/article-view";
import { searchArticles } from "~/domain/articles/search.server";
import { readEveryTime } from "~/domain/articles/story-memo.server";
import { storyDocumentSchema } from "~/domain/articles/story-document.schema";
import type { Variant } from "~/domain/members/access";
import { createSiteFrame } from "~/domain/settings/site-frame.server";
import { updateSettings } from "~/domain/settings/settings.server";
import { settingsFormSchema } from "~/domain/settings/settings.schema";
import { newsArticleJsonLd } from "~/lib/structured-data";
import { loader as categoryRss } from "~/routes/resources/category-rss";
import { loader as siteRss } from "~/routes/resources/rss";
import { loader as articlePage } from "~/routes/site/article";
import { fixtureCategoryId, saveArticle, setUpArticleFixture, submitArticle } from "../../../tests/setup/article-fixture";

// Issue 40, the story side of the paywall, through the route loaders over a real database: a gated
// story's paid part is in no answer a reader without access gets (the page's data and HTML, JSON-LD,
// feeds, search), and the whole story reaches those with access.

const ORIGIN = "https://news.example";
const fx = setUpArticleFixture("paywall-routes");
const silentLog = { warn: () => {}, info: () => {}, error: () => {}, debug: () => {} };

const FREE_1 = "The harbour council met on Tuesday night in the old boathouse.";
const FREE_2 = "Members argued for three hours about the ferry timetable.";
const GATED_1 = "The treasurer admitted the ledger had been forged with marmalade receipts.";
const GATED_2 = "Nobody has yet explained where the zeppelin fund went.";
const GATED_WORDS = ["treasurer", "marmalade", "zeppelin"];

const p = (text: string) => ({ type: "paragraph", content: [{ type: "text", text }] });
const storyDoc = (...blocks: unknown[]) => JSON.stringify({ type: "doc", content: blocks });
const paywalledDoc = storyDoc(p(FREE_1), p(FREE_2), { type: "paywall" }, p(GATED_1), p(GATED_2));

type Loader = (args: never) => unknown;
/** GET `path` through `loader`, as the page cache's door would render it for `variant` (none: a render of its own). */
async function get(loader: Loader, path: string, params: Record<string, string> = {}, variant?: Variant) {
  const gate = { note: null as unknown };
  const context = {
    db: fx.t.db,
    env: { publicUrl: ORIGIN },
    log: silentLog,
    siteFrame: createSiteFrame(fx.t.db, { on: () => {} }),
    storyMemo: readEveryTime,
    commentSpam: { formTimer: { issue: () => "stamp" } },
    // No staff session: getSessionUser finds no cookie and asks nothing.
    auth: { api: { getSession: async () => null } },
    variant,
    gate,
  };
  const result = await loader({ params, context, request: new Request(`${ORIGIN}${path}`) } as never);
  if (result instanceof Response) return { status: result.status, body: await result.text(), data: null, gate };
  const answer = result as { data?: unknown; type?: string };
  return { status: 200, body: "", data: (answer.type === "DataWithResponseInit" ? answer.data : result) as Record<string, unknown>, gate };
}

/** The article page's data as the view renders it, to HTML (React escapes, as on the site). */
async function renderArticle(article: ArticleViewData): Promise<string> {
  const routes = [{ id: "root", path: "/", loader: () => ({ timeZone: "UTC" }), Component: () => <ArticleView article={article} views={0} shareUrl={ORIGIN} /> }];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`${ORIGIN}/`));
  if (context instanceof Response) throw new Error("unexpected response");
  return renderToString(<StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} />);
}

const expectNoGatedText = (text: string) => {
  for (const sentence of [GATED_1, GATED_2]) expect(text).not.toContain(sentence);
  for (const word of GATED_WORDS) expect(text.toLowerCase()).not.toContain(word);
};

/** The settings form's other fields, as a save sends them. */
const BASE_SETTINGS = { siteName: "S", siteTagline: "", siteDescription: "", footerText: "", logoUrl: "", faviconUrl: "", contactEmail: "", contactPhone: "", facebookUrl: "", twitterUrl: "", instagramUrl: "", linkedinUrl: "", youtubeUrl: "" };

let tierId = "";

beforeAll(async () => {
  const [tier] = await fx.t.db
    .insert(memberTiers)
    .values({ name: "Supporter", slug: "supporter", monthlyPrice: 500, yearlyPrice: 5000, currency: "usd" })
    .returning({ id: memberTiers.id });
  tierId = tier!.id;
  await saveArticle(fx, { title: "Council ledger scandal", slug: "ledger", intent: "publish", content: "x", contentDoc: paywalledDoc, access: "paid", accessTierId: tierId });
  // A members story without a Paywall here block: cut after the setting's paragraphs (3 by default).
  await saveArticle(fx, {
    title: "Harbour members briefing",
    slug: "briefing",
    intent: "publish",
    content: "x",
    contentDoc: storyDoc(p("Briefing one."), p("Briefing two."), p("Briefing three."), p("Briefing four about a walrus.")),
    access: "members",
  });
  await saveArticle(fx, { title: "Open ferry news", slug: "open", intent: "publish", content: "x", contentDoc: storyDoc(p("Open story about a marmalade fair.")) });
});

describe("the article page of a paid story", () => {
  it("gives an anonymous reader the free part and the call to action, and notes the story's access for the cache", async () => {
    const answer = await get(articlePage, "/article/ledger", { slug: "ledger" });
    const data = answer.data as { article: ArticleViewData & { paywall: { variant: string; callToAction: { action: string } } } };
    const serialized = JSON.stringify(data);
    expect(serialized).toContain(FREE_1);
    expect(serialized).toContain(FREE_2);
    expectNoGatedText(serialized);
    expect(data.article.paywall.variant).toBe("anonymous");
    expect(data.article.paywall.callToAction.action).toBe("subscribe");
    expect(answer.gate.note).toEqual({ access: { level: "paid", tierId }, articleId: data.article.id });

    const html = await renderArticle(data.article);
    expect(html).toContain(FREE_2);
    expectNoGatedText(html);
    expect(html).toContain('class="paywalled-content');
    expect(html).toContain(">Subscribe</a>");
    expect(html).toContain(`href="/account/sign-in?next=${encodeURIComponent("/article/ledger")}"`);
  });

  it("gives the free member's and the other tier's copies their own call to action, with the meter's note when it is on", async () => {
    await updateSettings(fx.t.db, settingsFormSchema.parse({ ...BASE_SETTINGS, meterMembers: "3" }));
    const free = (await get(articlePage, "/article/ledger", { slug: "ledger" }, "free")).data as { article: ArticleViewData };
    expectNoGatedText(JSON.stringify(free));
    expect(free.article.paywall).toMatchObject({ variant: "free", callToAction: { action: "subscribe" }, meterNote: "0 of 3 free stories left" });
    const html = await renderArticle(free.article);
    expect(html).toContain("0 of 3 free stories left");
    expect(html).not.toContain("Sign in</a>");

    const upgrade = (await get(articlePage, "/article/ledger", { slug: "ledger" }, "upgrade")).data as { article: ArticleViewData };
    expectNoGatedText(JSON.stringify(upgrade));
    expect(upgrade.article.paywall).toMatchObject({ variant: "upgrade", callToAction: { action: "upgrade" }, meterNote: null });
    expect(await renderArticle(upgrade.article)).toContain(">Upgrade</a>");
    await updateSettings(fx.t.db, settingsFormSchema.parse({ ...BASE_SETTINGS, meterMembers: "0" }));
  });

  it("gives the full copy the whole story, its paid part in the element the JSON-LD names", async () => {
    const data = (await get(articlePage, "/article/ledger", { slug: "ledger" }, "full")).data as { article: ArticleViewData };
    const html = await renderArticle(data.article);
    expect(html).toContain(GATED_1);
    expect(html).toMatch(new RegExp(`<div class="paywalled-content"><p>${GATED_1}</p><p>${GATED_2}</p></div>`));
    expect(html).not.toContain('data-testid="paywall"');
  });

  it("marks the story's JSON-LD as not free, with the free part as its body and hasPart naming the paid part", async () => {
    for (const variant of ["anonymous", "full"] as const) {
      const data = (await get(articlePage, "/article/ledger", { slug: "ledger" }, variant)).data as {
        article: ArticleViewData & { paywall: { access: "paid"; articleBody: string } };
      };
      const a = data.article;
      const jsonLd = newsArticleJsonLd(
        { name: "Test", origin: ORIGIN },
        { ...a, description: a.excerpt ?? "", image: null, paywall: { access: a.paywall.access, articleBody: a.paywall.articleBody } },
      );
      expect(jsonLd.isAccessibleForFree).toBe(false);
      expect(jsonLd.hasPart).toEqual({ "@type": "WebPageElement", isAccessibleForFree: false, cssSelector: ".paywalled-content" });
      expect(jsonLd.articleBody).toBe(`${FREE_1}\n\n${FREE_2}`);
      expectNoGatedText(JSON.stringify(jsonLd));
    }
    const open = (await get(articlePage, "/article/open", { slug: "open" })).data as { article: ArticleViewData };
    expect(open.article.paywall).toBeNull();
    expect(newsArticleJsonLd({ name: "Test", origin: ORIGIN }, { ...open.article, description: "", image: null }).isAccessibleForFree).toBe(true);
  });

  it("cuts a story without a Paywall here block after the setting's paragraphs, and notes nothing for a public story", async () => {
    const data = (await get(articlePage, "/article/briefing", { slug: "briefing" })).data as { article: ArticleViewData };
    expect(JSON.stringify(data)).toContain("Briefing three.");
    expect(JSON.stringify(data)).not.toContain("walrus");
    expect(data.article.paywall?.callToAction?.action).toBe("sign-in");
    const open = await get(articlePage, "/article/open", { slug: "open" });
    expect(open.gate.note).toBeNull();
    expect(JSON.stringify(open.data)).toContain("marmalade fair");
  });
});

describe("feeds and search of a paid story", () => {
  it("carry only its free part and a link to subscribe, in the site's feed and its category's", async () => {
    const category = await fixtureCategoryId(fx);
    const [{ slug }] = (await fx.t.db.query.categories.findMany({ where: (c, { eq: is }) => is(c.id, category) })) as { slug: string }[];
    for (const feed of [await get(siteRss, "/rss.xml"), await get(categoryRss, `/category/${slug}/rss.xml`, { slug })]) {
      expect(feed.status).toBe(200);
      expect(feed.body).toContain(FREE_2);
      expectNoGatedText(feed.body.replace("marmalade fair", ""));
      expect(feed.body).toContain(`<a href="${ORIGIN}/article/ledger">Subscribe to read the whole story</a>`);
      expect(feed.body).not.toContain("walrus");
    }
  });

  it("finds nothing by a word of its paid part, and quotes its free part", async () => {
    expect((await searchArticles(fx.t.db, "zeppelin")).results).toEqual([]);
    expect((await searchArticles(fx.t.db, "treasurer")).results).toEqual([]);
    // "marmalade" is in the public story and in the paid part of the other: only the public one matches.
    expect((await searchArticles(fx.t.db, "marmalade")).results.map((r) => r.slug)).toEqual(["open"]);
    const [found] = (await searchArticles(fx.t.db, "timetable")).results;
    expect(found?.slug).toBe("ledger");
    expectNoGatedText(found!.snippet);
  });
});

describe("saving a story's access", () => {
  it("refuses an unknown or archived tier beside its field, and saves nothing", async () => {
    const unknown = await submitArticle(fx, { title: "T", slug: "bad-tier", intent: "draft", access: "paid", accessTierId: "00000000-0000-4000-8000-000000000000" });
    expect(unknown.ok).toBe(false);
    expect(unknown.ok ? null : unknown.failure.fieldErrors).toHaveProperty("accessTierId");
    const [archived] = await fx.t.db
      .insert(memberTiers)
      .values({ name: "Old", slug: "old", monthlyPrice: 100, yearlyPrice: 1000, currency: "usd", archivedAt: new Date() })
      .returning({ id: memberTiers.id });
    const refused = await submitArticle(fx, { title: "T", slug: "bad-tier", intent: "draft", access: "paid", accessTierId: archived!.id });
    expect(refused.ok).toBe(false);
    const bogus = await submitArticle(fx, { title: "T", slug: "bad-tier", intent: "draft", access: "secret" });
    expect(bogus.ok ? null : bogus.failure.fieldErrors).toHaveProperty("access");
    expect(await fx.t.db.select().from(articles).where(eq(articles.slug, "bad-tier"))).toEqual([]);
  });

  it("stores the free part's text for search, keeps access when a save does not say, and logs the change", async () => {
    const saved = await saveArticle(fx, { title: "Access story", slug: "access-story", intent: "draft", content: "x", contentDoc: paywalledDoc });
    const read = async () => (await fx.t.db.select({ access: articles.access, freeContent: articles.freeContent, tier: articles.accessTierId }).from(articles).where(eq(articles.id, saved.id)))[0]!;
    expect(await read()).toEqual({ access: "public", freeContent: null, tier: null });
    await saveArticle(fx, { title: "Access story", slug: "access-story", intent: "draft", content: "x", contentDoc: paywalledDoc, access: "members" }, { id: saved.id });
    expect(await read()).toEqual({ access: "members", freeContent: `${FREE_1}\n\n${FREE_2}`, tier: null });
    // A caller that does not send Access (blank) keeps it, and the free part follows the new text.
    await saveArticle(fx, { title: "Access story", slug: "access-story", intent: "draft", content: "x", contentDoc: storyDoc(p("Only one."), { type: "paywall" }, p("Hidden.")) }, { id: saved.id });
    expect(await read()).toEqual({ access: "members", freeContent: "Only one.", tier: null });
    const entries = await fx.t.db.select({ details: auditEvents.details }).from(auditEvents).where(eq(auditEvents.objectId, saved.id));
    expect(entries.map((e) => e.details)).toContainEqual(expect.objectContaining({ access: "members", accessBefore: "public" }));
  });

  it("accepts Paywall here between blocks only, never inside a list or a quote", () => {
    expect(storyDocumentSchema.safeParse(JSON.parse(paywalledDoc)).success).toBe(true);
    const nested = storyDocumentSchema.safeParse({ type: "doc", content: [{ type: "blockquote", content: [p("q"), { type: "paywall" }] }] });
    expect(nested.success).toBe(false);
    expect(nested.error?.issues[0]?.message).toContain("Paywall here");
  });
});

describe("the paywall setting", () => {
  it("is a whole number from 0 to 50, and a change cuts every gated story's free part again", async () => {
    const base = BASE_SETTINGS;
    expect(settingsFormSchema.safeParse({ ...base, paywallParagraphs: "51" }).success).toBe(false);
    expect(settingsFormSchema.safeParse({ ...base, paywallParagraphs: "2.5" }).success).toBe(false);
    await updateSettings(fx.t.db, settingsFormSchema.parse({ ...base, paywallParagraphs: "1" }));
    const free = async (slug: string) => (await fx.t.db.select({ f: articles.freeContent }).from(articles).where(eq(articles.slug, slug)))[0]!.f;
    expect(await free("briefing")).toBe("Briefing one.");
    // A Paywall here block keeps its point; a public story has no free part of its own.
    expect(await free("ledger")).toBe(`${FREE_1}\n\n${FREE_2}`);
    expect(await free("open")).toBeNull();
    expect((await searchArticles(fx.t.db, "briefing two")).results).toEqual([]);
    await updateSettings(fx.t.db, settingsFormSchema.parse({ ...base, paywallParagraphs: "3" }));
    expect(await free("briefing")).toBe("Briefing one.\n\nBriefing two.\n\nBriefing three.");
    expect(() => settingsFormSchema.parse({ ...base, meterAnonymous: "-1" })).toThrow();
  });
});
