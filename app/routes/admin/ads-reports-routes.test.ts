import type { AppLoadContext } from "react-router";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { adCampaigns, adCreatives, adDays, advertisers, user, userGrants, userRoles } from "~/db/schema";
import type { Role } from "~/domain/accounts/roles";
import { createTestAuth, describeThrown, ORIGIN, signIn, signUp } from "~/domain/accounts/test-auth.server";
import { inTimeZone, isoDayOf } from "~/lib/dates";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { loader as advertiserCsvLoader } from "./ads-advertiser-report-csv";
import { loader as advertiserLoader } from "./ads-advertiser-report";
import { loader as campaignCsvLoader } from "./ads-campaign-report-csv";
import { loader as campaignLoader } from "./ads-campaign-report";

// The ads reports' routes as the server answers them (issue 43, acceptance 4): an editor without
// `ads.manage` is refused (403) every report and CSV, however the address is typed; an admin, and an
// editor an admin gave `ads.manage`, get them.

type Who = Role | "granted";
const TIME_ZONE = "America/New_York";
let t: TestDatabase;
let context: AppLoadContext;
const cookies = {} as Record<Who, string>;
const ids = {} as { advertiser: string; campaign: string };
const today = isoDayOf(inTimeZone(new Date(), TIME_ZONE));

async function account(auth: ReturnType<typeof createTestAuth>, who: Who): Promise<string> {
  const email = `ads-${who}@example.com`;
  await signUp(auth, email, `${who}-password-1`);
  const [row] = await t.db.select({ id: user.id }).from(user).where(eq(user.email, email));
  await t.db.insert(userRoles).values({ userId: row!.id, role: who === "granted" ? "editor" : who });
  cookies[who] = (await signIn(auth, email, `${who}-password-1`)).cookie!;
  return row!.id;
}

const request = (path: string, who: Who) => new Request(`${ORIGIN}${path}`, { headers: { cookie: cookies[who], origin: ORIGIN } });
const args = (req: Request, params: Record<string, string> = {}) => ({ request: req, context, params }) as never;

async function outcome(call: () => unknown): Promise<{ status: number; body?: unknown; headers?: Headers }> {
  try {
    const answer = await call();
    if (answer instanceof Response) return { status: answer.status, body: await answer.text(), headers: answer.headers };
    const init = (answer as { init?: { status?: number } })?.init;
    return { status: init?.status ?? 200, body: (answer as { data?: unknown })?.data ?? answer };
  } catch (error) {
    return describeThrown(error);
  }
}

/** The four report routes for the seeded advertiser and campaign, with a query string. */
const routes = (query = "") => [
  { name: "campaign report", call: (who: Who) => campaignLoader(args(request(`/admin/ads/campaigns/${ids.campaign}/report${query}`, who), { id: ids.campaign })) },
  { name: "campaign CSV", call: (who: Who) => campaignCsvLoader(args(request(`/admin/ads/campaigns/${ids.campaign}/report.csv${query}`, who), { id: ids.campaign })) },
  { name: "advertiser report", call: (who: Who) => advertiserLoader(args(request(`/admin/ads/advertisers/${ids.advertiser}/report${query}`, who), { id: ids.advertiser })) },
  { name: "advertiser CSV", call: (who: Who) => advertiserCsvLoader(args(request(`/admin/ads/advertisers/${ids.advertiser}/report.csv${query}`, who), { id: ids.advertiser })) },
];

