import fs from "node:fs/promises";
import path from "node:path";
import { request as playwrightRequest, type Locator, type Page } from "@playwright/test";
import { subscriberToken } from "../../app/domain/newsletters/subscriber-tokens.server";
import { uniqueEmail } from "./accounts";
import { dataDir, query } from "./db";
import { expect, test } from "./fixtures";
import { someArticlePath } from "./routes";

// Acceptance 1 of issue 30, in Chromium with JavaScript off: a reader signs up at the end of an
// article on a phone; the confirmation e-mail arrives in the outbox (the e2e server has no SMTP_URL);
// opening its link confirms nothing, the button does; signing up again gets the same page text. Then a
// mail provider's one-click unsubscribe (RFC 8058) ends it, with no cookie and no origin.

const ANSWER = "Check your inbox to confirm your subscription.";
// The machine may be busy (two cores, the server and the browser): waits are generous.
const wait = expect.configure({ timeout: 30_000 });

/** The outbox's message to `to` whose text matches (headers unfolded, quoted-printable undone), waiting up to 20 s. */
async function outboxMessageTo(to: string, matching: RegExp, except: string[] = []): Promise<{ file: string; text: string }> {
  const outbox = path.join(dataDir(), "outbox");
  const until = Date.now() + 20_000;
  for (;;) {
    const files = await fs.readdir(outbox).catch(() => [] as string[]);
    for (const file of files.filter((f) => f.endsWith(".eml") && !except.includes(f))) {
      const raw = await fs.readFile(path.join(outbox, file), "utf8");
      const text = raw
        .replace(/\r?\n[ \t]+/g, " ")
        .replace(/=\r?\n/g, "")
        .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      if (new RegExp(`^To: ${to.replace(/[.]/g, "\\.")}$`, "m").test(text) && matching.test(text)) return { file, text };
    }
    if (Date.now() > until) throw new Error(`no e-mail to ${to} matching ${matching} in ${outbox}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function shots(page: Page, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    expect(scrollWidth, `${name} at ${width} px`).toBeLessThanOrEqual(innerWidth);
    const body = await page.screenshot({ fullPage: true });
    await test.info().attach(`${name}-${width}`, { body, contentType: "image/png" });
    if (process.env.E2E_SHOTS_DIR) await fs.writeFile(path.join(process.env.E2E_SHOTS_DIR, `${name}-${width}.png`), body);
  }
  await page.setViewportSize({ width: 390, height: 900 });
}

const subscriberRow = async (email: string) =>
  (
    await query<{ id: string; status: string; token_key: string; consent_source: string | null; signup_article_id: string | null; confirmed_at: Date | null }>(
      `select id, status, token_key, consent_source, signup_article_id, confirmed_at from subscribers where lower(email) = lower($1)`,
      [email],
    )
  )[0];

/**
 * The sign-up form's newsletters: none shown while the site has one public newsletter (it is implied),
 * else one checkbox each (other journeys may have made more): the Stories one is ticked.
 */
async function chooseStories(form: Locator) {
  const offered = await query<{ name: string; slug: string }>(`select name, slug from newsletters where is_public and archived_at is null`);
  if (offered.length === 1) {
    await expect(form.getByRole("checkbox")).toHaveCount(0);
    return;
  }
  await expect(form.getByRole("checkbox")).toHaveCount(offered.length);
  await form.getByRole("checkbox", { name: offered.find((n) => n.slug === "stories")!.name, exact: true }).check();
}

test("without JavaScript, a reader signs up under an article, confirms by the e-mail's button (not its link), gets the same answer again, and leaves in one click", async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const email = uniqueEmail("newsletter-reader");
  const articlePath = await someArticlePath(request);
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 900 } });
  const page = await context.newPage();

  // At the end of the story, on a phone: "Get our newsletter", "Email address", "Subscribe" (and the
  // newsletters to choose when there is more than one).
  await page.goto(articlePath);
  const form = page.getByRole("region", { name: "Get our newsletter" });
  await expect(form.getByLabel("Email address")).toBeVisible();
  await form.scrollIntoViewIfNeeded();
  const formShot = await form.screenshot();
  await test.info().attach("article-signup-form-390", { body: formShot, contentType: "image/png" });
  if (process.env.E2E_SHOTS_DIR) await fs.writeFile(path.join(process.env.E2E_SHOTS_DIR, "article-signup-form-390.png"), formShot);
  await shots(page, "article-with-signup");

  await form.getByLabel("Email address").fill(email);
  await chooseStories(form);
  await form.getByRole("button", { name: "Subscribe" }).click();
  await expect(page).toHaveURL(/\/newsletter$/);
  await wait(page.getByRole("status")).toHaveText(ANSWER);
  const pending = await subscriberRow(email);
  expect(pending).toMatchObject({ status: "pending", consent_source: articlePath, confirmed_at: null });
  expect(pending!.signup_article_id).not.toBeNull();

  // The confirmation e-mail, in DATA_DIR/outbox.
  const [site] = await query<{ site_name: string }>(`select site_name from website_settings`);
  const mail = await outboxMessageTo(email, /\/newsletter\/confirm\//);
  expect(mail.text).toMatch(new RegExp(`^Subject: Confirm your subscription to ${site!.site_name}$`, "m"));
  const link = /(https?:\/\/[^\s"<>]+\/newsletter\/confirm\/[^\s"<>]+)/.exec(mail.text)![1]!;
  const confirmPath = new URL(link).pathname;

  // A mail scanner's GET, then the reader's: the page with the button, and nothing confirmed.
  const scanned = await request.get(confirmPath);
  expect(scanned.status()).toBe(200);
  expect(scanned.headers()["cache-control"]).toBe("no-store");
  expect(scanned.headers()["x-robots-tag"]).toMatch(/noindex/);
  await page.goto(confirmPath);
  await expect(page.getByRole("button", { name: "Confirm subscription" })).toBeVisible();
  expect((await subscriberRow(email))!.status).toBe("pending");
  // An edited link is a 404.
  expect((await request.get(`${confirmPath.slice(0, -2)}xx`)).status()).toBe(404);

  await page.getByRole("button", { name: "Confirm subscription" }).click();
  await wait(page.getByRole("status")).toHaveText("You're subscribed.");
  const active = await subscriberRow(email);
  expect(active!.status).toBe("active");
  expect(active!.confirmed_at).not.toBeNull();

  // The same address signed up again, from the home page's closing block: the same page text.
  await page.goto("/");
  const homeForm = page.getByRole("region", { name: "Get our newsletter" });
  await homeForm.getByLabel("Email address").fill(email);
  await chooseStories(homeForm);
  await homeForm.getByRole("button", { name: "Subscribe" }).click();
  await wait(page.getByRole("status")).toHaveText(ANSWER);
  expect((await subscriberRow(email))!.status).toBe("active");
  // …and a brand-new address gets exactly that text too.
  await page.goto(articlePath);
  await page.getByRole("region", { name: "Get our newsletter" }).getByLabel("Email address").fill(uniqueEmail("newsletter-other"));
  await chooseStories(page.getByRole("region", { name: "Get our newsletter" }));
  await page.getByRole("region", { name: "Get our newsletter" }).getByRole("button", { name: "Subscribe" }).click();
  await wait(page.getByRole("status")).toHaveText(ANSWER);

  // /newsletter lists the public newsletters with their descriptions.
  await page.goto("/newsletter");
  const [stories] = await query<{ name: string; description: string }>(`select name, description from newsletters where slug = 'stories'`);
  await expect(page.getByRole("list", { name: "Our newsletters" }).getByRole("heading", { name: stories!.name })).toBeVisible();
  await expect(page.getByText(stories!.description)).toBeVisible();
  await shots(page, "newsletter-page");

  // A malformed address (a program posting past the browser's own check) gets the field's error.
  const bad = await request.post("/newsletter", { form: { email: "not-an-address", source: "/newsletter" } });
  expect(bad.status()).toBe(400);
  expect(await bad.text()).toContain("Please enter a valid e-mail address.");

  // The one-click unsubscribe of the newsletters' List-Unsubscribe header: a mail provider's POST with
  // no cookie and no Origin or Referer, answered 200. (The link is signed as the send engine signs it.)
  const { sessionSecret } = JSON.parse(await fs.readFile(path.join(dataDir(), "secrets.json"), "utf8")) as { sessionSecret: string };
  const unsubscribePath = `/newsletter/unsubscribe/${subscriberToken(sessionSecret, "unsubscribe", { id: active!.id, tokenKey: active!.token_key })}`;
  await page.goto(unsubscribePath);
  await expect(page.getByRole("button", { name: "Unsubscribe" })).toBeVisible();
  expect((await subscriberRow(email))!.status).toBe("active");
  const provider = await playwrightRequest.newContext({ baseURL });
  try {
    const forged = await provider.post(`${unsubscribePath.slice(0, -2)}xx`, { form: { "List-Unsubscribe": "One-Click" } });
    expect(forged.status()).toBe(404);
    const oneClick = await provider.post(unsubscribePath, { form: { "List-Unsubscribe": "One-Click" } });
    expect(oneClick.status()).toBe(200);
    expect(oneClick.headers()["cache-control"]).toBe("no-store");
  } finally {
    await provider.dispose();
  }
  expect((await subscriberRow(email))!.status).toBe("unsubscribed");
  await page.reload();
  await expect(page.getByRole("status")).toHaveText("You're unsubscribed.");
  await context.close();
});

test("an old preferences link after an unsubscribe: the page says so, Save e-mails a new confirmation link, and nothing resubscribes until it is used (issue 39)", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 900 });
  const email = uniqueEmail("newsletter-old-link");
  const [stories] = await query<{ id: string; name: string }>(`select id, name from newsletters where slug = 'stories'`);
  // A reader who was subscribed to Stories and has since unsubscribed (their old links still carry the same key).
  const [row] = await query<{ id: string; token_key: string }>(
    `insert into subscribers (email, status, token_key, consent_source, consent_at, confirmed_at, unsubscribed_at)
     values ($1, 'unsubscribed', $2, '/newsletter', now(), now(), now()) returning id, token_key`,
    [email, `old-link-key-${Date.now()}`],
  );
  await query(`insert into subscriptions (subscriber_id, newsletter_id) values ($1, $2)`, [row!.id, stories!.id]);
  const { sessionSecret } = JSON.parse(await fs.readFile(path.join(dataDir(), "secrets.json"), "utf8")) as { sessionSecret: string };
  const preferencesPath = `/newsletter/preferences/${subscriberToken(sessionSecret, "preferences", { id: row!.id, tokenKey: row!.token_key })}`;

  await page.goto(preferencesPath);
  await expect(page.getByText("This address is unsubscribed from all newsletters. To subscribe again, tick the ones you want and press Save: we will e-mail you a link to confirm.")).toBeVisible();
  // (A checkbox's name is the newsletter's name followed by its description.)
  await page.getByRole("checkbox", { name: new RegExp(`^${stories!.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`) }).check();
  await page.getByRole("button", { name: "Save" }).click();
  await wait(page.getByRole("status")).toHaveText("Check your inbox: we have sent you a link to confirm your subscription. Until you confirm it, you receive no newsletters.");
  await shots(page, "preferences-after-unsubscribe");
  expect((await subscriberRow(email))!.status).toBe("unsubscribed");

  // The tester's request itself: 200, and still unsubscribed.
  const direct = await request.post(preferencesPath, { form: { intent: "save", newsletters: stories!.id } });
  expect(direct.status()).toBe(200);
  expect((await subscriberRow(email))!.status).toBe("unsubscribed");

  // The new confirmation link, from the inbox, is what subscribes again; the old links stop working.
  const mail = await outboxMessageTo(email, /\/newsletter\/confirm\//);
  const confirmPath = new URL(/(http:\/\/[^\s"<>]+\/newsletter\/confirm\/[^\s"<>]+)/.exec(mail.text)![1]!).pathname;
  await page.goto(confirmPath);
  await page.getByRole("button", { name: "Confirm subscription" }).click();
  await wait(page.getByRole("status")).toHaveText("You're subscribed.");
  await expect(page.getByRole("link", { name: "Manage your preferences" })).toBeVisible();
  expect((await subscriberRow(email))!.status).toBe("active");
  expect((await request.get(preferencesPath)).status()).toBe(404);
});

test("with JavaScript, the article's sign-up answers in place: the reader stays on the story", async ({ page, request }) => {
  const articlePath = await someArticlePath(request);
  const email = uniqueEmail("newsletter-script");
  await page.goto(articlePath, { waitUntil: "networkidle" });
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  const form = page.getByRole("region", { name: "Get our newsletter" });
  await form.getByLabel("Email address").fill(email);
  await chooseStories(form);
  await form.getByRole("button", { name: "Subscribe" }).click();
  await wait(form.getByRole("status")).toHaveText(ANSWER);
  expect(new URL(page.url()).pathname).toBe(articlePath);
  expect(await subscriberRow(email)).toMatchObject({ status: "pending", consent_source: articlePath });
});
