import { describe, expect, it } from "vitest";
import { publicStoryUrl, shareLinksOf, storySendText } from "./story-live.schema";

describe("the live panel's words", () => {
  it("a send under way names the count with thousands separators and the newsletter", () => {
    expect(storySendText({ newsletterName: "Morning Briefing", status: "queued", recipients: 1204 })).toBe("Sending to 1,204 subscribers of Morning Briefing");
    expect(storySendText({ newsletterName: "Morning Briefing", status: "sending", recipients: 1204 })).toBe("Sending to 1,204 subscribers of Morning Briefing");
  });

  it("a finished send says sent, and one subscriber is singular", () => {
    expect(storySendText({ newsletterName: "Evening", status: "sent", recipients: 1 })).toBe("Sent to 1 subscriber of Evening");
  });

  it("a send that did not go says so instead of a count", () => {
    expect(storySendText({ newsletterName: "Evening", status: "failed", recipients: 30 })).toBe("The send to Evening failed");
    expect(storySendText({ newsletterName: "Evening", status: "skipped", recipients: 0 })).toBe("The send to Evening was skipped");
  });

  it("the public address is absolute, from the public URL without its trailing slash", () => {
    expect(publicStoryUrl("https://news.example/", "harbour-reopens")).toBe("https://news.example/article/harbour-reopens");
  });

  it("the share shortcuts carry the address and title encoded", () => {
    const links = shareLinksOf("https://news.example/article/a-b", "Rates & rents");
    expect(links.map((l) => l.label)).toEqual(["X", "Facebook", "LinkedIn", "E-mail"]);
    expect(links[0]!.href).toBe("https://x.com/intent/post?url=https%3A%2F%2Fnews.example%2Farticle%2Fa-b&text=Rates%20%26%20rents");
    expect(links[3]!.href).toBe("mailto:?subject=Rates%20%26%20rents&body=https%3A%2F%2Fnews.example%2Farticle%2Fa-b");
  });
});
