import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Locator, type Page } from "./fixtures";
import sharp from "sharp";
import { categoryId, query } from "./db";
import { someArticlePath, STATIC_PAGES } from "./routes";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "frontpage-comments-"));
const pngPath = path.join(tmp, "reader-photo.png");
const fakeJpegPath = path.join(tmp, "photo.jpg");

test.beforeAll(async () => {
  await sharp({ create: { width: 240, height: 160, channels: 3, background: "#2255aa" } }).png().toFile(pngPath);
  fs.writeFileSync(fakeJpegPath, "<!doctype html><html><body><script>alert(1)</script></body></html>");
});

test.afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function openArticle(page: Page) {
  const articlePath = await someArticlePath(page.request);
  await page.goto(articlePath);
  await page.waitForLoadState("networkidle");
  return articlePath;
}

/** Fills a comment or reply form (inside `scope`): name, e-mail and the text. */
async function fillComment(scope: Locator, name: string, email: string, text: string) {
  await scope.getByLabel("Name *").fill(name);
  await scope.getByLabel("Email *").fill(email);
  await scope.getByLabel(/^(Comment|Reply) \*$/).fill(text);
}

/** The top-level comment form (the first one on the page). */
const mainForm = (page: Page) => page.locator("form").filter({ has: page.getByRole("button", { name: "Post Comment" }) });

