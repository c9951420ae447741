import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { invitations, user } from "~/db/schema";
import { createTestDatabase } from "../../../tests/setup/test-database";
import { refusal } from "../../../tests/setup/refusal";
import { createPasswordAccount, roleOf, setRole } from "./accounts.server";
import type { Actor } from "./actor";
import { acceptInvitation, createInvitation, findInvitation, INVITATION_GONE, listPendingInvitations, withdrawInvitation } from "./invitations.server";
import { createTestAuth } from "./test-auth.server";

const { db } = await createTestDatabase();
const t = createTestAuth(db);
const admin: Actor = { id: null, name: "Admin (admin@example.com)", role: "admin" };

async function account(email: string) {
  const created = await createPasswordAccount(t.auth, db, email, "a-password-123");
  return { id: created.id, email, name: email.split("@")[0]! };
}

describe("team invitations", () => {
  it("keep only the token's hash, give the role once, and refuse a second use with 410", async () => {
    const invitation = await createInvitation(db, admin, "Writer@Example.com", "author");
    expect(invitation.email).toBe("writer@example.com");
    const [row] = await db.select().from(invitations).where(eq(invitations.id, invitation.id));
    expect(row!.tokenHash).toBe(createHash("sha256").update(invitation.token).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(invitation.token);
    expect((await listPendingInvitations(db)).map((i) => [i.email, i.role])).toEqual([["writer@example.com", "author"]]);

    const writer = await account("writer@example.com");
    expect(await acceptInvitation(db, invitation.token, writer)).toBe("author");
    expect(await roleOf(db, writer.id)).toBe("author");
    const again = await refusal(acceptInvitation(db, invitation.token, writer));
    expect([again.status, again.message]).toEqual([410, INVITATION_GONE]);
    expect(await listPendingInvitations(db)).toEqual([]);
  });

  it("refuse an unknown link (404), an expired or withdrawn one (410), and another person's address (403)", async () => {
    expect((await refusal(findInvitation(db, "x".repeat(43)))).status).toBe(404);
    expect((await refusal(findInvitation(db, "not a token"))).status).toBe(404);

    const expired = await createInvitation(db, admin, "late@example.com", "editor");
    await db.update(invitations).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(invitations.id, expired.id));
    expect((await refusal(findInvitation(db, expired.token))).status).toBe(410);

    const withdrawn = await createInvitation(db, admin, "gone@example.com", "editor");
    await withdrawInvitation(db, admin, withdrawn.id);
    expect((await refusal(findInvitation(db, withdrawn.token))).status).toBe(410);

    const forBob = await createInvitation(db, admin, "bob@example.com", "editor");
    const mallory = await account("mallory@example.com");
    expect((await refusal(acceptInvitation(db, forBob.token, mallory))).status).toBe(403);
    expect(await roleOf(db, mallory.id)).toBeNull();
  });

  it("a new invitation replaces the pending one for the same address; an address already on the team is refused", async () => {
    const first = await createInvitation(db, admin, "twice@example.com", "author");
    const second = await createInvitation(db, admin, "twice@example.com", "editor");
    expect((await refusal(findInvitation(db, first.token))).status).toBe(410);
    expect((await findInvitation(db, second.token)).role).toBe("editor");

    const member = await account("member@example.com");
    await setRole(db, member.id, "editor");
    const refused = await refusal(createInvitation(db, admin, "member@example.com", "admin"));
    expect([refused.code, refused.field]).toEqual(["already_exists", "email"]);
    expect((await refusal(createInvitation(db, admin, "someone@example.com", "owner"))).field).toBe("role");
    expect((await db.select().from(user).where(eq(user.email, "someone@example.com"))).length).toBe(0);
  });
});
