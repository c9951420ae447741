import { expect, test, type Page } from "./fixtures";
import { signInAsAdmin, toastWith } from "./admin-session";
import { demoArticlePath } from "./db";

// Issue 12: spam rules on the comment form. (The e2e server turns the 15 s interval and the 3 s fill
// time off, as its journeys post at machine speed; those two are tested against the database.)

const form = (page: Page) => page.locator("form").filter({ has: page.getByRole("button", { name: "Post Comment" }) });

test.describe("comment spam", () => {
  test("identical comments, a comment with three links, and a filled honeypot are refused or held; held ones appear only once approved from the Pending tab", async ({ page, request, baseURL }) => {
    const article = await demoArticlePath();
    const api = `/api/articles/${article.replace("/article/", "")}/comments`;
    const stamp = Date.now().toString(36);
    const origin = { Origin: baseURL! };
    const comment = (over: Record<string, string>) => ({ authorName: `Spammer ${stamp}`, authorEmail: `spam-${stamp}@example.org`, content: "x", ...over });

    // The same text three times: the first is published, the next two refused.
    const same = `Buy now ${stamp}`;
    expect((await request.post(api, { form: comment({ content: same }), headers: origin })).status()).toBe(201);
    for (let again = 0; again < 2; again++) {
      const response = await request.post(api, { form: comment({ content: same }), headers: origin });
      expect(response.status()).toBe(409);
      expect((await response.json()).error).toBe("Duplicate comment detected: it looks as though you've already said that!");
    }

    // A filled honeypot is refused.
    const honeypot = await request.post(api, { form: comment({ content: `Honey ${stamp}`, website: "http://spam.example" }), headers: origin });
    expect(honeypot.status()).toBe(400);
    expect((await honeypot.json()).error).toBe("Your comment could not be posted.");

    // Three links: held. Posted through the page's own form, which says so.
    await page.goto(article, { waitUntil: "networkidle" });
    const links = `Deals ${stamp}: https://one.example https://two.example https://three.example`;
    await form(page).getByLabel("Name *").fill(`Linker ${stamp}`);
    await form(page).getByLabel("Email *").fill(`linker-${stamp}@example.org`);
    await form(page).getByLabel("Comment *").fill(links);
    await form(page).getByRole("button", { name: "Post Comment" }).click();
    await expect(page.getByText("Your comment is awaiting moderation.")).toBeVisible();
    // The honeypot is invisible and out of reach: not in the accessibility tree, not focusable.
    await expect(form(page).getByRole("textbox", { name: "Leave this field empty" })).toHaveCount(0);
    await expect(form(page).locator('input[name="website"]')).toHaveAttribute("tabindex", "-1");
    await expect(form(page).locator('input[name="website"]')).not.toBeInViewport();

    // Readers do not see it: not in the page, its data, or after a reload.
    for (const path of [article, `${article}.data`]) expect(await (await request.get(path)).text(), path).not.toContain(`Deals ${stamp}`);

    // The moderator finds it in the Pending tab and approves it.
    await signInAsAdmin(page);
    await page.goto("/admin/comments");
    await page.getByRole("link", { name: /^Pending \(\d+\)$/ }).click();
    await expect(page).toHaveURL(/tab=pending/);
    const held = page.getByRole("listitem").filter({ hasText: `Deals ${stamp}` });
    await expect(held.getByText("More than 2 links")).toBeVisible();
    await held.getByRole("checkbox", { name: `Select comment by Linker ${stamp}` }).check();
    await expect(page.getByText("1 selected")).toBeVisible();
    await page.getByRole("button", { name: "Approve selected" }).click();
    await expect(toastWith(page, "Comment approved")).toBeVisible();
    await expect(page.getByRole("listitem").filter({ hasText: `Deals ${stamp}` })).toHaveCount(0);

    // Now readers see it, its links marked as the commenter's (rel="nofollow ugc").
    await page.goto(article);
    const published = page.getByTestId("comment").filter({ hasText: `Deals ${stamp}` });
    await expect(published).toBeVisible();
    await expect(published.getByRole("link", { name: "https://one.example" })).toHaveAttribute("rel", "nofollow ugc noopener");
  });

  test("Block this e-mail: the commenter's next comment waits in the Pending tab, where it can be deleted, and the block lifted", async ({ page, request, baseURL }) => {
    const article = await demoArticlePath();
    const api = `/api/articles/${article.replace("/article/", "")}/comments`;
    const stamp = Date.now().toString(36);
    const email = `troll-${stamp}@example.org`;
    const origin = { Origin: baseURL! };
    expect((await request.post(api, { form: { authorName: `Troll ${stamp}`, authorEmail: email, content: `First ${stamp}` }, headers: origin })).status()).toBe(201);

    await signInAsAdmin(page);
    await page.goto("/admin/comments");
    const row = page.getByRole("listitem").filter({ hasText: `First ${stamp}` });
    await row.getByRole("button", { name: "Block this e-mail" }).click();
    await expect(toastWith(page, "E-mail blocked")).toBeVisible();

    const next = await request.post(api, { form: { authorName: `Troll ${stamp}`, authorEmail: email.toUpperCase(), content: `Second ${stamp}` }, headers: origin });
    expect(next.status()).toBe(202);
    expect(await next.json()).toEqual({ ok: true, held: true });
    expect(await (await request.get(article)).text()).not.toContain(`Second ${stamp}`);

    await page.goto("/admin/comments?tab=pending");
    const heldRow = page.getByRole("listitem").filter({ hasText: `Second ${stamp}` });
    await expect(heldRow.getByText("Blocked e-mail or address")).toBeVisible();
    await heldRow.getByRole("button", { name: `Delete comment by Troll ${stamp}` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await expect(toastWith(page, "Comment deleted")).toBeVisible();
    await expect(page.getByRole("listitem").filter({ hasText: `Second ${stamp}` })).toHaveCount(0);

    const blocked = page.getByRole("region", { name: "Blocked e-mails and addresses" }).getByRole("listitem").filter({ hasText: email });
    await blocked.getByRole("button", { name: "Unblock" }).click();
    await expect(toastWith(page, "Block removed")).toBeVisible();
    const after = await request.post(api, { form: { authorName: `Troll ${stamp}`, authorEmail: email, content: `Third ${stamp}` }, headers: origin });
    expect(after.status()).toBe(201);
  });
});
