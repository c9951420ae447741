import { describe, expect, test } from "vitest";
import { CLIENT_IP_HEADER } from "~/lib/client-address.server";
import { createTestDatabase } from "../../../tests/setup/test-database";
import { ensureAdminAccount } from "./accounts.server";
import { handleAuthRequest, SIGN_UP_LIMIT } from "./auth-handler.server";
import { sql } from "drizzle-orm";
import { KNOWN_DEVICE_COOKIE } from "./known-devices.server";
import { ACCOUNT_SLOWDOWN_AFTER, accountSlowdownSeconds, MAX_FAILED_LOGINS } from "./login-limit.server";
import { createTestAuth, ORIGIN, signUp } from "./test-auth.server";

const { db } = await createTestDatabase();
const t = createTestAuth(db);

/** A sign-in posted with exactly the given Content-Type and body text. */
function signInAs(contentType: string, body: string, ip: string) {
  const request = new Request(`${ORIGIN}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": contentType, [CLIENT_IP_HEADER]: ip },
    body,
  });
  return handleAuthRequest(request, { auth: t.auth, db, log: t.log });
}

describe("sign-in limit and the Content-Type spelling", () => {
  // Media types are case-insensitive and Better Auth accepts any spelling; the limit must too,
  // or an attacker guesses passwords without ever being counted.
  test.each([
    ["Application/JSON", (email: string) => JSON.stringify({ email, password: "wrong-password" })],
    ["APPLICATION/X-WWW-FORM-URLENCODED", (email: string) => new URLSearchParams({ email, password: "wrong-password" }).toString()],
  ])("%s: failures are counted and the 6th attempt is refused with 429", async (contentType, body) => {
    const email = `case-${contentType.length}@example.com`;
    await ensureAdminAccount(t.auth, db, email, "right-password-1");
    const ip = `192.0.2.${100 + contentType.length}`;
    for (let i = 0; i < MAX_FAILED_LOGINS; i++) {
      expect((await signInAs(contentType, body(email), ip)).status).toBe(401);
    }
    expect((await signInAs(contentType, body(email), ip)).status).toBe(429);
  });
});

describe("sign-in bodies the limit cannot read never reach the password check", () => {
  test("a multipart sign-in is refused with 415 and no session", async () => {
    const email = "multipart@example.com";
    await ensureAdminAccount(t.auth, db, email, "right-password-1");
    const form = new FormData();
    form.set("email", email);
    form.set("password", "right-password-1");
    const request = new Request(`${ORIGIN}/api/auth/sign-in/email`, { method: "POST", headers: { [CLIENT_IP_HEADER]: "192.0.2.201" }, body: form });
    const response = await handleAuthRequest(request, { auth: t.auth, db, log: t.log });
    expect(response.status).toBe(415);
    expect(response.headers.get("set-cookie")).toBeNull();
    expect((await response.json()).message).toBe("Send the sign-in as JSON or as a URL-encoded form.");
  });

  test("an application/*+json sign-in is counted like JSON: the 6th attempt is refused with 429", async () => {
    const email = "plus-json@example.com";
    await ensureAdminAccount(t.auth, db, email, "right-password-1");
    const body = JSON.stringify({ email, password: "wrong-password" });
    for (let i = 0; i < MAX_FAILED_LOGINS; i++) {
      expect((await signInAs("application/vnd.api+json", body, "192.0.2.202")).status).toBe(401);
    }
    expect((await signInAs("application/vnd.api+json", body, "192.0.2.202")).status).toBe(429);
  });

  test("a form naming the e-mail twice is refused with 400 before any password is checked", async () => {
    const email = "twice@example.com";
    await ensureAdminAccount(t.auth, db, email, "right-password-1");
    const body = `email=decoy%40example.com&email=${encodeURIComponent(email)}&password=right-password-1`;
    const response = await signInAs("application/x-www-form-urlencoded", body, "192.0.2.203");
    expect(response.status).toBe(400);
    expect(response.headers.get("set-cookie")).toBeNull();
  });

  test("failures are counted under the address Better Auth checks, whatever its case or spacing", async () => {
    const email = "spaced@example.com";
    await ensureAdminAccount(t.auth, db, email, "right-password-1");
    for (let i = 0; i < MAX_FAILED_LOGINS; i++) {
      const spelled = i % 2 ? "  SPACED@Example.com " : email;
      expect((await signInAs("application/json", JSON.stringify({ email: spelled, password: "wrong-password" }), "192.0.2.210")).status).toBe(401);
    }
    // However it was spelled, the pair (account, address) has its five failures: the right password is refused there…
    const right = JSON.stringify({ email: "Spaced@example.com", password: "right-password-1" });
    expect((await signInAs("application/json", right, "192.0.2.210")).status).toBe(429);
    // …and not from the owner's own address: failing on purpose cannot lock an account out.
    expect((await signInAs("application/json", right, "192.0.2.220")).status).toBe(200);
  });

  test("a body without a valid e-mail is refused with 400, and a right form sign-in still signs in", async () => {
    expect((await signInAs("application/json", JSON.stringify({ password: "x" }), "192.0.2.230")).status).toBe(400);
    expect((await signInAs("application/json", "[1,2]", "192.0.2.230")).status).toBe(400);
    expect((await signInAs("application/json", "{not json", "192.0.2.230")).status).toBe(400);
    const email = "form-ok@example.com";
    await ensureAdminAccount(t.auth, db, email, "right-password-1");
    const ok = await signInAs("application/x-www-form-urlencoded", new URLSearchParams({ email, password: "right-password-1" }).toString(), "192.0.2.231");
    expect(ok.status).toBe(200);
    expect(ok.headers.get("set-cookie")).toContain("session_token");
  });
});

describe("a burst of parallel guesses", () => {
  test("30 wrong passwords sent at once: only MAX_FAILED_LOGINS reach the password check, the rest get 429", async () => {
    const email = "burst@example.com";
    await ensureAdminAccount(t.auth, db, email, "right-password-1");
    const body = JSON.stringify({ email, password: "wrong-password" });
    // Thirty at once from one address: the limit holds the burst (its check and count are one step).
    const responses = await Promise.all(Array.from({ length: 30 }, () => signInAs("application/json", body, "198.51.100.1")));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(MAX_FAILED_LOGINS);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - MAX_FAILED_LOGINS);
    // And the right password right after, from there, is refused too.
    const right = JSON.stringify({ email, password: "right-password-1" });
    expect((await signInAs("application/json", right, "198.51.100.1")).status).toBe(429);
  });
});

describe("the Better Auth endpoints on offer", () => {
  test.each([
    ["POST", "/api/auth/verify-password"],
    ["POST", "/api/auth/change-password"],
    ["POST", "/api/auth/send-verification-email"],
    ["POST", "/api/auth/delete-user"],
    ["POST", "/api/auth/SIGN-IN/email"],
    ["GET", "/api/auth/list-sessions"],
    ["GET", "/api/auth/sign-in/email"],
  ])("%s %s has no screen here and answers 404", async (method, path) => {
    const request = new Request(`${ORIGIN}${path}`, {
      method,
      headers: { "content-type": "application/json", [CLIENT_IP_HEADER]: "192.0.2.250", origin: ORIGIN },
      body: method === "POST" ? JSON.stringify({ email: "x@example.com", password: "whatever-1" }) : undefined,
    });
    const response = await handleAuthRequest(request, { auth: t.auth, db, log: t.log });
    expect(response.status).toBe(404);
    expect(t.mails.filter((m) => m.to === "x@example.com")).toEqual([]);
  });

  test("sign-ups from one address are limited: the 6th within the hour gets 429 and sends no mail", async () => {
    for (let i = 1; i <= SIGN_UP_LIMIT.max; i++) {
      expect((await signUp(t, `crowd-${i}@example.com`, "crowd-password-1", "192.0.2.251")).status).toBe(200);
    }
    const refused = await signUp(t, "crowd-6@example.com", "crowd-password-1", "192.0.2.251");
    expect(refused.status).toBe(429);
    expect((await refused.json()).message).toBe("Too many accounts were created from your address. Try again in 60 minutes.");
    expect(t.mails.filter((m) => m.to === "crowd-6@example.com")).toEqual([]);
    // Another address may still sign up.
    expect((await signUp(t, "crowd-6@example.com", "crowd-password-1", "192.0.2.252")).status).toBe(200);
  });
});

describe("an endpoint's path is read as every URL rule of the site reads it", () => {
  test("a trailing slash or a percent-encoded spelling reaches the endpoint it names, and the sign-in limit counts it", async () => {
    for (const path of ["/api/auth/ok/", "/api/auth/%6Fk"]) {
      const response = await handleAuthRequest(new Request(`${ORIGIN}${path}`), { auth: t.auth, db, log: t.log });
      expect(response.status, path).toBe(200);
    }
    const email = "spelled@example.com";
    await ensureAdminAccount(t.auth, db, email, "right-password-1");
    const attempt = (path: string) =>
      handleAuthRequest(
        new Request(`${ORIGIN}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", [CLIENT_IP_HEADER]: "192.0.2.240" },
          body: JSON.stringify({ email, password: "wrong-password" }),
        }),
        { auth: t.auth, db, log: t.log },
      );
    const spellings = ["/api/auth/sign-in/email/", "/api/auth/sign-%69n/email", "/api/auth/sign-in/%65mail", "/api/auth/sign-in/email", "/api/auth/sign-in/email//"];
    for (let i = 0; i < MAX_FAILED_LOGINS; i++) expect((await attempt(spellings[i % spellings.length]!)).status, spellings[i % spellings.length]).toBe(401);
    expect((await attempt("/api/auth/sign-%69n/email/")).status).toBe(429);
  });
});

