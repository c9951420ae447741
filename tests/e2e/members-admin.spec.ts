import { readFile } from "node:fs/promises";
import { accountWithRole } from "./accounts";
import { signInAsAdmin, signInWith, toastWith } from "./admin-session";
import { query } from "./db";
import { expect, expectNoSidewaysScroll, test, waitForHydration, type Page } from "./fixtures";

// The newsroom's members screens (issue 40): an admin filters the members, opens one, gives a
// complimentary plan and exports; an editor reads the list without any amount and may change nothing;
// an author is refused. Tiers and subscriptions are written straight into the database here (the
// tiers screen and Stripe are other work of the issue).

async function shots(page: Page, name: string) {
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0, { timeout: 10_000 });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width < 1024 ? 844 : 900 });
    await expectNoSidewaysScroll(page, `${name} at ${width}px`);
    await page.screenshot({ path: `test-results/members-admin/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

// Each test seeds its own tier and people: a stamp per seed (a module-level one would repeat in one worker).
let stamp = "";
let tierName = "";

async function seed() {
  stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
  tierName = `Supporter ${stamp}`;
  const [tier] = await query<{ id: string }>(
    "insert into member_tiers (name, slug, monthly_price, yearly_price, currency, position) values ($1, $2, 500, 5000, 'usd', 0) returning id",
    [tierName, `supporter-${stamp}`],
  );
  const person = async (key: string, name: string) =>
    (await query<{ id: string }>("insert into subscribers (email, name, status, token_key) values ($1, $2, 'active', 'k') returning id", [`${key}-${stamp}@example.com`, name]))[0]!.id;
  const payer = await person("payer", "Paula Payer");
  await query(
    `insert into member_subscriptions (member_id, stripe_subscription_id, stripe_customer_id, tier_id, status, cadence, amount, currency, started_at, current_period_end)
     values ($1, $2, $3, $4, 'active', 'year', 6000, 'usd', now() - interval '40 days', now() + interval '325 days')`,
    [payer, `sub_${stamp}`, `cus_${stamp}`, tier!.id],
  );
  const reader = await person("reader", "Rita Reader");
  return { tierId: tier!.id, payer, reader };
}

test("an admin filters the members, opens one, gives a complimentary plan, takes it back and exports", async ({ page }) => {
  test.slow();
  const { payer, reader } = await seed();
  await signInAsAdmin(page);

  // The dashboard's members cards, money included.
  await expect(page.getByTestId("stat-members")).toBeVisible();
  await expect(page.getByTestId("stat-mrr")).toHaveText(/^\$\d/);

  const nav = page.getByRole("navigation", { name: "Back office" });
  await nav.getByRole("link", { name: "Members" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Members");
  await waitForHydration(page.getByRole("button", { name: "Dry run" }));

  // Paid members whose address holds the stamp: the payer alone, with what they pay a month.
  await page.getByLabel("Search").fill(stamp);
  await page.getByLabel("Status").selectOption("paid");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/[?&]status=paid(&|$)/);
  await expect(page.getByTestId("members-total")).toHaveText("1 member");
  const row = page.getByTestId("member-row");
  await expect(row).toContainText(`payer-${stamp}@example.com`);
  await expect(row).toContainText(tierName);
  await expect(row.getByTestId("member-amount")).toHaveText("$5.00/mo");
  await shots(page, "members-filtered");

  // By tier "Free": the reader, not the payer.
  await page.goto(`/admin/members?q=${stamp}&tier=free`);
  await expect(page.getByTestId("member-row")).toHaveCount(1);
  await expect(page.getByTestId("member-row")).toContainText(`reader-${stamp}@example.com`);

  // The reader's page: give a complimentary plan; their access cookie is renewed (access_changed_at moves).
  await page.getByRole("link", { name: `reader-${stamp}@example.com` }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`reader-${stamp}@example.com`);
  await waitForHydration(page.getByRole("button", { name: "Give complimentary plan" }));
  const [before] = await query<{ at: Date }>("select access_changed_at as at from subscribers where id = $1", [reader]);
  // A day already past is refused beside its field, and nothing changes.
  await page.getByLabel("Tier").selectOption({ label: tierName });
  await page.getByLabel("Until (optional)").fill("2020-01-01");
  await page.getByRole("button", { name: "Give complimentary plan" }).click();
  await expect(page.getByText("The end date must be after today.").first()).toBeVisible();
  expect((await query("select comp_tier_id from subscribers where id = $1 and comp_tier_id is not null", [reader])).length).toBe(0);

  await page.getByLabel("Until (optional)").fill("");
  await page.getByRole("button", { name: "Give complimentary plan" }).click();
  await expect(toastWith(page, `Complimentary plan given: ${tierName}`)).toBeVisible();
  await expect(page.getByTestId("member-comp")).toHaveText(`${tierName}, no end date.`);
  await expect(page.getByTestId("member-plan")).toHaveText(`Complimentary: ${tierName}`);
  await expect(page.getByTestId("member-timeline")).toContainText(`Complimentary ${tierName}, no end`);
  const [after] = await query<{ at: Date }>("select access_changed_at as at from subscribers where id = $1", [reader]);
  expect(after!.at.getTime()).toBeGreaterThan(before!.at.getTime());
  expect(await query("select 1 from audit_events where kind = 'member.comp_grant' and object_id = $1", [reader])).toHaveLength(1);
  await shots(page, "member-comp");

  await page.getByRole("button", { name: "Take it back" }).click();
  await expect(toastWith(page, "Complimentary plan taken back")).toBeVisible();
  await expect(page.getByTestId("member-comp")).toHaveText("None.");

  // The payer's page: the subscription with its amount and renewal.
  await page.goto(`/admin/members/${payer}`);
  await expect(page.getByTestId("member-subscription")).toContainText("$60.00/yr");
  await expect(page.getByTestId("member-subscription")).toContainText("Renews");

  // Export, filtered like the list.
  await page.goto(`/admin/members?q=${stamp}`);
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^members-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile((await download.path())!, "utf8");
  const lines = csv.trim().split("\r\n");
  expect(lines[0]).toBe("email,name,status,tiers,comp_tier,comp_until,newsletters,email_state,signed_up_at");
  expect(lines.slice(1).map((l) => l.split(",")[0]).sort()).toEqual([`payer-${stamp}@example.com`, `reader-${stamp}@example.com`]);
  expect(csv).toContain(`payer-${stamp}@example.com,Paula Payer,paid,${tierName},`);
});

test("an editor sees the members without any amount and may change nothing; an author is refused", async ({ page, baseURL }) => {
  test.slow();
  const { payer, reader } = await seed();
  const editor = await accountWithRole(baseURL, "members-editor", "editor");
  await signInWith(page, editor);
  await expect(page.getByTestId("stat-members")).toBeVisible();
  await expect(page.getByTestId("stat-mrr")).toHaveCount(0);

  await page.goto(`/admin/members?q=${stamp}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Members");
  await expect(page.getByTestId("member-row")).toHaveCount(2);
  await expect(page.getByRole("columnheader", { name: "Pays" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Export CSV" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Dry run" })).toHaveCount(0);
  expect(await page.content()).not.toContain("$5.00");
  await shots(page, "members-editor");

  await page.goto(`/admin/members/${payer}`);
  await expect(page.getByTestId("member-subscription")).toContainText("Yearly");
  await expect(page.getByRole("columnheader", { name: "Amount" })).toHaveCount(0);
  expect(await page.content()).not.toContain("$60.00");
  await expect(page.getByRole("button", { name: "Give complimentary plan" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Delete member" })).toHaveCount(0);

  // The server refuses what the screen hides.
  const origin = new URL(baseURL!).origin;
  const grant = await page.request.post(`/admin/members/${reader}`, { form: { intent: "comp-grant", tierId: "5b0c7a5e-3f7e-4a53-9d8e-1f0b3d7c2a11", until: "" }, headers: { Origin: origin } });
  expect(grant.status()).toBe(403);
  const erase = await page.request.post(`/admin/members/${reader}`, { form: { intent: "delete" }, headers: { Origin: origin } });
  expect(erase.status()).toBe(403);
  expect((await page.request.get("/api/admin/members.csv")).status()).toBe(403);
  expect(await query("select 1 from subscribers where id = $1 and comp_tier_id is null", [reader])).toHaveLength(1);

  // An author: no Members in the navigation, and the screen is refused.
  const author = await accountWithRole(baseURL, "members-author", "author");
  await page.context().clearCookies();
  await signInWith(page, author);
  await expect(page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Members" })).toHaveCount(0);
  await expect(page.getByTestId("stat-members")).toHaveCount(0);
  const refused = await page.goto("/admin/members");
  expect(refused!.status()).toBe(403);
  expect((await page.request.get(`/admin/members/${payer}`)).status()).toBe(403);
  await shots(page, "members-author-refused");
});
