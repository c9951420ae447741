import { readFile } from "node:fs/promises";
import { accountWithRole } from "./accounts";
import { signInAsAdmin, toastWith } from "./admin-session";
import { expect, expectNoSidewaysScroll, test, waitForHydration } from "./fixtures";

// Redirects (issue 29, decision 0040): the back office's screen and the answer before routing.

test("an admin adds a redirect, lands on the new address from the old one, sees the hit, imports a CSV with a bad line and exports", async ({ page }) => {
  const stamp = Date.now().toString(36);
  const oldPath = `/2019/05/e2e-story-${stamp}/`;
  await signInAsAdmin(page);
  await page.goto("/admin/redirects");
  await waitForHydration(page.getByRole("button", { name: "Add redirect" }));
  await page.getByLabel("Old path").first().fill(oldPath);
  await page.getByLabel("New path or URL").first().fill("/about");
  await page.getByRole("button", { name: "Add redirect" }).click();
  await expect(toastWith(page, `Redirect added: /2019/05/e2e-story-${stamp} → /about`)).toBeVisible();

  // A redirect to itself is refused beside its field, nothing saved.
  await page.getByLabel("Old path").first().fill(`/e2e-self-${stamp}/`);
  await page.getByLabel("New path or URL").first().fill(`/e2e-self-${stamp}`);
  await page.getByRole("button", { name: "Add redirect" }).click();
  await expect(page.getByText("The new address is the old one: a redirect cannot lead to itself.").first()).toBeVisible();

  // The old address, as a reader's browser follows it.
  const answer = await page.request.get(oldPath, { maxRedirects: 0 });
  expect(answer.status()).toBe(301);
  expect(answer.headers()["location"]).toBe("/about");
  await page.goto(oldPath);
  await expect(page).toHaveURL(/\/about$/);

  // Its hits (two GETs), written in the view recorder's next batch.
  await expect
    .poll(
      async () => {
        await page.goto(`/admin/redirects?q=e2e-story-${stamp}`);
        return page.getByRole("row").filter({ hasText: `e2e-story-${stamp}` }).getByTestId("redirect-hits").textContent();
      },
      { timeout: 10_000 },
    )
    .toBe("2");
  await expect(page.getByRole("row").filter({ hasText: `e2e-story-${stamp}` })).not.toContainText("Never");

  // Import: the good lines are saved, the bad one reported by its line.
  await page.goto("/admin/redirects");
  await waitForHydration(page.getByRole("button", { name: "Import CSV" }));
  const csv = `from,to,status\n/e2e-import-a-${stamp}/,/about,301\n/admin/e2e-${stamp},/about,301\n/e2e-import-b-${stamp},https://example.org/b,302\n`;
  await page.getByLabel("CSV file").setInputFiles({ name: "redirects.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await page.getByRole("button", { name: "Import CSV" }).click();
  const report = page.getByRole("status").filter({ hasText: "Import finished" });
  await expect(report).toContainText("2 added, 0 changed, 0 unchanged; 1 line not imported.");
  await expect(report).toContainText(`Line 3: /admin/e2e-${stamp} is one of the site's own addresses`);
  await expect(toastWith(page, "Import finished")).toBeVisible();
  const imported = await page.request.get(`/e2e-import-b-${stamp}`, { maxRedirects: 0 });
  expect([imported.status(), imported.headers()["location"]]).toEqual([302, "https://example.org/b"]);

  // The toasts (5 s) slide in from beyond the window's edge: measured once they are gone.
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0, { timeout: 10_000 });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width < 1024 ? 844 : 900 });
    await expectNoSidewaysScroll(page, `/admin/redirects at ${width}px`);
    await page.screenshot({ path: `/tmp/redirects-${width}.png`, fullPage: true });
  }

  // Export: every redirect, as a CSV the import reads back.
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^redirects-\d{4}-\d{2}-\d{2}\.csv$/);
  const exported = await readFile((await download.path())!, "utf8");
  expect(exported.startsWith("from,to,status\r\n")).toBe(true);
  expect(exported).toContain(`/2019/05/e2e-story-${stamp},/about,301\r\n`);
  expect(exported).toContain(`/e2e-import-b-${stamp},https://example.org/b,302\r\n`);

  // Delete, through the confirmation: the old address is no redirect any more.
  await page.goto(`/admin/redirects?q=e2e-story-${stamp}`);
  await waitForHydration(page.getByRole("button", { name: `Delete redirect /2019/05/e2e-story-${stamp}` }));
  await page.getByRole("button", { name: `Delete redirect /2019/05/e2e-story-${stamp}` }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await expect(toastWith(page, "Redirect deleted")).toBeVisible();
  expect((await page.request.get(oldPath, { maxRedirects: 0 })).status()).toBe(404);
});

test("an editor is refused the redirects screen and its export", async ({ baseURL }) => {
  const { context } = await accountWithRole(baseURL, "redirects-editor", "editor");
  expect((await context.get("/admin/redirects")).status()).toBe(403);
  expect((await context.get("/api/admin/redirects.csv")).status()).toBe(403);
  expect((await context.post("/admin/redirects", { form: { intent: "create", fromPath: "/editor-try", toPath: "/about", statusCode: "301" } })).status()).toBe(403);
  await context.dispose();
});