describe("guessing one account from many addresses (issue 28, item 1)", () => {
  const json = (email: string, password: string) => JSON.stringify({ email, password });
  function from(ip: string, email: string, password: string, cookie?: string) {
    const headers: Record<string, string> = { "content-type": "application/json", [CLIENT_IP_HEADER]: ip };
    if (cookie) headers.cookie = cookie;
    const request = new Request(`${ORIGIN}/api/auth/sign-in/email`, { method: "POST", headers, body: json(email, password) });
    return handleAuthRequest(request, { auth: t.auth, db, log: t.log, knownDevices: t.knownDevices });
  }
  const knownDeviceCookieOf = (response: Response) =>
    response.headers
      .getSetCookie()
      .map((c) => c.split(";")[0]!)
      .find((c) => c.startsWith(`${KNOWN_DEVICE_COOKIE}=`));

  test("after ten failures from ten addresses each further attempt waits, growing; the owner's known device is not slowed; it is on the activity screen", async () => {
    const email = "spread@example.com";
    await ensureAdminAccount(t.auth, db, email, "right-password-1");
    // The owner signed in from their laptop once: it is a known device from then on.
    const owner = await from("198.51.100.61", email, "right-password-1");
    expect(owner.status).toBe(200);
    const laptop = knownDeviceCookieOf(owner);
    expect(laptop).toBeDefined();

    for (let i = 0; i < ACCOUNT_SLOWDOWN_AFTER; i++) {
      expect((await from(`203.0.113.${10 + i}`, email, "wrong-password")).status, `guess ${i + 1}`).toBe(401);
    }
    // The eleventh guess, from yet another address, waits: refused before the password is checked.
    const slowed = await from("203.0.113.99", email, "right-password-1");
    expect(slowed.status).toBe(429);
    expect(Number(slowed.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await slowed.json()).code).toBe("ACCOUNT_SLOWED");
    expect(slowed.headers.getSetCookie().some((c) => c.startsWith("better-auth.session_token=") && !c.startsWith("better-auth.session_token=;"))).toBe(false);
    // The owner's laptop is not slowed: its password is checked, and it gets in.
    expect((await from("198.51.100.61", email, "right-password-1", laptop)).status).toBe(200);
    // A forged or another account's device cookie does not help.
    expect((await from("203.0.113.98", email, "right-password-1", `${KNOWN_DEVICE_COOKIE}=forged.value`)).status).toBe(429);

    // Logged once on the activity screen, with how many addresses took part.
    const [entry] = (await db.execute<{ kind: string; details: { failures: number; addresses: number } }>(
      sql`select kind, details from audit_events where kind = 'sign_in.slowed' and object_label = ${email}`,
    )).rows;
    expect(entry).toMatchObject({ details: { failures: ACCOUNT_SLOWDOWN_AFTER, addresses: ACCOUNT_SLOWDOWN_AFTER } });
  });

  test("the wait grows with each failure past the tenth, to at most 15 minutes", () => {
    expect([9, 10, 11, 12, 13, 14, 15].map(accountSlowdownSeconds)).toEqual([0, 30, 60, 120, 240, 480, 900]);
    expect(accountSlowdownSeconds(40)).toBe(15 * 60);
  });
});

describe("e-mail change links (issue 28, found while signing backups)", () => {
  test("a verification link that asks to change an account's e-mail is refused before Better Auth reads it", async () => {
    const email = "stays-put@example.com";
    await ensureAdminAccount(t.auth, db, email, "right-password-1");
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const token = `${part({ alg: "HS256", typ: "JWT" })}.${part({ email, updateTo: "thief@example.com", exp: Math.floor(Date.now() / 1000) + 3600 })}.signature`;
    const response = await handleAuthRequest(new Request(`${ORIGIN}/api/auth/verify-email?token=${token}`, { headers: { [CLIENT_IP_HEADER]: "192.0.2.77" } }), {
      auth: t.auth,
      db,
      log: t.log,
    });
    expect(response.status).toBe(400);
    expect((await response.json()).code).toBe("EMAIL_CHANGE_NOT_OFFERED");
    const rows = (await db.execute<{ email: string }>(sql`select email from "user" where email = ${email}`)).rows;
    expect(rows).toHaveLength(1);
  });
});
