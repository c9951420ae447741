import { accountWithRole } from "./accounts";
import { signInWith, toastWith } from "./admin-session";
import { query } from "./db";
import { expect, expectNoSidewaysScroll, test, waitForHydration, type Locator, type Page } from "./fixtures";
import { fillPublishingDetails, publishNow, expectStoryLive } from "./publish-panel";

// Issue 31, the newsroom's side (acceptance 1 and 5): an editor makes a story live from the article
// form, posts three updates (a key event, one pinned, one with an image), edits one ("Edited"), deletes
// one after the confirm, ends the coverage and restarts it, while a reader's page opened before the first
// update shows each change without a reload; the home page's card wears the LIVE badge
// while it is live. An author not on the byline gets 403 on a crafted POST, and nothing is written.
// The story is deleted at the end (it is the newest on the home page meanwhile).

const PNG_1PX = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

const updatesOf = (panel: Locator) => panel.getByTestId("admin-live-update");

async function postUpdate(page: Page, panel: Locator, { headline, body, keyEvent = false }: { headline?: string; body: string; keyEvent?: boolean }) {
  const form = panel.getByTestId("live-update-form");
  if (headline) await form.getByLabel("Headline").fill(headline);
  await form.getByLabel("Update *").fill(body);
  if (keyEvent) await form.getByRole("checkbox", { name: "Key event" }).check();
  await form.getByRole("button", { name: "Post update" }).click();
  await expect(toastWith(page, "Update posted").last()).toBeVisible();
}

