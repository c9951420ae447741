import { randomBytes } from "node:crypto";
import { verifyPassword } from "better-auth/crypto";
import { and, asc, eq, isNotNull, notInArray } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { account, user, userGrants, userRoles } from "~/db/schema";
import { ensureAccountAuthor } from "~/domain/authors/account-author.server";
import { AppError, isAppError } from "~/lib/app-error";
import { defaultNameFor, type Auth } from "./auth.server";
import { ADMIN_ROLE, accountEmailSchema, accountPasswordSchema } from "./accounts.schema";
import { GRANT_LABELS, GRANTABLE, highestRole, isGrantable, ROLE_LABELS, type GrantableCapability, type Role } from "./roles";

export function normalizeEmail(input: string): string {
  const parsed = accountEmailSchema.safeParse(input);
  if (!parsed.success) throw new AppError("invalid_input", `"${input}" is not a valid e-mail address.`, { field: "email" });
  return parsed.data;
}

function checkPassword(password: string): void {
  const parsed = accountPasswordSchema.safeParse(password);
  if (!parsed.success) throw new AppError("invalid_input", `The password ${parsed.error.issues[0]!.message}.`, { field: "password" });
}

/** The account's role in user_roles, or null (a reader). Read on every request: a change counts at once. */
export async function roleOf(db: Db, userId: string): Promise<Role | null> {
  const rows = await db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, userId));
  return highestRole(rows.map((r) => r.role));
}

/** The capabilities an admin gave this account beyond its role's (user_grants; roles.ts `holds` decides what they give). */
export async function grantsOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db.select({ capability: userGrants.capability }).from(userGrants).where(eq(userGrants.userId, userId));
  return rows.map((r) => r.capability);
}

/** Every account's grants (user_grants), by account id: what the Team screen shows. */
export async function grantsByAccount(db: Db): Promise<Map<string, string[]>> {
  const rows = await db.select({ userId: userGrants.userId, capability: userGrants.capability }).from(userGrants);
  const byAccount = new Map<string, string[]>();
  for (const row of rows) byAccount.set(row.userId, [...(byAccount.get(row.userId) ?? []), row.capability]);
  return byAccount;
}

/** True when user_roles holds (userId, 'admin'). */
export async function isAdmin(db: Db, userId: string): Promise<boolean> {
  return (await roleOf(db, userId)) === ADMIN_ROLE;
}

export async function findUserByEmail(db: Db, email: string) {
  const [row] = await db
    .select({ id: user.id, email: user.email, emailVerified: user.emailVerified })
    .from(user)
    .where(eq(user.email, normalizeEmail(email)))
    .limit(1);
  return row ?? null;
}

async function requireUserByEmail(db: Db, email: string) {
  const found = await findUserByEmail(db, email);
  if (!found) throw new AppError("not_found", `No account with the e-mail address ${normalizeEmail(email)}.`);
  return found;
}

export const LAST_ADMIN = "The last admin cannot lose the admin role. Make someone else an admin first.";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * Gives the account `role` (null: none, a reader), replacing the one it had, in one transaction; the
 * site always keeps one admin (LAST_ADMIN, 409). Returns the role it had before.
 */
export async function setRole(db: Db, userId: string, role: Role | null, options: { inTx?: Tx } = {}): Promise<Role | null> {
  const run = async (tx: Tx) => {
    // Every admin row locked: two demotions at once cannot both see "another admin is left".
    const admins = await tx.select({ userId: userRoles.userId }).from(userRoles).where(eq(userRoles.role, ADMIN_ROLE)).for("update");
    const held = await tx.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, userId)).for("update");
    const previous = highestRole(held.map((r) => r.role));
    if (previous === role) return previous;
    if (previous === ADMIN_ROLE && admins.length <= 1) throw new AppError("forbidden", LAST_ADMIN, { status: 409 });
    await tx.delete(userRoles).where(eq(userRoles.userId, userId));
    if (role) await tx.insert(userRoles).values({ userId, role });
    // Grants the new role may not receive give nothing any more: they go (made an author or an admin).
    const kept = (Object.keys(GRANTABLE) as GrantableCapability[]).filter((capability) => role && (GRANTABLE[capability] as readonly Role[]).includes(role));
    await tx.delete(userGrants).where(and(eq(userGrants.userId, userId), kept.length > 0 ? notInArray(userGrants.capability, kept) : undefined));
    return previous;
  };
  return options.inTx ? run(options.inTx) : db.transaction(run);
}

/**
 * Gives (`on`) or takes a capability beyond the account's role (user_grants, issue 43). Only what
 * GRANTABLE names, to the roles it names: anything else is refused (400), as is an account that is not
 * on the team (404). Returns whether anything changed; the caller records it with `inTx`.
 */
export async function setGrant(db: Db, userId: string, capability: string, on: boolean, grantedBy: string | null, options: { inTx?: Tx } = {}): Promise<boolean> {
  if (!isGrantable(capability)) throw new AppError("invalid_input", `“${capability}” is not something an admin may give one account.`, { field: "capability" });
  const run = async (tx: Tx) => {
    const held = await tx.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, userId)).for("update");
    const role = highestRole(held.map((r) => r.role));
    if (!role) throw new AppError("not_found", "This account is not on the team (any more).");
    if (on && !(GRANTABLE[capability] as readonly Role[]).includes(role)) {
      const to = (GRANTABLE[capability] as readonly Role[]).map((r) => `${ROLE_LABELS[r].toLowerCase()}s`).join(" and ");
      throw new AppError("invalid_input", `“${GRANT_LABELS[capability]}” can be given to ${to} only: a ${ROLE_LABELS[role].toLowerCase()} ${role === "admin" ? "may do it already" : "cannot receive it"}.`, { field: "capability" });
    }
    if (on) {
      const added = await tx.insert(userGrants).values({ userId, capability, grantedBy }).onConflictDoNothing().returning({ userId: userGrants.userId });
      return added.length > 0;
    }
    const removed = await tx.delete(userGrants).where(and(eq(userGrants.userId, userId), eq(userGrants.capability, capability))).returning({ userId: userGrants.userId });
    return removed.length > 0;
  };
  return options.inTx ? run(options.inTx) : db.transaction(run);
}

