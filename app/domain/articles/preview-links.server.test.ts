import { describe, expect, it } from "vitest";
import { createPreviewLinks, PREVIEW_LINK_DAYS } from "./preview-links.server";

const ID = "6f1c0a52-3b7e-4b8a-9a55-0c3f1e2d4b6a";
const NOW = new Date("2026-11-23T12:00:00Z");
const DAY = 24 * 60 * 60 * 1000;
const SECRET = "a-session-secret-of-at-least-thirty-two-characters";
/** Each story's preview key, as the articles table holds it ("" until its links are first revoked). */
const keys = new Map<string, string>();
const keyOf = async (id: string) => keys.get(id) ?? "";
const links = createPreviewLinks(SECRET, keyOf);
const tokenOf = (path: string) => path.replace(/^\/preview\//, "");

describe("signed preview links", () => {
  it("a link names its article and works until it expires, PREVIEW_LINK_DAYS days later", async () => {
    const link = await links.create(ID, NOW);
    expect(link.path).toMatch(/^\/preview\/[0-9a-f-]{36}\.[0-9a-z]+\.[A-Za-z0-9_-]{43}$/);
    expect(link.expiresAt.getTime()).toBe(NOW.getTime() + PREVIEW_LINK_DAYS * DAY);
    expect(await links.read(tokenOf(link.path), NOW)).toEqual({ ok: true, articleId: ID, expiresAt: link.expiresAt, scope: "draft" });
    expect(await links.read(tokenOf(link.path), new Date(link.expiresAt.getTime() - 1000))).toMatchObject({ ok: true });
  });

  it("a link made for a published story's changes says so; that word cannot be added to a draft's link or taken from one", async () => {
    const changes = await links.create(ID, NOW, "changes");
    expect(changes.path).toMatch(/^\/preview\/[0-9a-f-]{36}\.[0-9a-z]+\.changes\.[A-Za-z0-9_-]{43}$/);
    expect(await links.read(tokenOf(changes.path), NOW)).toEqual({ ok: true, articleId: ID, expiresAt: changes.expiresAt, scope: "changes" });
    const [id, expiry, , signature] = tokenOf(changes.path).split(".") as [string, string, string, string];
    expect(await links.read(`${id}.${expiry}.${signature}`, NOW)).toEqual({ ok: false, reason: "invalid" });
    const [, , draftSignature] = tokenOf((await links.create(ID, NOW)).path).split(".") as [string, string, string];
    expect(await links.read(`${id}.${expiry}.changes.${draftSignature}`, NOW)).toEqual({ ok: false, reason: "invalid" });
  });

  it("an expired link says so (the page answers 410, not 404)", async () => {
    const link = await links.create(ID, NOW);
    expect(await links.read(tokenOf(link.path), link.expiresAt)).toEqual({ ok: false, reason: "expired" });
    expect(await links.read(tokenOf(link.path), new Date(NOW.getTime() + 30 * DAY))).toEqual({ ok: false, reason: "expired" });
  });

  it("a changed article id, a pushed-back expiry or a damaged signature is refused", async () => {
    const [id, expiry, signature] = tokenOf((await links.create(ID, NOW)).path).split(".") as [string, string, string];
    const other = "0f1c0a52-3b7e-4b8a-9a55-0c3f1e2d4b6a";
    const later = (parseInt(expiry, 36) + 365 * 24 * 3600).toString(36);
    // Its first character (the last one's low bits may be base64's padding, which decodes the same).
    const flipped = (signature.startsWith("A") ? "B" : "A") + signature.slice(1);
    for (const token of [`${other}.${expiry}.${signature}`, `${id}.${later}.${signature}`, `${id}.${expiry}.${flipped}`, `${id}.${expiry}`, "", "a.b.c", `${id}.${expiry}.${signature}.x`]) {
      expect(await links.read(token, NOW), token).toEqual({ ok: false, reason: "invalid" });
    }
  });

  it("a link signed with another secret (another site, a rotated secret) is refused", async () => {
    const elsewhere = createPreviewLinks("another-secret-another-secret-another-secret", keyOf);
    expect(await links.read(tokenOf((await elsewhere.create(ID, NOW)).path), NOW)).toEqual({ ok: false, reason: "invalid" });
  });

  it("only an article id can be signed", async () => {
    await expect(links.create("not-an-id", NOW)).rejects.toThrow(TypeError);
  });

  it("a link made before its story's preview key changed (Revoke preview links) is refused; one made after opens (issue 28)", async () => {
    const before = await links.create(ID, NOW);
    expect(await links.read(tokenOf(before.path), NOW)).toMatchObject({ ok: true });
    keys.set(ID, "0b9d2f1e-6a43-4c8e-9f3e-5d2a7c1b8e40");
    try {
      expect(await links.read(tokenOf(before.path), NOW)).toEqual({ ok: false, reason: "invalid" });
      const after = await links.create(ID, NOW);
      expect(after.path).not.toBe(before.path);
      expect(await links.read(tokenOf(after.path), NOW)).toMatchObject({ ok: true, articleId: ID });
    } finally {
      keys.delete(ID);
    }
  });

  it("a link to a story deleted since is refused", async () => {
    const gone = createPreviewLinks(SECRET, async () => null);
    expect(await gone.read(tokenOf((await links.create(ID, NOW)).path), NOW)).toEqual({ ok: false, reason: "invalid" });
  });
});
