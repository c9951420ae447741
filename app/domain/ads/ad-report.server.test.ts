import { beforeAll, describe, expect, it } from "vitest";
import { adCampaigns, adCreatives, adDays, advertisers, media } from "~/db/schema";
import { isAppError } from "~/lib/app-error";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { adReportCsv, adReportFileName } from "./ad-report-csv.server";
import { formatCtr, formatViewability } from "./ad-report-format";
import { adCountLines, adPeriodOf, advertiserReport, campaignReport, goalProgress } from "./ad-report.server";

// The ads reports (issue 43) against a real PostgreSQL: rows of ad_days written directly, as the
// serving side's batches would.

let t: TestDatabase;
const ids = {} as { garage: string; spring: string; winter: string; photo: string; text: string; old: string; other: string; otherCampaign: string };
const TODAY = "2026-11-10";

beforeAll(async () => {
  t = await createTestDatabase();
  const [garage, other] = await t.db
    .insert(advertisers)
    .values([{ name: "=Quay Garage, Ltd", contactName: "Sam" }, { name: "Theatre" }])
    .returning();
  ids.garage = garage!.id;
  ids.other = other!.id;
  const [spring, winter, otherCampaign] = await t.db
    .insert(adCampaigns)
    .values([
      // Ten days, 1000 impressions sold; today is its 6th day: an even pace expects 600.
      { advertiserId: garage!.id, name: "Spring sale", startsOn: "2026-11-05", endsOn: "2026-11-14", slots: ["article", "home-top"], impressionGoal: 1000 },
      { advertiserId: garage!.id, name: "Winter tyres", startsOn: "2026-12-01", endsOn: "2026-12-31", slots: ["category"] },
      { advertiserId: other!.id, name: "Panto", startsOn: "2026-11-01", endsOn: "2026-11-30", slots: ["article"] },
    ])
    .returning();
  ids.spring = spring!.id;
  ids.winter = winter!.id;
  ids.otherCampaign = otherCampaign!.id;
  const [file] = await t.db.insert(media).values({ bucket: "media", name: "car.jpg", originalName: "car.jpg", contentType: "image/jpeg", size: 1 }).returning();
  const [photo, text, old, panto] = await t.db
    .insert(adCreatives)
    .values([
      { campaignId: spring!.id, size: "box", kind: "image", mediaId: file!.id, alt: "A red car on the quay", linkUrl: "https://garage.example/" },
      { campaignId: spring!.id, size: "banner", kind: "text", headline: '+Sale, "now"', body: "Ten percent off", linkUrl: "https://garage.example/sale" },
      { campaignId: spring!.id, size: "box", kind: "text", headline: "Old offer", linkUrl: "https://garage.example/old", archived: true },
      { campaignId: otherCampaign!.id, size: "box", kind: "text", headline: "Panto", linkUrl: "https://theatre.example/" },
    ])
    .returning();
  ids.photo = photo!.id;
  ids.text = text!.id;
  ids.old = old!.id;
  await t.db.insert(adDays).values([
    { day: "2026-11-05", campaignId: spring!.id, creativeId: photo!.id, slot: "article", impressions: 100, viewable: 60, clicks: 2 },
    { day: "2026-11-05", campaignId: spring!.id, creativeId: text!.id, slot: "home-top", impressions: 50, viewable: 20, clicks: 1 },
    // A forged beacon's excess: 80 viewable of 40 served counts 40.
    { day: "2026-11-07", campaignId: spring!.id, creativeId: photo!.id, slot: "article", impressions: 40, viewable: 80, clicks: 0 },
    { day: "2026-11-10", campaignId: spring!.id, creativeId: text!.id, slot: "home-top", impressions: 10, viewable: 5, clicks: 0 },
    // Another advertiser's campaign: in no report of the garage.
    { day: "2026-11-05", campaignId: otherCampaign!.id, creativeId: panto!.id, slot: "article", impressions: 999, viewable: 1, clicks: 9 },
  ]);
});

