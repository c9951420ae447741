import fs from "node:fs/promises";
import path from "node:path";
import type { Page } from "@playwright/test";
import type { StoryDocument } from "~/domain/articles/story-document.schema";
import { storyFromPlainText, storyPlainText } from "~/domain/articles/story-document";
import { splitAtPaywall } from "~/domain/members/paywall";
import { dataDir, withDb } from "./db";
import { expect, test } from "./fixtures";

// Issue 40, acceptance 5 and 6, in Chromium against the production build and its page cache: with the
// meter at 2 for anonymous readers and 0 for members, an anonymous reader reads two Paid stories whole
// (and rereads the first), the third is gated; a signed-in free member is gated at once; and a member's
// session opens nothing of the back office, by page or by API.

const wait = expect.configure({ timeout: 30_000 });

interface Story {
  id: string;
  slug: string;
  /** A sentence of the story's third paragraph: past the paywall (after the second). */
  gated: string;
}

let stories: Story[] = [];
let saved: { paywall_paragraphs: number; meter_anonymous: number; meter_members: number } | null = null;

test.beforeAll(async () => {
  await withDb(async (db) => {
    // Newest first; stories other specs made (a gallery or an embed in the third block) have no third
    // paragraph of text, so the three are the newest whose cut leaves words to look for.
    const { rows } = await db.query<{ id: string; slug: string; content: string; content_doc: unknown }>(
      `select id, slug, content, content_doc from articles
        where status = 'published' and published_at <= now() and access = 'public'
          and array_length(regexp_split_to_array(content, E'\\n\\n'), 1) >= 3
        order by published_at desc limit 40`,
    );
    // The first words of what the paywall hides, cut as the site cuts it (after the second paragraph).
    stories = rows
      .map((row) => ({
        id: row.id,
        slug: row.slug,
        gated: storyPlainText(splitAtPaywall((row.content_doc as StoryDocument | null) ?? storyFromPlainText(row.content), 2).gated).slice(0, 50),
      }))
      .filter((story) => story.gated.trim().length > 20)
      .slice(0, 3);
    expect(stories.map((s) => s.slug), "three published stories with a third paragraph of text").toHaveLength(3);
    saved = (await db.query(`select paywall_paragraphs, meter_anonymous, meter_members from website_settings`)).rows[0];
    await db.query(`update website_settings set paywall_paragraphs = 2, meter_anonymous = 2, meter_members = 0`);
    // Paid, any paid tier: through the story's own columns, as the settings' save would write them.
    await db.query(`update articles set access = 'paid', access_tier_id = null where id = any($1::uuid[])`, [stories.map((s) => s.id)]);
  });
});

test.afterAll(async () => {
  await withDb(async (db) => {
    await db.query(`update articles set access = 'public', access_tier_id = null, free_content = null where id = any($1::uuid[])`, [stories.map((s) => s.id)]);
    if (saved) await db.query(`update website_settings set paywall_paragraphs = $1, meter_anonymous = $2, meter_members = $3`, [saved.paywall_paragraphs, saved.meter_anonymous, saved.meter_members]);
  });
});

async function reads(page: Page, story: Story): Promise<boolean> {
  const response = await page.goto(`/article/${story.slug}`);
  expect(response?.status()).toBe(200);
  return (await page.content()).includes(story.gated);
}

test("the anonymous meter: two Paid stories whole, a reread stays open, the third is gated", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const [first, second, third] = stories as [Story, Story, Story];
  expect(await reads(page, first)).toBe(true);
  await wait(page.getByText("1 of 2 free stories left")).toBeVisible();
  expect(await reads(page, second)).toBe(true);
  await wait(page.getByText("0 of 2 free stories left")).toBeVisible();
  expect(await reads(page, first)).toBe(true);
  expect(await reads(page, third)).toBe(false);
  await expect(page.getByRole("link", { name: "Subscribe" }).last()).toBeVisible();
  // The meter is a signed cookie the server reads; the page's script cannot read it.
  const cookies = await context.cookies();
  expect(cookies.find((c) => c.name === "frontpage-meter")).toMatchObject({ httpOnly: true });
  // A new browser (no meter) starts again; the gated part never comes from a shared copy.
  const fresh = await browser.newContext();
  const freshPage = await fresh.newPage();
  expect(await reads(freshPage, third)).toBe(true);
  await fresh.close();
  await context.close();
});

/** The outbox's newest sign-in link to `to` (the e2e server writes its mail to DATA_DIR/outbox). */
async function signInLink(to: string): Promise<string> {
  const outbox = path.join(dataDir(), "outbox");
  const until = Date.now() + 20_000;
  for (;;) {
    for (const file of (await fs.readdir(outbox).catch(() => [] as string[])).filter((f) => f.endsWith(".eml"))) {
      const text = (await fs.readFile(path.join(outbox, file), "utf8"))
        .replace(/\r?\n[ \t]+/g, " ")
        .replace(/=\r?\n/g, "")
        .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      if (!new RegExp(`^To: ${to.replace(/[.]/g, "\\.")}$`, "m").test(text)) continue;
      const link = /(https?:\/\/[^\s"<>]+\/account\/verify\?token=[^\s"<>]+)/.exec(text)?.[1];
      if (link) return new URL(link.replace(/&amp;/g, "&")).pathname + new URL(link.replace(/&amp;/g, "&")).search;
    }
    if (Date.now() > until) throw new Error(`no sign-in link to ${to} in ${outbox}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

test("a signed-in free member with a meter of 0 is gated at once, and their session opens no back office", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const email = `free-${Date.now()}@example.com`;
  await page.goto("/account/sign-in");
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: "Send me a sign-in link" }).click();
  await wait(page.getByText(/check your inbox/i)).toBeVisible();
  await page.goto(await signInLink(email));
  await wait(page).toHaveURL(/\/account$/);
  expect(await reads(page, stories[0]!)).toBe(false);
  await expect(page.getByRole("link", { name: "Subscribe" }).last()).toBeVisible();

  // No page of the back office: the sign-in page, and no API: refused.
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/admin\/login/);
  await page.goto("/admin/members");
  await expect(page).toHaveURL(/\/admin\/login/);
  for (const api of ["/api/admin/events", "/api/admin/subscribers.csv"]) {
    const answer = await page.request.get(api);
    expect([401, 403], `${api}: ${answer.status()}`).toContain(answer.status());
  }
  const write = await page.request.post("/admin/settings", { form: { siteName: "Taken over" }, headers: { origin: new URL(page.url()).origin } });
  expect([401, 403], `a crafted settings post: ${write.status()}`).toContain(write.status());
  await withDb(async (db) => expect((await db.query(`select site_name from website_settings`)).rows[0].site_name).not.toBe("Taken over"));
  await context.close();
});
