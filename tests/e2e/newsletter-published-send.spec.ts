import fs from "node:fs/promises";
import path from "node:path";
import { simpleParser } from "mailparser";
import { accountWithRole } from "./accounts";
import { signInWith, toastWith } from "./admin-session";
import { dataDir, query } from "./db";
import { expect, expectNoSidewaysScroll, test, waitForHydration, type Browser } from "./fixtures";
import { fillPublishingDetails } from "./publish-panel";

// Issue 39, items 11 and 12, on the production server at a phone's width: an editor sends a story that
// is public already from its edit page (a dialog says how many will receive it and warns that the
// footer has no postal address); the message delivered (the e2e server's outbox) fits a 320–390 px
// phone with no sideways scroll and names the site once in its footer; a second send, or an author's,
// is refused by the server. The newsletter screens and the publish panel warn of the missing address
// (a warning: nothing is blocked) and stop once the settings have one.

const wait = expect.configure({ timeout: 45_000 });
const PHONE = { width: 390, height: 844 };

/** The newsletter message the outbox holds for `to` with this subject, parsed. */
async function deliveredTo(to: string, subject: string) {
  const outbox = path.join(dataDir(), "outbox");
  for (const file of (await fs.readdir(outbox).catch(() => [] as string[])).filter((f) => f.endsWith(".eml"))) {
    const mail = await simpleParser(await fs.readFile(path.join(outbox, file)));
    if (mail.subject === subject && mail.to && !Array.isArray(mail.to) && mail.to.value.some((a) => a.address === to)) return mail;
  }
  return null;
}

