import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Locator, type Page } from "./fixtures";
import { signInAsAdmin } from "./admin-session";
import { query } from "./db";

// Issue 27, section 3 (decision 0035): the writing screen — the story in one column and its settings
// beside it (a sheet on phones), a toolbar that stays in view, the "+" / "/" insert menu, images pasted
// or dropped into the story, and paste from Word and Google Docs.

// A valid 1×1 PNG: uploads are checked from their bytes, so it has to be a real image.
const PNG_1PX_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

// What Word (Windows) puts on the clipboard for a heading, a paragraph with a link and a bulleted list.
const WORD_HTML = `<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><style><!-- p.MsoNormal {font-family:"Calibri"} --></style></head><body lang=EN-GB><!--StartFragment--><h1><span style='font-family:"Calibri Light";color:#2F5496'>Council budget<o:p></o:p></span></h1><p class=MsoNormal><span style='font-size:14.0pt;color:red'>The council <b>voted</b> on <i>Tuesday</i>; see <a href="https://example.com/minutes"><span style='color:#0563C1'>the minutes</span></a>.<o:p></o:p></span></p><p class=MsoNormal><o:p>&nbsp;</o:p></p><p class=MsoListParagraphCxSpFirst style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'><![if !supportLists]><span style='font-family:Symbol;mso-list:Ignore'>·<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp; </span></span><![endif]>Schools<o:p></o:p></p><p class=MsoListParagraphCxSpLast style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'><![if !supportLists]><span style='font-family:Symbol;mso-list:Ignore'>·<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp; </span></span><![endif]>Roads<o:p></o:p></p><!--EndFragment--></body></html>`;

// What Google Docs puts there: everything inside <b style="font-weight:normal">, styles on spans.
const GOOGLE_DOCS_HTML = `<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-1"><h2 dir="ltr" style="line-height:1.38;"><span style="font-size:16pt;color:#ff0000;font-weight:400;">What changes</span></h2><p dir="ltr"><span style="font-family:Comic Sans MS;font-weight:700;">Hourly</span><span style="font-weight:400;"> departures from the </span><a href="https://example.com/quay"><span style="color:#1155cc;text-decoration:underline;">quay</span></a></p></b>`;

/** The article form with the story editor loaded (its toolbar shows once the editor's code has arrived). */
async function openEditor(page: Page, path: string) {
  await page.goto(path, { waitUntil: "networkidle" });
  await expect(page.getByRole("toolbar", { name: "Story formatting" })).toBeVisible();
  return page.getByLabel("Content *");
}

/** An image file dropped on the writing area, or pasted into it (a synthetic event with a DataTransfer, as the browser sends). */
async function sendImage(content: Locator, how: "drop" | "paste", name: string) {
  await content.evaluate(
    (target, { how, name, base64 }) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], name, { type: "image/png" }));
      const box = target.getBoundingClientRect();
      const event =
        how === "drop"
          ? new DragEvent("drop", { dataTransfer: data, clientX: box.left + 20, clientY: box.top + 12, bubbles: true, cancelable: true })
          : new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true });
      target.dispatchEvent(event);
    },
    { how, name, base64: PNG_1PX_BASE64 },
  );
}

/** HTML pasted into the writing area at the caret, as a word processor's copy arrives. */
async function pasteHtml(content: Locator, html: string, text: string) {
  await content.evaluate(
    (target, { html, text }) => {
      const data = new DataTransfer();
      data.setData("text/html", html);
      data.setData("text/plain", text);
      target.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    },
    { html, text },
  );
}

/** The document the form would save now (the editor's hidden field). */
async function formDocument(page: Page): Promise<{ type: string; content?: unknown[] }> {
  return JSON.parse(await page.locator('input[name="contentDoc"]').inputValue());
}

