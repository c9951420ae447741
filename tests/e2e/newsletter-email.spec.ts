import fs from "node:fs/promises";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { trackingToken } from "../../app/domain/newsletters/newsletter-tracking.server";
import { dataDir, withDb } from "./db";

// Issue 30's e-mail links on the production server: a digest's "View in your browser" page, the open
// pixel and the signed click redirect (a newsletter that tracks), each personal and never cached.

const READER = "0b5a5a6e-2c1d-4e8f-9a3b-7c6d5e4f3a21";

async function sessionSecret(): Promise<string> {
  return (JSON.parse(await fs.readFile(path.join(dataDir(), "secrets.json"), "utf8")) as { sessionSecret: string }).sessionSecret;
}

/** A tracked digest newsletter with a send covering the demo's stories (its previous digest months ago), and one recipient. */
async function digestSend() {
  return withDb(async (db) => {
    const slug = `e2e-digest-${Date.now().toString(36)}`;
    const { rows: n } = await db.query<{ id: string }>(
      `insert into newsletters (name, slug, kind, digest_frequency, digest_time, track_engagement) values ('Evening Digest', $1, 'digest', 'daily', '18:00', true) returning id`,
      [slug],
    );
    const newsletterId = n[0]!.id;
    await db.query(`insert into newsletter_sends (newsletter_id, kind, status, subject, created_at) values ($1, 'digest', 'sent', 'Earlier', now() - interval '120 days')`, [newsletterId]);
    const { rows: s } = await db.query<{ id: string }>(`insert into newsletter_sends (newsletter_id, kind, status, subject) values ($1, 'digest', 'sent', 'Evening Digest') returning id`, [newsletterId]);
    const sendId = s[0]!.id;
    await db.query(`insert into send_recipients (send_id, subscriber_id, email, status) values ($1, $2, 'reader@example.com', 'sent')`, [sendId, READER]);
    return { sendId };
  });
}

const recipientRow = (sendId: string) =>
  withDb(async (db) => (await db.query<{ opened_at: Date | null; clicked_at: Date | null }>(`select opened_at, clicked_at from send_recipients where send_id = $1`, [sendId])).rows[0]!);

test("a digest's browser view shows the send's stories with no personal or tracked link; other sends are not found", async ({ page, request }) => {
  const { sendId } = await digestSend();
  const response = await page.goto(`/newsletter/view/${sendId}`);
  expect(response!.status()).toBe(200);
  expect(response!.headers()["cache-control"]).toBe("no-store");
  await expect(page).toHaveTitle(/^Evening Digest: /);
  await expect(page.getByRole("heading", { level: 1, name: "Evening Digest" })).toBeVisible();
  // The demo's stories, newest first, at most 20, each linked to its page.
  const stories = page.getByRole("heading", { level: 2 });
  await expect(stories).toHaveCount(20);
  const first = await stories.first().getByRole("link").getAttribute("href");
  // Tagged with the newsletter's campaign (issue 42), as every link to the site in its e-mails.
  expect(first).toMatch(/\/article\/[a-z0-9-]+\?utm_source=newsletter&utm_medium=email&utm_campaign=[a-z0-9-]+$/);
  await expect(page.getByRole("link", { name: "Unsubscribe" })).toHaveAttribute("href", /\/newsletter$/);
  await expect(page.getByRole("link", { name: "Manage preferences" })).toHaveAttribute("href", /\/newsletter$/);
  await expect(page.getByText(/You subscribed to Evening Digest at /)).toBeVisible();
  const html = await page.content();
  expect(html).not.toMatch(/%%FP|\/newsletter\/(click|open)\/|<script/);

  // A story's link opens its page (in a new tab, as an e-mail's links do).
  const [story] = await Promise.all([page.waitForEvent("popup"), stories.first().getByRole("link").click()]);
  await expect(story).toHaveURL(/\/article\/[a-z0-9-]+\?utm_source=newsletter&utm_medium=email&utm_campaign=[a-z0-9-]+$/);
  await expect(story.getByRole("heading", { level: 1 })).toHaveText((await stories.first().textContent())!);

  expect((await request.get("/newsletter/view/6f1c8f0e-8a4b-4c1e-9d51-3f3c1b2a7e10")).status()).toBe(404);
  expect((await request.get("/newsletter/view/not-a-send")).status()).toBe(404);
});

test("the open pixel and the click redirect record a tracked recipient once and go only where the e-mail pointed", async ({ request }) => {
  const { sendId } = await digestSend();
  const secret = await sessionSecret();
  const recipient = { sendId, subscriberId: READER };

  const open = trackingToken(secret, "open", recipient);
  const pixel = await request.get(`/newsletter/open/${open}.gif`);
  expect(pixel.status()).toBe(200);
  expect(pixel.headers()["content-type"]).toBe("image/gif");
  expect(pixel.headers()["cache-control"]).toBe("no-store");
  expect((await recipientRow(sendId)).opened_at).not.toBeNull();
  expect((await request.get(`/newsletter/open/${open.slice(0, -2)}xx.gif`)).status()).toBe(404);

  const target = "https://example.com/report?a=1&b=2";
  const click = trackingToken(secret, "click", recipient, target);
  const redirect = await request.get(`/newsletter/click/${click}?u=${encodeURIComponent(target)}`, { maxRedirects: 0 });
  expect(redirect.status()).toBe(302);
  expect(redirect.headers()["location"]).toBe(target);
  expect(redirect.headers()["cache-control"]).toBe("no-store");
  expect((await recipientRow(sendId)).clicked_at).not.toBeNull();

  // The same token for another address: not a redirect anywhere.
  const elsewhere = await request.get(`/newsletter/click/${click}?u=${encodeURIComponent("https://evil.example/")}`, { maxRedirects: 0 });
  expect(elsewhere.status()).toBe(404);
  expect(elsewhere.headers()["location"]).toBeUndefined();
});
