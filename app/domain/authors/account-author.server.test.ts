import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditEvents, authors, user } from "~/db/schema";
import { createPasswordAccount, ensureAdminAccount } from "~/domain/accounts/accounts.server";
import type { Actor } from "~/domain/accounts/actor";
import { acceptInvitation, createInvitation } from "~/domain/accounts/invitations.server";
import { createTestAuth } from "~/domain/accounts/test-auth.server";
import { createTestDatabase } from "../../../tests/setup/test-database";
import { ensureAccountAuthor } from "./account-author.server";
import { getAuthorForUser, unlinkAuthorAccount } from "./authors.server";

const { db } = await createTestDatabase();
const t = createTestAuth(db);
const admin: Actor = { id: null, name: "Admin (admin@example.com)", role: "admin" };

/** Joins through an invitation as /join does: an account with this name, then the invitation accepted. */
async function join(email: string, name: string, role: "author" | "editor" = "author") {
  const invitation = await createInvitation(db, admin, email, role);
  const created = await createPasswordAccount(t.auth, db, email, "a-password-123");
  await db.update(user).set({ name }).where(eq(user.id, created.id));
  await acceptInvitation(db, invitation.token, { id: created.id, email, name });
  return created.id;
}

const authorOf = async (userId: string) => (await db.select().from(authors).where(eq(authors.userId, userId)))[0];

describe("the author record of a back-office account", () => {
  it("joining through an invitation ties a new author (byline and author page) to the account, from the name given, in the audit trail", async () => {
    const id = await join("jane@example.com", "Jane Doe");
    const author = await authorOf(id);
    expect([author?.name, author?.slug]).toEqual(["Jane Doe", "jane-doe"]);
    expect(await getAuthorForUser(db, id)).toEqual({ id: author!.id, name: "Jane Doe" });
    const kinds = (await db.select({ kind: auditEvents.kind }).from(auditEvents).where(eq(auditEvents.objectId, author!.id))).map((r) => r.kind);
    expect(kinds).toEqual(["author.create"]);
  });

  it("a second person of the same name gets a slug with a suffix; a guest writer's slug is not taken over", async () => {
    await db.insert(authors).values({ name: "Sam Lee", slug: "sam-lee" });
    const first = await join("sam1@example.com", "Sam Lee");
    const second = await join("sam2@example.com", "Sam Lee", "editor");
    expect((await authorOf(first))?.slug).toBe("sam-lee-2");
    expect((await authorOf(second))?.slug).toBe("sam-lee-3");
    const guest = (await db.select().from(authors).where(eq(authors.slug, "sam-lee")))[0];
    expect(guest?.userId).toBeNull();
  });

  it("is made once: asking again, or at the same time, answers the same author", async () => {
    const created = await createPasswordAccount(t.auth, db, "twice@example.com", "a-password-123");
    const account = { id: created.id, email: "twice@example.com", name: "Twice Over" };
    const [a, b] = await Promise.all([ensureAccountAuthor(db, account), ensureAccountAuthor(db, account)]);
    expect(a.id).toBe(b.id);
    expect((await ensureAccountAuthor(db, account)).created).toBe(false);
    expect(await db.select().from(authors).where(eq(authors.userId, created.id))).toHaveLength(1);
  });

  it("ADMIN_EMAIL at start gives the account its author record too", async () => {
    await ensureAdminAccount(t.auth, db, "boss@example.com", "boss-password-1");
    const [row] = await db.select({ id: user.id }).from(user).where(eq(user.email, "boss@example.com"));
    expect((await authorOf(row!.id))?.slug).toBe("boss");
  });

  it("an admin can unlink the author from the account: the byline stays, the account no longer has a default byline", async () => {
    const id = await join("leaving@example.com", "Lee Ving");
    const author = (await authorOf(id))!;
    // An editor manages authors but not accounts: refused, the link kept.
    await expect(unlinkAuthorAccount(db, author.id, { id: "editor-account", name: "Ed", role: "editor" })).rejects.toMatchObject({ code: "forbidden" });
    expect((await authorOf(id))?.id).toBe(author.id);
    await unlinkAuthorAccount(db, author.id, admin);
    const [after] = await db.select().from(authors).where(eq(authors.id, author.id));
    expect([after?.name, after?.slug, after?.userId]).toEqual(["Lee Ving", "lee-ving", null]);
    expect(await getAuthorForUser(db, id)).toBeNull();
    await expect(unlinkAuthorAccount(db, "00000000-0000-4000-8000-000000000000", admin)).rejects.toMatchObject({ code: "not_found" });
  });
});