describe("a campaign's report", () => {
  it("runs by default from the campaign's first day up to today, every day present with zeros", async () => {
    const report = await campaignReport(t.db, ids.spring, { today: TODAY });
    expect(report.period).toEqual({ from: "2026-11-05", to: "2026-11-10", days: 6 });
    expect(report.campaign).toMatchObject({ name: "Spring sale", advertiser: { name: "=Quay Garage, Ltd" } });
    expect(report.byDay).toEqual([
      { day: "2026-11-05", impressions: 150, viewable: 80, clicks: 3 },
      { day: "2026-11-06", impressions: 0, viewable: 0, clicks: 0 },
      { day: "2026-11-07", impressions: 40, viewable: 40, clicks: 0 },
      { day: "2026-11-08", impressions: 0, viewable: 0, clicks: 0 },
      { day: "2026-11-09", impressions: 0, viewable: 0, clicks: 0 },
      { day: "2026-11-10", impressions: 10, viewable: 5, clicks: 0 },
    ]);
    expect(report.totals).toEqual({ impressions: 200, viewable: 125, clicks: 3 });
    expect(formatCtr(report.totals)).toBe("1.50%");
    expect(formatViewability(report.totals)).toBe("62.5%");
  });

  it("shows every creative with its description (an archived one too) and every slot of the campaign", async () => {
    const report = await campaignReport(t.db, ids.spring, { today: TODAY, from: "2026-11-06", to: "2026-11-07" });
    expect(report.totals).toEqual({ impressions: 40, viewable: 40, clicks: 0 });
    // Made in one statement, the three share a creation time: their order among themselves is not asserted.
    expect(report.byCreative).toHaveLength(3);
    expect(report.byCreative).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: ids.photo, kind: "image", size: "box", alt: "A red car on the quay", archived: false, impressions: 40, viewable: 40, clicks: 0 }),
        expect.objectContaining({ id: ids.text, kind: "text", headline: '+Sale, "now"', impressions: 0 }),
        expect.objectContaining({ id: ids.old, archived: true, impressions: 0 }),
      ]),
    );
    expect(report.bySlot).toEqual([
      { slot: "article", impressions: 40, viewable: 40, clicks: 0 },
      { slot: "home-top", impressions: 0, viewable: 0, clicks: 0 },
    ]);
  });

  it("measures the goal to date against an even pace: 200 of 1000 on day 6 of 10 is behind the 600 expected", async () => {
    const report = await campaignReport(t.db, ids.spring, { today: TODAY, from: "2026-11-05", to: "2026-11-05" });
    expect(report.totals.impressions).toBe(150);
    // The goal counts every impression up to today, whatever period is shown.
    expect(report.goal).toEqual({ goal: 1000, toDate: 200, share: 0.2, expected: 600, daysElapsed: 6, campaignDays: 10, pace: "behind" });
  });

  it("pacing: ahead, not started, met and missed", () => {
    const c = { startsOn: "2026-11-01", endsOn: "2026-11-10", impressionGoal: 1000 };
    expect(goalProgress(c, 300, "2026-11-03")).toMatchObject({ expected: 300, pace: "ahead" });
    expect(goalProgress(c, 299, "2026-11-03")).toMatchObject({ expected: 300, pace: "behind" });
    expect(goalProgress(c, 0, "2026-10-31")).toMatchObject({ expected: 0, daysElapsed: 0, pace: "not started" });
    expect(goalProgress(c, 1000, "2026-11-20")).toMatchObject({ expected: 1000, daysElapsed: 10, pace: "met" });
    expect(goalProgress(c, 999, "2026-11-20")).toMatchObject({ pace: "missed" });
    expect(goalProgress({ ...c, impressionGoal: null }, 5, "2026-11-03")).toBeNull();
  });

  it("a campaign that has not started shows its first day, and has no goal progress without a goal", async () => {
    const report = await campaignReport(t.db, ids.winter, { today: TODAY });
    expect(report.period).toEqual({ from: "2026-12-01", to: "2026-12-01", days: 1 });
    expect(report.totals).toEqual({ impressions: 0, viewable: 0, clicks: 0 });
    expect(formatCtr(report.totals)).toBe("—");
    expect(report.goal).toBeNull();
  });

  it("an unknown campaign, or an id that is no id, is 404", async () => {
    for (const id of ["00000000-0000-4000-8000-000000000000", "not-an-id"]) {
      await expect(campaignReport(t.db, id, { today: TODAY })).rejects.toSatisfy((e) => isAppError(e, "not_found") && e.status === 404);
    }
  });
});