beforeAll(async () => {
  t = await createTestDatabase();
  const auth = createTestAuth(t.db);
  context = { ...(auth.context as object), env: { TIME_ZONE } } as unknown as AppLoadContext;
  const adminId = await account(auth, "admin");
  await account(auth, "editor");
  await account(auth, "author");
  const grantedId = await account(auth, "granted");
  await t.db.insert(userGrants).values({ userId: grantedId, capability: "ads.manage", grantedBy: adminId });
  const [advertiser] = await t.db.insert(advertisers).values({ name: "@Harbour Theatre" }).returning();
  const [campaign] = await t.db
    .insert(adCampaigns)
    .values({ advertiserId: advertiser!.id, name: "Winter panto", startsOn: today, endsOn: today, slots: ["article"], impressionGoal: 100 })
    .returning();
  const [creative] = await t.db.insert(adCreatives).values({ campaignId: campaign!.id, size: "box", kind: "text", headline: "Oh yes it is", linkUrl: "https://theatre.example/" }).returning();
  await t.db.insert(adDays).values({ day: today, campaignId: campaign!.id, creativeId: creative!.id, slot: "article", impressions: 40, viewable: 50, clicks: 2 });
  ids.advertiser = advertiser!.id;
  ids.campaign = campaign!.id;
});

describe("who may read the ads reports", () => {
  it("an editor without ads.manage is refused every report and CSV with 403", async () => {
    for (const route of routes()) expect((await outcome(() => route.call("editor"))).status, route.name).toBe(403);
    // An author too, and a crafted period changes nothing; nobody signed in is sent to the login page.
    for (const route of routes("?from=2026-01-01&to=2026-01-02")) expect((await outcome(() => route.call("author"))).status, route.name).toBe(403);
    const anonymous = await outcome(() => campaignLoader(args(new Request(`${ORIGIN}/admin/ads/campaigns/${ids.campaign}/report`), { id: ids.campaign })));
    expect(anonymous.status).toBe(302);
  });

  it("an admin, and an editor given ads.manage, get every report and CSV (200)", async () => {
    for (const who of ["admin", "granted"] as const) {
      for (const route of routes()) expect((await outcome(() => route.call(who))).status, `${who}: ${route.name}`).toBe(200);
    }
  });
});

describe("what the reports answer", () => {
  it("the campaign's report holds today's counts, viewable capped at impressions, and its goal", async () => {
    const answer = await outcome(() => routes()[0]!.call("admin"));
    expect(answer.body).toMatchObject({
      report: { campaign: { name: "Winter panto" }, period: { from: today, to: today, days: 1 }, totals: { impressions: 40, viewable: 40, clicks: 2 }, goal: { goal: 100, toDate: 40 } },
    });
  });

  it("the CSV leaves as an attachment with a header line, the advertiser's formula-like name neutralised", async () => {
    const answer = await outcome(() => routes()[1]!.call("admin"));
    expect(answer.headers?.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(answer.headers?.get("content-disposition")).toBe(`attachment; filename="ads-harbour-theatre-winter-panto-${today}.csv"`);
    expect(answer.body).toBe(`date,campaign,advertiser,creative,slot,impressions,viewable,clicks,ctr_percent\r\n${today},Winter panto,'@Harbour Theatre,"Text, box: Oh yes it is",article,40,40,2,5\r\n`);
  });

  it("the printable report names the newsroom and the advertiser", async () => {
    const answer = await outcome(() => routes()[2]!.call("admin"));
    expect(answer.body).toMatchObject({ siteName: expect.any(String), report: { advertiser: { name: "@Harbour Theatre" }, totals: { impressions: 40 }, campaigns: [{ campaign: { name: "Winter panto" } }] } });
  });

  it("a bad period is 400 with the field's message on every route; an unknown campaign or advertiser is 404", async () => {
    for (const route of routes("?from=2026-11-10&to=2026-11-01")) {
      const answer = await outcome(() => route.call("admin"));
      expect(answer.status, route.name).toBe(400);
      expect(JSON.stringify(answer.body), route.name).toContain("ends before it starts");
    }
    for (const route of routes("?from=2026-13-01")) expect((await outcome(() => route.call("admin"))).status, route.name).toBe(400);
    const missing = "00000000-0000-4000-8000-000000000000";
    expect((await outcome(() => campaignLoader(args(request(`/admin/ads/campaigns/${missing}/report`, "admin"), { id: missing })))).status).toBe(404);
    expect((await outcome(() => advertiserCsvLoader(args(request(`/admin/ads/advertisers/${missing}/report.csv`, "admin"), { id: missing })))).status).toBe(404);
  });
});
