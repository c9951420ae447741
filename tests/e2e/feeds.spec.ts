import { expect, test } from "@playwright/test";
import { CATEGORIES } from "./routes";

test.describe("feeds for search engines and readers", () => {
  test("robots.txt allows the site, keeps crawlers out of the back office and names the sitemap", async ({ request }) => {
    const response = await request.get("/robots.txt");
    expect(response.status()).toBe(200);
    const body = await response.text();
    expect(body).toContain("Disallow: /admin");
    expect(body).toMatch(/Sitemap: http:\/\/[^\s]+\/sitemap\.xml/);
  });

  test("the sitemap lists the home page, every category and the articles", async ({ request }) => {
    const response = await request.get("/sitemap.xml");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toContain("application/xml");
    const body = await response.text();
    for (const c of CATEGORIES) expect(body).toContain(`/category/${c.slug}</loc>`);
    const home = await (await request.get("/")).text();
    const article = /href="(\/article\/[^"?#]+)"/.exec(home)![1]!;
    expect(body).toContain(`${article}</loc>`);
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
