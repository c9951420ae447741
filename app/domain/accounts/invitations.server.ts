import { createHash, randomBytes } from "node:crypto";
import { and, asc, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { invitations, user } from "~/db/schema";
import { recordActivity } from "~/domain/activity/activity.server";
import { ensureAccountAuthor } from "~/domain/authors/account-author.server";
import { AppError } from "~/lib/app-error";
import { isUuid } from "~/lib/ids";
import { normalizeEmail, roleOf, setRole } from "./accounts.server";
import { actorName, type Actor } from "./actor";
import { isRole, ROLE_LABELS, type Role } from "./roles";

// Team invitations (decision 0017): an admin invites an e-mail address with a role; the mailed link
// (shown once to the admin too) signs that person up, or in, and gives the role exactly once. Only the
// token's SHA-256 is stored, so the table never holds a usable link.

export const INVITATION_DAYS = 7;
export const INVITATION_GONE = "This invitation has expired, was withdrawn or was already used. Ask an admin for a new one.";

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");

export interface PendingInvitation {
  id: string;
  email: string;
  role: Role;
  invitedByName: string;
  expiresAt: Date;
}

/**
 * Invites `email` with `role`: an address that already holds a role is refused (change it on the Team
 * screen instead); an earlier pending invitation for the address is withdrawn. Returns the token (for
 * the link) — it is not stored and cannot be read again.
 */
export async function createInvitation(db: Db, actor: Actor, emailInput: string, roleInput: string) {
  const email = normalizeEmail(emailInput);
  if (!isRole(roleInput)) throw new AppError("invalid_input", "Choose a role: Admin, Editor or Author.", { field: "role" });
  const role = roleInput;
  const [existing] = await db.select({ id: user.id }).from(user).where(eq(user.email, email)).limit(1);
  if (existing) {
    const held = await roleOf(db, existing.id);
    if (held) throw new AppError("already_exists", `${email} is already on the team (${ROLE_LABELS[held]}). Change their role in the list instead.`, { field: "email" });
  }
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(Date.now() + INVITATION_DAYS * 24 * 3600_000);
  const invitation = await db.transaction(async (tx) => {
    await tx
      .update(invitations)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(invitations.email, email), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)));
    const [row] = await tx
      .insert(invitations)
      .values({ email, role, tokenHash: hashOf(token), invitedById: actor.id, invitedByName: actor.name, expiresAt })
      .returning({ id: invitations.id });
    await recordActivity(tx, actor, { kind: "invitation.create", objectType: "invitation", objectId: row!.id, objectLabel: email, details: { role } });
    return row!;
  });
  return { id: invitation.id, email, role, token, expiresAt };
}

/** Pending invitations (not used, withdrawn or expired), the newest first. */
export async function listPendingInvitations(db: Db): Promise<PendingInvitation[]> {
  const rows = await db
    .select({ id: invitations.id, email: invitations.email, role: invitations.role, invitedByName: invitations.invitedByName, expiresAt: invitations.expiresAt })
    .from(invitations)
    .where(and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, sql`now()`)))
    .orderBy(asc(invitations.email));
  return rows.filter((r): r is PendingInvitation => isRole(r.role));
}

/** Withdraws a pending invitation: its link stops working at once. */
export async function withdrawInvitation(db: Db, actor: Actor, id: string): Promise<void> {
  if (!isUuid(id)) throw new AppError("not_found", "This invitation no longer exists.");
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(invitations)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(invitations.id, id), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)))
      .returning({ email: invitations.email });
    if (!row) throw new AppError("not_found", "This invitation was already used or withdrawn.");
    await recordActivity(tx, actor, { kind: "invitation.revoke", objectType: "invitation", objectId: id, objectLabel: row.email });
  });
}

/** The invitation a link names: 404 for an unknown token, 410 for one expired, withdrawn or used. */
export async function findInvitation(db: Pick<Db, "select">, token: string) {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) throw new AppError("not_found", "This invitation link is not valid.");
  const [row] = await db.select().from(invitations).where(eq(invitations.tokenHash, hashOf(token))).limit(1);
  if (!row || !isRole(row.role)) throw new AppError("not_found", "This invitation link is not valid.");
  if (row.acceptedAt || row.revokedAt || row.expiresAt.getTime() <= Date.now()) throw new AppError("not_found", INVITATION_GONE, { status: 410 });
  return { id: row.id, email: row.email, role: row.role as Role, invitedByName: row.invitedByName };
}

/**
 * Accepts the invitation for the account `userId` (whose e-mail must be the invited one): marks it used,
 * gives the role and ties an author record (byline, author page) to the account, in one transaction,
 * exactly once (a second use is 410).
 */
export async function acceptInvitation(db: Db, token: string, account: { id: string; email: string; name: string }): Promise<Role> {
  const invitation = await findInvitation(db, token);
  if (normalizeEmail(account.email) !== invitation.email) throw new AppError("forbidden", "This invitation is for another e-mail address.");
  return db.transaction(async (tx) => {
    const [used] = await tx
      .update(invitations)
      .set({ acceptedAt: sql`now()`, acceptedById: account.id })
      .where(and(eq(invitations.id, invitation.id), isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, sql`now()`)))
      .returning({ id: invitations.id });
    if (!used) throw new AppError("not_found", INVITATION_GONE, { status: 410 });
    const previous = await setRole(db, account.id, invitation.role, { inTx: tx });
    const actor = { id: account.id, name: actorName(account) };
    const author = await ensureAccountAuthor(tx, account);
    if (author.created) await recordActivity(tx, actor, { kind: "author.create", objectType: "author", objectId: author.id, objectLabel: account.name });
    await recordActivity(tx, actor, { kind: "invitation.accept", objectType: "invitation", objectId: invitation.id, objectLabel: invitation.email, details: { role: invitation.role } });
    await recordActivity(tx, actor, { kind: "role.change", objectType: "account", objectId: account.id, objectLabel: invitation.email, details: { role: invitation.role, previous } });
    return invitation.role;
  });
}
