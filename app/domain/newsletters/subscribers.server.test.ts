import { eq, sql } from "drizzle-orm";
import pino from "pino";
import { beforeEach, describe, expect, it } from "vitest";
import { newsletterSends, newsletters, rateLimitHits, sendRecipients, subscribers, subscriptions, websiteSettings } from "~/db/schema";
import { DEFAULT_SETTINGS } from "~/domain/settings/settings.schema";
import { createFormTimer } from "~/lib/form-timer.server";
import { rateLimitKey } from "~/lib/rate-limit.server";
import type { MailMessage } from "~/lib/mail.server";
import { saveArticle, setUpArticleFixture } from "../../../tests/setup/article-fixture";
import { subscriberToken } from "./subscriber-tokens.server";
import {
  BLOCKED_DOMAIN,
  CHOOSE_NEWSLETTER,
  confirmSubscriber,
  emailHash,
  expirePendingSignups,
  INVALID_EMAIL,
  isBlockedDomain,
  preferencesOf,
  savePreferences,
  sendSubscriberMail,
  SIGNUP_ADDRESS_LIMIT,
  SIGNUP_EMAIL_LIMIT,
  SIGNUP_REFUSED,
  SIGNUP_STALE_FORM,
  SIGNUP_TOO_FAST,
  signUp,
  SUBSCRIBER_MAIL_TASK,
  subscriberOfToken,
  subscriberUrl,
  unsubscribeSubscriber,
  type SignupInput,
} from "./subscribers.server";

const fx = setUpArticleFixture("subscribers");
const SECRET = "a-session-secret-of-at-least-32-characters!";
const PUBLIC_URL = "https://news.example.org";
const timer = createFormTimer(SECRET);
const log = pino({ level: "silent" });
/** The e2e server's setting (no minimum fill time) unless a test says otherwise. */
const noFill = { minFillSeconds: 0, formTimer: timer };

let ip = 0;
/** A sign-up from its own client address (the per-address limit is tested on its own). */
const input = (email: string, more: Partial<SignupInput> = {}): SignupInput => ({
  email,
  newsletterIds: [],
  source: "/newsletter",
  honeypot: "",
  formStarted: "",
  clientIp: `192.0.2.${++ip % 250}`,
  ...more,
});

const subscriberOf = async (email: string) => (await fx.t.db.select().from(subscribers).where(sql`lower(${subscribers.email}) = lower(${email})`))[0];
const mailJobs = async () =>
  (
    await fx.t.db.execute<{ subscriber: string; kind: string }>(
      sql`select j.payload->>'subscriberId' as subscriber, j.payload->>'kind' as kind from graphile_worker._private_jobs j
          join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = ${SUBSCRIBER_MAIL_TASK} order by j.id`,
    )
  ).rows;

function capturingMailer() {
  const sent: MailMessage[] = [];
  return { sent, mailer: { send: async (m: MailMessage) => void sent.push(m) } };
}

const stories = async () => (await fx.t.db.select().from(newsletters).where(eq(newsletters.slug, "stories")))[0]!;

beforeEach(async () => {
  await fx.t.db.delete(subscribers);
  await fx.t.db.delete(rateLimitHits);
  await fx.t.db.delete(newsletters).where(sql`${newsletters.slug} <> 'stories'`);
  await fx.t.db.insert(websiteSettings).values({ id: 1, ...DEFAULT_SETTINGS }).onConflictDoNothing();
  await fx.t.db.update(websiteSettings).set({ newsletterBlockedDomains: [] });
  await fx.t.db.execute(sql`delete from graphile_worker._private_jobs`);
});

