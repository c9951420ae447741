import { describe, expect, it } from "vitest";
import { notificationMail } from "./notification-email.server";
import { bellLabel, notificationText } from "./notifications.schema";

describe("what a notification says", () => {
  it("the sentences are the issue's, with one comment in the singular", () => {
    expect(notificationText.sentBack("Edna Editor", "Budget day")).toBe("Edna Editor sent back 'Budget day'");
    expect(notificationText.reviewRequested("Budget day")).toBe("'Budget day' is waiting for review");
    expect(notificationText.published("Budget day")).toBe("'Budget day' was published");
    expect(notificationText.commentsPending(3)).toBe("3 comments wait for moderation");
    expect(notificationText.commentsPending(1)).toBe("1 comment waits for moderation");
  });

  it("the bell's accessible name carries the unread count", () => {
    expect(bellLabel(2)).toBe("Notifications, 2 unread");
    expect(bellLabel(0)).toBe("Notifications");
  });

  it("the e-mail names the site, says the sentence and the note, links to the story and to Your account; the note cannot inject HTML", () => {
    const mail = notificationMail({
      to: "ann@example.com",
      siteName: "The Courier",
      text: "Edna sent back 'A <b>bold</b> claim'",
      note: "Cite <script>alert(1)</script> the source",
      url: "https://courier.example/admin/articles/edit/1",
      profileUrl: "https://courier.example/admin/profile",
    });
    expect(mail.subject).toBe("The Courier: Edna sent back 'A <b>bold</b> claim'");
    expect(mail.text).toContain("The Courier");
    expect(mail.text).toContain("Cite <script>alert(1)</script> the source");
    expect(mail.text).toContain("https://courier.example/admin/articles/edit/1");
    expect(mail.text).toContain("https://courier.example/admin/profile");
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain("Cite &lt;script&gt;alert(1)&lt;/script&gt; the source");
    expect(mail.html).toContain('href="https://courier.example/admin/articles/edit/1"');
  });
});