/**
 * Gives the account `role` and, in the same transaction, its author record (issue 27: everyone in the
 * back office has a byline, made from their name). Returns the role it had before.
 */
export async function setRoleWithAuthor(db: Db, userId: string, role: Role): Promise<Role | null> {
  return db.transaction(async (tx) => {
    const previous = await setRole(db, userId, role, { inTx: tx });
    const [row] = await tx.select({ name: user.name, email: user.email }).from(user).where(eq(user.id, userId));
    if (row) await ensureAccountAuthor(tx, { id: userId, name: row.name, email: row.email });
    return previous;
  });
}

/** Makes the account an admin (with its author record). Returns false when it already was one. */
export async function grantAdmin(db: Db, email: string): Promise<boolean> {
  const found = await requireUserByEmail(db, email);
  return (await setRoleWithAuthor(db, found.id, ADMIN_ROLE)) !== ADMIN_ROLE;
}

/** Takes the admin role away (the account becomes a reader). Returns false when the account was not an admin. */
export async function revokeAdmin(db: Db, email: string): Promise<boolean> {
  const found = await requireUserByEmail(db, email);
  if ((await roleOf(db, found.id)) !== ADMIN_ROLE) return false;
  await setRole(db, found.id, null);
  return true;
}

export interface AccountSummary {
  id: string;
  email: string;
  name: string;
  /** The account's role; null for a reader. */
  role: Role | null;
  /** When the role was given (null for a reader). */
  roleSince: Date | null;
  emailVerified: boolean;
  createdAt: Date;
}

/** Every account (or, with `withRole`, the back office's people) by e-mail, with its role. */
export async function listAccounts(db: Db, options: { withRole?: boolean } = {}): Promise<AccountSummary[]> {
  const rows = await db
    .select({
      id: user.id,
      email: user.email,
      name: user.name,
      emailVerified: user.emailVerified,
      createdAt: user.createdAt,
      role: userRoles.role,
      roleSince: userRoles.createdAt,
    })
    .from(user)
    .leftJoin(userRoles, eq(userRoles.userId, user.id))
    .where(options.withRole ? isNotNull(userRoles.role) : undefined)
    .orderBy(asc(user.email));
  return rows.map((row) => ({ ...row, role: highestRole(row.role ? [row.role] : []) }));
}

/** A password for `admin create` without --password: 18 random bytes, URL-safe. */
export function generatePassword(): string {
  return randomBytes(18).toString("base64url");
}

/**
 * Creates an e-mail + password account the way Better Auth's sign-up does (its own user creation
 * and its own password hasher), already verified since an operator vouches for it. Never an admin
 * by itself.
 */
export async function createPasswordAccount(auth: Auth, db: Db, email: string, password: string) {
  const normalized = normalizeEmail(email);
  checkPassword(password);
  if (await findUserByEmail(db, normalized)) throw new AppError("already_exists", `An account with the e-mail address ${normalized} already exists.`);
  const ctx = await auth.$context;
  const hash = await ctx.password.hash(password);
  const created = await ctx.internalAdapter.createUser(
    { email: normalized, name: defaultNameFor(normalized), emailVerified: true },
    { method: "email-password" },
  );
  await ctx.internalAdapter.linkAccount({ userId: created.id, providerId: "credential", accountId: created.id, password: hash });
  return { id: created.id, email: created.email };
}

/**
 * ADMIN_EMAIL + ADMIN_PASSWORD at start: the account exists (created with that password when
 * missing; an existing account keeps its password) and is an admin.
 */
export async function ensureAdminAccount(auth: Auth, db: Db, email: string, password: string) {
  let created = false;
  if (!(await findUserByEmail(db, email))) {
    try {
      await createPasswordAccount(auth, db, email, password);
      created = true;
    } catch (error) {
      // Another process starting at the same moment may have created it first.
      if (!isAppError(error, "already_exists") && !(await findUserByEmail(db, email))) throw error;
    }
  }
  // An account someone else signed up with this address (before the operator set ADMIN_EMAIL) must
  // not become admin: only an account whose password is ADMIN_PASSWORD is granted.
  if (!created && !(await passwordMatches(db, email, password))) {
    return { created, granted: false, refused: true as const };
  }
  const granted = await grantAdmin(db, email);
  return { created, granted, refused: false as const };
}

/** True when the account's e-mail/password credential has exactly this password. */
export async function passwordMatches(db: Db, email: string, password: string): Promise<boolean> {
  const [row] = await db
    .select({ hash: account.password })
    .from(account)
    .innerJoin(user, eq(account.userId, user.id))
    .where(and(eq(user.email, normalizeEmail(email)), eq(account.providerId, "credential")))
    .limit(1);
  if (!row?.hash) return false;
  return verifyPassword({ hash: row.hash, password });
}

/** The ids of accounts with a second factor turned on (the Team screen shows who has one). */
export async function accountsWithTwoFactor(db: Db): Promise<Set<string>> {
  const rows = await db.select({ id: user.id }).from(user).where(eq(user.twoFactorEnabled, true));
  return new Set(rows.map((row) => row.id));
}
