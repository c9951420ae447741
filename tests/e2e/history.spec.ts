import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "./fixtures";
import { ADMIN, signInAsAdmin, toastWith } from "./admin-session";
import { query } from "./db";
import { fillPublishingDetails, publishNow, expectStoryLive } from "./publish-panel";

// The article form's History (decision 0011): every save is a revision; "Restore this version" fills
// the form without saving; leaving with unsaved changes asks first; a draft autosaves.

/** The article form with the story editor loaded (its toolbar shows once the editor's code has arrived). */
async function openForm(page: Page, path: string) {
  await page.goto(path, { waitUntil: "networkidle" });
  await expect(page.getByRole("toolbar", { name: "Story formatting" })).toBeVisible();
}

/** Replaces the story's text (the editor's writing area is named by the "Content *" label). */
async function writeStory(page: Page, text: string) {
  await page.getByLabel("Content *").fill(text);
}

async function idOf(slug: string): Promise<string> {
  const [row] = await query<{ id: string }>("select id from articles where slug = $1", [slug]);
  expect(row, `article ${slug}`).toBeTruthy();
  return row!.id;
}

/**
 * Holds back the form's autosave: a published story's autosave keeps the changes as its pending
 * version (decision 0033), which would add a "Saved for later" revision (or make the form saved)
 * at whatever moment the 2 s pause falls on a busy machine. These journeys are about the buttons.
 */
async function holdAutosave(page: Page) {
  await page.route(/\/admin\/articles\/edit\/[^/]+(\.data)?(\?.*)?$/, async (route) => {
    const request = route.request();
    if (request.method() === "POST" && (request.postData() ?? "").includes("autosave")) await route.abort();
    else await route.continue();
  });
}

// "Nov 23, 2026 at 3:04 PM": the site's date-and-time format.
const WHEN = /[A-Z][a-z]{2} \d{1,2}, \d{4} at \d{1,2}:\d{2} [AP]M/;