/** The delivered HTML as a phone shows it (a mobile viewport: without a viewport tag it would lay out at 980 px). */
async function onAPhone(browser: Browser, html: string, width: number, shot: string) {
  const phone = await browser.newContext({ viewport: { width, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  const page = await phone.newPage();
  await page.setContent(html, { waitUntil: "load" });
  expect(await page.evaluate(() => window.innerWidth), `the e-mail lays out at the phone's ${width} px`).toBe(width);
  await expectNoSidewaysScroll(page, `the e-mail at ${width}px`);
  await page.screenshot({ path: `test-results/newsletter-published-send/email-${shot}-${width}.png`, fullPage: true });
  await phone.close();
}

test("an editor sends a public story from its edit page at 390 px: the dialog counts and warns, the message fits a phone, and it goes once", async ({ page, baseURL, browser }) => {
  test.setTimeout(180_000);
  const run = Date.now().toString(36);
  const [{ postal_address: postalBefore, site_name: siteName }] = await query<{ postal_address: string; site_name: string }>(
    `select postal_address, site_name from website_settings where id = 1`,
  );
  await query(`update website_settings set postal_address = '' where id = 1`);
  try {
    const [stories] = await query<{ id: string; name: string }>(`select id, name from newsletters where slug = 'stories'`);
    const reader = `phone-reader-${run}@example.com`;
    const [subscriber] = await query<{ id: string }>(
      `insert into subscribers (email, status, token_key, consent_source, consent_at, confirmed_at) values ($1, 'active', $2, '/newsletter', now(), now()) returning id`,
      [reader, `key-${run}`],
    );
    await query(`insert into subscriptions (subscriber_id, newsletter_id) values ($1, $2)`, [subscriber!.id, stories!.id]);
    // A demo story (a featured image, a long body), public and never sent to Stories.
    const [story] = await query<{ id: string; title: string }>(
      `select a.id, a.title from articles a where a.status = 'published' and a.published_at <= now() and a.featured_image is not null
         and not exists (select 1 from newsletter_sends s where s.article_id = a.id)
       order by length(a.content) desc limit 1`,
    );
    const [{ n: subscribers }] = await query<{ n: number }>(
      `select count(*)::int as n from subscriptions x join subscribers p on p.id = x.subscriber_id where x.newsletter_id = $1 and p.status = 'active'`,
      [stories!.id],
    );

    const editor = await accountWithRole(baseURL, "phone-editor", "editor");
    await page.setViewportSize(PHONE);
    await signInWith(page, editor);
    await page.goto(`/admin/articles/edit/${story!.id}`);
    await waitForHydration(page.getByRole("button", { name: "Unpublish…" }));
    // On a phone the story's settings are a sheet (decision 0035).
    await page.getByRole("button", { name: "Settings", exact: true }).click();
    const sheet = page.getByRole("dialog", { name: "Story settings" });
    const section = sheet.getByTestId("send-by-email");
    await expect(section).toContainText("This story is already public");
    await expect(section.getByTestId("postal-address-warning")).toBeVisible();
    await section.getByRole("button", { name: `Send now… to ${stories!.name}` }).click();

    const dialog = page.getByRole("alertdialog", { name: `Send this story to ${stories!.name}?` });
    await expect(dialog).toBeVisible();
    const count = `${subscribers.toLocaleString("en-US")} ${subscribers === 1 ? "subscriber" : "subscribers"}`;
    await expect(dialog).toContainText(`It goes now to the ${count} of ${stories!.name}.`);
    await expect(dialog.getByTestId("postal-address-warning")).toContainText("CAN-SPAM");
    await expectNoSidewaysScroll(page, "the send dialog at 390px");
    await page.screenshot({ path: "test-results/newsletter-published-send/send-dialog-390.png" });
    await dialog.getByRole("button", { name: "Send now" }).click();
    await expect(toastWith(page, `Sending to ${stories!.name}: ${count}`)).toBeVisible();
    await expect(section).toContainText("Sending…");
    await expect(section.getByRole("button", { name: /^Send now…/ })).toHaveCount(0);

    const sends = () => query<{ status: string }>(`select status from newsletter_sends where article_id = $1 and newsletter_id = $2`, [story!.id, stories!.id]);
    await wait.poll(async () => (await sends()).map((s) => s.status)).toEqual(["sent"]);
    const mail = await deliveredTo(reader, story!.title);
    expect(mail, "the story's e-mail to the reader").toBeTruthy();
    const html = typeof mail!.html === "string" ? mail!.html : "";

    // Item 11: the message on a phone, and its footer naming the site once.
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1"');
    for (const width of [390, 320]) await onAPhone(browser, html, width, "story");
    const footer = mail!.text!.slice(mail!.text!.lastIndexOf("You subscribed to "));
    expect(footer.split(siteName!).length - 1, footer).toBe(1);
    if (stories!.name === siteName) expect(footer.startsWith(`You subscribed to ${siteName}.`), footer).toBe(true);

    // Item 12: once. The page says so; the server refuses a second send, and an author's.
    await page.reload();
    await waitForHydration(page.getByRole("button", { name: "Unpublish…" }));
    await page.getByRole("button", { name: "Settings", exact: true }).click();
    await expect(sheet.getByTestId("send-by-email")).toContainText(`Sent to ${stories!.name} on `);
    await expect(sheet.getByRole("button", { name: /^Send now…/ })).toHaveCount(0);
    const again = await page.request.post(`/admin/articles/edit/${story!.id}`, { form: { intent: "send-story", newsletterId: stories!.id }, headers: { Origin: new URL(baseURL!).origin } });
    expect(again.status()).toBe(409);
    const author = await accountWithRole(baseURL, "phone-author", "author");
    const [other] = await query<{ id: string }>(
      `select a.id from articles a where a.status = 'published' and a.published_at <= now() and not exists (select 1 from newsletter_sends s where s.article_id = a.id) limit 1`,
    );
    const forbidden = await author.context.post(`/admin/articles/edit/${other!.id}`, { form: { intent: "send-story", newsletterId: stories!.id } });
    expect(forbidden.status()).toBe(403);
    await author.context.dispose();
    expect(await query(`select 1 from newsletter_sends where article_id = $1`, [other!.id])).toHaveLength(0);
    expect(await sends()).toHaveLength(1);
  } finally {
    await query(`update website_settings set postal_address = $1 where id = 1`, [postalBefore]);
  }
});

test("the newsletter screens and the publish panel warn when the footer has no postal address, without blocking, and stop once it has one", async ({ page, baseURL }) => {
  const [{ postal_address: postalBefore }] = await query<{ postal_address: string }>(`select postal_address from website_settings where id = 1`);
  await query(`update website_settings set postal_address = '' where id = 1`);
  try {
    const [stories] = await query<{ id: string; name: string }>(`select id, name from newsletters where slug = 'stories'`);
    const editor = await accountWithRole(baseURL, "postal-editor", "editor");
    await page.setViewportSize(PHONE);
    await signInWith(page, editor);
    for (const screen of ["/admin/newsletters", `/admin/newsletters/${stories!.id}`]) {
      await page.goto(screen);
      await expect(page.getByTestId("postal-address-warning")).toContainText("CAN-SPAM");
      await expectNoSidewaysScroll(page, `${screen} at 390px`);
    }

    // The publish panel: the warning once a newsletter is ticked; "Publish now" stays available.
    await page.goto("/admin/articles/new");
    await waitForHydration(page.getByRole("button", { name: "Publish…" }));
    await page.getByLabel("Title *").fill(`Postal warning ${Date.now().toString(36)}`);
    await page.getByLabel("Content *").fill("A story whose e-mail would have no postal address.");
    await fillPublishingDetails(page);
    await page.getByRole("button", { name: "Publish…" }).click();
    const panel = page.getByRole("dialog", { name: "Publish this story" });
    const choice = panel.getByTestId("publish-send-by-email");
    await expect(choice.getByTestId("postal-address-warning")).toHaveCount(0);
    await choice.getByRole("checkbox", { name: stories!.name }).check();
    await expect(choice.getByTestId("postal-address-warning")).toBeVisible();
    await expect(panel.getByRole("button", { name: "Publish now" })).toBeEnabled();
    await expectNoSidewaysScroll(page, "the publish panel at 390px");
    await page.screenshot({ path: "test-results/newsletter-published-send/publish-panel-warning-390.png" });
    await panel.getByRole("button", { name: "Cancel" }).click();

    await query(`update website_settings set postal_address = '1 Market Square, Marrowby' where id = 1`);
    await page.goto("/admin/newsletters");
    await expect(page.getByRole("heading", { level: 1, name: "Newsletters" })).toBeVisible();
    await expect(page.getByTestId("postal-address-warning")).toHaveCount(0);
  } finally {
    await query(`update website_settings set postal_address = $1 where id = 1`, [postalBefore]);
  }
});
