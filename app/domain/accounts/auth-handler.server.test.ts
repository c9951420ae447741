import { describe, expect, test } from "vitest";
import { CLIENT_IP_HEADER } from "~/lib/auth.server";
import { createTestDatabase } from "../../../tests/setup/test-database";
import { ensureAdminAccount } from "./accounts.server";
import { handleAuthRequest } from "./auth-handler.server";
import { MAX_FAILED_LOGINS } from "./login-limit.server";
import { createTestAuth, ORIGIN } from "./test-auth.server";

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