describe("the period asked for", () => {
  const defaults = { from: "2026-11-01", to: "2026-11-30" };
  const refusal = (asked: { from?: string; to?: string }) => {
    try {
      adPeriodOf(asked, defaults);
    } catch (error) {
      if (isAppError(error)) return { status: error.status, field: error.field, message: error.message };
      throw error;
    }
    return null;
  };

  it("takes each day given and the default for the other", () => {
    expect(adPeriodOf({ from: "2026-11-20" }, defaults)).toEqual({ from: "2026-11-20", to: "2026-11-30", days: 11 });
    expect(adPeriodOf({ from: " ", to: "2026-11-02" }, defaults)).toEqual({ from: "2026-11-01", to: "2026-11-02", days: 2 });
  });

  it("refuses with 400 a day that is not a date, a period that ends before it starts, and one longer than 366 days", () => {
    expect(refusal({ from: "2026-02-30" })).toEqual({ status: 400, field: "from", message: 'The first day "2026-02-30" is not a date (YYYY-MM-DD).' });
    expect(refusal({ to: "30/11/2026" })).toMatchObject({ status: 400, field: "to" });
    expect(refusal({ from: "2026-11-10", to: "2026-11-09" })).toMatchObject({ status: 400, field: "to", message: expect.stringContaining("ends before it starts") });
    expect(refusal({ from: "2025-10-31", to: "2026-11-01" })).toMatchObject({ status: 400, message: expect.stringContaining("at most 366 days") });
    expect(refusal({ from: "2025-11-01", to: "2026-11-01" })).toBeNull();
  });
});

describe("an advertiser's report", () => {
  it("holds its campaigns in the period with their days and the grand totals, and nobody else's", async () => {
    const report = await advertiserReport(t.db, ids.garage, { today: TODAY, from: "2026-11-01", to: "2026-12-02" });
    expect(report.advertiser).toMatchObject({ name: "=Quay Garage, Ltd", contactName: "Sam" });
    expect(report.campaigns.map((c) => c.campaign.name)).toEqual(["Spring sale", "Winter tyres"]);
    const [spring, winter] = report.campaigns;
    expect(spring!.totals).toEqual({ impressions: 200, viewable: 125, clicks: 3 });
    // Its own ten days of the period, zeros included.
    expect(spring!.byDay.map((d) => d.day)).toEqual(["2026-11-05", "2026-11-06", "2026-11-07", "2026-11-08", "2026-11-09", "2026-11-10", "2026-11-11", "2026-11-12", "2026-11-13", "2026-11-14"]);
    expect(winter!.byDay.map((d) => d.day)).toEqual(["2026-12-01", "2026-12-02"]);
    expect(report.totals).toEqual({ impressions: 200, viewable: 125, clicks: 3 });
  });

  it("defaults to the last 30 days up to today, and leaves out campaigns outside the period", async () => {
    const report = await advertiserReport(t.db, ids.garage, { today: TODAY });
    expect(report.period).toEqual({ from: "2026-10-12", to: TODAY, days: 30 });
    expect(report.campaigns.map((c) => c.campaign.name)).toEqual(["Spring sale"]);
    await expect(advertiserReport(t.db, ids.garage, { today: TODAY, from: "2026-11-09", to: "2026-11-08" })).rejects.toSatisfy((e) => isAppError(e) && e.status === 400);
    await expect(advertiserReport(t.db, "00000000-0000-4000-8000-000000000000", { today: TODAY })).rejects.toSatisfy((e) => isAppError(e, "not_found"));
  });
});

describe("the CSV", () => {
  it("has a header and one line per day, creative and slot; quoted where needed, formulas neutralised, viewable capped", async () => {
    const lines = await adCountLines(t.db, { campaignId: ids.spring }, { from: "2026-11-01", to: "2026-11-30", days: 30 });
    const csv = adReportCsv(lines);
    expect(csv.split("\r\n")).toEqual([
      "date,campaign,advertiser,creative,slot,impressions,viewable,clicks,ctr_percent",
      `2026-11-05,Spring sale,"'=Quay Garage, Ltd","Image, box: A red car on the quay",article,100,60,2,2`,
      `2026-11-05,Spring sale,"'=Quay Garage, Ltd","Text, banner: +Sale, ""now""",home-top,50,20,1,2`,
      `2026-11-07,Spring sale,"'=Quay Garage, Ltd","Image, box: A red car on the quay",article,40,40,0,0`,
      `2026-11-10,Spring sale,"'=Quay Garage, Ltd","Text, banner: +Sale, ""now""",home-top,10,5,0,0`,
      "",
    ]);
    expect(adReportFileName("=Quay Garage, Ltd", { from: "2026-11-01", to: "2026-11-30", days: 30 })).toBe("ads-quay-garage-ltd-2026-11-01-to-2026-11-30.csv");
  });

  it("an advertiser's holds only its own campaigns' lines", async () => {
    const lines = await adCountLines(t.db, { advertiserId: ids.other }, { from: "2026-11-01", to: "2026-11-30", days: 30 });
    expect(lines).toEqual([expect.objectContaining({ campaign: "Panto", impressions: 999, viewable: 1, clicks: 9 })]);
    expect(adReportCsv(lines)).toContain("2026-11-05,Panto,Theatre,\"Text, box: Panto\",article,999,1,9,0.9\r\n");
  });
});