test.describe("article history", () => {
  test.beforeEach(async ({ page }) => {
    await signInAsAdmin(page);
  });

  test("a published story edited three times lists four saves with who and when; restoring the first and saving puts it back on the site", async ({
    page,
  }) => {
    test.slow();
    const run = Date.now().toString(36);
    const original = { title: `Harbour bridge opens ${run}`, slug: `harbour-bridge-opens-${run}`, body: `The first version of the bridge story ${run}.` };

    await openForm(page, "/admin/articles/new");
    await page.getByLabel("Title *").fill(original.title);
    await page.getByLabel("Excerpt").fill("The original excerpt.");
    await writeStory(page, original.body);
    await fillPublishingDetails(page);
    await publishNow(page);
    await expectStoryLive(page);
    const id = await idOf(original.slug);
    const editUrl = `/admin/articles/edit/${id}`;
    await holdAutosave(page);

    for (let edit = 1; edit <= 3; edit++) {
      await openForm(page, editUrl);
      await page.getByLabel("Title *").fill(`Harbour bridge edit ${edit} ${run}`);
      // A published article keeps its address when its headline changes; the third edit moves it by hand.
      if (edit === 3) await page.getByLabel("Slug *").fill(`harbour-bridge-edit-3-${run}`);
      await writeStory(page, `Edit number ${edit} of the bridge story.`);
      await page.getByRole("button", { name: "Update Article" }).click();
      await expect(page).toHaveURL(/\/admin\/articles(\?|$)/);
    }

    // From the keyboard: the button opens the dialog, Escape closes it and gives the focus back.
    await openForm(page, editUrl);
    const historyButton = page.getByRole("button", { name: "History" });
    await historyButton.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "History" });
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(historyButton).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("The last 50 saves are kept.");
    const saves = dialog.getByTestId("revision-list").getByRole("button");
    await expect(saves).toHaveCount(4);
    for (const save of await saves.all()) {
      await expect(save).toContainText(WHEN);
      // Who: the account's name and e-mail address.
      await expect(save).toContainText(`(${ADMIN.email})`);
      await expect(save).toContainText(/by \S/);
    }
    // Newest first.
    await expect(saves.first()).toContainText(`Harbour bridge edit 3 ${run}`);
    await expect(saves.last()).toContainText(original.title);

    // The first version, compared with the current one (chosen from the keyboard).
    await saves.last().focus();
    await page.keyboard.press("Enter");
    await expect(dialog.getByRole("heading", { name: /^Version of / })).toBeFocused();
    await expect(dialog.locator("ins").filter({ hasText: "opens" }).first()).toBeVisible();
    await expect(dialog.locator("del").filter({ hasText: "edit" }).first()).toBeVisible();
    await expect(dialog).toContainText("Also different: Slug.");
    const axe = await new AxeBuilder({ page }).include('[role="dialog"]').analyze();
    expect(axe.violations.map((v) => ({ rule: v.id, targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")) }))).toEqual([]);

    if (process.env.HISTORY_SCREENSHOTS) {
      await page.screenshot({ path: `${process.env.HISTORY_SCREENSHOTS}/history-1280.png` });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: `${process.env.HISTORY_SCREENSHOTS}/history-390.png` });
      await page.setViewportSize({ width: 1280, height: 720 });
    }

    // Restoring fills the form (title, slug, excerpt, story) and saves nothing.
    await dialog.getByRole("button", { name: "Restore this version" }).click();
    await expect(dialog).toBeHidden();
    await expect(toastWith(page, "Version restored")).toBeVisible();
    await expect(page.getByLabel("Title *")).toHaveValue(original.title);
    await expect(page.getByLabel("Slug *")).toHaveValue(original.slug);
    await expect(page.getByLabel("Excerpt")).toHaveValue("The original excerpt.");
    await expect(page.getByLabel("Content *")).toHaveText(original.body);
    const [stored] = await query<{ title: string }>("select title from articles where id = $1", [id]);
    expect(stored!.title).toBe(`Harbour bridge edit 3 ${run}`);

    // Saved only by Update Article: then the article page shows the first version again.
    await page.getByRole("button", { name: "Update Article" }).click();
    await expect(page).toHaveURL(/\/admin\/articles(\?|$)/);
    await page.goto(`/article/${original.slug}`);
    await expect(page.getByRole("heading", { level: 1, name: original.title })).toBeVisible();
    await expect(page.getByText(original.body)).toBeVisible();
    const [{ count }] = await query<{ count: string }>("select count(*) from article_revisions where article_id = $1", [id]);
    expect(Number(count)).toBe(5);
  });

  test("leaving the form with unsaved changes asks first; an untouched form and a save do not", async ({ page }) => {
    const [article] = await query<{ id: string; title: string }>("select id, title from articles where status = 'published' order by created_at limit 1");
    const editUrl = `/admin/articles/edit/${article!.id}`;
    await holdAutosave(page);

    // Untouched: "Back to Articles" leaves at once.
    await openForm(page, editUrl);
    await page.getByRole("link", { name: "Back to Articles" }).click();
    await expect(page).toHaveURL(/\/admin\/articles$/);

    await openForm(page, editUrl);
    await page.getByLabel("Title *").fill("A change nobody saved");
    // The browser's own unload asks too.
    expect(
      await page.evaluate(() => {
        const event = new Event("beforeunload", { cancelable: true });
        window.dispatchEvent(event);
        return event.defaultPrevented;
      }),
    ).toBe(true);
    await page.getByRole("link", { name: "Back to Articles" }).click();
    const prompt = page.getByRole("alertdialog", { name: "Leave without saving?" });
    await expect(prompt).toBeVisible();
    await expect(prompt).toContainText("You have unsaved changes. If you leave now they will be lost.");
    await prompt.getByRole("button", { name: "Stay" }).click();
    await expect(prompt).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`${editUrl}$`));
    await expect(page.getByLabel("Title *")).toHaveValue("A change nobody saved");

    // Cancel asks the same; Leave goes.
    await page.getByRole("link", { name: "Cancel" }).click();
    await expect(prompt).toBeVisible();
    await prompt.getByRole("button", { name: "Leave" }).click();
    await expect(page).toHaveURL(/\/admin\/articles$/);
    const [stored] = await query<{ title: string }>("select title from articles where id = $1", [article!.id]);
    expect(stored!.title).toBe(article!.title);

    // A new article's form asks too, and its own submit never does.
    await openForm(page, "/admin/articles/new");
    await page.getByLabel("Title *").fill(`Prompted ${Date.now().toString(36)}`);
    await page.getByRole("link", { name: "Back to Articles" }).click();
    await expect(prompt).toBeVisible();
    await prompt.getByRole("button", { name: "Stay" }).click();
    await writeStory(page, "Saved without a prompt.");
    await page.getByRole("button", { name: "Save Draft" }).click();
    await expect(toastWith(page, "Draft saved")).toBeVisible();
    await expect(prompt).toBeHidden();
    await page.getByRole("link", { name: "Back to Articles" }).click();
    await expect(page).toHaveURL(/\/admin\/articles$/);
  });

  test("a draft autosaves while typing: Saving…, then Saved, and the change survives a reload", async ({ page }) => {
    // Four autosaves of two seconds' wait each, a reload and a refused save: past 30 s on a busy machine.
    test.setTimeout(75_000);
    const run = Date.now().toString(36);
    await openForm(page, "/admin/articles/new");
    await page.getByLabel("Title *").fill(`Autosaved draft ${run}`);
    await writeStory(page, "The draft's first words.");
    // A new article is never autosaved: nothing is stored until Save Draft.
    await page.waitForTimeout(2500);
    expect(await query("select id from articles where slug = $1", [`autosaved-draft-${run}`])).toEqual([]);
    await page.getByRole("button", { name: "Save Draft" }).click();
    await expect(toastWith(page, "Draft saved")).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/articles\/edit\/[0-9a-f-]{36}$/);
    const id = await idOf(`autosaved-draft-${run}`);
    await expect(page.getByRole("toolbar", { name: "Story formatting" })).toBeVisible();

    // The autosave's request is held a moment, so "Saving…" can be seen.
    await page.route(/\/admin\/articles\/edit\/[^/]+(\.data)?(\?.*)?$/, async (route) => {
      if (route.request().method() === "POST") await new Promise((resolve) => setTimeout(resolve, 700));
      await route.continue();
    });
    const indicator = page.getByTestId("autosave-status");
    await page.getByLabel("Excerpt").fill("Typed, never saved by hand.");
    await page.getByLabel("Content *").click();
    await page.keyboard.press("End");
    await page.keyboard.type(" More words.");
    await expect(indicator).toHaveText("Saving…");
    await expect(indicator).toHaveText("Saved");
    // Saved now: leaving does not ask.
    const [stored] = await query<{ excerpt: string; status: string; content: string }>("select excerpt, status, content from articles where id = $1", [id]);
    expect(stored).toEqual({ excerpt: "Typed, never saved by hand.", status: "draft", content: "The draft's first words. More words." });

    // More typing coalesces into the same autosave revision (one per editing session, not one per keystroke).
    await page.keyboard.type(" And more.");
    await expect(indicator).toHaveText("Saving…");
    await expect(indicator).toHaveText("Saved");
    const revisions = await query<{ autosave: boolean }>("select autosave from article_revisions where article_id = $1 order by created_at", [id]);
    expect(revisions.map((r) => r.autosave)).toEqual([false, true]);

    // A refused autosave says why and saves nothing.
    await page.getByLabel("Title *").fill("");
    await page.getByLabel("Slug *").fill(`autosaved-draft-${run}`);
    await expect(indicator).toHaveText("Not saved: Please fill in all required fields");
    await page.getByLabel("Title *").fill(`Autosaved draft ${run} (renamed)`);
    await page.getByLabel("Slug *").fill(`autosaved-draft-${run}`);
    await expect(indicator).toHaveText("Saved");

    await page.reload({ waitUntil: "networkidle" });
    await expect(page.getByLabel("Title *")).toHaveValue(`Autosaved draft ${run} (renamed)`);
    await expect(page.getByLabel("Excerpt")).toHaveValue("Typed, never saved by hand.");
    await expect(page.getByLabel("Content *")).toContainText("The draft's first words. More words. And more.");
    await expect(page.getByTestId("article-status")).toHaveText("Status: Draft");
    await page.getByRole("link", { name: "Back to Articles" }).click();
    await expect(page).toHaveURL(/\/admin\/articles$/);
  });

  test("a published article's autosave never touches the live story: it keeps a pending version (decision 0033)", async ({ page }) => {
    const [article] = await query<{ id: string; title: string }>("select id, title from articles where status = 'published' order by created_at desc limit 1");
    try {
      await openForm(page, `/admin/articles/edit/${article!.id}`);
      await page.getByLabel("Excerpt").fill("Not for readers yet.");
      await expect(page.getByTestId("autosave-status")).toHaveText("Saved for later", { timeout: 20_000 });
      const [stored] = await query<{ excerpt: string | null }>("select excerpt from articles where id = $1", [article!.id]);
      expect(stored!.excerpt).not.toBe("Not for readers yet.");
      const [pending] = await query<{ excerpt: string | null }>("select fields->>'excerpt' as excerpt from article_pending_versions where article_id = $1", [article!.id]);
      expect(pending!.excerpt).toBe("Not for readers yet.");
    } finally {
      await query("delete from article_pending_versions where article_id = $1", [article!.id]);
    }
  });
});
