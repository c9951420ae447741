import { describe, expect, it } from "vitest";
import { createImportedPage, savePageFromForm } from "~/domain/pages/pages.server";
import { PAGE_FIELDS, type PageFieldName } from "~/domain/pages/pages.schema";
import type { StoryDocument } from "~/domain/articles/story-document.schema";
import { createSiteFrame } from "~/domain/settings/site-frame.server";
import { loader as sitemapChild } from "~/routes/resources/sitemap-child";
import { loader as pageRoute } from "~/routes/site/page";
import { setUpArticleFixture } from "../../../tests/setup/article-fixture";

// Issue 29's reader side of pages, through the route loaders over a real database: /{slug} for a
// published page, the 404 page for a draft or an unknown address, and the pages sitemap.

const ORIGIN = "https://news.example";
const fx = setUpArticleFixture("page-routes");
const silentLog = { warn: () => {}, info: () => {}, error: () => {}, debug: () => {} };

type Loader = (args: never) => unknown;
async function get(loader: Loader, path: string, params: Record<string, string> = {}) {
  const context = { db: fx.t.db, env: { publicUrl: ORIGIN }, log: silentLog, siteFrame: createSiteFrame(fx.t.db, { on: () => {} }) };
  try {
    const result = await loader({ params, context, request: new Request(`${ORIGIN}${path}`) } as never);
    if (result instanceof Response) return { status: result.status, body: await result.text(), data: null };
    return { status: 200, body: "", data: result as Record<string, unknown> };
  } catch (thrown) {
    const status = thrown instanceof Response ? thrown.status : (thrown as { init?: { status?: number } }).init?.status;
    if (status) return { status, body: "", data: null };
    throw thrown;
  }
}

function form(values: Partial<Record<PageFieldName, string>>) {
  const all: Record<string, string> = { intent: "draft", content: "the browser's text (ignored)", footerPosition: "", showInFooter: "", ...values };
  return Object.fromEntries(PAGE_FIELDS.map((name) => [name, all[name] ?? ""])) as Record<PageFieldName, string>;
}
const body = (text: string) => JSON.stringify({ type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text }] }] });

describe("a page's address", () => {
  it("shows a published page's story rendered through the allow-list, with its description; a draft or unknown slug is 404", async () => {
    const doc = {
      type: "doc",
      content: [
        { type: "heading", attrs: { level: 2 }, content: [{ type: "text", text: "Our standards" }] },
        { type: "paragraph", content: [{ type: "text", text: "We check facts before we publish. <script>alert(1)</script>" }] },
      ],
    };
    await savePageFromForm(fx.t.db, fx.storage, form({ intent: "publish", title: "Ethics Policy", slug: "ethics-policy", contentDoc: JSON.stringify(doc) }));
    await savePageFromForm(fx.t.db, fx.storage, form({ title: "Secret draft", slug: "secret-draft", contentDoc: body("Not yet.") }));

    const answer = await get(pageRoute, "/ethics-policy", { slug: "ethics-policy" });
    expect(answer.status).toBe(200);
    expect(answer.data).toMatchObject({ title: "Ethics Policy", slug: "ethics-policy", description: "Our standards\n\nWe check facts before we publish. <script>alert(1)</script>".replace(/\s+/g, " ") });
    const html = answer.data!.html as string;
    expect(html).toContain("<h2>Our standards</h2>");
    expect(html).toContain("&lt;script&gt;");
    expect(html).not.toContain("<script>");

    expect((await get(pageRoute, "/secret-draft", { slug: "secret-draft" })).status).toBe(404);
    expect((await get(pageRoute, "/no-such-page", { slug: "no-such-page" })).status).toBe(404);
    expect((await get(pageRoute, "/%E0%A4%A", { slug: "%E0%A4%A" })).status).toBe(404);
  });

  it("is listed in the pages sitemap once published", async () => {
    await fx.t.db.transaction((tx) =>
      createImportedPage(tx, { title: "Masthead", slug: "masthead", doc: JSON.parse(body("Editors.")) as StoryDocument, status: "published", publishedAt: null, createdAt: null }),
    );
    const sitemap = await get(sitemapChild, "/sitemaps/pages.xml", { file: "pages.xml" });
    expect(sitemap.status).toBe(200);
    expect(sitemap.body).toContain(`<loc>${ORIGIN}/masthead</loc>`);
    expect(sitemap.body).toContain(`<loc>${ORIGIN}/ethics-policy</loc>`);
    expect(sitemap.body).not.toContain("secret-draft");
  });
});