test.describe("live coverage in the newsroom", () => {
  test("an editor runs a live story from start to end and restart; an author off the byline is refused", async ({ page, baseURL, browser }) => {
    test.setTimeout(180_000);
    const editor = await accountWithRole(baseURL, "live-editor", "editor");
    const intruder = await accountWithRole(baseURL, "live-intruder", "author");
    const title = `Election night live ${Date.now().toString(36)}`;
    let articleId: string | undefined;
    let bannerShown = false;
    // A reader's page opened before the first update (acceptance 1): what the editor does shows on it without a reload.
    const watcherContext = await browser.newContext();
    const watcher = await watcherContext.newPage();
    const watched = watcher.getByTestId("live-updates");
    // Leaving the edit page with the title typed: the browser's "Leave site?" is answered yes.
    page.on("dialog", (dialog) => void dialog.accept());
    try {
      await signInWith(page, editor);

      // "Live coverage" in the new story's settings, saved with it.
      await page.goto("/admin/articles/new");
      await waitForHydration(page.getByRole("button", { name: "Publish…" }));
      await page.getByLabel("Title *").fill(title);
      await page.getByLabel("Content *").fill("What we know so far: the polls have closed across the state.");
      await fillPublishingDetails(page);
      await page.getByRole("checkbox", { name: "Live coverage" }).check();
      await publishNow(page);
      await expectStoryLive(page);
      [{ id: articleId }] = await query<{ id: string }>(`select id from articles where title = $1`, [title]);
      const [stored] = await query<{ live_started_at: Date | null; live_ended_at: Date | null }>(`select live_started_at, live_ended_at from articles where id = $1`, [articleId]);
      expect(stored!.live_started_at).not.toBeNull();
      expect(stored!.live_ended_at).toBeNull();

      // The list ("Back to articles" of "Your story is live"): the LIVE mark and "Live updates".
      await page.getByTestId("story-live").getByRole("link", { name: "Back to articles" }).click();
      const row = page.getByRole("row").filter({ hasText: title });
      await expect(row.getByTestId("article-live-mark")).toHaveText("LIVE");
      await expect(row.getByRole("link", { name: `Live updates of “${title}”` })).toBeVisible();

      // The home page's card wears the badge.
      await page.goto("/");
      const card = page.locator("article").filter({ has: page.getByRole("heading", { name: title }) });
      await expect(card.getByTestId("live-badge")).toHaveText("LIVE coverage:");
      await page.setViewportSize({ width: 390, height: 844 });
      await card.scrollIntoViewIfNeeded();
      await card.screenshot({ path: test.info().outputPath("card-live-390.png") });
      await page.setViewportSize({ width: 1280, height: 800 });

      const [{ slug }] = await query<{ slug: string }>(`select slug from articles where id = $1`, [articleId]);
      const stream = watcher.waitForResponse((r) => r.url().includes(`/api/live/${articleId}`) && r.status() === 200);
      await watcher.goto(`/article/${slug}`);
      await waitForHydration(watcher.locator("body"));
      await stream;
      await watcher.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));

      // The edit page's panel: the live state, and a first update (a key event) posted without reloading the form.
      await page.goto(`/admin/articles/edit/${articleId}`);
      await waitForHydration(page.getByRole("button", { name: "Update Article" }));
      const editPanel = page.getByTestId("live-updates-panel");
      await expect(editPanel.getByTestId("live-state")).toContainText("Live since");
      await page.getByLabel("Title *").fill(`${title} (typing)`);
      await postUpdate(page, editPanel, { headline: "Polls close", body: "Polls have closed; counting starts at nine.", keyEvent: true });
      await expect(watched.getByText("Polls have closed; counting starts at nine.")).toBeVisible({ timeout: 2_000 });
      await expect(watcher.getByTestId("key-events").getByRole("link", { name: "Polls close" })).toBeVisible({ timeout: 2_000 });
      await expect(updatesOf(editPanel)).toHaveCount(1);
      await expect(updatesOf(editPanel).first()).toContainText("Key event");
      // What was typed in the story's form is still there (the panel's request reloaded nothing).
      await expect(page.getByLabel("Title *")).toHaveValue(`${title} (typing)`);
      await editPanel.scrollIntoViewIfNeeded();
      await editPanel.screenshot({ path: test.info().outputPath("edit-page-panel-1280.png") });

      // The Live updates screen (an author's way in too): two more updates, one with an image.
      await page.goto(`/admin/articles/live/${articleId}`);
      const panel = page.getByTestId("live-updates-panel");
      await waitForHydration(panel);
      await expect(page.getByRole("heading", { level: 1, name: "Live updates" })).toBeVisible();
      await expect(page.getByRole("link", { name: "View the story" })).toHaveAttribute("href", /^\/article\//);
      await postUpdate(page, panel, { body: "Turnout looks higher than in the last election." });
      await expect(watched.getByText("Turnout looks higher than in the last election.")).toBeVisible({ timeout: 2_000 });
      // The third: an image with its caption and credit, inserted in the story editor.
      const form = panel.getByTestId("live-update-form");
      await form.getByLabel("Headline").fill("The count hall");
      await form.getByLabel("Update *").fill("Counting under way.");
      await form.getByRole("button", { name: "Insert image" }).click();
      const imageDialog = page.getByRole("dialog", { name: "Insert image" });
      await imageDialog.getByLabel("Upload inline image").setInputFiles({ name: "hall.png", mimeType: "image/png", buffer: PNG_1PX });
      await expect(imageDialog.getByRole("img", { name: "Chosen image preview" })).toHaveAttribute("src", /^\/media\/images\//);
      await imageDialog.getByLabel("Alt text *").fill("Volunteers counting ballots in the hall");
      await imageDialog.getByLabel("Caption").fill("The count at the town hall");
      await imageDialog.getByLabel("Credit").fill("Desk Photo");
      await imageDialog.getByRole("button", { name: "Insert image" }).click();
      await expect(imageDialog).toBeHidden();
      await form.getByRole("button", { name: "Post update" }).click();
      await expect(toastWith(page, "Update posted").last()).toBeVisible();
      await expect(updatesOf(panel)).toHaveCount(3);
      await expect(watched.getByRole("img", { name: "Volunteers counting ballots in the hall" })).toBeVisible({ timeout: 2_000 });
      await expect(updatesOf(panel).first()).toContainText("The count hall");
      await expect(updatesOf(panel).first()).toContainText("1 image");
      // The form is empty again for the next update.
      await expect(form.getByLabel("Headline")).toHaveValue("");

      // Pin the turnout update (the second newest).
      const turnout = updatesOf(panel).filter({ hasText: "Turnout looks higher" });
      await turnout.getByRole("button", { name: /^Pin the update/ }).click();
      await expect(toastWith(page, "Update pinned").last()).toBeVisible();
      await expect(turnout).toContainText("Pinned");
      await expect(watcher.getByTestId("pinned-update")).toContainText("Turnout looks higher", { timeout: 2_000 });

      // Edit it: "Edited".
      await turnout.getByRole("button", { name: /^Edit the update/ }).click();
      const editForm = panel.getByTestId("live-update-edit-form");
      await editForm.getByLabel("Headline").fill("Turnout");
      await editForm.getByRole("button", { name: "Save update" }).click();
      await expect(toastWith(page, "Update saved").last()).toBeVisible();
      const edited = updatesOf(panel).filter({ hasText: "Turnout looks higher" });
      await expect(edited).toContainText("Edited");
      await expect(edited).toContainText("Pinned");
      await expect(watcher.getByTestId("pinned-update").getByRole("heading", { name: "Turnout" })).toBeVisible({ timeout: 2_000 });
      await expect(watcher.getByTestId("pinned-update")).toContainText("Edited");

      // Delete the first one, after the confirm.
      const first = updatesOf(panel).filter({ hasText: "Polls close" });
      await first.getByRole("button", { name: /^Delete the update/ }).click();
      const confirm = page.getByRole("alertdialog", { name: "Delete update?" });
      await confirm.getByRole("button", { name: "Delete" }).click();
      await expect(toastWith(page, "Update deleted").last()).toBeVisible();
      await expect(updatesOf(panel)).toHaveCount(2);
      await expect(watcher.getByText("Polls have closed; counting starts at nine.")).toHaveCount(0, { timeout: 2_000 });
      await expect(watcher.getByTestId("key-events")).toHaveCount(0);
      // All of it in the page the reader opened first: nothing reloaded it.
      expect(await watcher.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true)).toBe(true);

      const rows = await query<{ headline: string | null; key_event: boolean; pinned: boolean; edited: boolean; deleted: boolean; images: boolean }>(
        `select headline, key_event, pinned, edited_at is not null as edited, deleted_at is not null as deleted, content_doc::text like '%storyImage%' as images
         from live_updates where article_id = $1 order by created_at`,
        [articleId],
      );
      expect(rows).toEqual([
        { headline: "Polls close", key_event: true, pinned: false, edited: false, deleted: true, images: false },
        { headline: "Turnout", key_event: false, pinned: true, edited: true, deleted: false, images: false },
        { headline: "The count hall", key_event: false, pinned: false, edited: false, deleted: false, images: true },
      ]);

      // Screenshots of the panel, wide and on a phone (the viewport from the top, then the list).
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: test.info().outputPath("live-panel-1280.png") });
      await updatesOf(panel).last().scrollIntoViewIfNeeded();
      await page.screenshot({ path: test.info().outputPath("live-panel-1280-list.png") });
      await page.setViewportSize({ width: 390, height: 844 });
      await expectNoSidewaysScroll(page, "the Live updates screen at 390 px");
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: test.info().outputPath("live-panel-390.png") });
      await updatesOf(panel).last().scrollIntoViewIfNeeded();
      await page.screenshot({ path: test.info().outputPath("live-panel-390-list.png") });
      await page.setViewportSize({ width: 1280, height: 800 });

      // The breaking-news banner points to the story (the card's quick choice): readers see "LIVE".
      await page.goto("/admin");
      const breaking = page.getByRole("region", { name: "Breaking news" });
      await waitForHydration(breaking);
      await breaking.getByRole("button", { name: title }).click();
      await expect(breaking.getByLabel("Link")).toHaveValue(/^\/article\//);
      await expect(breaking.getByLabel("Banner text *")).toHaveValue(title);
      await breaking.getByRole("button", { name: "Show banner" }).click();
      await expect(toastWith(page, "Banner shown").last()).toBeVisible();
      bannerShown = true;
      const reader = await browser.newContext();
      const readerPage = await reader.newPage();
      const bannerMark = async () => {
        // A page the story's own change notice does not drop (the banner's story is not on it).
        await readerPage.goto("/about");
        const banner = readerPage.getByRole("region", { name: "Breaking news" });
        await expect(banner).toContainText(title);
        return (await banner.getByTestId("banner-live").count()) > 0 ? "LIVE" : "Breaking";
      };
      expect(await bannerMark()).toBe("LIVE");
      await readerPage.setViewportSize({ width: 390, height: 844 });
      await readerPage.screenshot({ path: test.info().outputPath("banner-live-390.png") });

      // An author not on the byline: the crafted POST is 403 and writes nothing.
      const before = await query(`select id, version from live_updates where article_id = $1 order by id`, [articleId]);
      const crafted = await intruder.context.post(`/admin/articles/live/${articleId}`, {
        form: { intent: "post", headline: "Hijacked", contentDoc: "", content: "Posted by someone off the byline.", authorId: "", keyEvent: "on" },
        maxRedirects: 0,
      });
      expect(crafted.status()).toBe(403);
      const pin = await intruder.context.post(`/admin/articles/live/${articleId}`, { form: { intent: "end" }, maxRedirects: 0 });
      expect(pin.status()).toBe(403);
      expect((await intruder.context.get(`/admin/articles/live/${articleId}`, { maxRedirects: 0 })).status()).toBe(403);
      expect(await query(`select id, version from live_updates where article_id = $1 order by id`, [articleId])).toEqual(before);

      // End live coverage (after the confirm): posting stops, the badge goes from the home page.
      await page.goto(`/admin/articles/live/${articleId}`);
      await waitForHydration(panel);
      await page.getByRole("button", { name: "End live coverage" }).click();
      await page.getByRole("alertdialog", { name: "End live coverage?" }).getByRole("button", { name: "End live coverage" }).click();
      await expect(toastWith(page, "Live coverage ended").last()).toBeVisible();
      await expect(panel.getByTestId("live-state")).toContainText("Live coverage ended");
      await expect(panel.getByTestId("live-update-form")).toHaveCount(0);
      await expect(panel).toContainText("Live coverage has ended. Restart it to post updates.");
      await page.goto("/");
      await expect(page.getByRole("heading", { name: title })).toBeVisible();
      await expect(page.locator("article").filter({ has: page.getByRole("heading", { name: title }) }).getByTestId("live-badge")).toHaveCount(0);
      // The banner is on every page (cached): it says "Breaking" again at once.
      await expect.poll(bannerMark).toBe("Breaking");
      await reader.close();
      const ended = await query<{ live_started_at: Date; live_ended_at: Date | null }>(`select live_started_at, live_ended_at from articles where id = $1`, [articleId]);
      expect(ended[0]!.live_ended_at).not.toBeNull();

      // Restart: live again, from the same start.
      await page.goto(`/admin/articles/live/${articleId}`);
      await waitForHydration(panel);
      await panel.getByRole("button", { name: "Restart live coverage" }).click();
      await expect(toastWith(page, "Live coverage restarted").last()).toBeVisible();
      await expect(panel.getByTestId("live-state")).toContainText("Live since");
      await expect(panel.getByTestId("live-update-form")).toBeVisible();
      const restarted = await query<{ live_started_at: Date; live_ended_at: Date | null }>(`select live_started_at, live_ended_at from articles where id = $1`, [articleId]);
      expect(restarted[0]).toEqual({ live_started_at: ended[0]!.live_started_at, live_ended_at: null });

      const kinds = await query<{ kind: string }>(`select kind from audit_events where object_id = $1 and kind like 'live%' order by id`, [articleId]);
      expect(kinds.map((k) => k.kind)).toEqual([
        "live.start",
        "live_update.post",
        "live_update.post",
        "live_update.post",
        "live_update.pin",
        "live_update.edit",
        "live_update.delete",
        "live.end",
        "live.restart",
      ]);
    } finally {
      await watcherContext.close();
      await intruder.context.dispose();
      await editor.context.dispose();
      // The story leaves the home page it leads meanwhile (its updates go with it), and the banner goes.
      if (bannerShown) await query(`update website_settings set breaking_news_text = null, breaking_news_url = null, breaking_news_expires_at = null`);
      if (articleId) await query(`delete from articles where id = $1`, [articleId]);
    }
  });
});
