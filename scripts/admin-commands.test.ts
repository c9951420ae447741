import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { auditEvents, authors, user, userRoles } from "../app/db/schema";
import { createTestDatabase } from "../tests/setup/test-database";
import type { AppLoadContext } from "react-router";
import { requireCapability } from "../app/domain/accounts/guard.server";

const requireAdmin = (request: Request, context: AppLoadContext) => requireCapability(request, context, "settings.manage");
import { createTestAuth, guardOutcome, signIn, signUp } from "../app/domain/accounts/test-auth.server";
import { EXIT_OK, EXIT_REFUSED, EXIT_USAGE, parseAdminArgs, runAdminCommand } from "./admin-commands";

const { db } = await createTestDatabase();
const t = createTestAuth(db);


function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = runAdminCommand(parseAdminArgs(args), { db, auth: () => t.auth }, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return code.then((c) => ({ code: c, out: out.join("\n"), err: err.join("\n") }));
}

describe("npm run admin", () => {
  test("create without --password prints a generated password that signs in to the back office", async () => {
    const result = await cli(["create", "Writer@Example.com"]);
    expect(result.code).toBe(EXIT_OK);
    expect(result.out).toContain("Created the administrator account writer@example.com.");
    const password = /Password: (\S+)/.exec(result.out)?.[1];
    expect(password).toBeTruthy();
    const { response, cookie } = await signIn(t, "writer@example.com", password!);
    expect(response.status).toBe(200);
    expect(await guardOutcome(t, requireAdmin, "POST", cookie)).toEqual({ status: 200, email: "writer@example.com" });
  });

  test("create gives the administrator an author record (a byline) tied to the account", async () => {
    expect((await cli(["create", "desk.chief@example.com", "--password", "desk-password-1"])).code).toBe(EXIT_OK);
    const [row] = await db.select({ id: user.id, name: user.name }).from(user).where(eq(user.email, "desk.chief@example.com"));
    const [author] = await db.select({ name: authors.name, slug: authors.slug }).from(authors).where(eq(authors.userId, row!.id));
    expect(author).toEqual({ name: row!.name, slug: expect.stringMatching(/^desk-chief/) });
  });

  test("create --password uses that password; creating it twice is refused", async () => {
    expect((await cli(["create", "given@example.com", "--password", "given-password-1"])).code).toBe(EXIT_OK);
    expect((await signIn(t, "given@example.com", "given-password-1")).response.status).toBe(200);
    const again = await cli(["create", "given@example.com", "--password", "given-password-1"]);
    expect(again).toMatchObject({ code: EXIT_REFUSED, err: "Error: An account with the e-mail address given@example.com already exists." });
  });

  test("grant and revoke change user_roles; list shows each account's role", async () => {
    await cli(["create", "listed@example.com"]);
    expect(await cli(["grant", "listed@example.com"])).toMatchObject({ code: EXIT_OK, out: "listed@example.com is already an admin." });
    expect(await cli(["revoke", "listed@example.com"])).toMatchObject({ code: EXIT_OK, out: "listed@example.com is no longer an admin." });
    expect(await cli(["grant", "listed@example.com"])).toMatchObject({ code: EXIT_OK, out: "listed@example.com is now an admin." });
    expect(await cli(["grant", "listed@example.com"])).toMatchObject({ code: EXIT_OK, out: "listed@example.com is already an admin." });
    expect((await cli(["list"])).out).toMatch(/listed@example\.com\s+admin\s/);
    expect(await cli(["revoke", "listed@example.com"])).toMatchObject({ code: EXIT_OK, out: "listed@example.com is no longer an admin." });
    expect((await cli(["list"])).out).toMatch(/listed@example\.com\s+-\s/);
    const [row] = await db.select({ id: user.id }).from(user).where(eq(user.email, "listed@example.com"));
    expect(await db.select().from(userRoles).where(eq(userRoles.userId, row!.id))).toEqual([]);
  });

  test("grant --role gives editor or author (one role at a time), recorded in the audit trail; a bad role is a usage error", async () => {
    await cli(["create", "roled@example.com"]);
    expect(await cli(["grant", "roled@example.com", "--role", "editor"])).toMatchObject({ code: EXIT_OK, out: "roled@example.com is now an editor." });
    expect((await cli(["list"])).out).toMatch(/roled@example\.com\s+editor\s/);
    expect(await cli(["grant", "roled@example.com", "--role=author"])).toMatchObject({ code: EXIT_OK, out: "roled@example.com is now an author." });
    const [row] = await db.select({ id: user.id }).from(user).where(eq(user.email, "roled@example.com"));
    expect((await db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, row!.id))).map((r) => r.role)).toEqual(["author"]);
    expect(await cli(["revoke", "roled@example.com"])).toMatchObject({ code: EXIT_OK, out: "roled@example.com is no longer an author." });
    const logged = await db.select({ kind: auditEvents.kind, actor: auditEvents.actorName }).from(auditEvents).where(eq(auditEvents.objectId, row!.id));
    expect(logged).toContainEqual({ kind: "role.change", actor: "Command line (npm run admin)" });
    expect(() => parseAdminArgs(["grant", "roled@example.com", "--role", "owner"])).toThrow("--role must be one of admin, editor, author.");
    expect(() => parseAdminArgs(["revoke", "roled@example.com", "--role", "editor"])).toThrow('--role is only accepted by "grant".');
  });

  test("granting a signed-up account that never confirmed its address says so", async () => {
    expect((await signUp(t, "unconfirmed@example.com", "unconfirmed-password-1")).status).toBe(200);
    const result = await cli(["grant", "unconfirmed@example.com"]);
    expect(result.code).toBe(EXIT_OK);
    expect(result.out).toContain("unconfirmed@example.com is now an admin.");
    expect(result.out).toContain("Note: unconfirmed@example.com has not confirmed its e-mail address.");
  });

  test("unknown accounts, bad e-mails, short passwords and bad usage get clear messages and exit codes", async () => {
    expect(await cli(["grant", "ghost@example.com"])).toMatchObject({ code: EXIT_REFUSED, err: "Error: No account with the e-mail address ghost@example.com." });
    expect(await cli(["revoke", "ghost@example.com"])).toMatchObject({ code: EXIT_REFUSED });
    expect(await cli(["grant", "not-an-email"])).toMatchObject({ code: EXIT_USAGE, err: 'Error: "not-an-email" is not a valid e-mail address.' });
    expect(await cli(["create", "short@example.com", "--password", "short"])).toMatchObject({
      code: EXIT_USAGE,
      err: "Error: The password must be at least 8 characters.",
    });
    expect(() => parseAdminArgs(["frobnicate"])).toThrow('Unknown command "frobnicate".');
    expect(() => parseAdminArgs(["grant"])).toThrow('"grant" needs exactly one e-mail address.');
    expect(() => parseAdminArgs(["create", "a@example.com", "--password"])).toThrow("--password needs a value.");
  });
});
