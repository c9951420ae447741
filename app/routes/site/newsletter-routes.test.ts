import { eq, sql } from "drizzle-orm";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { newsletters, subscribers } from "~/db/schema";
import { subscriberToken } from "~/domain/newsletters/subscriber-tokens.server";
import { SIGNUP_ANSWER } from "~/domain/newsletters/subscribers.schema";
import { confirmSubscriber, SUBSCRIBER_MAIL_TASK, signUp, unsubscribeSubscriber, type SignupInput } from "~/domain/newsletters/subscribers.server";
import { createFormTimer } from "~/lib/form-timer.server";
import { createTestDatabase } from "../../../tests/setup/test-database";
import { action as signupAction } from "./newsletter";
import { action as confirmAction, loader as confirmLoader } from "./newsletter-confirm";
import { action as preferencesAction } from "./newsletter-preferences";

// POST /newsletter, the action every sign-up form posts to: one answer for every address (issue 30).

const t = await createTestDatabase();
const log = pino({ level: "silent" });
const noFill = { minFillSeconds: 0, formTimer: createFormTimer("a-session-secret-of-at-least-32-characters!") };
let ip = 0;
const input = (email: string): SignupInput => ({ email, newsletterIds: [], source: "/newsletter", honeypot: "", formStarted: "", clientIp: `192.0.2.${++ip}` });
const subscriberOf = async (email: string) => (await t.db.select().from(subscribers).where(eq(subscribers.email, email)))[0];
const mailJobs = async () =>
  (
    await t.db.execute<{ subscriber: string; kind: string }>(
      sql`select j.payload->>'subscriberId' as subscriber, j.payload->>'kind' as kind from graphile_worker._private_jobs j
          join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = ${SUBSCRIBER_MAIL_TASK} order by j.id`,
    )
  ).rows;

describe("POST /newsletter", () => {
  it("every state of an address gets the same answer from the route; what differs is the e-mail queued (or none)", async () => {
    const form = (email: string, ipAddress: string) => {
      const body = new URLSearchParams({ email, source: "/newsletter", website: "", formStarted: "" });
      return new Request("http://localhost/newsletter", { method: "POST", body, headers: { "x-frontpage-client-ip": ipAddress } });
    };
    const context = { db: t.db, log, commentSpam: { ...noFill, intervalSeconds: 0 } } as never;
    const answer = async (email: string) => {
      const result = (await signupAction({ request: form(email, `198.51.100.${++ip % 250}`), context, params: {} } as never)) as { data: unknown; init: { status?: number } | null };
      return { body: result.data, status: result.init?.status ?? 200 };
    };
    const states = ["pending", "active", "unsubscribed", "bounced", "complained"] as const;
    for (const status of states) {
      await signUp(t.db, input(`${status}@example.org`), noFill);
      await t.db.update(subscribers).set({ status }).where(eq(subscribers.email, `${status}@example.org`));
    }
    await t.db.execute(sql`delete from graphile_worker._private_jobs`);
    const answers = [await answer("brand-new@example.org"), ...(await Promise.all(states.map((s) => answer(`${s}@example.org`))))];
    for (const a of answers) expect(a).toEqual({ body: { ok: true, message: SIGNUP_ANSWER }, status: 200 });

    const idOf = async (email: string) => (await subscriberOf(email))!.id;
    const jobs = await mailJobs();
    expect(jobs).toHaveLength(4);
    expect(jobs).toEqual(
      expect.arrayContaining([
        { subscriber: await idOf("brand-new@example.org"), kind: "confirm" },
        { subscriber: await idOf("pending@example.org"), kind: "confirm" },
        { subscriber: await idOf("unsubscribed@example.org"), kind: "confirm" },
        { subscriber: await idOf("active@example.org"), kind: "already subscribed" },
      ]),
    );
    // Nothing about the address changed for the active, bounced and complained ones; the unsubscribed one waits for the link.
    expect((await subscriberOf("active@example.org"))!.status).toBe("active");
    expect((await subscriberOf("unsubscribed@example.org"))!.status).toBe("unsubscribed");
    expect((await subscriberOf("bounced@example.org"))!.status).toBe("bounced");
  });


  it("a malformed address is answered 400 with the field's error and what was typed", async () => {
    const body = new URLSearchParams({ email: "nope", source: "/newsletter" });
    const request = new Request("http://localhost/newsletter", { method: "POST", body });
    const context = { db: t.db, log, commentSpam: { ...noFill, intervalSeconds: 0 } } as never;
    const result = (await signupAction({ request, context, params: {} } as never)) as { data: unknown; init: { status?: number } | null };
    expect(result.init?.status).toBe(400);
    expect(result.data).toMatchObject({ ok: false, fieldErrors: { email: "Please enter a valid e-mail address." }, values: { email: "nope" } });
  });
});

