import { describe, expect, test } from "vitest";
import { deviceOf, SOURCE_VALUE_MAX, sourceOf } from "./audience-source";

const SITE = "news.example.org";

describe("sourceOf", () => {
  test.each([
    // [referrer, query, source, sourceHost]
    ["https://www.google.com/", "", "search", "google.com"],
    ["https://www.google.co.uk/search?q=flood", "", "search", "google.co.uk"],
    ["https://news.google.com/", "", "search", "news.google.com"],
    ["https://www.bing.com/search?q=x", "", "search", "bing.com"],
    ["https://duckduckgo.com/", "", "search", "duckduckgo.com"],
    ["https://search.yahoo.com/", "", "search", "search.yahoo.com"],
    ["https://www.ecosia.org/", "", "search", "ecosia.org"],
    ["https://yandex.ru/", "", "search", "yandex.ru"],
    ["https://www.baidu.com/", "", "search", "baidu.com"],
    ["https://www.qwant.com/", "", "search", "qwant.com"],
    ["https://www.startpage.com/", "", "search", "startpage.com"],
    ["https://search.brave.com/search?q=x", "", "search", "search.brave.com"],
    ["https://www.facebook.com/", "", "social", "facebook.com"],
    ["https://l.facebook.com/l.php?u=x", "", "social", "l.facebook.com"],
    ["https://m.facebook.com/", "", "social", "m.facebook.com"],
    ["https://l.instagram.com/", "", "social", "l.instagram.com"],
    ["https://t.co/abc", "", "social", "t.co"],
    ["https://x.com/someone", "", "social", "x.com"],
    ["https://twitter.com/", "", "social", "twitter.com"],
    ["https://www.linkedin.com/", "", "social", "linkedin.com"],
    ["https://lnkd.in/xyz", "", "social", "lnkd.in"],
    ["https://old.reddit.com/r/news", "", "social", "old.reddit.com"],
    ["https://www.threads.net/", "", "social", "threads.net"],
    ["https://bsky.app/profile/x", "", "social", "bsky.app"],
    ["https://www.youtube.com/watch?v=1", "", "social", "youtube.com"],
    ["https://www.tiktok.com/", "", "social", "tiktok.com"],
    ["https://www.pinterest.com/", "", "social", "pinterest.com"],
    ["https://web.whatsapp.com/", "", "social", "web.whatsapp.com"],
    ["https://web.telegram.org/", "", "social", "web.telegram.org"],
    ["https://mail.google.com/", "", "other", "mail.google.com"],
    ["https://www.othernews.com/story", "", "other", "othernews.com"],
    ["https://research.example.edu/", "", "other", "research.example.edu"],
    [`https://${SITE}/category/news`, "", "internal", ""],
    [`https://WWW.${SITE.toUpperCase()}/`, "", "internal", ""],
    ["", "", "direct", ""],
    ["not a url", "", "direct", ""],
  ])("referrer %j, query %j → %s (%s)", (referrer, query, source, sourceHost) => {
    const got = sourceOf({ referrer, query, siteHost: SITE });
    expect(got.source).toBe(source);
    expect(got.sourceHost).toBe(sourceHost);
  });

  test("utm tags decide over a bare referrer, and are kept", () => {
    expect(sourceOf({ referrer: "", query: "utm_source=facebook", siteHost: SITE }).source).toBe("social");
    expect(sourceOf({ referrer: "", query: "?utm_source=google&utm_medium=cpc", siteHost: SITE }).source).toBe("search");
    const letter = sourceOf({ referrer: "", query: "?utm_source=newsletter&utm_campaign=morning", siteHost: SITE });
    expect(letter).toEqual({ source: "newsletter", sourceHost: "", utmSource: "newsletter", utmMedium: "", utmCampaign: "morning", ref: "" });
    expect(sourceOf({ referrer: "https://mail.google.com/", query: "utm_source=weekly&utm_medium=email", siteHost: SITE })).toMatchObject({ source: "newsletter", sourceHost: "mail.google.com" });
    expect(sourceOf({ referrer: "", query: "utm_source=The-Morning-Newsletter", siteHost: SITE }).source).toBe("newsletter");
    // A newsletter link opened in our own page keeps its newsletter.
    expect(sourceOf({ referrer: `https://${SITE}/`, query: "utm_medium=email", siteHost: SITE })).toMatchObject({ source: "newsletter", sourceHost: "" });
    expect(sourceOf({ referrer: "https://t.co/x", query: "utm_source=partner", siteHost: SITE }).source).toBe("social");
    expect(sourceOf({ referrer: "", query: "ref=producthunt", siteHost: SITE })).toMatchObject({ source: "other", ref: "producthunt" });
  });

  test("values are trimmed and cut to 200 characters; a URLSearchParams works too", () => {
    const long = "x".repeat(500);
    const got = sourceOf({ referrer: null, query: new URLSearchParams({ utm_campaign: `  ${long}  `, utm_source: " Partner " }), siteHost: SITE });
    expect(got.utmCampaign).toHaveLength(SOURCE_VALUE_MAX);
    expect(got.utmSource).toBe("Partner");
  });
});

describe("deviceOf", () => {
  test.each([
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36", "desktop"],
    ["Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15", "desktop"],
    ["Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0", "desktop"],
    ["Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36", "desktop"],
    ["Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1", "phone"],
    ["Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36", "phone"],
    ["Mozilla/5.0 (Linux; Android 13; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36", "phone"],
    ["Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0", "phone"],
    ["Mozilla/5.0 (Windows Phone 10.0; Android 6.0.1; Microsoft; Lumia 950) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/52.0.2743.116 Mobile Safari/537.36 Edge/15.15063", "phone"],
    ["Opera/9.80 (J2ME/MIDP; Opera Mini/9.80 (S60; SymbOS; Opera Mobi/23.348; U; en) Presto/2.5.25 Version/10.54", "phone"],
    ["Mozilla/5.0 (iPad; CPU OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1", "tablet"],
    ["Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36", "tablet"],
    ["Mozilla/5.0 (Android 14; Tablet; rv:133.0) Gecko/133.0 Firefox/133.0", "tablet"],
    ["Mozilla/5.0 (Linux; Android 11; KFTRWI) AppleWebKit/537.36 (KHTML, like Gecko) Silk/112.4.1 like Chrome/112.0.5615.213 Safari/537.36", "tablet"],
    ["", "desktop"],
  ])("%s → %s", (userAgent, device) => {
    expect(deviceOf(userAgent)).toBe(device);
  });
});
