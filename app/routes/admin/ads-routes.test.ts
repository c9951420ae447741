import type { AppLoadContext } from "react-router";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { adCampaigns, adCreatives, advertisers, auditEvents, user, userGrants, userRoles } from "~/db/schema";
import { setGrant } from "~/domain/accounts/accounts.server";
import { SYSTEM_ACTOR } from "~/domain/accounts/actor";
import { createTestAuth, describeThrown, ORIGIN, signIn, signUp } from "~/domain/accounts/test-auth.server";
import { addCreative, createAdvertiser, createCampaign } from "~/domain/ads/ads-admin.server";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { action as adsAction, loader as adsLoader } from "./ads";
import { action as advertiserAction, loader as advertiserLoader } from "./ads-advertiser";
import { action as campaignAction, loader as campaignLoader } from "./ads-campaign";
import { action as teamAction } from "./team";

// Issue 43, acceptance 4: an editor without ads.manage gets 403 from every ads screen and every action,
// a crafted POST included; with the grant an admin gave, the same editor is let in. And the Team
// screen's grant: only admins give it, only to editors, and a role change takes it away.

type Who = "admin" | "editor" | "granted" | "author";
let t: TestDatabase;
let context: AppLoadContext;
const cookies = {} as Record<Who, string>;
const ids = {} as Record<Who, string>;
let advertiserId: string;
let campaignId: string;
let creativeId: string;

async function account(auth: ReturnType<typeof createTestAuth>, who: Who, role: "admin" | "editor" | "author") {
  const email = `ads-${who}@example.com`;
  await signUp(auth, email, `${who}-password-1`);
  const [row] = await t.db.select({ id: user.id }).from(user).where(eq(user.email, email));
  await t.db.insert(userRoles).values({ userId: row!.id, role });
  ids[who] = row!.id;
  cookies[who] = (await signIn(auth, email, `${who}-password-1`)).cookie!;
}

const request = (path: string, who: Who, body?: Record<string, string>) =>
  new Request(`${ORIGIN}${path}`, {
    method: body ? "POST" : "GET",
    headers: { cookie: cookies[who], origin: ORIGIN },
    body: body ? new URLSearchParams(body) : undefined,
  });
const args = (req: Request, params: Record<string, string> = {}) => ({ request: req, context, params }) as never;

/** What a loader or action answered: its status (200 for a plain value), or what it threw. */
async function statusOf(call: () => unknown): Promise<number> {
  try {
    const answer = (await call()) as { init?: { status?: number } } | Response | undefined;
    if (answer instanceof Response) return answer.status;
    return answer?.init?.status ?? 200;
  } catch (error) {
    return describeThrown(error).status;
  }
}

beforeAll(async () => {
  t = await createTestDatabase();
  const auth = createTestAuth(t.db);
  const storage = { publicUrl: (bucket: string, name: string) => `/media/${bucket}/${name}` };
  context = { ...(auth.context as object), env: { TIME_ZONE: "America/New_York" }, storage } as unknown as AppLoadContext;
  await account(auth, "admin", "admin");
  await account(auth, "editor", "editor");
  await account(auth, "granted", "editor");
  await account(auth, "author", "author");
  await setGrant(t.db, ids.granted, "ads.manage", true, ids.admin);
  advertiserId = await createAdvertiser(t.db, SYSTEM_ACTOR, { name: "Harbour Garage", contactName: "", contactEmail: "", notes: "" });
  campaignId = await createCampaign(t.db, SYSTEM_ACTOR, {
    name: "Winter tyres",
    advertiserId,
    startsOn: "2026-01-01",
    endsOn: "2026-01-31",
    slots: ["article"],
    categoryIds: [],
    priority: "standard",
    weight: 1,
    impressionGoal: null,
  });
  creativeId = await addCreative(t.db, SYSTEM_ACTOR, campaignId, { kind: "text", size: "box", headline: "Tyres", body: "", linkUrl: "https://garage.example/" });
});

