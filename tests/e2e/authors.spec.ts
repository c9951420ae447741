import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./fixtures";
import { signInAsAdmin } from "./admin-session";
import { query } from "./db";
import { fillPublishingDetails, publishNow, expectStoryLive } from "./publish-panel";

// A valid 1×1 PNG: uploads are checked from their bytes, so it has to be a real image.
const PNG_1PX = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

const run = Date.now().toString(36);
const articleSlug = `council-budget-vote-${run}`;

// The story would lead the home page for the specs after this one (one reads the lead story's size).
test.afterAll(async () => {
  await query(`delete from articles where slug = $1`, [articleSlug]);
});

test("an author with a photo and bio, assigned to an article: the byline links to their page, which lists it (with JavaScript off too)", async ({
  page,
  browser,
}) => {
  test.slow();
  const name = `Rosa Quill ${run}`;
  const slug = `rosa-quill-${run}`;
  await signInAsAdmin(page);

  // Create the author: a bad link is refused on the server with a message beside the field.
  await page.goto("/admin/authors", { waitUntil: "networkidle" });
  await expect(page.getByRole("heading", { level: 1, name: "Manage Authors" })).toBeVisible();
  await page.getByLabel("Name *").fill(name);
  await expect(page.getByLabel("Slug *")).toHaveValue(slug);
  await page.getByLabel("Role title").fill("Political correspondent");
  await page.getByLabel("Bio").fill("Covers the council and the courts.");
  await page.getByLabel("Upload Image").setInputFiles({ name: "rosa.png", mimeType: "image/png", buffer: PNG_1PX });
  await expect(page.getByRole("img", { name: "Featured image preview" })).toHaveAttribute("src", /^\/media\/images\/\d+-[a-z0-9]+\.png$/);
  await page.getByLabel("Website").fill("javascript:alert(1)");
  await page.getByRole("button", { name: "Create Author" }).click();
  await expect(page.getByText("Website must be a web address starting with http:// or https://").first()).toBeVisible();
  await page.getByLabel("Website").fill("https://rosa.example/");
  await page.getByRole("button", { name: "Create Author" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Author created: /author/${slug}` })).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(name) })).toContainText("Political correspondent");

  // Assign them to a new article.
  const title = `Council budget vote ${run}`;
  await page.goto("/admin/articles/new", { waitUntil: "networkidle" });
  await page.getByLabel("Title *").fill(title);
  await page.getByLabel("Content *").fill("The council voted on Tuesday.");
  await page.getByLabel("Author to add").selectOption({ label: name });
  await page.getByRole("button", { name: "Add author" }).click();
  await expect(page.getByRole("list", { name: "Chosen authors" })).toContainText(name);
  await fillPublishingDetails(page);
  await publishNow(page);
  await expectStoryLive(page);

  // The byline links to the author page, which lists the article.
  await page.goto(`/article/${articleSlug}`);
  const byline = page.getByTestId("byline").getByRole("link", { name });
  await expect(byline).toHaveAttribute("href", `/author/${slug}`);
  await byline.click();
  await expect(page).toHaveURL(new RegExp(`/author/${slug}$`));
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByText("Political correspondent")).toBeVisible();
  await expect(page.getByText("Covers the council and the courts.")).toBeVisible();
  await expect(page.getByTestId("author-header").getByRole("img", { name, exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Website" })).toHaveAttribute("href", "https://rosa.example/");
  await expect(page.getByRole("heading", { name: title })).toBeVisible();
  await expect(page.locator('meta[property="og:type"]')).toHaveAttribute("content", "profile");
  await page.waitForLoadState("networkidle");
  expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);

  // Unknown authors are 404.
  expect((await page.request.get("/author/nobody-at-all")).status()).toBe(404);

  // Without JavaScript: the server renders the byline link and the author page.
  const noJs = await browser.newContext({ javaScriptEnabled: false });
  const reader = await noJs.newPage();
  await reader.goto(`/article/${articleSlug}`);
  await expect(reader.getByTestId("byline").getByRole("link", { name })).toHaveAttribute("href", `/author/${slug}`);
  await reader.goto(`/author/${slug}`);
  await expect(reader.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(reader.getByRole("heading", { name: title })).toBeVisible();
  await noJs.close();
});
