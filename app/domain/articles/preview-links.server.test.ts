import { describe, expect, it } from "vitest";
import { createPreviewLinks, PREVIEW_LINK_DAYS } from "./preview-links.server";

const ID = "6f1c0a52-3b7e-4b8a-9a55-0c3f1e2d4b6a";
const NOW = new Date("2026-11-23T12:00:00Z");
const DAY = 24 * 60 * 60 * 1000;
const links = createPreviewLinks("a-session-secret-of-at-least-thirty-two-characters");
const tokenOf = (path: string) => path.replace(/^\/preview\//, "");

describe("signed preview links", () => {
  it("a link names its article and works until it expires, PREVIEW_LINK_DAYS days later", () => {
    const link = links.create(ID, NOW);
    expect(link.path).toMatch(/^\/preview\/[0-9a-f-]{36}\.[0-9a-z]+\.[A-Za-z0-9_-]{43}$/);
    expect(link.expiresAt.getTime()).toBe(NOW.getTime() + PREVIEW_LINK_DAYS * DAY);
    expect(links.read(tokenOf(link.path), NOW)).toEqual({ ok: true, articleId: ID, expiresAt: link.expiresAt, scope: "draft" });
    expect(links.read(tokenOf(link.path), new Date(link.expiresAt.getTime() - 1000))).toMatchObject({ ok: true });
  });

  it("a link made for a published story's changes says so; that word cannot be added to a draft's link or taken from one", () => {
    const changes = links.create(ID, NOW, "changes");
    expect(changes.path).toMatch(/^\/preview\/[0-9a-f-]{36}\.[0-9a-z]+\.changes\.[A-Za-z0-9_-]{43}$/);
    expect(links.read(tokenOf(changes.path), NOW)).toEqual({ ok: true, articleId: ID, expiresAt: changes.expiresAt, scope: "changes" });
    const [id, expiry, , signature] = tokenOf(changes.path).split(".") as [string, string, string, string];
    expect(links.read(`${id}.${expiry}.${signature}`, NOW)).toEqual({ ok: false, reason: "invalid" });
    const [, , draftSignature] = tokenOf(links.create(ID, NOW).path).split(".") as [string, string, string];
    expect(links.read(`${id}.${expiry}.changes.${draftSignature}`, NOW)).toEqual({ ok: false, reason: "invalid" });
  });

  it("an expired link says so (the page answers 410, not 404)", () => {
    const link = links.create(ID, NOW);
    expect(links.read(tokenOf(link.path), link.expiresAt)).toEqual({ ok: false, reason: "expired" });
    expect(links.read(tokenOf(link.path), new Date(NOW.getTime() + 30 * DAY))).toEqual({ ok: false, reason: "expired" });
  });

  it("a changed article id, a pushed-back expiry or a damaged signature is refused", () => {
    const [id, expiry, signature] = tokenOf(links.create(ID, NOW).path).split(".") as [string, string, string];
    const other = "0f1c0a52-3b7e-4b8a-9a55-0c3f1e2d4b6a";
    const later = (parseInt(expiry, 36) + 365 * 24 * 3600).toString(36);
    const flipped = signature.slice(0, -1) + (signature.endsWith("A") ? "B" : "A");
    for (const token of [`${other}.${expiry}.${signature}`, `${id}.${later}.${signature}`, `${id}.${expiry}.${flipped}`, `${id}.${expiry}`, "", "a.b.c", `${id}.${expiry}.${signature}.x`]) {
      expect(links.read(token, NOW), token).toEqual({ ok: false, reason: "invalid" });
    }
  });

  it("a link signed with another secret (another site, a rotated secret) is refused", () => {
    const elsewhere = createPreviewLinks("another-secret-another-secret-another-secret");
    expect(links.read(tokenOf(elsewhere.create(ID, NOW).path), NOW)).toEqual({ ok: false, reason: "invalid" });
  });

  it("only an article id can be signed", () => {
    expect(() => links.create("not-an-id", NOW)).toThrow(TypeError);
  });
});