/** Every loader and action of the ads screens, each with a request a real form would send (or a crafted one). */
function calls(who: Who): [string, () => unknown][] {
  const adv = { id: advertiserId };
  const camp = { id: campaignId };
  const campaignFields = { name: "Spring", advertiserId, startsOn: "2026-03-01", endsOn: "2026-03-07", slots: "article", categoryScope: "all", priority: "standard", weight: "1", impressionGoal: "" };
  return [
    ["GET /admin/ads", () => adsLoader(args(request("/admin/ads", who)))],
    ["POST /admin/ads house-ads", () => adsAction(args(request("/admin/ads", who, { intent: "house-ads" })))],
    ["GET /admin/ads/advertisers/new", () => advertiserLoader(args(request("/admin/ads/advertisers/new", who), { id: "new" }))],
    ["GET /admin/ads/advertisers/:id", () => advertiserLoader(args(request(`/admin/ads/advertisers/${advertiserId}`, who), adv))],
    ["POST /admin/ads/advertisers/new save", () => advertiserAction(args(request("/admin/ads/advertisers/new", who, { intent: "save", name: `New ${who}` }), { id: "new" }))],
    ["POST /admin/ads/advertisers/:id save", () => advertiserAction(args(request(`/admin/ads/advertisers/${advertiserId}`, who, { intent: "save", name: "Harbour Garage" }), adv))],
    ["POST /admin/ads/advertisers/:id delete", () => advertiserAction(args(request(`/admin/ads/advertisers/${advertiserId}`, who, { intent: "delete" }), adv))],
    ["GET /admin/ads/campaigns/new", () => campaignLoader(args(request("/admin/ads/campaigns/new", who), { id: "new" }))],
    ["GET /admin/ads/campaigns/:id", () => campaignLoader(args(request(`/admin/ads/campaigns/${campaignId}`, who), camp))],
    ["POST /admin/ads/campaigns/new save", () => campaignAction(args(request("/admin/ads/campaigns/new", who, { intent: "save", ...campaignFields }), { id: "new" }))],
    ["POST /admin/ads/campaigns/:id save", () => campaignAction(args(request(`/admin/ads/campaigns/${campaignId}`, who, { intent: "save", ...campaignFields, name: "Winter tyres" }), camp))],
    ["POST /admin/ads/campaigns/:id pause", () => campaignAction(args(request(`/admin/ads/campaigns/${campaignId}`, who, { intent: "pause" }), camp))],
    ["POST /admin/ads/campaigns/:id resume", () => campaignAction(args(request(`/admin/ads/campaigns/${campaignId}`, who, { intent: "resume" }), camp))],
    ["POST /admin/ads/campaigns/:id add-text", () => campaignAction(args(request(`/admin/ads/campaigns/${campaignId}`, who, { intent: "add-text", size: "banner", headline: "Hi", body: "", linkUrl: "https://garage.example/" }), camp))],
    ["POST /admin/ads/campaigns/:id add-image", () => campaignAction(args(request(`/admin/ads/campaigns/${campaignId}`, who, { intent: "add-image", size: "box", mediaId: "", alt: "", linkUrl: "https://garage.example/" }), camp))],
    ["POST /admin/ads/campaigns/:id archive", () => campaignAction(args(request(`/admin/ads/campaigns/${campaignId}`, who, { intent: "archive", creativeId }), camp))],
    ["POST /admin/ads/campaigns/:id restore", () => campaignAction(args(request(`/admin/ads/campaigns/${campaignId}`, who, { intent: "restore", creativeId }), camp))],
    ["POST /admin/ads/campaigns/:id end", () => campaignAction(args(request(`/admin/ads/campaigns/${campaignId}`, who, { intent: "end" }), camp))],
    ["POST /admin/ads/campaigns/:id delete", () => campaignAction(args(request(`/admin/ads/campaigns/${campaignId}`, who, { intent: "delete" }), camp))],
  ];
}

