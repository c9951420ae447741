import { expect, test } from "./fixtures";

test.describe("the contact form", () => {
  test.beforeEach(async ({ page }) => {
    await page.goto("/contact");
    // The send button stays disabled until the page is hydrated; click() waits for it to be enabled.
  });

  test("sending it blank shows \"Missing Information\"", async ({ page }) => {
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByText("Missing Information")).toBeVisible();
    await expect(page.getByText("Please fill in all fields before submitting.")).toBeVisible();
    await expect(page.getByText("Message Sent!")).toHaveCount(0);
  });

  test("sending it filled shows \"Sending...\", then \"Message Sent!\", and clears every field", async ({ page }) => {
    const form = page.locator("form", { has: page.getByRole("button", { name: /send/i }) });
    const name = form.getByLabel("Name", { exact: true });
    const email = form.getByLabel("Email", { exact: true });
    const subject = form.getByLabel("Subject", { exact: true });
    const message = form.getByLabel("Message", { exact: true });
    await expect(email).toHaveAttribute("type", "email");
    await expect(message).toHaveAttribute("rows", "6");

    await name.fill("Jane Reader");
    await email.fill("jane@example.com");
    await subject.fill("A story tip");
    await message.fill("There is a new library opening on Main Street next week.");

    // The spec says no network call is made: watch for one.
    const requests: string[] = [];
    page.on("request", (r) => {
      if (r.method() !== "GET") requests.push(`${r.method()} ${r.url()}`);
    });

    await form.getByRole("button", { name: /send/i }).click();
    await expect(form.getByRole("button", { name: "Sending..." })).toBeVisible();
    await expect(page.getByText("Message Sent!")).toBeVisible();
    await expect(page.getByText("Thank you for contacting us. We'll get back to you within 24 hours.")).toBeVisible();
    for (const field of [name, email, subject, message]) await expect(field).toHaveValue("");
    expect(requests.filter((r) => !r.includes("/api/views"))).toEqual([]);
  });
});
