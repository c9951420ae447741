import { expect, test, type APIRequestContext, type Locator, type Page } from "./fixtures";
import { PUBLIC_ARTICLES_NEWEST_FIRST, query, siteDate } from "./db";

// Every public page is complete in the server's HTML: a reader (or a crawler) without JavaScript
// gets the heading and the content. Script elements are left out of the checks, so text that only
// sits in the hydration data does not count.

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** Visible text of an HTML fragment: no scripts or styles, no tags, entities decoded, whitespace collapsed. */
function textOf(html: string): string {
  return html
    .replace(/<(script|style|template)\b[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]+>/g, "")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
      if (name[0] === "#") return String.fromCodePoint(name[1]?.toLowerCase() === "x" ? parseInt(name.slice(2), 16) : Number(name.slice(1)));
      return ENTITIES[name.toLowerCase()] ?? entity;
    })
    .replace(/\s+/g, " ")
    .trim();
}

const normalize = (text: string) => text.replace(/\s+/g, " ").trim();

/** The page's server HTML: status, the text of its one h1, and the text of its <main>. */
async function serverPage(request: APIRequestContext, path: string) {
  const response = await request.get(path);
  const html = await response.text();
  const main = /<main\b[^>]*>([\s\S]*)<\/main>/i.exec(html)?.[1];
  const headings = [...(main ?? "").matchAll(/<h1\b[^>]*>([\s\S]*?)<\/h1>/gi)].map((m) => textOf(m[1]!));
  return {
    status: response.status(),
    type: response.headers()["content-type"] ?? "",
    mainHtml: main ?? null,
    main: main === undefined ? null : textOf(main),
    headings,
  };
}

interface Expected {
  heading: string;
  /** Text the page's main content must hold. */
  content: string[];
}

async function expectServerRendered(request: APIRequestContext, path: string, expected: Expected) {
  const page = await serverPage(request, path);
  expect(page.status, path).toBe(200);
  expect(page.type, path).toContain("text/html");
  expect(page.main, `${path} has a <main>`).not.toBeNull();
  expect(page.headings, `${path}: its one h1`).toEqual([expected.heading]);
  for (const text of expected.content) expect(page.main, `${path} shows “${text}”`).toContain(normalize(text));
}

interface StoredArticle {
  title: string;
  slug: string;
  excerpt: string | null;
  content: string;
  author_name: string;
  /** Its authors in byline order (none: the Author Name is the byline). */
  author_names: string[];
  created_at: Date;
}

/** The byline readers see: the authors joined "A, B and C", else the Author Name (decision 0015). */
const bylineOf = ({ author_names: names, author_name }: StoredArticle) =>
  names.length === 0 ? author_name : names.length === 1 ? names[0]! : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;

const newestArticle = async (categorySlug?: string) => {
  const [row] = await query<StoredArticle>(
    `select a.title, a.slug, a.excerpt, a.content, a.author_name, a.published_at as created_at,
       array(select au.name from article_authors aa join authors au on au.id = aa.author_id
             where aa.article_id = a.id order by aa.position) as author_names
     from articles a left join categories c on c.id = a.category_id
     where ($1::text is null or c.slug = $1) and ${PUBLIC_ARTICLES_NEWEST_FIRST} limit 1`,
    [categorySlug ?? null],
  );
  expect(row, `an article${categorySlug ? ` in ${categorySlug}` : ""}`).toBeDefined();
  return row!;
};

const siteSettings = async () => (await query<{ site_name: string; contact_email: string; contact_phone: string }>(`select site_name, contact_email, contact_phone from website_settings`))[0]!;

