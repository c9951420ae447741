import { describe, expect, it } from "vitest";
import {
  addDays,
  advertiserFormSchema,
  campaignFormSchema,
  campaignStatus,
  creativeFormSchema,
  END_BEFORE_START,
  LINK_INVALID,
  LINK_RELATIVE_FOR_HOUSE_ONLY,
  missingSizes,
  SLOTS_REQUIRED,
} from "./ads.schema";

const campaign = {
  name: "Winter tyres",
  advertiserId: "0b6c3c5e-8f7a-4d6e-9a1b-2c3d4e5f6a7b",
  startsOn: "2026-12-01",
  endsOn: "2026-12-07",
  slots: "article,home-top",
  categoryScope: "all",
  categoryIds: "",
  priority: "standard",
  weight: "5",
  impressionGoal: "",
};
const problems = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((i) => [String(i.path[0]), i.message]));

describe("campaignFormSchema", () => {
  it("reads a campaign: slots and categories from their lists, the weight as a number, no goal as null", () => {
    expect(campaignFormSchema.parse(campaign)).toEqual({ ...campaign, slots: ["article", "home-top"], categoryIds: [], weight: 5, impressionGoal: null, categoryScope: undefined });
  });

  it("refuses an end before the start beside the end date, and no slot at all", () => {
    expect(problems(campaignFormSchema.safeParse({ ...campaign, endsOn: "2026-11-30" }))).toEqual({ endsOn: END_BEFORE_START });
    expect(problems(campaignFormSchema.safeParse({ ...campaign, slots: "" }))).toEqual({ slots: SLOTS_REQUIRED });
    expect(campaignFormSchema.safeParse({ ...campaign, slots: "article,sidebar" }).success).toBe(false);
  });

  it("refuses a weight outside 1–1000, a goal that is not a positive whole number, and a date that does not exist", () => {
    for (const weight of ["0", "1001", "2.5", "", "x"]) expect(problems(campaignFormSchema.safeParse({ ...campaign, weight })).weight, weight).toMatch(/1 to 1000/);
    for (const impressionGoal of ["0", "-5", "1.5", "abc"]) expect(problems(campaignFormSchema.safeParse({ ...campaign, impressionGoal })).impressionGoal, impressionGoal).toMatch(/positive/);
    expect(campaignFormSchema.parse({ ...campaign, impressionGoal: "10000" }).impressionGoal).toBe(10000);
    expect(problems(campaignFormSchema.safeParse({ ...campaign, startsOn: "2026-02-30" })).startsOn).toMatch(/start date/);
  });

  it("keeps chosen categories only when “Only these categories” is chosen, and asks for one then", () => {
    const id = "7d1c3c5e-8f7a-4d6e-9a1b-2c3d4e5f6a7b";
    expect(campaignFormSchema.parse({ ...campaign, categoryScope: "chosen", categoryIds: id }).categoryIds).toEqual([id]);
    expect(campaignFormSchema.parse({ ...campaign, categoryScope: "all", categoryIds: id }).categoryIds).toEqual([]);
    expect(problems(campaignFormSchema.safeParse({ ...campaign, categoryScope: "chosen", categoryIds: "" })).categoryIds).toMatch(/at least one category/);
  });
});

describe("creativeFormSchema", () => {
  const image = { kind: "image", size: "box", mediaId: "0b6c3c5e-8f7a-4d6e-9a1b-2c3d4e5f6a7b", alt: "Harbour Garage: winter tyres", linkUrl: "https://garage.example/tyres" };
  const text = { kind: "text", size: "banner", headline: "Winter tyres fitted today", body: "", linkUrl: "https://garage.example/" };

  it("requires an image's alt text and an http(s) link", () => {
    expect(creativeFormSchema({ house: false }).parse(image)).toEqual(image);
    expect(problems(creativeFormSchema({ house: false }).safeParse({ ...image, alt: "  " })).alt).toMatch(/Alt text is required/);
    for (const linkUrl of ["javascript:alert(1)", "ftp://garage.example/", "garage.example", "//evil.example/"]) {
      expect(problems(creativeFormSchema({ house: false }).safeParse({ ...image, linkUrl })).linkUrl, linkUrl).toBe(LINK_INVALID);
    }
  });

  it("allows a path of this site only in a house ad", () => {
    expect(problems(creativeFormSchema({ house: false }).safeParse({ ...text, linkUrl: "/subscribe" })).linkUrl).toBe(LINK_RELATIVE_FOR_HOUSE_ONLY);
    expect(creativeFormSchema({ house: true }).parse({ ...text, linkUrl: "/subscribe" }).linkUrl).toBe("/subscribe");
  });

  it("holds a text ad's headline to 60 characters and its line to 140", () => {
    expect(problems(creativeFormSchema({ house: false }).safeParse({ ...text, headline: "x".repeat(61) })).headline).toMatch(/60/);
    expect(problems(creativeFormSchema({ house: false }).safeParse({ ...text, body: "x".repeat(141) })).body).toMatch(/140/);
    expect(problems(creativeFormSchema({ house: false }).safeParse({ ...text, headline: "" })).headline).toMatch(/required/);
  });
});

describe("advertiserFormSchema", () => {
  it("requires a name and a valid contact e-mail when one is given", () => {
    expect(advertiserFormSchema.parse({ name: " Harbour Garage ", contactName: "", contactEmail: "", notes: "" }).name).toBe("Harbour Garage");
    expect(problems(advertiserFormSchema.safeParse({ name: "", contactName: "", contactEmail: "", notes: "" })).name).toMatch(/required/);
    expect(problems(advertiserFormSchema.safeParse({ name: "G", contactName: "", contactEmail: "not-an-address", notes: "" })).contactEmail).toMatch(/valid e-mail/);
  });
});

describe("campaign status and missing sizes", () => {
  it("reads Scheduled, Running, Goal reached, Paused and Ended from the dates, the pause and the goal", () => {
    const c = { startsOn: "2026-12-01", endsOn: "2026-12-07", paused: false, impressionGoal: null as number | null, impressions: 0 };
    expect(campaignStatus(c, "2026-11-30")).toBe("Scheduled");
    expect(campaignStatus(c, "2026-12-01")).toBe("Running");
    expect(campaignStatus(c, "2026-12-07")).toBe("Running");
    expect(campaignStatus({ ...c, paused: true }, "2026-12-03")).toBe("Paused");
    expect(campaignStatus({ ...c, paused: true }, "2026-12-08")).toBe("Ended");
    // A goal reached shows no more ads (the book's pacing): said so, before its end.
    const goal = { ...c, impressionGoal: 1000 };
    expect(campaignStatus({ ...goal, impressions: 999 }, "2026-12-03")).toBe("Running");
    expect(campaignStatus({ ...goal, impressions: 1000 }, "2026-12-03")).toBe("Goal reached");
    expect(campaignStatus({ ...goal, impressions: 1200, paused: true }, "2026-12-03")).toBe("Goal reached");
    expect(campaignStatus({ ...goal, impressions: 1000 }, "2026-12-08")).toBe("Ended");
  });

  it("names the sizes a campaign's slots need that no live creative has", () => {
    expect(missingSizes(["article", "home-top", "category"], [{ size: "box", archived: false }])).toEqual([{ size: "banner", slots: ["home-top", "category"] }]);
    expect(missingSizes(["article"], [{ size: "box", archived: true }])).toEqual([{ size: "box", slots: ["article"] }]);
    expect(missingSizes(["article"], [{ size: "box", archived: false }])).toEqual([]);
  });

  it("counts calendar days", () => {
    expect(addDays("2026-12-29", 6)).toBe("2027-01-04");
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
  });
});