describe("signing up", () => {
  it("a new address is pending, subscribed to the one public newsletter, with its consent source, and is queued its confirmation", async () => {
    const outcome = await signUp(fx.t.db, input("New.Reader@Example.org "), noFill);
    expect(outcome).toBe("confirmation sent");
    const row = await subscriberOf("new.reader@example.org");
    expect(row).toMatchObject({ email: "new.reader@example.org", status: "pending", consentSource: "/newsletter", consentAt: null, confirmedAt: null });
    const subs = await fx.t.db.select().from(subscriptions).where(eq(subscriptions.subscriberId, row!.id));
    expect(subs.map((s) => s.newsletterId)).toEqual([(await stories()).id]);
    expect(await mailJobs()).toEqual([{ subscriber: row!.id, kind: "confirm" }]);
  });

  it("a sign-up on an article records the article and its path; an unknown page counts as /newsletter", async () => {
    const article = await saveArticle(fx, { title: "Harbour reopens", slug: "harbour-reopens", intent: "publish" });
    await signUp(fx.t.db, input("reader@example.org", { source: "/article/harbour-reopens" }), noFill);
    expect(await subscriberOf("reader@example.org")).toMatchObject({ consentSource: "/article/harbour-reopens", signupArticleId: article.id });
    await signUp(fx.t.db, input("home@example.org", { source: "/" }), noFill);
    expect(await subscriberOf("home@example.org")).toMatchObject({ consentSource: "/", signupArticleId: null });
    await signUp(fx.t.db, input("odd@example.org", { source: "/article/no-such-story" }), noFill);
    expect(await subscriberOf("odd@example.org")).toMatchObject({ consentSource: "/newsletter", signupArticleId: null });
  });

  it("a malformed or blank address is a field error with the comment form's wording; nothing is stored", async () => {
    await expect(signUp(fx.t.db, input("not-an-address"), noFill)).rejects.toMatchObject({ code: "invalid_input", field: "email", message: INVALID_EMAIL });
    await expect(signUp(fx.t.db, input("   "), noFill)).rejects.toMatchObject({ field: "email" });
    expect(await fx.t.db.select().from(subscribers)).toEqual([]);
  });

  it("the honeypot and the minimum fill time refuse, as on the comment form", async () => {
    await expect(signUp(fx.t.db, input("bot@example.org", { honeypot: "http://spam" }), noFill)).rejects.toMatchObject({ message: SIGNUP_REFUSED });
    const guards = { minFillSeconds: 3, formTimer: timer };
    const now = new Date();
    await expect(signUp(fx.t.db, input("fast@example.org", { formStarted: timer.issue(now) }), guards, now)).rejects.toMatchObject({ code: "rate_limited", message: SIGNUP_TOO_FAST });
    await expect(signUp(fx.t.db, input("forged@example.org", { formStarted: "abc.def" }), guards, now)).rejects.toMatchObject({ message: SIGNUP_STALE_FORM });
    const later = new Date(now.getTime() + 4000);
    expect(await signUp(fx.t.db, input("patient@example.org", { formStarted: timer.issue(now) }), guards, later)).toBe("confirmation sent");
    expect((await fx.t.db.select().from(subscribers)).map((s) => s.email)).toEqual(["patient@example.org"]);
  });

  it("a blocked domain and its subdomains are refused; other domains are not", async () => {
    expect(isBlockedDomain("a@spam.test", ["spam.test"])).toBe(true);
    expect(isBlockedDomain("a@mail.SPAM.test", ["spam.test"])).toBe(true);
    expect(isBlockedDomain("a@notspam.test", ["spam.test"])).toBe(false);
    await fx.t.db.update(websiteSettings).set({ newsletterBlockedDomains: ["spam.test"] });
    await expect(signUp(fx.t.db, input("x@mx.spam.test"), noFill)).rejects.toMatchObject({ field: "email", message: BLOCKED_DOMAIN });
    expect(await signUp(fx.t.db, input("x@notspam.test"), noFill)).toBe("confirmation sent");
  });

  it("with two public newsletters the reader chooses; none chosen is a field error; a private one cannot be chosen", async () => {
    const [digest] = await fx.t.db.insert(newsletters).values({ name: "Morning digest", slug: "morning", kind: "digest", digestFrequency: "daily", digestTime: "07:00", position: 1 }).returning();
    const [secret] = await fx.t.db.insert(newsletters).values({ name: "Staff", slug: "staff", isPublic: false, position: 2 }).returning();
    await expect(signUp(fx.t.db, input("choose@example.org"), noFill)).rejects.toMatchObject({ field: "newsletters", message: CHOOSE_NEWSLETTER });
    await signUp(fx.t.db, input("choose@example.org", { newsletterIds: [digest!.id, secret!.id] }), noFill);
    const row = await subscriberOf("choose@example.org");
    expect((await fx.t.db.select().from(subscriptions).where(eq(subscriptions.subscriberId, row!.id))).map((s) => s.newsletterId)).toEqual([digest!.id]);
  });

  it("sign-ups are limited per client address (refused) and per e-mail address (the same answer, no more e-mail)", async () => {
    for (let i = 0; i < SIGNUP_ADDRESS_LIMIT.max; i++) await signUp(fx.t.db, input(`many${i}@example.org`, { clientIp: "203.0.113.9" }), noFill);
    await expect(signUp(fx.t.db, input("one-more@example.org", { clientIp: "203.0.113.9" }), noFill)).rejects.toMatchObject({ code: "rate_limited" });
    // Counted by a hash: the reader's address is in no row (issue 42).
    const counted = (await fx.t.db.select({ key: rateLimitHits.key }).from(rateLimitHits)).map((r) => r.key);
    expect(counted.length).toBeGreaterThan(0);
    expect(counted.join(" ")).not.toContain("203.0.113.9");

    await fx.t.db.execute(sql`delete from graphile_worker._private_jobs`);
    const outcomes = [];
    for (let i = 0; i < SIGNUP_EMAIL_LIMIT.max + 2; i++) outcomes.push(await signUp(fx.t.db, input("victim@example.org"), noFill));
    expect(outcomes.filter((o) => o === "confirmation sent")).toHaveLength(SIGNUP_EMAIL_LIMIT.max);
    expect(outcomes.slice(SIGNUP_EMAIL_LIMIT.max)).toEqual(["limited", "limited"]);
    // One waiting job per subscriber, whatever the number of sign-ups.
    expect(await mailJobs()).toHaveLength(1);
    // The per-address count never holds the address itself, only a hash of its hash.
    const keys = (await fx.t.db.select({ key: rateLimitHits.key }).from(rateLimitHits).where(eq(rateLimitHits.bucket, SIGNUP_EMAIL_LIMIT.bucket))).map((r) => r.key);
    expect(keys).toContain(rateLimitKey(`email ${emailHash("victim@example.org")}`));
    expect(keys.join(" ")).not.toContain("victim");
  });
});

