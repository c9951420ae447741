import type { AppLoadContext } from "react-router";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { memberSubscriptions, memberTiers, subscribers, user, userRoles } from "~/db/schema";
import type { Role } from "~/domain/accounts/roles";
import { createTestAuth, describeThrown, ORIGIN, signIn, signUp } from "~/domain/accounts/test-auth.server";
import { newTokenKey } from "~/domain/newsletters/subscriber-tokens.server";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { action as memberAction, loader as memberLoader } from "./member";
import { loader as membersLoader } from "./members";
import { loader as subscribersLoader } from "./subscribers";
import { loader as exportLoader } from "../resources/members-export";

// The members screens' role rules as the server answers them (issue 40): an editor reads members and
// their pages without any amount and is refused every change (403); an author is refused everything;
// an admin sees the amounts.

let t: TestDatabase;
let context: AppLoadContext;
const cookies = {} as Record<Role, string>;
let memberId: string;

async function cookieOf(auth: ReturnType<typeof createTestAuth>, role: Role) {
  const email = `members-${role}@example.com`;
  await signUp(auth, email, `${role}-password-1`);
  const [row] = await t.db.select({ id: user.id }).from(user).where(eq(user.email, email));
  await t.db.insert(userRoles).values({ userId: row!.id, role });
  return (await signIn(auth, email, `${role}-password-1`)).cookie!;
}

const request = (path: string, role: Role, body?: Record<string, string>) =>
  new Request(`${ORIGIN}${path}`, {
    method: body ? "POST" : "GET",
    headers: { cookie: cookies[role], origin: ORIGIN },
    body: body ? new URLSearchParams(body) : undefined,
  });

async function thrown(call: () => unknown) {
  try {
    await call();
    return { status: 200 };
  } catch (error) {
    return describeThrown(error);
  }
}

beforeAll(async () => {
  t = await createTestDatabase();
  const auth = createTestAuth(t.db);
  const notUsed = new Proxy({}, { get: (_t, key) => (key === "then" ? undefined : expect.fail(`memberAuth.${String(key)} was used`)) });
  context = { ...(auth.context as object), env: { TIME_ZONE: "America/New_York", CURRENCY: "usd" }, billing: null, memberAuth: notUsed } as unknown as AppLoadContext;
  for (const role of ["admin", "editor", "author"] as const) cookies[role] = await cookieOf(auth, role);
  const [tier] = await t.db.insert(memberTiers).values({ name: "Supporter", slug: "supporter", monthlyPrice: 500, yearlyPrice: 5000, currency: "usd" }).returning();
  const [m] = await t.db.insert(subscribers).values({ email: "payer@routes.test", tokenKey: newTokenKey(), status: "active" }).returning();
  memberId = m!.id;
  await t.db.insert(memberSubscriptions).values({
    memberId,
    stripeSubscriptionId: "sub_routes",
    stripeCustomerId: "cus_routes",
    tierId: tier!.id,
    status: "active",
    cadence: "year",
    amount: 5000,
    currency: "usd",
    startedAt: new Date(),
  });
});

const args = (req: Request, params: Record<string, string> = {}) => ({ request: req, context, params }) as never;

describe("/admin/members and a member's page, by role", () => {
  it("an admin sees what a member pays; an editor sees the same list and page without any amount", async () => {
    const asAdmin = (await membersLoader(args(request("/admin/members?q=payer", "admin")))) as Awaited<ReturnType<typeof membersLoader>>;
    expect(asAdmin.members[0]).toMatchObject({ email: "payer@routes.test", status: "paid", monthly: "$4.17/mo" });
    const asEditor = (await membersLoader(args(request("/admin/members?q=payer", "editor")))) as Awaited<ReturnType<typeof membersLoader>>;
    expect(asEditor.members[0]).toMatchObject({ email: "payer@routes.test", status: "paid" });
    expect(JSON.stringify(asEditor)).not.toMatch(/\$|monthly|5000|4\.17/);
    expect(asEditor).toMatchObject({ canManage: false, billing: false });

    const page = (await memberLoader(args(request(`/admin/members/${memberId}`, "admin"), { id: memberId }))) as Awaited<ReturnType<typeof memberLoader>>;
    expect(page.member.subscriptions[0]).toMatchObject({ amount: "$50.00/yr", cadence: "Yearly", status: "Active" });
    const editorPage = (await memberLoader(args(request(`/admin/members/${memberId}`, "editor"), { id: memberId }))) as Awaited<ReturnType<typeof memberLoader>>;
    expect(editorPage.member.subscriptions[0]).not.toHaveProperty("amount");
    expect(JSON.stringify(editorPage)).not.toContain("$50");
  });

  it("an editor is refused (403) every change on a member and the export; nothing changes", async () => {
    for (const body of [{ intent: "comp-grant", tierId: "5b0c7a5e-3f7e-4a53-9d8e-1f0b3d7c2a11", until: "" }, { intent: "comp-remove" }, { intent: "resend-link" }, { intent: "delete" }] as Record<string, string>[]) {
      expect(await thrown(() => memberAction(args(request(`/admin/members/${memberId}`, "editor", body), { id: memberId }))), body.intent).toEqual({ status: 403 });
    }
    expect(await thrown(() => exportLoader(args(request("/api/admin/members.csv", "editor"))))).toEqual({ status: 403 });
    expect(await t.db.select({ id: subscribers.id }).from(subscribers).where(eq(subscribers.id, memberId))).toHaveLength(1);
  });

  it("an author gets no members screen at all", async () => {
    expect(await thrown(() => membersLoader(args(request("/admin/members", "author"))))).toEqual({ status: 403 });
    expect(await thrown(() => memberLoader(args(request(`/admin/members/${memberId}`, "author"), { id: memberId })))).toEqual({ status: 403 });
    expect(await thrown(() => subscribersLoader(args(request("/admin/subscribers", "author"))))).toEqual({ status: 403 });
  });

  it("an unknown member's page is 404", async () => {
    expect(await thrown(() => memberLoader(args(request("/admin/members/5b0c7a5e-3f7e-4a53-9d8e-1f0b3d7c2a11", "admin"), { id: "5b0c7a5e-3f7e-4a53-9d8e-1f0b3d7c2a11" })))).toEqual({ status: 404 });
  });

  it("/admin/subscribers redirects to /admin/members keeping its filters", async () => {
    expect(await thrown(() => subscribersLoader(args(request("/admin/subscribers?q=ann&newsletter=abc&status=bounced&page=2", "editor"))))).toEqual({
      status: 301,
      location: "/admin/members?q=ann&newsletter=abc&state=bounced&page=2",
    });
  });

  it("an admin's export answers a CSV of the filtered members", async () => {
    const response = (await exportLoader(args(request("/api/admin/members.csv?tier=paid", "admin")))) as Response;
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const text = await response.text();
    expect(text.split("\r\n")[1]).toMatch(/^payer@routes\.test,,paid,Supporter,,,,active,\d{4}-/);
  });
});
