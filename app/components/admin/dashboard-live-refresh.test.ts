import { describe, expect, it } from "vitest";
import { isAudienceNotice } from "./dashboard-live-refresh";

describe("the dashboard's live refresh", () => {
  it("passes over the audience recorder's notices and reloads on editorial changes", () => {
    expect(isAudienceNotice(JSON.stringify({ table: "audience_events", op: "insert" }))).toBe(true);
    expect(isAudienceNotice(JSON.stringify({ table: "audience_reads", op: "insert" }))).toBe(true);
    expect(isAudienceNotice(JSON.stringify({ table: "articles", op: "update" }))).toBe(false);
    expect(isAudienceNotice(JSON.stringify({ table: "comments", op: "insert" }))).toBe(false);
    expect(isAudienceNotice("not json")).toBe(false);
  });
});
