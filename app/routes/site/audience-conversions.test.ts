import { sql } from "drizzle-orm";
import pino from "pino";
import type { AppLoadContext } from "react-router";
import { describe, expect, test } from "vitest";
import { articles, audienceConversions, categories, newsletters, websiteSettings } from "~/db/schema";
import { DEFAULT_SETTINGS } from "~/domain/settings/settings.schema";
import { CLIENT_IP_HEADER } from "~/lib/client-address.server";
import { envSchema } from "~/lib/env.server";
import { createFormTimer } from "~/lib/form-timer.server";
import { action as newsletterAction } from "./newsletter";
import { createTestDatabase } from "../../../tests/setup/test-database";
import { attributionFromMetadata, attributionMetadata, attributionOf, creditConversion, DIRECT, insertConversion, recordConversion } from "~/domain/audience/audience-conversions.server";
import { AudienceRecorder } from "~/domain/audience/audience-recorder.server";

const { db } = await createTestDatabase();
const log = pino({ level: process.env.TEST_LOG ?? "silent" });
const audience = new AudienceRecorder({ db, log, timeZone: "America/New_York", siteOrigin: "https://news.example.org" });
const env = envSchema.parse({});

const [category] = await db.insert(categories).values({ name: "News", slug: "news" }).returning();
const published = { content: "Body", categoryId: category!.id, status: "published" as const, publishedAt: new Date(Date.now() - 3600_000) };
const [floods] = await db.insert(articles).values({ title: "Floods", slug: "floods", ...published }).returning();
const [bridge] = await db.insert(articles).values({ title: "Bridge", slug: "bridge", ...published }).returning();
await db.insert(websiteSettings).values({ id: 1, ...DEFAULT_SETTINGS, newsletterBlockedDomains: [] }).onConflictDoNothing();
await db.insert(newsletters).values({ name: "Morning", slug: "morning", position: 1 });

const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
const conversions = () => db.select().from(audienceConversions).orderBy(audienceConversions.id);

describe("conversions", () => {
  test("a newsletter sign-up after story loads is credited to the latest story and the first source of the day", async () => {
    const reader = { address: "198.51.100.40", userAgent: FIREFOX };
    const now = Date.now();
    audience.record({ path: "/article/bridge", ...reader, at: now - 3000, referrer: "https://t.co/x", query: "utm_campaign=spring" });
    audience.record({ path: "/", ...reader, at: now - 2000, referrer: "https://news.example.org/article/bridge" });
    audience.record({ path: "/article/floods", ...reader, at: now - 1000, referrer: "https://news.example.org/" });
    // Not flushed yet: the sign-up's own lookup writes the buffer first.
    const form = new FormData();
    form.set("email", "reader@example.com");
    form.set("source", "/article/floods");
    for (const { id } of await db.select({ id: newsletters.id }).from(newsletters)) form.append("newsletters", id);
    const request = new Request("http://localhost/newsletter", { method: "POST", body: form, headers: { "user-agent": FIREFOX, [CLIENT_IP_HEADER]: reader.address } });
    const context = { db, log, env, audience, commentSpam: { intervalSeconds: 0, minFillSeconds: 0, formTimer: createFormTimer("secret") } } as unknown as AppLoadContext;
    const answer = (await newsletterAction({ request, context, params: {} } as never)) as { data: { ok: boolean } };
    expect(answer.data).toMatchObject({ ok: true });
    expect(await conversions()).toMatchObject([{ kind: "newsletter", articleId: floods!.id, source: "social", sourceHost: "t.co", utmCampaign: "spring" }]);
  });

  test("a sign-up from a visitor never counted today is direct, with no story", async () => {
    await db.delete(audienceConversions);
    const credited = await recordConversion(db, "member", { address: "192.0.2.99", userAgent: "Never seen" }, audience);
    expect(credited).toEqual(DIRECT);
    expect(await conversions()).toMatchObject([{ kind: "member", articleId: null, source: "direct" }]);
  });

  test("a failing lookup never fails the sign-up; recording off credits nothing", async () => {
    await db.delete(audienceConversions);
    const request = new Request("http://localhost/", { headers: { [CLIENT_IP_HEADER]: "192.0.2.1" } });
    const broken = { flush: () => Promise.reject(new Error("database away")), salts: audience.salts, siteOrigin: audience.siteOrigin };
    await expect(creditConversion({ db, audience: broken, log, env }, "newsletter", request)).resolves.toBeUndefined();
    await creditConversion({ db, audience, log, env: { ...env, AUDIENCE_RECORDING: false } }, "newsletter", request);
    expect(await conversions()).toEqual([]);
  });

  test("a paid subscription: the attribution goes through the Checkout's metadata and is stored once per session", async () => {
    await db.delete(audienceConversions);
    const reader = { address: "198.51.100.41", userAgent: FIREFOX };
    audience.record({ path: "/article/bridge", ...reader, query: "utm_source=newsletter&utm_medium=email&utm_campaign=morning" });
    const attribution = await attributionOf(db, audience, reader);
    expect(attribution).toMatchObject({ articleId: bridge!.id, source: "newsletter", utmCampaign: "morning" });
    const metadata = attributionMetadata(attribution);
    expect(Object.keys(metadata).every((key) => key.length <= 40)).toBe(true);
    const back = attributionFromMetadata({ ...metadata, member_id: "m", tier_id: "t" });
    expect(back).toEqual(attribution);
    expect(attributionFromMetadata({ member_id: "m" })).toBeNull();
    expect(attributionFromMetadata({ audience_source: "evil" })).toBeNull();
    const created = new Date(Math.floor(Date.now() / 1000) * 1000);
    await insertConversion(db, "paid", back!, created, { once: true });
    await insertConversion(db, "paid", back!, created, { once: true });
    expect(await conversions()).toMatchObject([{ kind: "paid", articleId: bridge!.id, source: "newsletter", utmCampaign: "morning" }]);
    // A story deleted before the webhook: credited to no story.
    const { rows } = await db.execute<{ n: number }>(sql`select count(*)::int as n from audience_conversions`);
    expect(rows[0]!.n).toBe(1);
    await insertConversion(db, "paid", { ...back!, articleId: "00000000-0000-4000-8000-000000000001" }, new Date(), { once: true });
    expect((await conversions()).at(-1)).toMatchObject({ articleId: null, source: "newsletter" });
  });
});