test.describe("every public page without JavaScript", () => {
  test("the home page has its hero heading and the newest stories", async ({ request }) => {
    const newest = await newestArticle();
    await expectServerRendered(request, "/", {
      heading: "Stay Informed, Stay Connected",
      content: ["Top Stories", newest.title, "Explore Topics", "Latest Stories", "Get our newsletter"],
    });
  });

  test("a category page has its name and its newest story", async ({ request }) => {
    const newest = await newestArticle("news");
    await expectServerRendered(request, "/category/news", { heading: "News", content: [newest.title] });
  });

  test("an article page has its title, byline, date, excerpt and every paragraph of its body", async ({ request }) => {
    const article = await newestArticle();
    const paragraphs = article.content.split(/\n\s*\n/).filter((p) => p.trim());
    expect(paragraphs.length).toBeGreaterThan(0);
    await expectServerRendered(request, `/article/${article.slug}`, {
      heading: article.title,
      content: [`By ${bylineOf(article)}`, siteDate(article.created_at, "long"), ...(article.excerpt ? [article.excerpt] : []), ...paragraphs],
    });
  });

  test("About has its heading and the story of the site", async ({ request }) => {
    const { site_name } = await siteSettings();
    await expectServerRendered(request, "/about", {
      heading: `About ${site_name}`,
      content: ["Our Story", `${site_name} was founded in 2024 in New York`, "Our Mission"],
    });
  });

  test("Contact has its heading, the contact details and the message form", async ({ request }) => {
    const { contact_email, contact_phone } = await siteSettings();
    await expectServerRendered(request, "/contact", {
      heading: "Contact Us",
      content: ["Get in Touch", contact_email, contact_phone, "Mon-Fri 9am-6pm EST", "Sat 10am-4pm EST", "Sun closed", "Send Us a Message", "Send Message"],
    });
    // The form's four fields are in the HTML too (the message box six rows high).
    const html = await (await request.get("/contact")).text();
    for (const id of ["contact-name", "contact-email", "contact-subject"]) expect(html).toMatch(new RegExp(`<input\\b[^>]*\\bid="${id}"`));
    expect(html).toMatch(/<textarea\b[^>]*\bid="contact-message"[^>]*\brows="6"|<textarea\b[^>]*\brows="6"[^>]*\bid="contact-message"/);
  });

  test("the Disclaimer has its heading, today's date and its sections", async ({ request }) => {
    await expectServerRendered(request, "/disclaimer", {
      heading: "Disclaimer",
      content: [`Last Updated: ${siteDate(new Date(), "long")}`, "Please read this disclaimer carefully.", "General Information", "Affiliate Disclosure"],
    });
  });

  test("the Cookie Policy has its heading and its sections", async ({ request }) => {
    await expectServerRendered(request, "/cookie-policy", {
      heading: "Cookie Policy",
      content: ["This Cookie Policy explains how", "What Are Cookies", "Managing Your Cookie Preferences", "How Long Cookies Last"],
    });
  });

  test("the Privacy Policy has its heading and its sections", async ({ request }) => {
    await expectServerRendered(request, "/privacy-policy", {
      heading: "Privacy Policy",
      content: ["Your privacy matters to us.", "Information We Collect", "Your Rights Under the GDPR", "Your California Privacy Rights (CCPA)"],
    });
  });

  test("the Terms of Service have their heading and their sections", async ({ request }) => {
    await expectServerRendered(request, "/terms-of-service", {
      heading: "Terms of Service",
      content: ["Please read these Terms of Service carefully", "Copyright Complaints (DMCA)", "Governing Law and Disputes", "governed by the laws of the State of New York"],
    });
  });

  test("an unknown path answers 404 with \"Oops! Page not found\" and a link home", async ({ request }) => {
    const page = await serverPage(request, "/no/such/page-here");
    expect(page.status).toBe(404);
    expect(page.type).toContain("text/html");
    expect(page.headings).toEqual(["Oops! Page not found"]);
    expect(page.mainHtml).toMatch(/<a\b[^>]*href="\/"[^>]*>Return to Home<\/a>/);
  });
});

