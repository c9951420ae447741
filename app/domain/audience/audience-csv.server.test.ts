import { describe, expect, it } from "vitest";
import { audienceTableCsv, toCsv } from "./audience-csv.server";

describe("the audience exports' CSV", () => {
  it("quotes a cell with a comma, a quote or a line break, doubles its quotes, and ends lines with CRLF", () => {
    expect(toCsv(["story", "views"], [["Plain", 3], ['Rain, "again"', 12], ["Two\nlines", 0]])).toBe(
      'story,views\r\nPlain,3\r\n"Rain, ""again""",12\r\n"Two\nlines",0\r\n',
    );
  });

  it("a text cell starting with = + - or @ leaves as text (a leading '), a number does not", () => {
    const csv = toCsv(["a", "b", "c", "d", "n"], [["=HYPERLINK(\"x\")", "+1", "-2", "@SUM(A1)", -3]]);
    expect(csv.split("\r\n")[1]).toBe(`"'=HYPERLINK(""x"")",'+1,'-2,'@SUM(A1),-3`);
  });

  it("an empty figure is an empty cell, and a rate is a percentage", () => {
    const csv = audienceTableCsv(
      {
        series: [],
        sources: [],
        campaigns: [],
        stories: [{ articleId: "x", title: "T", authorName: null, categoryName: "News", views: 10, visitors: 4, medianEngagedSeconds: null, readToEndRate: 0.25 }],
      },
      "stories",
      (at) => at,
    );
    expect(csv).toBe("story,author,category,views,visitors,median_engaged_seconds,read_to_end_percent\r\nT,,News,10,4,,25\r\n");
  });

  it("the series' times are written by the label given (the site's clock)", () => {
    const csv = audienceTableCsv({ series: [{ at: "2026-11-29T05:00:00.000Z", views: 1, visitors: 1 }], sources: [], campaigns: [] }, "series", () => "2026-11-29 00:00");
    expect(csv).toBe("time,views,visitors\r\n2026-11-29 00:00,1,1\r\n");
  });
});
