import { accountWithRole } from "./accounts";
import { signInAsAdmin, signInWith, toastWith } from "./admin-session";
import { query } from "./db";
import { expect, expectNoSidewaysScroll, test, waitForHydration, type Page } from "./fixtures";

// The newsroom's side of newsletters (issue 30): /admin/newsletters, its subscribers (now /admin/members: CSV import,
// export, erasure) and the article form's "Send by e-mail", as an admin and as an editor.

async function shots(page: Page, name: string) {
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0, { timeout: 10_000 });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width < 1024 ? 844 : 900 });
    await expectNoSidewaysScroll(page, `${name} at ${width}px`);
    await page.screenshot({ path: `test-results/newsletters-admin/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("an admin creates a digest newsletter, imports a CSV with bad lines and sees them listed, exports, and deletes one person", async ({ page }) => {
  test.slow();
  const stamp = Date.now().toString(36);
  await signInAsAdmin(page);

  // A weekly digest, through the form (a bad time first: refused beside its field).
  await page.goto("/admin/newsletters");
  await waitForHydration(page.getByText("New newsletter"));
  await expect(page.getByRole("note").filter({ hasText: "Newsletters are saved to the outbox folder" })).toBeVisible();
  await page.getByText("New newsletter").click();
  await page.getByLabel("Name *").fill(`Weekend Digest ${stamp}`);
  await page.getByLabel("Kind").selectOption("digest");
  await page.getByLabel("Frequency").selectOption("weekly");
  await page.getByLabel("Day").selectOption("6");
  await page.getByLabel("Time (HH:MM)").fill("08:30");
  await page.getByLabel("Reply-to address").fill("letters@example.com");
  await expect(page.getByLabel("Track opens and clicks")).not.toBeChecked();
  await page.getByRole("button", { name: "Create newsletter" }).click();
  await expect(toastWith(page, `Newsletter created: Weekend Digest ${stamp}`)).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: `Weekend Digest ${stamp}` });
  await expect(row).toContainText("Weekly on Saturday at 08:30");
  await expect(row).toContainText("Public");
  await expect(row.getByTestId("newsletter-subscribers")).toHaveText("0");
  const [digest] = await query<{ id: string; slug: string; track_engagement: boolean }>("select id, slug, track_engagement from newsletters where name = $1", [`Weekend Digest ${stamp}`]);
  expect(digest!.track_engagement).toBe(false);
  await shots(page, "newsletters");

  // Its page: the settings and, as yet, no sends.
  await row.getByRole("link", { name: `Weekend Digest ${stamp}`, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Weekend Digest ${stamp}`);
  await expect(page.getByText("Nothing sent yet.")).toBeVisible();

  // Subscribers: an address that unsubscribed before, one erased later, and a file with 3 bad lines.
  await query("insert into subscribers (email, status, token_key) values ($1, 'unsubscribed', 'k')", [`gone-${stamp}@example.com`]);
  const lines = ["email,name,newsletters"];
  for (let i = 1; i <= 20; i++) lines.push(`reader-${stamp}-${i}@example.com,Reader ${i},stories;${digest!.slug}`);
  lines.push("not-an-address,Broken,stories"); // line 22
  lines.push(`reader-${stamp}-3@example.com,Twice,stories`); // line 23
  lines.push(`lost-${stamp}@example.com,Lost,no-such-newsletter`); // line 24
  lines.push(`gone-${stamp}@example.com,Gone,stories`); // line 25
  // Subscribers are members now (issue 40): /admin/subscribers leads to /admin/members, whose import runs a dry run first.
  await page.goto("/admin/subscribers");
  await expect(page).toHaveURL(/\/admin\/members$/);
  await waitForHydration(page.getByRole("button", { name: "Dry run" }));
  const file = { name: "people.csv", mimeType: "text/csv", buffer: Buffer.from(lines.join("\n")) };
  // Without the consent tick: refused, nothing imported.
  await page.getByLabel("CSV file").setInputFiles(file);
  await page.getByRole("button", { name: "Dry run" }).click();
  await expect(page.getByText("Tick “These people agreed to receive it”").first()).toBeVisible();
  expect(await query("select 1 from subscribers where email like $1", [`reader-${stamp}-%`])).toHaveLength(0);

  await page.getByLabel("CSV file").setInputFiles(file);
  await page.getByLabel("These people agreed to receive it").check();
  await page.getByRole("button", { name: "Dry run" }).click();
  const report = page.getByTestId("import-report");
  await expect(report).toContainText("20 would be added, 0 would be updated, 0 unchanged, 1 would be skipped; 3 lines cannot be imported.");
  expect(await query("select 1 from subscribers where email like $1", [`reader-${stamp}-%`])).toHaveLength(0);
  await page.getByRole("button", { name: "Import", exact: true }).click();
  await expect(report).toContainText("20 added, 0 updated, 0 unchanged, 1 skipped; 3 lines cannot be imported.");
  await expect(report).toContainText("Line 22: “not-an-address” is not a valid e-mail address.");
  await expect(report).toContainText(`Line 23: reader-${stamp}-3@example.com is already on line 4.`);
  await expect(report).toContainText("Line 24: No newsletter is called “no-such-newsletter”");
  await expect(report).toContainText(`Line 25: Skip gone-${stamp}@example.com (unsubscribed before`);
  expect((await query<{ status: string }>("select status from subscribers where email = $1", [`gone-${stamp}@example.com`]))[0]!.status).toBe("unsubscribed");

  // Search and filters (the old address keeps its filters).
  await page.goto(`/admin/subscribers?q=reader-${stamp}-1&newsletter=${digest!.id}&status=active`);
  await expect(page).toHaveURL(new RegExp(`/admin/members\\?q=reader-${stamp}-1&newsletter=${digest!.id}&state=active$`));
  await expect(page.getByTestId("members-total")).toHaveText("11 members"); // -1, -10 … -19
  await shots(page, "subscribers");

  // The subscribers' export (consent record) is still there for admins.
  const exported = await (await page.request.get("/api/admin/subscribers.csv")).text();
  expect(exported.startsWith("email,name,status,newsletters,consent_source,consent_at,confirmed_at,created_at\r\n")).toBe(true);
  expect(exported).toMatch(new RegExp(`reader-${stamp}-2@example\\.com,Reader 2,active,stories;${digest!.slug},import,\\d{4}-`));

  // Delete one person from their member page, through the confirmation: only a hash remains, and a re-import skips them.
  const victim = `reader-${stamp}-2@example.com`;
  await page.goto(`/admin/members?q=${encodeURIComponent(victim)}`);
  await page.getByRole("link", { name: victim }).click();
  await waitForHydration(page.getByRole("button", { name: "Delete member" }));
  await page.getByRole("button", { name: "Delete member" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await expect(toastWith(page, "Member deleted")).toBeVisible();
  expect(await query("select 1 from subscribers where email = $1", [victim])).toHaveLength(0);
  expect(JSON.stringify(await query("select * from audit_events where kind = 'member.delete'"))).not.toContain(victim);

  await page.goto("/admin/members");
  await waitForHydration(page.getByRole("button", { name: "Dry run" }));
  await page.getByLabel("CSV file").setInputFiles({ name: "again.csv", mimeType: "text/csv", buffer: Buffer.from(`email\n${victim}\n`) });
  await page.getByLabel("These people agreed to receive it").check();
  await page.getByRole("button", { name: "Dry run" }).click();
  await expect(page.getByTestId("import-report")).toContainText(`Line 2: Skip ${victim} (erased at their request)`);
  expect(await query("select 1 from subscribers where email = $1", [victim])).toHaveLength(0);

  // The dashboard's card counts them.
  await page.goto("/admin");
  expect(Number((await page.getByTestId("stat-subscribers").textContent())!.replace(/\D/g, ""))).toBeGreaterThanOrEqual(19);
});

test("an editor sees the newsletters and members but not Import, Export or Delete; the story's Send by e-mail is in the publish panel", async ({ page, baseURL }) => {
  test.slow();
  const editor = await accountWithRole(baseURL, "letters-editor", "editor");
  await signInWith(page, editor);
  const nav = page.getByRole("navigation", { name: "Back office" });
  await expect(nav.getByRole("link", { name: "Newsletters" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Members" })).toBeVisible();

  await page.goto("/admin/newsletters");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Newsletters");
  await page.goto("/admin/subscribers");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Members");
  await expect(page.getByRole("button", { name: "Dry run" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Export CSV" })).toHaveCount(0);
  expect((await page.request.get("/api/admin/subscribers.csv")).status()).toBe(403);

  // The publish panel of a new story offers the newsletters; the story's settings hold the same choice.
  await page.goto("/admin/articles/new");
  await waitForHydration(page.getByRole("button", { name: "Publish…" }));
  await page.getByLabel("Title *").fill("A story for the newsletter");
  await page.getByRole("button", { name: "Publish…" }).click();
  const panel = page.getByTestId("publish-panel");
  const choice = panel.getByTestId("publish-send-by-email");
  await expect(choice).toBeVisible();
  const first = choice.getByRole("checkbox").first();
  await first.check();
  // The modal hides the rest of the page from the accessibility tree: the form's own box, by its field.
  await expect(page.locator('#article-form input[name="newsletterIds"]').first()).toBeChecked();
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width < 1024 ? 844 : 900 });
    await page.screenshot({ path: `test-results/newsletters-admin/publish-panel-${width}.png`, fullPage: false });
  }
  await page.keyboard.press("Escape");
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByTestId("send-by-email").scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/newsletters-admin/story-settings-1280.png", fullPage: true });

  // An author's form has no such field, and a request carrying one anyway is refused (403), nothing saved.
  const author = await accountWithRole(baseURL, "letters-author", "author");
  const [category] = await query<{ id: string }>("select id from categories limit 1");
  const form = { title: "Mailed by an author", slug: `mailed-by-author-${Date.now().toString(36)}`, content: "Body", categoryId: category!.id, authorName: "A", intent: "draft" };
  const mailed = await author.context.post("/admin/articles/new", { form: { ...form, newsletterChoice: "1" }, maxRedirects: 0 });
  expect(mailed.status()).toBe(403);
  const tested = await author.context.post("/admin/articles/new", { form: { ...form, intent: "test-email", testEmailTo: "me@example.com" }, maxRedirects: 0 });
  expect(tested.status()).toBe(403);
  expect(await query("select 1 from articles where slug = $1", [form.slug])).toHaveLength(0);
});