test.describe("a comment without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  /** The page is scrolled down to `target`, and the sticky site header does not cover it. */
  async function expectLandedAt(page: Page, target: Locator) {
    await expect(target).toBeInViewport();
    expect(await page.evaluate(() => window.scrollY), "the page is scrolled to it, not at the top").toBeGreaterThan(0);
    const header = (await page.getByRole("banner").first().boundingBox())!;
    const box = (await target.boundingBox())!;
    expect(box.y, "below the sticky header").toBeGreaterThanOrEqual(header.y + header.height - 1);
  }

  test("a refusal shows the spec's message and keeps what was typed; a valid comment is posted, confirmed on the comment, and the page goes to it", async ({ page, request }) => {
    test.slow();
    const slug = `no-script-comment-${Date.now().toString(36)}`;
    // A long story: the comments are well below the first screen.
    await query(`insert into articles (title, slug, content) values ('Commented without scripts', $1, $2)`, [slug, Array.from({ length: 40 }, (_, i) => `Paragraph ${i + 1} of a long story.`).join("\n\n")]);
    try {
      await page.goto(`/article/${slug}`);
      const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Post Comment" }) });
      await form.getByLabel("Name *").fill("Plain Reader");
      await form.getByLabel("Email *").fill("not-an-address");
      await form.getByLabel("Comment *").fill("Typed without any script running.");
      await form.getByRole("button", { name: "Post Comment" }).click();
      await expect(page.getByRole("alert")).toHaveText("Error: Please enter a valid e-mail address.");
      await expect(form.getByLabel("Name *")).toHaveValue("Plain Reader");
      await expect(form.getByLabel("Comment *")).toHaveValue("Typed without any script running.");
      // The refused reader is back at the form, not at the top of the story.
      await expectLandedAt(page, page.getByRole("alert"));

      await form.getByLabel("Email *").fill("plain.reader@example.com");
      await form.getByRole("button", { name: "Post Comment" }).click();
      const [posted] = await query<{ id: string }>(`select c.id from comments c join articles a on a.id = c.article_id where a.slug = $1`, [slug]);
      expect(posted).toBeDefined();
      // Issue 27: the reader lands at their comment, which says it was posted (the spec's toast text).
      await expect(page).toHaveURL(new RegExp(`/article/${slug}\\?comment=${posted!.id}#comment-${posted!.id}$`));
      const comment = page.locator(`#comment-${posted!.id}`);
      await expect(comment.getByRole("status")).toHaveText("Comment posted! Your comment has been added successfully.");
      await expect(comment).toContainText("Typed without any script running.");
      await expectLandedAt(page, comment.getByRole("status"));
      await expect(page.getByRole("heading", { name: "Comments (1)" })).toBeVisible();
      await expect(form.getByLabel("Name *")).toHaveValue("");
      // The commenter's e-mail address is not in the page.
      expect(await page.content()).not.toContain("plain.reader@example.com");
      // A reload shows the same page and posts nothing again (the POST was answered with a redirect).
      await page.reload();
      await expect(comment.getByRole("status")).toBeVisible();
      expect(await query(`select id from comments where article_id = (select id from articles where slug = $1)`, [slug])).toHaveLength(1);

      // The confirmation is this reader's alone: never stored in the page cache, and not on the article's shared page.
      const mine = await request.get(`/article/${slug}?comment=${posted!.id}`);
      expect(mine.headers()["cache-control"]).toBe("no-store");
      expect((await request.get(`/article/${slug}?comment=${posted!.id}`)).headers()["x-cache"]).toBeUndefined();
      for (let i = 0; i < 2; i++) {
        const shared = await request.get(`/article/${slug}`);
        const html = await shared.text();
        expect(html).toContain("Typed without any script running.");
        expect(html).not.toContain("Comment posted!");
      }
    } finally {
      await query(`delete from articles where slug = $1`, [slug]);
    }
  });

  test("a comment held for moderation says so at the form, where the reader lands", async ({ page }) => {
    test.slow();
    const slug = `no-script-held-${Date.now().toString(36)}`;
    await query(`insert into articles (title, slug, content) values ('Held without scripts', $1, $2)`, [slug, Array.from({ length: 40 }, (_, i) => `Paragraph ${i + 1}.`).join("\n\n")]);
    try {
      await page.goto(`/article/${slug}`);
      const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Post Comment" }) });
      await form.getByLabel("Name *").fill("Linky Reader");
      await form.getByLabel("Email *").fill("linky.reader@example.com");
      // More links than a comment may carry unreviewed: held for moderation.
      await form.getByLabel("Comment *").fill("See https://a.example and https://b.example and https://c.example");
      await form.getByRole("button", { name: "Post Comment" }).click();
      await expect(page).toHaveURL(new RegExp(`/article/${slug}\\?comment=held#leave-a-comment$`));
      const notice = form.getByRole("status");
      await expect(notice).toHaveText("Thank you! Your comment is awaiting moderation.");
      await expectLandedAt(page, notice);
      await expect(page.getByRole("heading", { name: "Comments (0)" })).toBeVisible();
      await expect(page.getByText("Comment posted!")).toHaveCount(0);
    } finally {
      await query(`delete from articles where slug = $1`, [slug]);
    }
  });
});