describe("POST /newsletter/preferences/:token (issue 39)", () => {
  it("an earlier preferences link of an unsubscribed reader answers 200 and queues a new confirmation, but re-subscribes nobody", async () => {
    const secret = "a-session-secret-of-at-least-32-characters!";
    await signUp(t.db, input("left@example.org"), noFill);
    const active = await confirmSubscriber(t.db, (await subscriberOf("left@example.org"))!);
    const earlier = subscriberToken(secret, "preferences", active);
    await unsubscribeSubscriber(t.db, active.id);
    await t.db.execute(sql`delete from graphile_worker._private_jobs`);
    const [stories] = await t.db.select({ id: newsletters.id }).from(newsletters).where(eq(newsletters.slug, "stories"));

    const body = new URLSearchParams([
      ["intent", "save"],
      ["newsletters", stories!.id],
    ]);
    const request = new Request(`http://localhost/newsletter/preferences/${earlier}`, { method: "POST", body });
    const context = { db: t.db, log, subscriberSecret: secret } as never;
    const result = (await preferencesAction({ request, context, params: { token: earlier } } as never)) as { data: unknown; init: { status?: number } | null };
    expect(result.init?.status ?? 200).toBe(200);
    expect(result.data).toEqual({ outcome: "confirmation sent" });
    expect((await subscriberOf("left@example.org"))!.status).toBe("unsubscribed");
    expect(await mailJobs()).toEqual([{ subscriber: active.id, kind: "confirm" }]);
  });
});

describe("POST /newsletter/confirm/:token", () => {
  it("confirming a re-subscription (a new key voids the link itself) goes on to the new key's page: subscribed, with the preferences link", async () => {
    const secret = "a-session-secret-of-at-least-32-characters!";
    const context = { db: t.db, log, subscriberSecret: secret } as never;
    await signUp(t.db, input("returning@example.org"), noFill);
    const first = await confirmSubscriber(t.db, (await subscriberOf("returning@example.org"))!);
    await unsubscribeSubscriber(t.db, first.id);
    const waiting = (await subscriberOf("returning@example.org"))!;
    const token = subscriberToken(secret, "confirm", waiting);

    const request = new Request(`http://localhost/newsletter/confirm/${token}`, { method: "POST" });
    const answer = await confirmAction({ request, context, params: { token } } as never).catch((thrown: unknown) => thrown);
    expect(answer).toBeInstanceOf(Response);
    const redirected = answer as Response;
    expect(redirected.status).toBe(303);
    const active = (await subscriberOf("returning@example.org"))!;
    expect(active.status).toBe("active");
    expect(redirected.headers.get("location")).toBe(`/newsletter/confirm/${encodeURIComponent(subscriberToken(secret, "confirm", active))}`);

    const next = decodeURIComponent(redirected.headers.get("location")!.split("/").pop()!);
    const page = (await confirmLoader({ request: new Request(`http://localhost${redirected.headers.get("location")}`), context, params: { token: next } } as never)) as { data: unknown };
    expect(page.data).toEqual({ email: "returning@example.org", active: true, preferencesPath: `/newsletter/preferences/${encodeURIComponent(subscriberToken(secret, "preferences", active))}` });
    // The link that was used no longer opens anything.
    await expect(confirmLoader({ request, context, params: { token } } as never)).rejects.toMatchObject({ init: { status: 404 } });
  });
});
