import { expect, test } from "./fixtures";
import { CATEGORIES } from "./routes";

test.describe("feeds for search engines and readers", () => {
  test("robots.txt allows the site, keeps crawlers out of the back office and names the sitemap", async ({ request }) => {
    const response = await request.get("/robots.txt");
    expect(response.status()).toBe(200);
    const body = await response.text();
    expect(body).toContain("Disallow: /admin");
    expect(body).toMatch(/Sitemap: http:\/\/[^\s]+\/sitemap\.xml/);
  });

  test("the sitemap index leads to the home page, every category and the articles", async ({ request }) => {
    const response = await request.get("/sitemap.xml");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toContain("application/xml");
    const index = await response.text();
    expect(index).toContain("<sitemapindex");
    const children = [...index.matchAll(/<loc>https?:\/\/[^/]+(\/[^<]+)<\/loc>/g)].map((m) => m[1]!);
    expect(children).toContain("/news-sitemap.xml");
    let all = "";
    for (const child of children) {
      const answer = await request.get(child);
      expect(answer.status(), child).toBe(200);
      all += await answer.text();
    }
    for (const c of CATEGORIES) expect(all).toContain(`/category/${c.slug}</loc>`);
    const home = await (await request.get("/")).text();
    const article = /href="(\/article\/[^"?#]+)"/.exec(home)![1]!;
    expect(all).toContain(`${article}</loc>`);
    expect((await request.get("/robots.txt")).ok()).toBe(true);
    expect(await (await request.get("/robots.txt")).text()).toMatch(/Sitemap: http:\/\/[^\s]+\/news-sitemap\.xml/);
  });

  test("a category's and an author's pages name their own feeds, which carry their stories in full", async ({ request }) => {
    const category = await (await request.get("/category/news")).text();
    expect(category).toMatch(/<link rel="alternate" type="application\/rss\+xml" title="News RSS" href="http:\/\/[^"]+\/category\/news\/rss\.xml"/);
    const feed = await request.get("/category/news/rss.xml");
    expect(feed.status()).toBe(200);
    expect(feed.headers()["content-type"]).toBe("application/rss+xml; charset=utf-8");
    const body = await feed.text();
    expect(body).toContain("<content:encoded><![CDATA[");
    expect(body).toMatch(/<enclosure url="[^"]+" length="\d+" type="image\/[a-z]+" \/>/);
    const article = await (await request.get("/")).text();
    const authorPath = /href="(\/author\/[^"?#]+)"/.exec(article)?.[1];
    expect(authorPath).toBeTruthy();
    const author = await (await request.get(authorPath!)).text();
    expect(author).toContain(`${authorPath}/rss.xml"`);
    expect((await request.get(`${authorPath}/rss.xml`)).status()).toBe(200);
  });

  test("the RSS feed carries the newest articles", async ({ request }) => {
    const response = await request.get("/rss.xml");
    expect(response.status()).toBe(200);
    const body = await response.text();
    expect(body).toContain("<rss version=\"2.0\"");
    const home = await (await request.get("/")).text();
    const newest = /href="(\/article\/[^"?#]+)"/.exec(home)![1]!;
    expect(body).toContain(`${newest}</link>`);
    expect((body.match(/<item>/g) ?? []).length).toBeGreaterThanOrEqual(12);
  });
});
