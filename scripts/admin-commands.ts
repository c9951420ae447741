import type { Db } from "../app/db/client.server";
import {
  createPasswordAccount,
  findUserByEmail,
  generatePassword,
  grantAdmin,
  listAccounts,
  normalizeEmail,
  setRole,
  setRoleWithAuthor,
} from "../app/domain/accounts/accounts.server";
import { ADMIN_ROLE } from "../app/domain/accounts/accounts.schema";
import type { Actor } from "../app/domain/accounts/actor";
import { isRole, ROLES, type Role } from "../app/domain/accounts/roles";
import { recordActivity } from "../app/domain/activity/activity.server";
import type { Auth } from "../app/domain/accounts/auth.server";
import { AppError, isAppError } from "../app/lib/app-error";

export const USAGE = `Usage: npm run admin -- <command>

Commands:
  create <email> [--password <password>]  Create an administrator account (prints a generated password when none is given)
  grant <email> [--role <role>]           Give an account a role: admin (the default), editor or author
  revoke <email>                          Take the account's role away (it becomes a reader); the last admin keeps it
  list                                    List every account and its role

The database is the server's: DATABASE_URL when set, otherwise the embedded one in DATA_DIR (default ./data).`;

/** Who the audit trail names for a change made from the command line. */
const CLI_ACTOR: Actor = { id: null, name: "Command line (npm run admin)" };

/** Exit codes: 0 done, 1 the operation was refused (unknown account, already exists), 2 bad usage or input. */
export const EXIT_OK = 0;
export const EXIT_REFUSED = 1;
export const EXIT_USAGE = 2;

export interface Output {
  out(line: string): void;
  err(line: string): void;
}

export interface ParsedCommand {
  command: "create" | "grant" | "revoke" | "list" | "help";
  email?: string;
  password?: string;
  /** grant's --role (admin when not given). */
  role?: Role;
}

/** A malformed command line: an "invalid_input" AppError with a message for people. */
const usageError = (message: string) => new AppError("invalid_input", message);

/** Parses the arguments after `npm run admin --`; throws an "invalid_input" AppError with a message for people. */
export function parseAdminArgs(argv: string[]): ParsedCommand {
  const [command, ...rest] = argv;
  if (!command || command === "help" || command === "--help" || command === "-h") return { command: "help" };
  const positional: string[] = [];
  let password: string | undefined;
  let role: Role | undefined;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === "--role" || arg.startsWith("--role=")) {
      if (command !== "grant") throw usageError(`--role is only accepted by "grant".`);
      const value = arg === "--role" ? rest[++i] : arg.slice("--role=".length);
      if (!isRole(value)) throw usageError(`--role must be one of ${ROLES.join(", ")}.`);
      role = value;
    } else if (arg === "--password") {
      if (command !== "create") throw usageError(`--password is only accepted by "create".`);
      const value = rest[++i];
      if (value === undefined) throw usageError("--password needs a value.");
      password = value;
    } else if (arg.startsWith("--password=")) {
      if (command !== "create") throw usageError(`--password is only accepted by "create".`);
      password = arg.slice("--password=".length);
    } else if (arg.startsWith("--")) {
      throw usageError(`Unknown option ${arg}.`);
    } else {
      positional.push(arg);
    }
  }
  switch (command) {
    case "list":
      if (positional.length) throw usageError(`"list" takes no arguments.`);
      return { command };
    case "create":
    case "grant":
    case "revoke":
      if (positional.length !== 1) throw usageError(`"${command}" needs exactly one e-mail address.`);
      return { command, email: positional[0], password, ...(role ? { role } : {}) };
    default:
      throw usageError(`Unknown command "${command}".`);
  }
}

/** Runs one admin command against a database; returns the process exit code. */
export async function runAdminCommand(parsed: ParsedCommand, services: { db: Db; auth: () => Auth }, io: Output): Promise<number> {
  const { db } = services;
  try {
    switch (parsed.command) {
      case "help":
        io.out(USAGE);
        return EXIT_OK;
      case "list": {
        const accounts = await listAccounts(db);
        if (accounts.length === 0) {
          io.out("No accounts yet.");
          return EXIT_OK;
        }
        const width = Math.max(5, ...accounts.map((a) => a.email.length));
        io.out(`${"EMAIL".padEnd(width)}  ROLE    VERIFIED  CREATED`);
        for (const a of accounts) {
          io.out(`${a.email.padEnd(width)}  ${(a.role ?? "-").padEnd(6)}  ${(a.emailVerified ? "yes" : "no").padEnd(8)}  ${a.createdAt.toISOString().slice(0, 10)}`);
        }
        return EXIT_OK;
      }
      case "create": {
        const email = normalizeEmail(parsed.email!);
        const generated = parsed.password === undefined;
        const password = parsed.password ?? generatePassword();
        await createPasswordAccount(services.auth(), db, email, password);
        await grantAdmin(db, email);
        io.out(`Created the administrator account ${email}.`);
        if (generated) io.out(`Password: ${password}`);
        io.out(`Sign in at /admin/login. Take the role away with: npm run admin -- revoke ${email}`);
        return EXIT_OK;
      }
      case "grant": {
        const email = normalizeEmail(parsed.email!);
        const role = parsed.role ?? ADMIN_ROLE;
        const found = await findUserByEmail(db, email);
        if (!found) throw new AppError("not_found", `No account with the e-mail address ${email}.`);
        const previous = await setRoleWithAuthor(db, found.id, role);
        io.out(previous === role ? `${email} is already an ${role}.` : `${email} is now an ${role}.`);
        if (previous !== role) await recordActivity(db, CLI_ACTOR, { kind: "role.change", objectType: "account", objectId: found.id, objectLabel: email, details: { role, previous } });
        if (!found.emailVerified) {
          // Anyone may sign up under any address: the confirmation link is what proves it is theirs.
          io.out(`Note: ${email} has not confirmed its e-mail address. Make sure the account is really theirs,`);
          io.out(`or take the role away again with: npm run admin -- revoke ${email}`);
        }
        return EXIT_OK;
      }
      case "revoke": {
        const email = normalizeEmail(parsed.email!);
        const found = await findUserByEmail(db, email);
        if (!found) throw new AppError("not_found", `No account with the e-mail address ${email}.`);
        const previous = await setRole(db, found.id, null);
        if (previous) await recordActivity(db, CLI_ACTOR, { kind: "role.change", objectType: "account", objectId: found.id, objectLabel: email, details: { role: null, previous } });
        io.out(previous === "admin" ? `${email} is no longer an admin.` : previous ? `${email} is no longer an ${previous}.` : `${email} had no role.`);
        return EXIT_OK;
      }
    }
  } catch (error) {
    if (isAppError(error)) {
      io.err(`Error: ${error.message}`);
      // A malformed e-mail or password is a usage problem; an unknown or existing account a refusal.
      return error.code === "invalid_input" ? EXIT_USAGE : EXIT_REFUSED;
    }
    throw error;
  }
}
