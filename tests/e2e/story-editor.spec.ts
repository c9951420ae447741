import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "./fixtures";
import { signInAsAdmin } from "./admin-session";
import { categoryId, query } from "./db";
import { fillPublishingDetails, publishNow, expectStoryLive } from "./publish-panel";

// A valid 1×1 PNG: uploads are checked from their bytes, so it has to be a real image.
const PNG_1PX = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

/** The article form with the story editor loaded (its toolbar shows once the editor's code has arrived). */
async function openEditor(page: Page, path: string) {
  await page.goto(path, { waitUntil: "networkidle" });
  await expect(page.getByRole("toolbar", { name: "Story formatting" })).toBeVisible();
  return page.getByLabel("Content *");
}

/** axe's findings on the page as it is now (rule and the first offending elements). */
async function axeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((v) => ({ rule: v.id, targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")) }));
}

test.describe("the story editor", () => {
  test.beforeEach(async ({ page }) => {
    await signInAsAdmin(page);
  });

  test("a story with a subheading, a link, a list, an inline image and a YouTube embed reads the same without JavaScript", async ({
    page,
    browser,
  }) => {
    // A long journey (writing, an upload, saving, two readers and three axe runs) on a loaded machine.
    test.slow();
    const run = Date.now().toString(36);
    const title = `Night ferry returns ${run}`;
    const slug = `night-ferry-returns-${run}`;
    const content = await openEditor(page, "/admin/articles/new");
    await page.getByLabel("Title *").fill(title);

    // Written from the keyboard, with the toolbar's buttons.
    await content.click();
    await page.keyboard.type("The night ferry is back on the harbour route.");
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Subheading", exact: true }).click();
    // As for the list below: type once the toolbar has handed focus back (a first key sent sooner is lost).
    await expect(content.locator("h2")).toHaveCount(1);
    await expect(content).toBeFocused();
    await page.keyboard.type("What changes");
    await page.keyboard.press("Enter");
    await page.keyboard.type("Read the council report");
    for (let i = 0; i < "council report".length; i++) await page.keyboard.press("Shift+ArrowLeft");
    await page.getByRole("button", { name: "Link", exact: true }).click();
    const linkDialog = page.getByRole("dialog", { name: "Add link" });
    // A javascript: address is refused in the dialog.
    await linkDialog.getByLabel("Link address").fill("javascript:alert(1)");
    await linkDialog.getByRole("button", { name: "Apply link" }).click();
    await expect(linkDialog.getByRole("alert")).toHaveText("Links must start with http://, https:// or mailto:.");
    await linkDialog.getByLabel("Link address").fill("https://example.com/ferry-report");
    await linkDialog.getByRole("button", { name: "Apply link" }).click();
    await expect(linkDialog).toBeHidden();
    await page.keyboard.press("End");
    await page.keyboard.type(". Then a line with markup: <script>window.__ran = true</script>");
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Bulleted list" }).click();
    // The toolbar hands focus back to the editor: type once it has (a first key sent sooner is lost).
    await expect(content.locator("ul > li")).toHaveCount(1);
    await expect(content).toBeFocused();
    await page.keyboard.type("Departures every hour");
    await page.keyboard.press("Enter");
    await page.keyboard.type("Bicycles ride free");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");

    // An inline image uploaded in place, with its alt text, caption and credit.
    await page.getByRole("button", { name: "Insert image" }).click();
    const imageDialog = page.getByRole("dialog", { name: "Insert image" });
    await imageDialog.getByLabel("Upload inline image").setInputFiles({ name: "ferry.png", mimeType: "image/png", buffer: PNG_1PX });
    await expect(imageDialog.getByRole("img", { name: "Chosen image preview" })).toHaveAttribute("src", /^\/media\/images\/\d+-[a-z0-9]+\.png$/);
    const imageUrl = (await imageDialog.getByRole("img", { name: "Chosen image preview" }).getAttribute("src"))!;
    await imageDialog.getByLabel("Alt text *").fill("The ferry at the quay after dark");
    await imageDialog.getByLabel("Caption").fill("The first crossing on Friday");
    await imageDialog.getByLabel("Credit").fill("Ana Photo");
    expect(await axeViolations(page), "the image dialog").toEqual([]);
    await imageDialog.getByRole("button", { name: "Insert image" }).click();
    await expect(imageDialog).toBeHidden();
    await expect(content.locator(`img[src="${imageUrl}"]`)).toBeVisible();

    // A YouTube embed by its address.
    await content.press("Control+End");
    await page.getByRole("button", { name: "Embed video or post" }).click();
    const embedDialog = page.getByRole("dialog", { name: "Embed a video or post" });
    await embedDialog.getByLabel("YouTube or X address").fill("https://vimeo.com/12345");
    await embedDialog.getByRole("button", { name: "Embed", exact: true }).click();
    await expect(embedDialog.getByRole("alert")).toContainText("Only YouTube videos and X posts");
    await embedDialog.getByLabel("YouTube or X address").fill("https://youtu.be/dQw4w9WgXcQ");
    await embedDialog.getByRole("button", { name: "Embed", exact: true }).click();
    await expect(embedDialog).toBeHidden();
    await expect(content).toContainText("https://www.youtube.com/watch?v=dQw4w9WgXcQ");

    await expect(page.getByTestId("story-counts")).toHaveText(/^\d+ words · 1 min read$/);
    expect(await axeViolations(page), "the editor with a written story").toEqual([]);
    await fillPublishingDetails(page);
    await publishNow(page);
    await expectStoryLive(page);

    const [stored] = await query<{ content: string; content_doc: { content: { type: string }[] } }>(
      "select content, content_doc from articles where slug = $1",
      [slug],
    );
    expect(stored!.content_doc.content.map((n) => n.type)).toEqual(
      expect.arrayContaining(["paragraph", "heading", "bulletList", "storyImage", "embed"]),
    );
    expect(stored!.content).toContain("What changes\n\nRead the council report.");

    // The reader page, without JavaScript: everything is there, rendered by the server.
    const context = await browser.newContext({ javaScriptEnabled: false });
    const reader = await context.newPage();
    const thirdParty: string[] = [];
    reader.on("request", (request) => {
      if (!request.url().startsWith("http://localhost")) thirdParty.push(request.url());
    });
    await reader.goto(`/article/${slug}`);
    const body = reader.locator(".story-body");
    await expect(reader.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(body.getByRole("heading", { level: 2, name: "What changes" })).toBeVisible();
    const link = body.getByRole("link", { name: "council report" });
    await expect(link).toHaveAttribute("href", "https://example.com/ferry-report");
    await expect(link).toHaveAttribute("rel", "noopener");
    await expect(body.getByRole("listitem")).toHaveText(["Departures every hour", "Bicycles ride free"]);
    const figure = body.locator("figure.story-image");
    await expect(figure.getByRole("img", { name: "The ferry at the quay after dark" })).toHaveAttribute("src", imageUrl);
    await expect(figure.locator("figcaption")).toHaveText("The first crossing on Friday Ana Photo");
    // The embed is a click-to-load frame of our own HTML (no src) with a plain link to the video: nothing loaded from YouTube.
    const embed = body.getByRole("link", { name: /Watch on YouTube/ });
    await expect(embed).toHaveAttribute("href", "https://www.youtube.com/watch?v=dQw4w9WgXcQ");
    await expect(reader.locator("iframe")).toHaveCount(1);
    await expect(reader.locator("iframe[src]")).toHaveCount(0);
    // What the writer typed as markup is text.
    await expect(body).toContainText("<script>window.__ran = true</script>");
    await expect(body.locator("script")).toHaveCount(0);
    await expect(reader.getByTestId("reading-time")).toHaveText("1 min read");
    expect(thirdParty).toEqual([]);
    await context.close();

    // With JavaScript too, the typed script never runs and nothing comes from YouTube before a click.
    const requests: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    await page.goto(`/article/${slug}`, { waitUntil: "networkidle" });
    expect(await page.evaluate(() => (window as unknown as { __ran?: boolean }).__ran)).toBeUndefined();
    expect(requests.filter((url) => /youtube|ytimg|twitter|x\.com/.test(url))).toEqual([]);
    expect(await axeViolations(page), "the article page with the story").toEqual([]);
  });

  test("a document with a javascript: link or an unknown node is refused with a 400 and saves nothing; one stored anyway renders inert", async ({
    page,
  }) => {
    const run = Date.now().toString(36);
    await openEditor(page, "/admin/articles/new");
    const post = (contentDoc: unknown) =>
      page.request.post("/admin/articles/new", {
        headers: { Origin: new URL(page.url()).origin },
        form: { title: `Refused ${run}`, slug: `refused-${run}`, content: "x", contentDoc: JSON.stringify(contentDoc) },
      });
    const jsLink = {
      type: "doc",
      content: [{ type: "paragraph", content: [{ type: "text", text: "click", marks: [{ type: "link", attrs: { href: "javascript:alert(1)" } }] }] }],
    };
    const refusedLink = await post(jsLink);
    expect(refusedLink.status()).toBe(400);
    expect(await refusedLink.text()).toContain("Links must start with http://, https:// or mailto:");
    const refusedNode = await post({ type: "doc", content: [{ type: "script", content: [{ type: "text", text: "alert(1)" }] }] });
    expect(refusedNode.status()).toBe(400);
    expect(await refusedNode.text()).toContain("does not allow");
    expect(await query("select 1 from articles where slug = $1", [`refused-${run}`])).toEqual([]);

    // Written straight into the database, past the service: the renderer's allow-list still makes it inert.
    const slug = `inert-${run}`;
    await query(`insert into articles (title, slug, content, content_doc, category_id) values ($1, $2, 'click', $3, $4)`, [
      "Inert story",
      slug,
      JSON.stringify({ ...jsLink, content: [...jsLink.content, { type: "script", content: [{ type: "text", text: "window.__ran = true" }] }] }),
      await categoryId("news"),
    ]);
    await page.goto(`/article/${slug}`, { waitUntil: "networkidle" });
    await expect(page.locator(".story-body")).toHaveText("click");
    await expect(page.locator(".story-body a")).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { __ran?: boolean }).__ran)).toBeUndefined();
  });

  test("a plain-text story opens in the editor as its paragraphs, with the exact text", async ({ page }) => {
    const slug = `plain-into-editor-${Date.now().toString(36)}`;
    const text = "First line <b>kept</b>.\nSecond line.\n\nA second paragraph.";
    // In a category: Update Article publishes, and publishing needs one (decision 0033).
    const [{ id }] = await query<{ id: string }>(`insert into articles (title, slug, content, category_id) values ($1, $2, $3, $4) returning id`, [
      "Plain into editor",
      slug,
      text,
      await categoryId("news"),
    ]);
    const content = await openEditor(page, `/admin/articles/edit/${id}`);
    const paragraphs = content.locator("p");
    await expect(paragraphs).toHaveCount(2);
    expect(await paragraphs.first().innerHTML()).toBe("First line &lt;b&gt;kept&lt;/b&gt;.<br>Second line.");
    await expect(paragraphs.last()).toHaveText("A second paragraph.");
    await expect(page.getByTestId("story-counts")).toHaveText("10 words · 1 min read");
    // Saved unchanged, it reads as before.
    await page.getByRole("button", { name: "Update Article" }).click();
    await expect(page).toHaveURL(/\/admin\/articles$/);
    const [stored] = await query<{ content: string }>("select content from articles where slug = $1", [slug]);
    expect(stored!.content).toBe(text);
    await page.goto(`/article/${slug}`);
    const shown = page.locator(".story-body p");
    await expect(shown.first()).toHaveText("First line <b>kept</b>.Second line.");
    expect(await shown.first().evaluate((p: HTMLElement) => p.innerText)).toBe("First line <b>kept</b>.\nSecond line.");
    await expect(shown.last()).toHaveText("A second paragraph.");
  });
});