async function axeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((v) => ({ rule: v.id, targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")) }));
}

/** Whether the page scrolls sideways. */
const scrollsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

test.describe("the writing screen", () => {
  test.beforeEach(async ({ page }) => {
    // Editor journeys on a shared two-core machine: the editor's chunk alone takes seconds to load there.
    test.slow();
    await signInAsAdmin(page);
  });

  test("an image dropped into the story and one pasted from the clipboard both upload and ask for alt text", async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    const content = await openEditor(page, "/admin/articles/new");
    await content.click();
    await page.keyboard.type("Ferry photos from the quay.");

    for (const [how, name, alt] of [
      ["drop", "dropped.png", "The ferry seen from the quay"],
      ["paste", "pasted.png", "Passengers on the upper deck"],
    ] as const) {
      await sendImage(content, how, name);
      const dialog = page.getByRole("dialog", { name: "Insert image" });
      await expect(dialog, `${how}: the image dialog opens`).toBeVisible();
      // Uploaded through the editor's own path, then shown with the field for its alt text.
      const preview = dialog.getByRole("img", { name: "Chosen image preview" });
      await expect(preview).toHaveAttribute("src", /^\/media\/images\/\d+-[a-z0-9]+\.png$/);
      const src = (await preview.getAttribute("src"))!;
      const [stored] = await query<{ original_name: string }>("select original_name from media where bucket = 'images' and name = $1", [src.split("/").pop()]);
      expect(stored?.original_name, `${how}: the upload is in the Media Library`).toBe(name);
      // No alt text, no image: the dialog says why.
      await dialog.getByRole("button", { name: "Insert image" }).click();
      await expect(dialog.getByRole("alert")).toHaveText("Describe the image in its alt text.");
      await dialog.getByLabel("Alt text *").fill(alt);
      await dialog.getByRole("button", { name: "Insert image" }).click();
      await expect(dialog).toBeHidden();
      await expect(content.locator(`img[src="${src}"]`)).toBeVisible();
    }
    const doc = await formDocument(page);
    const images = (doc.content as { type: string; attrs?: { alt?: string } }[]).filter((n) => n.type === "storyImage");
    expect(images.map((n) => n.attrs?.alt).sort()).toEqual(["Passengers on the upper deck", "The ferry seen from the quay"]);
  });

  test("HTML pasted from Word or Google Docs keeps its headings, links, lists, bold and italic and loses its styles", async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    const content = await openEditor(page, "/admin/articles/new");
    await content.click();
    await pasteHtml(content, WORD_HTML, "Council budget\nThe council voted on Tuesday; see the minutes.\nSchools\nRoads");
    await expect(content.getByRole("heading", { level: 2, name: "Council budget" })).toBeVisible();
    await expect(content.getByRole("link", { name: "the minutes" })).toHaveAttribute("href", "https://example.com/minutes");
    await expect(content.locator("strong")).toHaveText("voted");
    await expect(content.locator("em")).toHaveText("Tuesday");
    await expect(content.locator("ul > li")).toHaveText(["Schools", "Roads"]);
    await content.press("Control+End");
    await page.keyboard.press("Enter");
    await pasteHtml(content, GOOGLE_DOCS_HTML, "What changes\nHourly departures from the quay");
    await expect(content.getByRole("heading", { level: 2, name: "What changes" })).toBeVisible();
    await expect(content.getByRole("link", { name: "quay" })).toHaveAttribute("href", "https://example.com/quay");
    // Google Docs' bold wrapper does not make everything bold: only "Hourly" is.
    await expect(content.locator("strong")).toHaveText(["voted", "Hourly"]);

    // Nothing of the word processors' styling came along: no style, class, span, font, Word bullet or blank spacer.
    await expect(content.locator("[style], span, font, table, o\\:p, [class*='Mso']")).toHaveCount(0);
    await expect(content).not.toContainText("·");
    const doc = await formDocument(page);
    expect(JSON.stringify(doc)).not.toMatch(/mso|font-|color|Calibri|Comic|"class":"/i);
    const blocks = (doc.content as { type: string; content?: unknown[] }[]).filter((n) => n.type !== "paragraph" || n.content);
    expect(blocks.map((n) => n.type)).toEqual(["heading", "paragraph", "bulletList", "heading", "paragraph"]);
  });

  test("the insert menu opens from '+' and from '/', moves with the arrows, inserts with Enter and closes with Escape", async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    const content = await openEditor(page, "/admin/articles/new");
    await content.click();
    await page.keyboard.type("First paragraph.");
    await page.keyboard.press("Enter");

    // "/" at the start of an empty paragraph: the menu, the caret still in the story.
    await page.keyboard.type("/");
    const menu = page.getByRole("listbox", { name: "Insert block" });
    await expect(menu).toBeVisible();
    await expect(menu.getByRole("option")).toHaveText([/^Heading/, /^List/, /^Quote/, /^Divider/, /^Image/, /^Gallery/, /^YouTube/, /^X post/, /^Paywall here/]);
    await expect(content).toBeFocused();
    // Letters narrow it; Enter inserts the active block and removes the "/quo".
    await page.keyboard.type("quo");
    await expect(menu.getByRole("option")).toHaveText([/^Quote/]);
    await expect(content).toHaveAttribute("aria-activedescendant", /.+/);
    await page.keyboard.press("Enter");
    await expect(menu).toBeHidden();
    await expect(content.locator("blockquote")).toHaveCount(1);
    await page.keyboard.type("A quoted line.");
    await expect(content.locator("blockquote")).toHaveText("A quoted line.");
    await expect(content).not.toContainText("/quo");

    // Escape closes it and leaves the "/" as typed.
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    await page.keyboard.type("/");
    await expect(menu).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await page.keyboard.type("2 is half");
    await expect(content).toContainText("/2 is half");

    // "+" beside an empty paragraph: the list takes the keyboard; arrows move, Enter inserts.
    await page.keyboard.press("Enter");
    const plus = page.getByRole("button", { name: "Insert block" });
    await expect(plus).toBeVisible();
    await plus.click();
    await expect(menu).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await expect(menu.getByRole("option", { selected: true })).toContainText("Divider");
    await page.keyboard.press("Enter");
    await expect(menu).toBeHidden();
    await expect(content.locator("hr")).toHaveCount(1);
    await expect(content).toBeFocused();

    // "+" → "X post" opens the embed dialog; Escape on the menu closes it without inserting.
    await expect(plus).toBeVisible();
    await plus.click();
    // End is the last option, "Paywall here" (issue 40); X post is the one before it.
    await page.keyboard.press("End");
    await expect(menu.getByRole("option", { selected: true })).toContainText("Paywall here");
    await page.keyboard.press("ArrowUp");
    await expect(menu.getByRole("option", { selected: true })).toContainText("X post");
    await page.keyboard.press("Enter");
    const embed = page.getByRole("dialog", { name: "Embed a video or post" });
    await expect(embed).toBeVisible();
    await embed.getByLabel("YouTube or X address").fill("https://x.com/frontpage/status/1234567890");
    await embed.getByRole("button", { name: "Embed", exact: true }).click();
    await expect(embed).toBeHidden();
    await expect(content).toContainText("https://x.com/frontpage/status/1234567890");
    await plus.click();
    await expect(menu).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect(content).toBeFocused();
    expect(await axeViolations(page)).toEqual([]);
  });

  for (const viewport of [DESKTOP, PHONE]) {
    test(`at ${viewport.width} px the toolbar stays in view while a long story scrolls, and nothing scrolls sideways`, async ({ page }) => {
      await page.setViewportSize(viewport);
      const slug = `long-story-${viewport.width}-${Date.now().toString(36)}`;
      const paragraphs = Array.from({ length: 60 }, (_, i) => `Paragraph ${i + 1} of a long story about the harbour, its ferries and the people who work there every night.`);
      const [{ id }] = await query<{ id: string }>(`insert into articles (title, slug, content, status) values ($1, $2, $3, 'draft') returning id`, [
        "A long story",
        slug,
        paragraphs.join("\n\n"),
      ]);
      try {
        const content = await openEditor(page, `/admin/articles/edit/${id}`);
        const toolbar = page.getByRole("toolbar", { name: "Story formatting" });
        const inView = async () => {
          const box = (await toolbar.boundingBox())!;
          return box.y >= 0 && box.y + box.height <= viewport.height;
        };
        await content.locator("p").last().click();
        await page.keyboard.press("Control+End");
        await page.keyboard.type(" The end.");
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        expect(await page.evaluate(() => window.scrollY), "the page scrolled").toBeGreaterThan(1000);
        expect(await inView(), "the toolbar at the end of the story").toBe(true);
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight / 2));
        expect(await inView(), "the toolbar in the middle of the story").toBe(true);
        // One row: on a phone the tools that do not fit are under "More".
        expect((await toolbar.boundingBox())!.height).toBeLessThan(50);
        if (viewport === PHONE) {
          await expect(toolbar.getByRole("button", { name: "Numbered list" })).toBeHidden();
          await toolbar.getByRole("button", { name: "More formatting" }).click();
          await page.getByRole("menuitemcheckbox", { name: "Numbered list" }).click();
          await expect(content.locator("ol")).toHaveCount(1);
        } else {
          await expect(toolbar.getByRole("button", { name: "More formatting" })).toBeHidden();
        }
        expect(await scrollsSideways(page), "the page scrolls sideways").toBe(false);
        await page.screenshot({ path: `test-results/writing-screen/long-story-${viewport.width}.png` });
      } finally {
        await query("delete from articles where id = $1", [id]);
      }
    });
  }

  test("on a phone the settings are a sheet inside the form: a refused field in it opens it, and what is set there is saved", async ({ page }) => {
    await page.setViewportSize(PHONE);
    const run = Date.now().toString(36);
    // The writer's own author record (made when an account joins): theirs is the byline of a new story by default.
    const [own] = await query<{ name: string }>(`select a.name from authors a join "user" u on u.id = a.user_id where u.email = 'admin@example.com'`);
    const ownName = own?.name ?? `Admin Writer ${run}`;
    if (!own) {
      await query(`insert into authors (name, slug, user_id) select $1, $2, id from "user" where email = 'admin@example.com'`, [ownName, `admin-writer-${run}`]);
    }
    const content = await openEditor(page, "/admin/articles/new");
    await page.screenshot({ path: "test-results/writing-screen/new-390.png", fullPage: true });
    expect(await scrollsSideways(page)).toBe(false);
    // The settings are out of the way until asked for.
    await expect(page.getByLabel("Slug *")).toBeHidden();
    await page.getByLabel("Title *").fill(`Sheet story ${run}`);
    await content.click();
    await page.keyboard.type("Written on a phone.");

    const settings = page.getByRole("button", { name: "Settings" });
    await settings.click();
    const sheet = page.getByRole("dialog", { name: "Story settings" });
    await expect(sheet).toBeVisible();
    await expect(sheet.getByLabel("Slug *")).toHaveValue(`sheet-story-${run}`);
    // The byline: the writer's own author record is there; removing it offers the free-text byline.
    const chosen = sheet.getByRole("list", { name: "Chosen authors" });
    await expect(chosen.getByRole("listitem")).toHaveText([`1. ${ownName}`]);
    await expect(sheet.getByText(`Readers see: By ${ownName}.`)).toBeVisible();
    await expect(sheet.getByLabel("Author Name")).toHaveCount(0);
    await sheet.getByRole("button", { name: `Remove ${ownName}` }).click();
    await sheet.getByLabel("Author Name").fill("Harbour Desk");
    await sheet.getByLabel("Upload Image").setInputFiles({
      name: "sheet.png",
      mimeType: "image/png",
      buffer: Buffer.from(PNG_1PX_BASE64, "base64"),
    });
    await expect(sheet.getByLabel("Alt text *")).toBeVisible();
    await page.screenshot({ path: "test-results/writing-screen/sheet-390.png" });
    expect(await axeViolations(page), "the open sheet").toEqual([]);
    // Escape closes it; the keyboard goes back to "Settings".
    await page.keyboard.press("Escape");
    await expect(sheet).toBeHidden();
    await expect(settings).toBeFocused();

    // Saving without the image's alt text: the sheet opens on the field that needs it.
    await page.getByRole("button", { name: "Save Draft" }).click();
    await expect(sheet).toBeVisible();
    await expect(sheet.getByLabel("Alt text *")).toBeFocused();
    await page.keyboard.type("A phone photo");
    await sheet.getByRole("button", { name: "Done" }).click();
    await expect(sheet).toBeHidden();
    await page.getByRole("button", { name: "Save Draft" }).click();
    await expect(page).toHaveURL(/\/admin\/articles(\/edit\/[^/]+)?$/);
    await expect
      .poll(async () => (await query<{ author_name: string; featured_image_alt: string }>("select author_name, featured_image_alt from articles where slug = $1", [`sheet-story-${run}`]))[0])
      .toEqual({ author_name: "Harbour Desk", featured_image_alt: "A phone photo" });
    await query("delete from articles where slug = $1", [`sheet-story-${run}`]);
    if (!own) await query("delete from authors where slug = $1", [`admin-writer-${run}`]);
  });

  test("at 1280 px the settings are a panel beside the story, and the page is no longer one long column", async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    const [{ id }] = await query<{ id: string }>(`select id from articles where status = 'published' order by published_at desc limit 1`);
    await openEditor(page, `/admin/articles/edit/${id}`);
    const panel = page.getByRole("region", { name: "Story settings" });
    await expect(panel.getByLabel("Slug *")).toBeVisible();
    await expect(page.getByRole("button", { name: "Settings" })).toBeHidden();
    const story = (await page.getByLabel("Title *").boundingBox())!;
    const side = (await panel.boundingBox())!;
    expect(side.x, "the panel is to the right of the story").toBeGreaterThan(story.x + story.width);
    // Beside the story, from the top: the settings are in the first screen, not under 3,000 px of form.
    expect(side.y, "the panel starts in the first screen").toBeLessThan(400);
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "test-results/writing-screen/edit-1280.png" });
    expect(await axeViolations(page)).toEqual([]);
  });
});
