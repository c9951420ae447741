import { describe, expect, it } from "vitest";
import { newsletterCampaignUrl } from "./newsletter-campaign";

const SITE = "https://news.example";
const TAGS = "utm_source=newsletter&utm_medium=email&utm_campaign=morning-briefing";

describe("newsletterCampaignUrl", () => {
  it("tags a link to the site with the newsletter's source, medium and campaign", () => {
    expect(newsletterCampaignUrl(SITE, `${SITE}/article/late-ferry`, "morning-briefing")).toBe(`${SITE}/article/late-ferry?${TAGS}`);
    expect(newsletterCampaignUrl(SITE, `${SITE}/`, "morning-briefing")).toBe(`${SITE}/?${TAGS}`);
  });

  it("keeps the link's own query and fragment", () => {
    expect(newsletterCampaignUrl(SITE, `${SITE}/search?q=ferry&page=2#results`, "morning-briefing")).toBe(`${SITE}/search?q=ferry&page=2&${TAGS}#results`);
  });

  it("leaves other sites' links, and odd addresses, as written", () => {
    expect(newsletterCampaignUrl(SITE, "https://council.example/report?a=1&b=2", "morning-briefing")).toBe("https://council.example/report?a=1&b=2");
    expect(newsletterCampaignUrl(SITE, "http://news.example/article/x", "morning-briefing")).toBe("http://news.example/article/x");
    expect(newsletterCampaignUrl(SITE, "https://news.example.evil.test/article/x", "morning-briefing")).toBe("https://news.example.evil.test/article/x");
    expect(newsletterCampaignUrl(SITE, "mailto:desk@news.example", "morning-briefing")).toBe("mailto:desk@news.example");
    expect(newsletterCampaignUrl(SITE, "/article/x", "morning-briefing")).toBe("/article/x");
  });

  it("never tags a link twice, nor over an editor's own source", () => {
    const tagged = newsletterCampaignUrl(SITE, `${SITE}/article/late-ferry`, "morning-briefing");
    expect(newsletterCampaignUrl(SITE, tagged, "evening")).toBe(tagged);
    expect(newsletterCampaignUrl(SITE, `${SITE}/article/x?utm_source=partner`, "morning-briefing")).toBe(`${SITE}/article/x?utm_source=partner`);
  });

  it("encodes a campaign that needs it", () => {
    expect(newsletterCampaignUrl(SITE, `${SITE}/a`, "ü & co")).toBe(`${SITE}/a?utm_source=newsletter&utm_medium=email&utm_campaign=%C3%BC+%26+co`);
  });
});