describe("confirming", () => {
  it("the confirmation e-mail links to /newsletter/confirm/{token}; the token finds the subscriber, an edited one nothing; the POST's confirmSubscriber activates", async () => {
    await signUp(fx.t.db, input("confirm@example.org"), noFill);
    const row = (await subscriberOf("confirm@example.org"))!;
    const { sent, mailer } = capturingMailer();
    await fx.t.db.update(websiteSettings).set({ siteName: "Harbour Times", postalAddress: "1 Quay Street\nPortsmouth" });
    expect(await sendSubscriberMail({ db: fx.t.db, mailer, publicUrl: PUBLIC_URL, secret: SECRET, log }, row.id, "confirm")).toBe("sent");
    expect(sent).toHaveLength(1);
    expect(sent[0]!.subject).toBe("Confirm your subscription to Harbour Times");
    const link = `${PUBLIC_URL}/newsletter/confirm/${encodeURIComponent(subscriberToken(SECRET, "confirm", row))}`;
    expect(sent[0]!.text).toContain(link);
    expect(sent[0]!.html).toContain(`href="${link}"`);
    expect(sent[0]!.text).toContain("1 Quay Street");

    const token = subscriberToken(SECRET, "confirm", row);
    expect((await subscriberOfToken(fx.t.db, SECRET, "confirm", token))?.id).toBe(row.id);
    // An edited signature (its first character: the last one's low bits are base64's padding, which decodes the same).
    const signatureAt = token.indexOf(".") + 1;
    const edited = `${token.slice(0, signatureAt)}${token[signatureAt] === "A" ? "B" : "A"}${token.slice(signatureAt + 1)}`;
    expect(await subscriberOfToken(fx.t.db, SECRET, "confirm", edited)).toBeNull();
    expect(await subscriberOfToken(fx.t.db, SECRET, "unsubscribe", token)).toBeNull();
    // Reading the token changed nothing.
    expect((await subscriberOf("confirm@example.org"))!.status).toBe("pending");

    const confirmed = await confirmSubscriber(fx.t.db, row);
    expect(confirmed).toMatchObject({ status: "active", tokenKey: row.tokenKey });
    expect(confirmed.confirmedAt).toBeInstanceOf(Date);
    expect(confirmed.consentAt).toBeInstanceOf(Date);
    // An active subscriber's sign-up sends the note with the preferences link, not a confirmation.
    sent.length = 0;
    await sendSubscriberMail({ db: fx.t.db, mailer, publicUrl: PUBLIC_URL, secret: SECRET, log }, row.id, "already subscribed");
    expect(sent[0]!.subject).toBe("You're already subscribed to Harbour Times");
    expect(sent[0]!.text).toContain(subscriberUrl(PUBLIC_URL, SECRET, "preferences", confirmed));
  });

  it("a pending sign-up's link stops working after 7 days, and the hourly job deletes only pending sign-ups older than that", async () => {
    for (const email of ["old@example.org", "young@example.org", "old-active@example.org"]) await signUp(fx.t.db, input(email), noFill);
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 60 * 60 * 1000);
    const sixDaysAgo = new Date(Date.now() - 6 * 24 * 60 * 60 * 1000);
    await fx.t.db.update(subscribers).set({ updatedAt: eightDaysAgo, createdAt: eightDaysAgo }).where(eq(subscribers.email, "old@example.org"));
    await fx.t.db.update(subscribers).set({ updatedAt: sixDaysAgo, createdAt: sixDaysAgo }).where(eq(subscribers.email, "young@example.org"));
    await fx.t.db.update(subscribers).set({ status: "active", updatedAt: eightDaysAgo, createdAt: eightDaysAgo }).where(eq(subscribers.email, "old-active@example.org"));
    const old = (await subscriberOf("old@example.org"))!;
    expect(await subscriberOfToken(fx.t.db, SECRET, "confirm", subscriberToken(SECRET, "confirm", old))).toBeNull();

    expect(await expirePendingSignups(fx.t.db)).toBe(1);
    expect((await fx.t.db.select({ email: subscribers.email }).from(subscribers)).map((r) => r.email).sort()).toEqual(["old-active@example.org", "young@example.org"]);
  });

  it("an unsubscribed address signing up again stays unsubscribed until it confirms, then gets a new token key (old links void)", async () => {
    await signUp(fx.t.db, input("back@example.org"), noFill);
    const first = await confirmSubscriber(fx.t.db, (await subscriberOf("back@example.org"))!);
    await unsubscribeSubscriber(fx.t.db, first.id);
    const oldUnsubscribe = subscriberToken(SECRET, "unsubscribe", first);
    await signUp(fx.t.db, input("back@example.org"), noFill);
    const waiting = (await subscriberOf("back@example.org"))!;
    expect(waiting.status).toBe("unsubscribed");
    const again = await confirmSubscriber(fx.t.db, (await subscriberOfToken(fx.t.db, SECRET, "confirm", subscriberToken(SECRET, "confirm", waiting)))!);
    expect(again.status).toBe("active");
    expect(again.unsubscribedAt).toBeNull();
    expect(again.tokenKey).not.toBe(first.tokenKey);
    expect(await subscriberOfToken(fx.t.db, SECRET, "unsubscribe", oldUnsubscribe)).toBeNull();
  });
});

