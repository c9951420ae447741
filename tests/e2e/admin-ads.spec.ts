import { accountWithRole, PNG } from "./accounts";
import { signInAsAdmin, toastWith } from "./admin-session";
import { query } from "./db";
import { expect, expectNoSidewaysScroll, test, waitForHydration } from "./fixtures";

// The ads back office (issue 43): an admin adds an advertiser, a campaign for the article slot on News
// pages from today for a week, an image creative (alt text and link) and a text ad; each refusal is
// shown beside its field; the screens fit a phone and a desktop.

// The campaign made here runs from today on News articles: paused once the file is done, so the other
// journeys' article pages (an empty slot takes no space) are not showing its ads.
test.afterAll(async () => {
  await query("update ad_campaigns set paused = true where name like 'Winter tyres %'");
});

test("an admin adds an advertiser, a week's campaign for News articles, an image creative and a text ad", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const advertiser = `Harbour Garage ${stamp}`;
  await signInAsAdmin(page);

  // An image in the media library, uploaded as the article form does.
  const upload = await page.request.post("/api/admin/uploads/image", { headers: { origin: baseURL! }, multipart: { file: { name: `tyres-${stamp}.png`, mimeType: "image/png", buffer: PNG } } });
  expect(upload.status()).toBe(201);

  await page.goto("/admin/ads");
  await waitForHydration(page.getByRole("heading", { name: "Ads", level: 1 }));
  await page.getByRole("link", { name: "New advertiser" }).first().click();
  await expect(page.getByRole("heading", { name: "New advertiser", level: 1 })).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill(advertiser);
  await page.getByLabel("Contact e-mail").fill("not-an-address");
  await page.getByRole("button", { name: "Add advertiser" }).click();
  await expect(page.getByLabel("Contact e-mail")).toHaveAccessibleDescription("Enter a valid e-mail address (like name@example.com), or leave it empty.");
  await page.getByLabel("Contact e-mail").fill("ann@garage.example");
  await page.getByRole("button", { name: "Add advertiser" }).click();
  await expect(page.getByRole("heading", { name: advertiser, level: 1 })).toBeVisible();
  await expect(toastWith(page, "Advertiser added")).toBeVisible();
  await expect(page.getByRole("link", { name: "Report" })).toHaveAttribute("href", /\/admin\/ads\/advertisers\/[0-9a-f-]{36}\/report$/);

  // The campaign: the advertiser is chosen already, the dates are today and six days on (a week).
  await page.getByRole("link", { name: "New campaign" }).click();
  await expect(page.getByRole("heading", { name: "New campaign", level: 1 })).toBeVisible();
  await waitForHydration(page.getByRole("button", { name: "Create campaign" }));
  await expect(page.getByLabel("Advertiser")).toHaveValue(/[0-9a-f-]{36}/);
  const start = await page.getByLabel("Start date").inputValue();
  const end = await page.getByLabel("End date").inputValue();
  expect((Date.parse(end) - Date.parse(start)) / 86_400_000).toBe(6);
  await page.getByLabel("Name", { exact: true }).fill(`Winter tyres ${stamp}`);
  await page.getByLabel("End date").fill("2020-01-01");
  await page.getByRole("button", { name: "Create campaign" }).click();
  await expect(page.getByLabel("End date")).toHaveAccessibleDescription("The end date must be on or after the start date.");
  await expect(page.getByRole("group", { name: "Slots" })).toHaveAccessibleDescription("Choose at least one slot.");
  await page.getByLabel("End date").fill(end);
  await page.getByRole("checkbox", { name: /Article pages/ }).check();
  await page.getByRole("checkbox", { name: "News", exact: true }).check();
  await expect(page.getByRole("radio", { name: "Only these categories:" })).toBeChecked();
  await page.getByRole("button", { name: "Create campaign" }).click();
  await expect(page.getByRole("heading", { name: `Winter tyres ${stamp}`, level: 1 })).toBeVisible();
  await expect(toastWith(page, "Campaign created")).toBeVisible();
  await expect(page.getByTestId("missing-creatives")).toHaveText(/No creative for the box slots: it will not show there/);
  const [saved] = await query<{ slots: string[]; category_ids: string[]; starts_on: string; ends_on: string }>(
    "select slots, category_ids, starts_on::text, ends_on::text from ad_campaigns where name = $1",
    [`Winter tyres ${stamp}`],
  );
  const [news] = await query<{ id: string }>("select id from categories where slug = 'news'");
  expect(saved).toEqual({ slots: ["article"], category_ids: [news!.id], starts_on: start, ends_on: end });

  // The image creative: alt text is required, the link must be http(s).
  await page.locator("summary", { hasText: "Add image creative" }).click();
  await page.getByRole("radio", { name: `tyres-${stamp}.png` }).check();
  await page.getByLabel("Link").first().fill("javascript:alert(1)");
  await page.getByRole("button", { name: "Add image creative" }).click();
  await expect(page.getByLabel("Alt text")).toHaveAccessibleDescription(/Alt text is required: it is what readers who cannot see the image hear\./);
  await expect(page.getByLabel("Link").first()).toHaveAccessibleDescription(/Enter a full web address starting with http:\/\/ or https:\/\/\./);
  await page.getByLabel("Alt text").fill("Harbour Garage: winter tyres fitted while you wait");
  await page.getByLabel("Link").first().fill("https://garage.example/tyres");
  await page.getByRole("button", { name: "Add image creative" }).click();
  await expect(toastWith(page, "Image creative added")).toBeVisible();
  await expect(page.getByRole("img", { name: "Harbour Garage: winter tyres fitted while you wait" })).toBeVisible();
  await expect(page.getByTestId("missing-creatives")).toHaveCount(0);

  // The text ad.
  await page.locator("summary", { hasText: "Add text ad" }).click();
  const textForm = page.locator("form").filter({ has: page.getByRole("button", { name: "Add text ad" }) });
  await textForm.getByLabel("Size").selectOption("banner");
  await textForm.getByLabel("Headline").fill("Winter tyres, fitted today");
  await textForm.getByLabel("Line", { exact: true }).fill("Book a slot online: no waiting.");
  await textForm.getByLabel("Link").fill("https://garage.example/book");
  await textForm.getByRole("button", { name: "Add text ad" }).click();
  await expect(toastWith(page, "Text ad added")).toBeVisible();
  await expect(page.getByTestId("creative")).toHaveCount(2);
  await expect(page.getByTestId("creative").filter({ hasText: "Winter tyres, fitted today" })).toContainText("Banner (wide, 120 px high)");
  const creatives = await query<{ kind: string; size: string; alt: string; link_url: string }>(
    "select kind, size, alt, link_url from ad_creatives c join ad_campaigns a on a.id = c.campaign_id where a.name = $1 order by kind",
    [`Winter tyres ${stamp}`],
  );
  expect(creatives).toEqual([
    { kind: "image", size: "box", alt: "Harbour Garage: winter tyres fitted while you wait", link_url: "https://garage.example/tyres" },
    { kind: "text", size: "banner", alt: "", link_url: "https://garage.example/book" },
  ]);
  const campaignUrl = page.url();

  // The list: the campaign, running from today, with its advertiser.
  await page.goto("/admin/ads");
  const row = page.getByRole("row").filter({ hasText: `Winter tyres ${stamp}` });
  await expect(row).toContainText(advertiser);
  await expect(row.getByTestId("campaign-status")).toHaveText("Running");
  await expect(page.getByRole("link", { name: advertiser })).toBeVisible();

  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0, { timeout: 10_000 });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width < 1024 ? 844 : 900 });
    await page.goto("/admin/ads");
    await expectNoSidewaysScroll(page, `/admin/ads at ${width}`);
    await page.screenshot({ path: `test-results/admin-ads-list-${width}.png`, fullPage: true });
    await page.goto(campaignUrl);
    await expect(page.getByTestId("creative")).toHaveCount(2);
    await expectNoSidewaysScroll(page, `the campaign at ${width}`);
    await page.screenshot({ path: `test-results/admin-ads-campaign-${width}.png`, fullPage: true });
  }
});