test.describe("comments", () => {
  test("posting with blank fields shows the spec's notice and posts nothing", async ({ page }) => {
    await openArticle(page);
    const before = await page.getByTestId("comment").count();
    const form = mainForm(page);
    await form.getByLabel("Name *").fill("   ");
    await form.getByRole("button", { name: "Post Comment" }).click();
    await expect(page.getByText("Missing fields")).toBeVisible();
    await expect(page.getByText("Please fill in all required fields.")).toBeVisible();
    await expect(page.getByTestId("comment")).toHaveCount(before);
  });

  test("a comment that cannot reach the server gets the spec's error toast and the article stays", async ({ page }) => {
    await openArticle(page);
    const title = await page.getByRole("heading", { level: 1 }).textContent();
    await page.route("**/api/articles/*/comments", (route) => route.abort("connectionrefused"));
    const form = mainForm(page);
    await fillComment(form, "Offline Reader", "offline@example.org", "This one never arrives.");
    await form.getByRole("button", { name: "Post Comment" }).click();
    await expect(page.getByText("Failed to post comment. Please try again.")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(title!);
    // What was typed is kept for another try.
    await expect(form.getByLabel("Comment *")).toHaveValue("This one never arrives.");
  });

  test("a comment refused by the server shows its message under the spec's Error title", async ({ page }) => {
    await openArticle(page);
    const form = mainForm(page);
    await fillComment(form, "Reader", "not-an-address", "Hello");
    await form.getByRole("button", { name: "Post Comment" }).click();
    await expect(page.getByText("Please enter a valid e-mail address.")).toBeVisible();
    await expect(page.getByText("Error", { exact: true })).toBeVisible();
  });

  test("an HTML file named photo.jpg is refused with a clear message", async ({ page }) => {
    await openArticle(page);
    await mainForm(page).getByTestId("image-input").setInputFiles(fakeJpegPath);
    await expect(page.getByText("Upload failed")).toBeVisible();
    await expect(page.getByText("Only JPEG, PNG, GIF and WebP images are accepted.")).toBeVisible();
    await expect(mainForm(page).getByRole("button", { name: "Add image" })).toBeEnabled();
  });

  test("a comment with an image and a reply to it are posted and appear", async ({ page }) => {
    const articlePath = await openArticle(page);
    const stamp = Date.now().toString(36);
    const form = mainForm(page);

    await form.getByTestId("image-input").setInputFiles(pngPath);
    await expect(page.getByText("Upload successful")).toBeVisible();
    await expect(page.getByText("Image uploaded successfully")).toBeVisible();
    // One image at a time: the button stays disabled until the preview is removed.
    await expect(form.getByRole("button", { name: "Add image" })).toBeDisabled();
    await expect(form.getByRole("img", { name: "Attached image preview" })).toBeVisible();

    await fillComment(form, `Reader ${stamp}`, `reader-${stamp}@example.org`, `First line ${stamp}\nSecond line`);
    await form.getByRole("button", { name: "Post Comment" }).click();

    await expect(page.getByText("Comment posted!")).toBeVisible();
    await expect(page.getByText("Your comment has been added successfully.")).toBeVisible();
    const comment = page.getByTestId("comment").filter({ hasText: `Reader ${stamp}` });
    await expect(comment).toBeVisible();
    await expect(comment.getByText(`First line ${stamp}`)).toBeVisible();
    await expect(comment.getByRole("img", { name: `Image attached by Reader ${stamp}` })).toBeVisible();
    // Newest first: it heads the list. The form is cleared.
    await expect(page.getByTestId("comment").first()).toContainText(`Reader ${stamp}`);
    await expect(form.getByLabel("Name *")).toHaveValue("");
    await expect(form.getByLabel("Comment *")).toHaveValue("");
    await expect(form.getByRole("button", { name: "Add image" })).toBeEnabled();

    // The attachment is served with its stored type and nosniff.
    const src = await comment.getByRole("img", { name: `Image attached by Reader ${stamp}` }).getAttribute("src");
    expect(src).toMatch(/^\/media\/images\/\d+-[a-z0-9]+\.png$/);
    const media = await page.request.get(src!);
    expect(media.status()).toBe(200);
    expect(media.headers()["content-type"]).toBe("image/png");
    expect(media.headers()["x-content-type-options"]).toBe("nosniff");

    // Reply, with Cancel first.
    await comment.getByRole("button", { name: "Reply" }).click();
    await comment.getByRole("button", { name: "Cancel" }).click();
    await expect(comment.getByLabel("Reply *")).toHaveCount(0);
    await comment.getByRole("button", { name: "Reply" }).click();
    await fillComment(comment, `Replier ${stamp}`, `replier-${stamp}@example.org`, `Reply text ${stamp}`);
    await comment.getByRole("button", { name: "Post Reply" }).click();
    await expect(comment.getByTestId("reply").filter({ hasText: `Reply text ${stamp}` })).toBeVisible();

    // After a reload (a fresh server render) both are still there, and no e-mail address is in
    // the page, its data request, or any other public page.
    await page.reload();
    await expect(page.getByTestId("comment").filter({ hasText: `Reader ${stamp}` }).getByTestId("reply")).toContainText(`Replier ${stamp}`);
    const publicPaths = [articlePath, `${articlePath}.data`, "/", "/category/news", ...STATIC_PAGES];
    for (const p of publicPaths) {
      const body = await (await page.request.get(p)).text();
      expect(body, p).not.toContain(`reader-${stamp}@example.org`);
      expect(body, p).not.toContain(`replier-${stamp}@example.org`);
      // Data requests carry no e-mail field at all (the HTML has the form's own input of that name).
      if (p.endsWith(".data")) expect(body, p).not.toContain("authorEmail");
    }
  });

  test("replies are one level deep: a reply offers no Reply button", async ({ page }) => {
    await openArticle(page);
    const stamp = Date.now().toString(36);
    const form = mainForm(page);
    await fillComment(form, `Top ${stamp}`, `top-${stamp}@example.org`, `Top ${stamp}`);
    await form.getByRole("button", { name: "Post Comment" }).click();
    const top = page.getByTestId("comment").filter({ hasText: `Top ${stamp}` });
    await expect(top).toBeVisible();
    await top.getByRole("button", { name: "Reply" }).click();
    await fillComment(top, "R1", `r1-${stamp}@example.org`, `Reply one ${stamp}`);
    await top.getByRole("button", { name: "Post Reply" }).click();
    await expect(top.getByTestId("reply")).toHaveCount(1);
    await expect(top.getByTestId("reply").getByRole("button", { name: "Reply" })).toHaveCount(0);
  });
});

test("an article with more comments than a page shows the newest, counts them all, and pages to the older ones", async ({ page }) => {
  const slug = `many-comments-${Date.now().toString(36)}`;
  const [{ id }] = await query<{ id: string }>(
    `insert into articles (title, slug, content, category_id) values ('Much discussed', $1, 'Body.', $2) returning id`,
    [slug, await categoryId("news")],
  );
  try {
    // 102 top-level comments, one minute apart (no. 102 the newest), and a reply to the oldest.
    await query(
      `insert into comments (article_id, author_name, author_email, content, created_at)
       select $1, 'Reader ' || g, 'reader' || g || '@example.com', 'Comment no. ' || g, now() - (200 - g) * interval '1 minute'
       from generate_series(1, 102) as g`,
      [id],
    );
    await query(
      `insert into comments (article_id, parent_comment_id, author_name, author_email, content)
       select $1, c.id, 'Replier', 'replier@example.com', 'A reply to the oldest' from comments c where c.article_id = $1 and c.content = 'Comment no. 1'`,
      [id],
    );
    await page.goto(`/article/${slug}`);
    await expect(page.getByRole("heading", { name: "Comments (103)" })).toBeVisible();
    const section = page.locator("section[aria-labelledby=comments-heading]");
    await expect(section.getByText(/^Comment no\. \d+$/)).toHaveCount(100);
    await expect(section.getByText("Comment no. 102", { exact: true })).toBeVisible();
    await expect(section.getByText("Comment no. 2", { exact: true })).toHaveCount(0);

    await section.getByRole("link", { name: "Show older comments (2 more)" }).click();
    await expect(page).toHaveURL(new RegExp(`/article/${slug}\\?older-than=[0-9a-f-]{36}$`));
    await expect(section.getByText(/^Comment no\. \d+$/)).toHaveCount(2);
    await expect(section.getByText("Comment no. 2", { exact: true })).toBeVisible();
    await expect(section.getByText("A reply to the oldest")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Comments (103)" })).toBeVisible();
    await expect(section.getByRole("link", { name: /Show older comments/ })).toHaveCount(0);

    await section.getByRole("link", { name: "Newest comments" }).click();
    await expect(page).toHaveURL(new RegExp(`/article/${slug}$`));
    await expect(section.getByText(/^Comment no\. \d+$/)).toHaveCount(100);
  } finally {
    await query(`delete from articles where slug = $1`, [slug]);
  }
});
