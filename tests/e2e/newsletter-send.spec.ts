import fs from "node:fs/promises";
import path from "node:path";
import { request as playwrightRequest } from "@playwright/test";
import { accountWithRole } from "./accounts";
import { signInWith } from "./admin-session";
import { dataDir, query, wallClock } from "./db";
import { expect, test, waitForHydration, type Page } from "./fixtures";
import { fillPublishingDetails, publishNow, scheduleAt } from "./publish-panel";

// Issue 30, acceptance 2 and 3, as the newsroom and a reader live them on the production server: an
// editor publishes a story with "Send by e-mail"; the subscriber gets it once, with both
// List-Unsubscribe headers; the one-click POST (RFC 8058: no cookie, no page) unsubscribes them; their
// next story is not sent to them; updating, unpublishing and republishing the first sends nothing; a
// scheduled story with "Send by e-mail" goes out when the scheduler publishes it, with no request.
// The e2e server has no mail server: newsletters land in DATA_DIR/outbox as .eml files (the admin
// screens say so), each one message to one recipient.

const wait = expect.configure({ timeout: 45_000 });

interface Mail {
  file: string;
  headers: string;
}

/** The outbox's newsletter messages to `to` whose Subject is `subject` (headers unfolded). */
async function outboxMails(to: string, subject: string): Promise<Mail[]> {
  const outbox = path.join(dataDir(), "outbox");
  const files = await fs.readdir(outbox).catch(() => [] as string[]);
  const found: Mail[] = [];
  for (const file of files.filter((f) => f.endsWith(".eml"))) {
    const raw = await fs.readFile(path.join(outbox, file), "utf8");
    const headers = raw.split(/\r?\n\r?\n/, 1)[0]!.replace(/\r?\n[ \t]+/g, " ");
    if (new RegExp(`^To: ${escape(to)}$`, "m").test(headers) && new RegExp(`^Subject: ${escape(subject)}$`, "m").test(headers)) found.push({ file, headers });
  }
  return found;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

async function sendOf(articleSlug: string) {
  const rows = await query<{ id: string; status: string; recipients: number; created_by_id: string | null }>(
    `select s.id, s.status, s.recipients, s.created_by_id from newsletter_sends s join articles a on a.id = s.article_id where a.slug = $1`,
    [articleSlug],
  );
  return rows;
}

async function newStory(page: Page, title: string, newsletter: string) {
  await page.goto("/admin/articles/new");
  await waitForHydration(page.getByRole("button", { name: "Publish…" }));
  await page.getByLabel("Title *").fill(title);
  await page.getByLabel("Content *").fill("A story for the readers' inboxes.\n\nIts second paragraph.");
  await fillPublishingDetails(page);
  // "Send by e-mail" in the story's settings (the publish panel shows the same choice).
  const choice = page.getByTestId("send-by-email").getByRole("checkbox", { name: newsletter });
  if (!(await choice.isVisible())) {
    await page.getByRole("button", { name: "Settings", exact: true }).click();
  }
  await choice.check();
}

test("an editor's story with Send by e-mail reaches a subscriber once with one-click unsubscribe; updates and republishing send nothing; a scheduled story goes with the scheduler", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const run = Date.now().toString(36);
  const [stories] = await query<{ id: string; name: string }>(`select id, name from newsletters where slug = 'stories'`);
  // Two readers who confirmed their subscription to the Stories newsletter.
  const leaving = `leaving-${run}@example.com`;
  const staying = `staying-${run}@example.com`;
  for (const email of [leaving, staying]) {
    const [row] = await query<{ id: string }>(
      `insert into subscribers (email, status, token_key, consent_source, consent_at, confirmed_at) values ($1, 'active', $2, '/newsletter', now(), now()) returning id`,
      [email, `key-${email}`],
    );
    await query(`insert into subscriptions (subscriber_id, newsletter_id) values ($1, $2)`, [row!.id, stories!.id]);
  }

  const editor = await accountWithRole(baseURL, "desk-editor", "editor");
  await signInWith(page, editor);

  // 1. Published at once with "Send by e-mail": one message to each subscriber.
  const first = `Council votes on the river bridge ${run}`;
  const firstSlug = `council-votes-on-the-river-bridge-${run}`;
  await newStory(page, first, stories!.name);
  await publishNow(page);
  await wait.poll(async () => (await sendOf(firstSlug)).map((s) => s.status)).toEqual(["sent"]);
  const [mail] = await outboxMails(leaving, first);
  expect(mail, "the story's e-mail to the subscriber").toBeTruthy();
  expect(await outboxMails(leaving, first)).toHaveLength(1);
  expect(await outboxMails(staying, first)).toHaveLength(1);
  const unsubscribeHeader = /^List-Unsubscribe: <([^>]+)>, <mailto:[^>]+>$/m.exec(mail!.headers);
  expect(unsubscribeHeader, mail!.headers).not.toBeNull();
  expect(mail!.headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
  const unsubscribeUrl = unsubscribeHeader![1]!;
  expect(unsubscribeUrl.startsWith(`${baseURL}/newsletter/unsubscribe/`)).toBe(true);

  // 2. The mail provider's one-click: a POST with no cookie, no origin, no page.
  const provider = await playwrightRequest.newContext();
  const oneClick = await provider.post(unsubscribeUrl, { form: { "List-Unsubscribe": "One-Click" }, maxRedirects: 0 });
  expect(oneClick.status()).toBe(200);
  await provider.dispose();
  expect((await query<{ status: string }>(`select status from subscribers where email = $1`, [leaving]))[0]!.status).toBe("unsubscribed");
  // The send counts the unsubscribe it caused.
  const [firstSend] = await sendOf(firstSlug);
  // The mail names its send, so a bounce or complaint notice (SES through SNS) finds the recipient.
  expect(mail!.headers).toMatch(new RegExp(`^X-Frontpage-Send: ${firstSend!.id}$`, "m"));
  expect((await query(`select 1 from send_recipients where send_id = $1 and unsubscribed_at is not null`, [firstSend!.id])).length).toBe(1);

  // 3. Updating, unpublishing and republishing the first story sends nothing more.
  const [firstRow] = await query<{ id: string }>(`select id from articles where slug = $1`, [firstSlug]);
  await page.goto(`/admin/articles/edit/${firstRow!.id}`);
  await waitForHydration(page.getByRole("button", { name: "Unpublish…" }));
  await page.getByLabel("Content *").fill("A story for the readers' inboxes, corrected.\n\nIts second paragraph.");
  await page.getByRole("button", { name: "Update Article" }).click();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Article updated successfully" })).toBeVisible();
  await page.goto(`/admin/articles/edit/${firstRow!.id}`);
  await waitForHydration(page.getByRole("button", { name: "Unpublish…" }));
  await page.getByRole("button", { name: "Unpublish…" }).click();
  await page.getByRole("alertdialog", { name: "Take this story off the site?" }).getByRole("button", { name: "Unpublish" }).click();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Article unpublished" })).toBeVisible();
  await page.goto(`/admin/articles/edit/${firstRow!.id}`);
  await waitForHydration(page.getByRole("button", { name: "Publish…" }));
  // The form says where it went, and the box cannot be ticked again.
  await expect(page.getByTestId("send-by-email")).toContainText(`Sent to ${stories!.name}`);
  await publishNow(page);
  await wait.poll(async () => (await query(`select status from articles where slug = $1`, [firstSlug]))[0]).toEqual({ status: "published" });

  // 4. A second story: the reader who left does not get it; the other does.
  const second = `Harbour ferry timetable changes ${run}`;
  const secondSlug = `harbour-ferry-timetable-changes-${run}`;
  await newStory(page, second, stories!.name);
  await publishNow(page);
  await wait.poll(async () => (await sendOf(secondSlug)).map((s) => s.status)).toEqual(["sent"]);
  expect(await outboxMails(staying, second)).toHaveLength(1);
  expect(await outboxMails(leaving, second)).toHaveLength(0);

  // Nothing went twice: one send of the first story, one message to each reader.
  expect(await sendOf(firstSlug)).toHaveLength(1);
  expect(await outboxMails(staying, first)).toHaveLength(1);
  expect(await outboxMails(leaving, first)).toHaveLength(1);

  // 5. A scheduled story with "Send by e-mail" goes when the scheduler publishes it, with no request.
  const timed = `Night market opens on the quay ${run}`;
  const timedSlug = `night-market-opens-on-the-quay-${run}`;
  await newStory(page, timed, stories!.name);
  await scheduleAt(page, wallClock(new Date(Date.now() + 45_000)));
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Article scheduled for" })).toBeVisible();
  expect(await sendOf(timedSlug)).toHaveLength(0);
  // The form stored the time asked for; the test brings it to a few seconds from now.
  await query(`update articles set published_at = least(published_at, now() + interval '3 seconds') where slug = $1 and status = 'scheduled'`, [timedSlug]);
  await page.goto("about:blank");
  await wait.poll(async () => (await sendOf(timedSlug)).map((s) => [s.status, s.created_by_id]), { timeout: 60_000 }).toEqual([["sent", null]]);
  expect(await outboxMails(staying, timed)).toHaveLength(1);
  expect(await outboxMails(leaving, timed)).toHaveLength(0);

  // Dated long ago, these image-less stories lead no page the later journeys look at.
  await query(`update articles set published_at = '2001-01-01T12:00:00Z' where slug = any($1)`, [[firstSlug, secondSlug, timedSlug]]);
});