test("an admin lets an editor manage advertising on the Team screen, and takes it back", async ({ page, baseURL }) => {
  const editor = await accountWithRole(baseURL, "ads-editor", "editor");
  const post = () => editor.context.post("/admin/ads", { form: { intent: "house-ads" }, maxRedirects: 0 });
  expect((await editor.context.get("/admin/ads", { maxRedirects: 0 })).status()).toBe(403);
  expect((await post()).status()).toBe(403);

  await signInAsAdmin(page);
  await page.goto("/admin/team");
  const row = page.getByRole("listitem").filter({ hasText: editor.email });
  await waitForHydration(row);
  await row.getByRole("checkbox", { name: "May manage advertising" }).check();
  await expect(toastWith(page, "Permission given")).toBeVisible();
  await expect(row.getByRole("checkbox", { name: "May manage advertising" })).toBeChecked();
  expect((await editor.context.get("/admin/ads", { maxRedirects: 0 })).status()).toBe(200);

  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page, "/admin/team at 390");
  await row.getByRole("checkbox", { name: "May manage advertising" }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/admin-ads-team-grant-390.png" });

  await row.getByRole("checkbox", { name: "May manage advertising" }).uncheck();
  await expect(toastWith(page, "Permission taken back")).toBeVisible();
  expect((await editor.context.get("/admin/ads", { maxRedirects: 0 })).status()).toBe(403);
  await editor.context.dispose();
});
