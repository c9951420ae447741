import { expect, test } from "./fixtures";
import { articleViews, categoryId, PUBLIC_ARTICLES_NEWEST_FIRST, query, siteDate } from "./db";
import { CATEGORIES, someArticlePath, STATIC_PAGES } from "./routes";
import { joinNames } from "../../app/domain/authors/byline";

interface StoredArticle {
  title: string;
  slug: string;
  author_name: string;
  created_at: Date;
  views: number;
  category_name: string;
  category_slug: string;
  byline_names?: string[] | null;
}

/** The 12 newest public articles as stored, newest first (what the home page lists, dated by publication). */
const newestArticles = () =>
  query<StoredArticle>(
    `select a.title, a.slug, a.author_name, a.published_at as created_at, a.views, c.name as category_name, c.slug as category_slug
     from articles a left join categories c on c.id = a.category_id
     where ${PUBLIC_ARTICLES_NEWEST_FIRST} limit 12`,
  );

test.describe("the reader site", () => {
  test("the home page shows the hero, the topics and the latest stories", async ({ page }) => {
    const response = await page.goto("/");
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1, name: "Stay Informed, Stay Connected" })).toBeVisible();

    const topics = page.locator("section", { has: page.getByRole("heading", { name: "Explore Topics" }) });
    await expect(topics.getByRole("heading", { name: "Explore Topics" })).toBeVisible();
    for (const category of CATEGORIES) {
      await expect(topics.getByRole("link", { name: category.name, exact: true })).toHaveAttribute("href", `/category/${category.slug}`);
    }

    const latest = page.locator("section", { has: page.getByRole("heading", { name: "Latest Stories" }) });
    await expect(latest.getByRole("heading", { name: "Latest Stories" })).toBeVisible();
    await expect(latest.getByRole("article").first()).toBeVisible();
  });

  test("a topic on the home page leads to its category page", async ({ page }) => {
    await page.goto("/");
    const topics = page.locator("section", { has: page.getByRole("heading", { name: "Explore Topics" }) });
    await topics.getByRole("link", { name: "Technology", exact: true }).click();
    await expect(page).toHaveURL(/\/category\/technology$/);
    await expect(page.getByRole("heading", { level: 1, name: "Technology" })).toBeVisible();
  });

  test("the News category page shows its heading and article cards", async ({ page }) => {
    const response = await page.goto("/category/news");
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1, name: "News" })).toBeVisible();
    const cards = page.getByRole("main").getByRole("article");
    await expect(cards.first()).toBeVisible();
    // Every card links to its article, and its byline to the author's page (decision 0015).
    const hrefs = await cards.getByRole("link").evaluateAll((links) => links.map((a) => a.getAttribute("href")));
    expect(hrefs.filter((href) => href?.startsWith("/article/")).length).toBeGreaterThan(0);
    for (const href of hrefs) expect(href).toMatch(/^\/(article|author)\/[a-z0-9-]+$/);
  });

  test("an article card opens the article with its title as the page heading", async ({ page }) => {
    await page.goto("/category/news");
    const card = page.getByRole("main").getByRole("article").first();
    const title = (await card.getByRole("heading").textContent())!.trim();
    // The card's own link (a byline's author links come after it).
    await card.getByRole("link").first().click();
    await expect(page).toHaveURL(/\/article\/[a-z0-9-]+$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  });

  test("an unknown path answers 404 with the not-found page and a way home", async ({ page }) => {
    const response = await page.goto("/this/page/does-not-exist");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
    const home = page.getByRole("link", { name: "Return to Home" });
    await expect(home).toHaveAttribute("href", "/");
    await home.click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { name: "Stay Informed, Stay Connected" })).toBeVisible();
  });

  test("an unknown article answers 404 with \"Article not found\"", async ({ page }) => {
    const response = await page.goto("/article/does-not-exist");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Article not found" })).toBeVisible();
    await expect(page.getByText("The article you're looking for doesn't exist.")).toBeVisible();
  });

  test("an unknown category answers 404", async ({ page, request }) => {
    const raw = await request.get("/category/nope");
    expect(raw.status()).toBe(404);
    const response = await page.goto("/category/nope");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("link", { name: "Return to Home" })).toBeVisible();
  });

  test("a known article answers 200", async ({ request }) => {
    const path = await someArticlePath(request);
    expect((await request.get(path)).status()).toBe(200);
  });

  for (const path of STATIC_PAGES) {
    test(`the static page ${path} answers 200 and has a main heading`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
      await expect(page.getByRole("heading", { level: 1 })).not.toBeEmpty();
    });
  }

  test("the home page shows 3 top stories, 9 latest stories, no empty ad slot and the closing call to action", async ({ page }) => {
    const newest = await newestArticles();
    expect(newest, "the demo content has at least 12 articles").toHaveLength(12);
    await page.goto("/");
    const main = page.getByRole("main");

    const top = main.locator("section", { has: page.getByRole("heading", { name: "Top Stories" }) }).getByRole("article");
    await expect(top).toHaveCount(3);
    await expect(top.getByRole("heading")).toHaveText(newest.slice(0, 3).map((a) => a.title));
    const latest = main.locator("section", { has: page.getByRole("heading", { name: "Latest Stories" }) }).getByRole("article");
    await expect(latest).toHaveCount(9);
    await expect(latest.getByRole("heading")).toHaveText(newest.slice(3, 12).map((a) => a.title));

    // The three ad slots (ids 1000000001–3) are filled only with an ad network: the e2e site has no ad
    // client id, and an empty slot takes no space (issue 41).
    await expect(main.getByRole("complementary", { name: /^Advertisement/ })).toHaveCount(0);
    await expect(main.locator("[data-ad-slot]")).toHaveCount(0);

    // The closing call to action, after everything else: the newsletter sign-up (issue 30) and the ways into the site.
    const cta = main.locator("section", { has: page.getByRole("heading", { name: "Get our newsletter" }) });
    await expect(cta.getByLabel("Email address")).toBeVisible();
    await expect(cta.getByRole("button", { name: "Subscribe" })).toBeVisible();
    await expect(cta).toBeVisible();
    await expect(cta.getByRole("link", { name: "Read the latest news" })).toHaveAttribute("href", "/category/news");
    await expect(cta.getByRole("link", { name: "Contact the newsroom" })).toHaveAttribute("href", "/contact");
    const lastHeading = await main.getByRole("heading", { level: 2 }).last().textContent();
    expect(lastHeading).toBe("Get our newsletter");
  });

  test("article cards date their story as 'MMM d, yyyy' in New York time", async ({ page }) => {
    const newest = await newestArticles();
    await page.goto("/");
    // The 12 stories of the top strip and Latest Stories (the category blocks under them are older stories).
    const cards = page.getByRole("main").locator('section[aria-labelledby="top-stories"] article, section[aria-labelledby="latest-stories"] article');
    await expect(cards).toHaveCount(12);
    await expect(cards.locator("time")).toHaveText(newest.map((a) => siteDate(a.created_at, "short")));
    expect(await cards.locator("time").first().getAttribute("datetime")).toBe(newest[0]!.created_at.toISOString());
  });

  test("an article shows its category badge, author, date, view count and three share links that open a 600x400 popup", async ({ page, baseURL }) => {
    // An article no other journey opens, so no views of it wait unwritten in the server's buffer.
    const [article] = await query<StoredArticle>(
      // The byline readers see: the story's authors in order when it has some, else its Author Name (decision 0015).
      `select a.title, a.slug, a.author_name, a.created_at, a.views, c.name as category_name, c.slug as category_slug,
              (select array_agg(au.name order by aa.position) from article_authors aa join authors au on au.id = aa.author_id
                where aa.article_id = a.id) as byline_names
       from articles a join categories c on c.id = a.category_id
       where ${PUBLIC_ARTICLES_NEWEST_FIRST} offset 7 limit 1`,
    );
    expect(article).toBeDefined();
    const { slug } = article!;
    await page.addInitScript(() => {
      const calls: unknown[][] = [];
      (window as unknown as { __openCalls: unknown[][] }).__openCalls = calls;
      // A stand-in popup: the share link sees a window was opened and stays on the page.
      window.open = ((...args: unknown[]) => {
        calls.push(args);
        return { opener: window } as unknown as Window;
      }) as typeof window.open;
    });
    const beacon = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/views" && r.request().method() === "POST");
    await page.goto(`/article/${slug}`, { waitUntil: "networkidle" });
    const header = page.getByRole("main").locator("article header");
    await expect(header.getByRole("heading", { level: 1 })).toHaveText(article!.title);
    await expect(header.getByRole("link", { name: article!.category_name, exact: true })).toHaveAttribute("href", `/category/${article!.category_slug}`);
    await expect(header).toContainText(`By ${article!.byline_names?.length ? joinNames(article!.byline_names) : article!.author_name}`);
    await expect(header.locator("time")).toHaveText(siteDate(article!.created_at, "long"));
    // This visit is counted once in the database, and the page shows the count the beacon answered:
    // the stored count plus this view, even when the server's periodic flush overlaps the answer.
    const answer = (await (await beacon).json()) as { path: string; views: number };
    expect(answer).toEqual({ path: `/article/${slug}`, views: article!.views + 1 });
    await expect(page.getByTestId("view-count")).toHaveText(new RegExp(`^\\s*${answer.views.toLocaleString("en-US")} ${answer.views === 1 ? "view" : "views"}$`));
    await expect.poll(() => articleViews(slug), { timeout: 5_000 }).toBe(article!.views + 1);

    // Share links carry the article's address (and X its title); each is named for what it does.
    const articleUrl = `${baseURL}/article/${slug}`;
    const shareLink = (name: string) => header.getByRole("link", { name: `Share on ${name} (opens in a new window)`, exact: true });
    const params = async (name: string) => new URL((await shareLink(name).getAttribute("href"))!).searchParams;
    expect(await shareLink("Facebook").getAttribute("href")).toMatch(/^https:\/\/www\.facebook\.com\/sharer\/sharer\.php\?/);
    expect((await params("Facebook")).get("u")).toBe(articleUrl);
    expect(await shareLink("X").getAttribute("href")).toMatch(/^https:\/\/x\.com\/intent\/tweet\?/);
    expect((await params("X")).get("url")).toBe(articleUrl);
    expect((await params("X")).get("text")).toBe(article!.title);
    // One name for the network: the buttons say X, and nothing on the page says Twitter.
    await expect(header.getByRole("link")).toContainText(["Facebook", "X", "LinkedIn"]);
    expect(await page.locator("body").innerText()).not.toMatch(/Twitter/);
    expect(await shareLink("LinkedIn").getAttribute("href")).toMatch(/^https:\/\/www\.linkedin\.com\/sharing\/share-offsite\/\?/);
    expect((await params("LinkedIn")).get("url")).toBe(articleUrl);

    // A click opens a 600x400 popup with the share address, and the page stays where it is.
    await shareLink("LinkedIn").click();
    const calls = await page.evaluate(() => (window as unknown as { __openCalls: unknown[][] }).__openCalls);
    expect(calls).toHaveLength(1);
    expect(calls[0]![0]).toBe(await shareLink("LinkedIn").getAttribute("href"));
    expect(String(calls[0]![2])).toMatch(/(^|,)width=600,height=400(,|$)/);
    expect(page.url()).toBe(articleUrl);
    expect(page.context().pages()).toHaveLength(1);
  });

  test("counts are written one way: a card says 2,993 views, a story seen once says 1 view, and the footer names X", async ({ page }) => {
    test.slow();
    // Two old stories of an author of their own (an author page lists them as cards; no other page changes).
    const run = Date.now().toString(36);
    const [author] = await query<{ id: string }>(`insert into authors (name, slug) values ($1, $2) returning id`, [`Count Keeper ${run}`, `count-keeper-${run}`]);
    const stories = [
      { title: `Read many times ${run}`, slug: `read-many-${run}`, views: 2993 },
      { title: `Read once ${run}`, slug: `read-once-${run}`, views: 0 },
    ];
    for (const [i, story] of stories.entries()) {
      const [row] = await query<{ id: string }>(
        `insert into articles (title, slug, content, views, published_at, created_at)
         values ($1, $2, 'Body.', $3, now() - make_interval(days => $4), now() - make_interval(days => $4)) returning id`,
        [story.title, story.slug, story.views, 700 + i],
      );
      await query(`insert into article_authors (article_id, author_id, position) values ($1, $2, 0)`, [row!.id, author!.id]);
    }
    try {
      await page.goto(`/author/count-keeper-${run}`);
      const card = page.getByRole("main").locator("article").filter({ hasText: stories[0]!.title });
      await expect(card).toContainText("2,993 views");
      await expect(card).not.toContainText("2993");
      const footer = page.locator("footer");
      await expect(footer).not.toContainText("Twitter");

      // Its first reader's visit: the beacon answers 1, and the page says "1 view".
      await page.goto(`/article/${stories[1]!.slug}`, { waitUntil: "networkidle" });
      await expect(page.getByTestId("view-count")).toHaveText(/^\s*1 view$/);
    } finally {
      await query(`delete from articles where slug = any($1)`, [stories.map((s) => s.slug)]);
      await query(`delete from authors where id = $1`, [author!.id]);
    }
  });

  test("an article's content is shown as text, markup and all, with its line breaks kept", async ({ page }) => {
    const slug = `markup-as-text-${Date.now().toString(36)}`;
    const content = "Plain words and <b>bold</b> markup.\nA second line right under it.\n\nA new paragraph <script>window.__ran = true</script>.";
    await query(
      `insert into articles (title, slug, content, category_id, created_at) values ($1, $2, $3, $4, now() - interval '400 days')`,
      ["Markup stays text", slug, content, await categoryId("news")],
    );
    try {
      await page.goto(`/article/${slug}`, { waitUntil: "networkidle" });
      // The story's own <article> (the cards under it are articles too).
      const body = page.getByRole("main").locator("article").first().locator("> div").last();
      const paragraphs = body.locator("p");
      await expect(paragraphs).toHaveCount(2);
      // The tags are shown as characters, and no element was made from them.
      await expect(paragraphs.first()).toContainText("Plain words and <b>bold</b> markup.");
      await expect(body.locator("b, script")).toHaveCount(0);
      expect(await page.evaluate(() => (window as unknown as { __ran?: boolean }).__ran)).toBeUndefined();
      // The single line break is kept as a line break (innerText follows the rendering).
      expect(await paragraphs.first().evaluate((p: HTMLElement) => p.innerText)).toBe("Plain words and <b>bold</b> markup.\nA second line right under it.");
      const [first, second] = await paragraphs.first().evaluate((p) => {
        const range = document.createRange();
        range.selectNodeContents(p);
        const lines = [...range.getClientRects()].map((r) => Math.round(r.top));
        return [Math.min(...lines), Math.max(...lines)];
      });
      expect(second!, "the second line is rendered below the first").toBeGreaterThan(first!);
      await expect(paragraphs.last()).toHaveText("A new paragraph <script>window.__ran = true</script>.");
    } finally {
      await query(`delete from articles where slug = $1`, [slug]);
    }
  });

  test("the Disclaimer's Last Updated date is today's date", async ({ page }) => {
    await page.goto("/disclaimer", { waitUntil: "networkidle" });
    await expect(page.getByRole("main")).toContainText(`Last Updated: ${siteDate(new Date(), "long")}`);
  });

  test("the Terms of Service name New York law as the governing law", async ({ page }) => {
    await page.goto("/terms-of-service");
    const section = page.getByRole("region", { name: /Governing Law and Disputes/ });
    await expect(section).toBeVisible();
    await expect(section).toContainText("These terms are governed by the laws of the State of New York, United States");
  });
});
