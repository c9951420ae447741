import { describe, expect, it } from "vitest";
import { isAudienceMessage } from "./audience-right-now";

describe("the dashboard's live refresh and the audience screen's", () => {
  it("tell the audience recorder's notices (for Right now) from editorial changes (for the dashboard)", () => {
    expect(isAudienceMessage(JSON.stringify({ table: "audience_events", op: "insert" }))).toBe(true);
    expect(isAudienceMessage(JSON.stringify({ table: "articles", op: "update" }))).toBe(false);
    expect(isAudienceMessage(JSON.stringify({ table: "comments", op: "insert" }))).toBe(false);
    expect(isAudienceMessage("not json")).toBe(false);
    expect(isAudienceMessage(undefined)).toBe(false);
  });
});