describe("the ads screens' guard", () => {
  it("an editor without ads.manage, and an author, get 403 from every loader and action, and nothing changes", async () => {
    const before = await Promise.all([t.db.select().from(advertisers), t.db.select().from(adCampaigns), t.db.select().from(adCreatives)]);
    for (const who of ["editor", "author"] as const) {
      for (const [name, call] of calls(who)) expect(await statusOf(call), `${who}: ${name}`).toBe(403);
    }
    const after = await Promise.all([t.db.select().from(advertisers), t.db.select().from(adCampaigns), t.db.select().from(adCreatives)]);
    expect(after).toEqual(before);
  });

  it("an editor an admin gave ads.manage opens every screen and may use every action", async () => {
    const statuses: Record<string, number> = {};
    // The delete of the campaign comes last in `calls`: everything before it still finds the campaign.
    for (const [name, call] of calls("granted")) statuses[name] = await statusOf(call);
    for (const [name, status] of Object.entries(statuses)) expect(status, name).not.toBe(403);
    expect(statuses["GET /admin/ads"]).toBe(200);
    expect(statuses["GET /admin/ads/campaigns/:id"]).toBe(200);
    expect(statuses["POST /admin/ads/advertisers/new save"]).toBe(302);
    expect(statuses["POST /admin/ads/campaigns/new save"]).toBe(302);
    // Refused for its own reasons, not the guard: an advertiser with campaigns; an image creative without image or alt.
    expect(statuses["POST /admin/ads/advertisers/:id delete"]).toBe(409);
    expect(statuses["POST /admin/ads/campaigns/:id add-image"]).toBe(400);
    expect(statuses["POST /admin/ads/campaigns/:id delete"]).toBe(302);
    expect(await t.db.select().from(adCampaigns).where(eq(adCampaigns.id, campaignId))).toEqual([]);
  });

  it("the grant stops counting when the admin takes it back", async () => {
    await setGrant(t.db, ids.granted, "ads.manage", false, ids.admin);
    expect(await statusOf(() => adsLoader(args(request("/admin/ads", "granted"))))).toBe(403);
    await setGrant(t.db, ids.granted, "ads.manage", true, ids.admin);
    expect(await statusOf(() => adsLoader(args(request("/admin/ads", "granted"))))).toBe(200);
  });
});

describe("the Team screen's “May manage advertising”", () => {
  const grant = (who: Who, userId: string, on: boolean, capability = "ads.manage") =>
    teamAction(args(request("/admin/team", who, { intent: "grant", userId, capability, on: on ? "on" : "off" })));

  it("an admin gives it to an editor and takes it back, each in the activity log", async () => {
    expect(await statusOf(() => grant("admin", ids.editor, true))).toBe(200);
    expect(await t.db.select({ capability: userGrants.capability, grantedBy: userGrants.grantedBy }).from(userGrants).where(eq(userGrants.userId, ids.editor))).toEqual([
      { capability: "ads.manage", grantedBy: ids.admin },
    ]);
    expect(await statusOf(() => adsLoader(args(request("/admin/ads", "editor"))))).toBe(200);
    expect(await statusOf(() => grant("admin", ids.editor, false))).toBe(200);
    expect(await statusOf(() => adsLoader(args(request("/admin/ads", "editor"))))).toBe(403);
    const entries = await t.db.select({ details: auditEvents.details }).from(auditEvents).where(eq(auditEvents.kind, "grant.change"));
    expect(entries).toHaveLength(2);
    expect(entries.map((e) => e.details)).toEqual(
      expect.arrayContaining([
        { capability: "ads.manage", on: true },
        { capability: "ads.manage", on: false },
      ]),
    );
  });

  it("is refused for an author or an admin, for a capability that is not grantable, and for anyone but an admin", async () => {
    const toAuthor = (await grant("admin", ids.author, true)) as { data: { error: string }; init: { status: number } };
    expect(toAuthor.init.status).toBe(400);
    expect(toAuthor.data.error).toMatch(/editors only/);
    expect(await statusOf(() => grant("admin", ids.admin, true))).toBe(400);
    expect(await statusOf(() => grant("admin", ids.editor, true, "settings.manage"))).toBe(400);
    expect(await statusOf(() => grant("granted", ids.editor, true))).toBe(403);
    expect(await t.db.select().from(userGrants).where(eq(userGrants.userId, ids.author))).toEqual([]);
    expect(await t.db.select().from(userGrants).where(eq(userGrants.userId, ids.editor))).toEqual([]);
  });

  it("making the editor an author drops the grant", async () => {
    expect(await statusOf(() => teamAction(args(request("/admin/team", "admin", { intent: "role", userId: ids.granted, role: "author" }))))).toBe(200);
    expect(await t.db.select().from(userGrants).where(eq(userGrants.userId, ids.granted))).toEqual([]);
  });
});