describe("preferences and unsubscribing", () => {
  it("preferences list public newsletters and those subscribed to; saving none unsubscribes from all; ticking again only sends a new confirmation", async () => {
    const [digest] = await fx.t.db.insert(newsletters).values({ name: "Morning digest", slug: "morning", kind: "digest", digestFrequency: "daily", digestTime: "07:00", position: 1 }).returning();
    const [staff] = await fx.t.db.insert(newsletters).values({ name: "Staff", slug: "staff", isPublic: false, position: 2 }).returning();
    await fx.t.db.insert(newsletters).values({ name: "Hidden", slug: "hidden", isPublic: false, position: 3 });
    const storiesId = (await stories()).id;
    await signUp(fx.t.db, input("prefs@example.org", { newsletterIds: [storiesId] }), noFill);
    let row = await confirmSubscriber(fx.t.db, (await subscriberOf("prefs@example.org"))!);
    await fx.t.db.insert(subscriptions).values({ subscriberId: row.id, newsletterId: staff!.id });

    const listed = await preferencesOf(fx.t.db, row);
    expect(listed.map((n) => [n.name, n.subscribed])).toEqual([
      [(await stories()).name, true],
      ["Morning digest", false],
      ["Staff", true],
    ]);

    expect(await savePreferences(fx.t.db, row, [digest!.id, "not-a-listed-id"])).toBe("saved");
    expect((await preferencesOf(fx.t.db, row)).filter((n) => n.subscribed).map((n) => n.name)).toEqual(["Morning digest"]);

    expect(await savePreferences(fx.t.db, row, [])).toBe("unsubscribed");
    row = (await subscriberOf("prefs@example.org"))!;
    expect(row.status).toBe("unsubscribed");
    expect(row.unsubscribedAt).toBeInstanceOf(Date);
    expect((await preferencesOf(fx.t.db, row)).some((n) => n.subscribed)).toBe(false);

    // Issue 39: a link from before the unsubscribe re-subscribes nobody; it e-mails a new confirmation link.
    await fx.t.db.execute(sql`delete from graphile_worker._private_jobs`);
    expect(await savePreferences(fx.t.db, row, [storiesId])).toBe("confirmation sent");
    const waiting = (await subscriberOf("prefs@example.org"))!;
    expect(waiting).toMatchObject({ status: "unsubscribed", consentSource: "/newsletter/preferences" });
    expect(await mailJobs()).toEqual([{ subscriber: row.id, kind: "confirm" }]);
  });

  it("after an unsubscribe, an old preferences link keeps the choice but the address stays unsubscribed until the new confirmation link is used, which voids the old links", async () => {
    const [digest] = await fx.t.db.insert(newsletters).values({ name: "Evening digest", slug: "evening", kind: "digest", digestFrequency: "daily", digestTime: "19:00", position: 1 }).returning();
    await signUp(fx.t.db, input("old-link@example.org", { newsletterIds: [(await stories()).id] }), noFill);
    const first = await confirmSubscriber(fx.t.db, (await subscriberOf("old-link@example.org"))!);
    const oldPreferences = subscriberToken(SECRET, "preferences", first);
    await unsubscribeSubscriber(fx.t.db, first.id);
    await fx.t.db.execute(sql`delete from graphile_worker._private_jobs`);

    const opened = (await subscriberOfToken(fx.t.db, SECRET, "preferences", oldPreferences))!;
    expect(opened.status).toBe("unsubscribed");
    expect(await savePreferences(fx.t.db, opened, [digest!.id])).toBe("confirmation sent");
    const waiting = (await subscriberOf("old-link@example.org"))!;
    expect(waiting.status).toBe("unsubscribed");
    expect(waiting.unsubscribedAt).toBeInstanceOf(Date);
    expect((await preferencesOf(fx.t.db, waiting)).some((n) => n.subscribed)).toBe(false);

    // The job e-mails the confirmation link, as for a sign-up.
    const { sent, mailer } = capturingMailer();
    expect(await sendSubscriberMail({ db: fx.t.db, mailer, publicUrl: PUBLIC_URL, secret: SECRET, log }, waiting.id, "confirm")).toBe("sent");
    const link = new URL(sent[0]!.link!);
    expect(link.pathname).toMatch(/^\/newsletter\/confirm\//);
    const confirmed = await confirmSubscriber(fx.t.db, (await subscriberOfToken(fx.t.db, SECRET, "confirm", decodeURIComponent(link.pathname.split("/").pop()!)))!);
    expect(confirmed.status).toBe("active");
    expect((await preferencesOf(fx.t.db, confirmed)).filter((n) => n.subscribed).map((n) => n.name)).toEqual(["Evening digest"]);
    expect(await subscriberOfToken(fx.t.db, SECRET, "preferences", oldPreferences)).toBeNull();
  });

  it("an old preferences link sends at most the sign-up's allowance of confirmations to one address", async () => {
    await signUp(fx.t.db, input("pestered@example.org"), noFill);
    const row = await confirmSubscriber(fx.t.db, (await subscriberOf("pestered@example.org"))!);
    await unsubscribeSubscriber(fx.t.db, row.id);
    const unsubscribed = (await subscriberOf("pestered@example.org"))!;
    const storiesId = (await stories()).id;
    for (let i = 0; i < SIGNUP_EMAIL_LIMIT.max + 2; i++) {
      await fx.t.db.execute(sql`delete from graphile_worker._private_jobs`);
      expect(await savePreferences(fx.t.db, unsubscribed, [storiesId])).toBe("confirmation sent");
      // The sign-up itself spent one of the allowance.
      expect((await mailJobs()).length, `save ${i + 1}`).toBe(i + 1 < SIGNUP_EMAIL_LIMIT.max ? 1 : 0);
    }
  });

  it("unsubscribing records the send it came from, never lifts a bounce or complaint, and a complaint overrides an unsubscribe", async () => {
    await signUp(fx.t.db, input("one-click@example.org"), noFill);
    const row = await confirmSubscriber(fx.t.db, (await subscriberOf("one-click@example.org"))!);
    const [send] = await fx.t.db.insert(newsletterSends).values({ newsletterId: (await stories()).id, kind: "story", subject: "A story", status: "sent" }).returning();
    await fx.t.db.insert(sendRecipients).values({ sendId: send!.id, subscriberId: row.id, email: row.email, status: "sent" });

    await unsubscribeSubscriber(fx.t.db, row.id, { sendId: send!.id });
    const after = (await subscriberOf("one-click@example.org"))!;
    expect(after.status).toBe("unsubscribed");
    const [recipient] = await fx.t.db.select().from(sendRecipients).where(eq(sendRecipients.sendId, send!.id));
    expect(recipient!.unsubscribedAt).toBeInstanceOf(Date);
    // A second click keeps the first time; a send id that is not a uuid is ignored.
    await unsubscribeSubscriber(fx.t.db, row.id, { sendId: "nonsense" });
    expect((await subscriberOf("one-click@example.org"))!.unsubscribedAt).toEqual(after.unsubscribedAt);

    await unsubscribeSubscriber(fx.t.db, row.id, { status: "complained" });
    expect((await subscriberOf("one-click@example.org"))!.status).toBe("complained");
    await unsubscribeSubscriber(fx.t.db, row.id);
    await unsubscribeSubscriber(fx.t.db, row.id, { status: "bounced" });
    expect((await subscriberOf("one-click@example.org"))!.status).toBe("complained");
  });

  it("emailHash is the sha256 of the trimmed, lower-cased address", () => {
    expect(emailHash("  Reader@Example.ORG ")).toBe(emailHash("reader@example.org"));
    expect(emailHash("reader@example.org")).toMatch(/^[0-9a-f]{64}$/);
    expect(emailHash("reader@example.org")).toBe("32a9c5afd14518dde375f5d361400d2f88d8a1cf099f57eeaf6ad15e6bfdd3b8");
  });
});
