import { render } from "@react-email/render";
import { eq, sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { articleNewsletters, articles, memberSubscriptions, memberTiers, newsletters, newsletterSends, sendRecipients, subscribers, subscriptions, websiteSettings } from "~/db/schema";
import type { Actor } from "~/domain/accounts/actor";
import { mayRead, type StoryAccess } from "~/domain/members/access";
import { paidTiersOf } from "~/domain/members/members.server";
import { DEFAULT_SETTINGS } from "~/domain/settings/settings.schema";
import { loadEnv } from "~/lib/env.server";
import { saveArticle, setUpArticleFixture } from "../../../tests/setup/article-fixture";
import { startSmtpSink, type SmtpSink } from "../../../tests/setup/smtp-sink";
import { digestSendPage } from "./newsletter-email.server";
import { NEWSLETTER_TEST_TASK, newsletterTasks, runSend, type NewsletterDeps } from "./newsletter-sends.server";
import { sendTestEmailOfForm } from "./newsletter-test-email.server";
import { createNewsletterTransport, type NewsletterTransport } from "./newsletter-transport.server";
import { newTokenKey } from "./subscriber-tokens.server";

// Issue 40: a gated story goes by e-mail in two variants, chosen per recipient on the server at the
// claim from their member record; each recipient gets one message; each variant is rendered once per
// send. Delivered through a real SMTP server (tests/setup/smtp-sink.ts) by the send engine itself.

// Every react-email render is counted (the engine must render once per variant, never per recipient).
vi.mock("@react-email/render", async (importOriginal) => {
  const original = await importOriginal<typeof import("@react-email/render")>();
  return { ...original, render: vi.fn(original.render) };
});
const renders = () => vi.mocked(render).mock.calls.length;

const fx = setUpArticleFixture("newsletter-variants");
const PUBLIC_URL = "https://news.example.org";
const SECRET = "newsletter-variants-secret-0123456789abcdef";
const log = pino({ level: process.env.NEWSLETTER_TEST_LOG ?? "silent" });
const editor: Actor = { id: null, name: "Ed Itor", role: "editor" };

const FREE_1 = "Marrowby's council met on Tuesday free-alpha.";
const FREE_2 = "The harbour plan came up first free-beta.";
const GATED_3 = "The third paragraph names the buyer gated-gamma.";
const GATED_4 = "And the price gated-delta.";
const BODY = [FREE_1, FREE_2, GATED_3, GATED_4].join("\n\n");
const SUBSCRIBE_CTA = "Subscribe to read the whole story";

let sink: SmtpSink;
let transport: NewsletterTransport;
let deps: NewsletterDeps;
let supporter: string;
let patron: string;

beforeAll(async () => {
  // The paywall after the second paragraph (issue 40's acceptance story).
  await fx.t.db.insert(websiteSettings).values({ ...DEFAULT_SETTINGS, id: 1, postalAddress: "1 Press Row, Springfield", paywallParagraphs: 2 }).onConflictDoNothing();
  sink = await startSmtpSink({ keep: true });
  const env = loadEnv({ NEWSLETTER_SMTP_URL: sink.url, NEWSLETTER_SMTP_POOL: "2", MAIL_FROM: "Frontpage <desk@example.org>", PUBLIC_URL, NODE_ENV: "test" });
  transport = createNewsletterTransport(env, log);
  deps = { db: fx.t.db, log, transport, env, secret: SECRET, claimBatch: 3 };
  const tiers = await fx.t.db
    .insert(memberTiers)
    .values([
      { name: "Supporter", slug: "supporter", monthlyPrice: 500, yearlyPrice: 5000, currency: "usd" },
      { name: "Patron", slug: "patron", monthlyPrice: 2000, yearlyPrice: 20000, currency: "usd" },
    ])
    .returning({ id: memberTiers.id });
  supporter = tiers[0]!.id;
  patron = tiers[1]!.id;
});
afterAll(async () => {
  await transport?.close();
  await sink?.stop();
});

let serial = 0;
async function storiesNewsletter(values: Partial<typeof newsletters.$inferInsert> = {}) {
  const n = ++serial;
  const [row] = await fx.t.db
    .insert(newsletters)
    .values({ name: `Letter ${n}`, slug: `letter-${n}-${Date.now().toString(36)}`, senderName: "The Desk", ...values })
    .returning();
  return row!;
}

type Plan =
  | { kind: "free" }
  | { kind: "subscription"; status: string; tier: "supporter" | "patron" }
  | { kind: "comp"; tier: "supporter" | "patron"; until: Date | null };

/** An active subscriber of the newsletter (so a member) with the plan given. */
async function member(email: string, newsletterId: string, plan: Plan) {
  const tierOf = (tier: "supporter" | "patron") => (tier === "supporter" ? supporter : patron);
  const [row] = await fx.t.db
    .insert(subscribers)
    .values({
      email,
      status: "active",
      tokenKey: newTokenKey(),
      consentSource: "/newsletter",
      consentAt: new Date(),
      ...(plan.kind === "comp" ? { compTierId: tierOf(plan.tier), compUntil: plan.until } : {}),
    })
    .returning();
  await fx.t.db.insert(subscriptions).values({ subscriberId: row!.id, newsletterId });
  if (plan.kind === "subscription") {
    await fx.t.db.insert(memberSubscriptions).values({
      memberId: row!.id,
      stripeSubscriptionId: `sub_${email}`,
      stripeCustomerId: `cus_${email}`,
      tierId: tierOf(plan.tier),
      status: plan.status,
      cadence: "month",
      amount: 500,
      currency: "usd",
      startedAt: new Date(Date.now() - 86_400_000),
    });
  }
  return row!;
}

/** Publishes a story of BODY with "Send by e-mail" to the newsletter, gives it `access`, and runs its send to the end. */
async function sendStory(slug: string, newsletterId: string, access: StoryAccess, contentDoc?: unknown) {
  const draft = await saveArticle(fx, { title: `Story ${slug}`, slug, content: BODY, excerpt: `Summary of ${slug}`, intent: "draft" });
  await fx.t.db.insert(articleNewsletters).values({ articleId: draft.id, newsletterId });
  await saveArticle(fx, { title: `Story ${slug}`, slug, content: BODY, excerpt: `Summary of ${slug}`, intent: "publish" }, { id: draft.id });
  await fx.t.db
    .update(articles)
    .set({ access: access.level, accessTierId: access.tierId, ...(contentDoc ? { contentDoc } : {}) })
    .where(eq(articles.id, draft.id));
  const [send] = await fx.t.db.select().from(newsletterSends).where(eq(newsletterSends.articleId, draft.id));
  const before = renders();
  await runSend(deps, send!.id);
  const [done] = await fx.t.db.select({ status: newsletterSends.status }).from(newsletterSends).where(eq(newsletterSends.id, send!.id));
  expect(done!.status).toBe("sent");
  return { articleId: draft.id, sendId: send!.id, renders: renders() - before };
}

/** The one message the address received (it fails if it received none or more than one). */
function onlyMessageTo(address: string) {
  const got = sink.messages.filter((m) => m.to.includes(address));
  expect(got, address).toHaveLength(1);
  return got[0]!;
}

const isWhole = (m: { html: string; text: string }) => m.html.includes("gated-gamma") && m.text.includes("gated-gamma") && m.html.includes("gated-delta");
const isTeaser = (m: { html: string; text: string }) =>
  !m.html.includes("gated-gamma") && !m.text.includes("gated-gamma") && !m.html.includes("gated-delta") && m.html.includes("free-beta") && m.html.includes(SUBSCRIBE_CTA);

describe("a Paid story by e-mail", () => {
  it("goes through SMTP to a paid member whole and to a free member as its free part with the call to action, one message each", async () => {
    const letter = await storiesNewsletter();
    await member("paid@example.org", letter.id, { kind: "subscription", status: "active", tier: "supporter" });
    await member("free@example.org", letter.id, { kind: "free" });
    const { sendId } = await sendStory("paid-smtp", letter.id, { level: "paid", tierId: null });

    const paid = onlyMessageTo("paid@example.org");
    const free = onlyMessageTo("free@example.org");
    expect(isWhole(paid)).toBe(true);
    expect(paid.html).not.toContain(SUBSCRIBE_CTA);
    expect(paid.html).toContain("Read it on");

    expect(free.html).toContain("free-alpha");
    expect(free.html).toContain("free-beta");
    expect(free.html).not.toContain("gated-gamma");
    expect(free.text).not.toContain("gated-gamma");
    expect(free.html).toContain(SUBSCRIBE_CTA);
    // (A link to the site says which newsletter it came from: issue 42.)
    expect(free.html).toContain(`href="${PUBLIC_URL}/subscribe?utm_source=newsletter&amp;utm_medium=email&amp;utm_campaign=${letter.slug}"`);
    expect(free.text).toContain(`${PUBLIC_URL}/subscribe`);
    // The personal links are each recipient's own, in both variants (unchanged by the variant).
    expect(free.headers.get("list-unsubscribe")).toMatch(/\/newsletter\/unsubscribe\//);
    expect(free.html).toMatch(/\/newsletter\/unsubscribe\/[^"?]+\?send=/);

    // One row per recipient, both sent, in the one send.
    const rows = await fx.t.db.select().from(sendRecipients).where(eq(sendRecipients.sendId, sendId));
    expect(rows.map((r) => r.status)).toEqual(["sent", "sent"]);
    expect(await fx.t.db.select().from(newsletterSends).where(eq(newsletterSends.newsletterId, letter.id))).toHaveLength(1);
  });

  it("picks the variant from each member's record (Ghost's rule), rendering each variant once for the whole send", async () => {
    const letter = await storiesNewsletter();
    const cases: { email: string; plan: Plan; whole: boolean }[] = [
      { email: "v-active@example.org", plan: { kind: "subscription", status: "active", tier: "supporter" }, whole: true },
      { email: "v-trialing@example.org", plan: { kind: "subscription", status: "trialing", tier: "supporter" }, whole: true },
      { email: "v-past-due@example.org", plan: { kind: "subscription", status: "past_due", tier: "patron" }, whole: true },
      { email: "v-unpaid@example.org", plan: { kind: "subscription", status: "unpaid", tier: "supporter" }, whole: true },
      { email: "v-comp@example.org", plan: { kind: "comp", tier: "supporter", until: null }, whole: true },
      { email: "v-comp-later@example.org", plan: { kind: "comp", tier: "patron", until: new Date(Date.now() + 86_400_000) }, whole: true },
      { email: "v-comp-ended@example.org", plan: { kind: "comp", tier: "supporter", until: new Date(Date.now() - 86_400_000) }, whole: false },
      { email: "v-canceled@example.org", plan: { kind: "subscription", status: "canceled", tier: "supporter" }, whole: false },
      { email: "v-incomplete@example.org", plan: { kind: "subscription", status: "incomplete", tier: "supporter" }, whole: false },
      { email: "v-free@example.org", plan: { kind: "free" }, whole: false },
    ];
    const ids = new Map<string, string>();
    for (const c of cases) ids.set(c.email, (await member(c.email, letter.id, c.plan)).id);
    const access: StoryAccess = { level: "paid", tierId: null };
    const sent = await sendStory("paid-variants", letter.id, access);

    for (const c of cases) {
      const message = onlyMessageTo(c.email);
      expect({ email: c.email, whole: isWhole(message), teaser: isTeaser(message) }).toEqual({ email: c.email, whole: c.whole, teaser: !c.whole });
      // The claim's SQL and paidTiersOf (the page's rule) agree on every member.
      const reader = { kind: "member" as const, memberId: ids.get(c.email)!, paidTiers: await paidTiersOf(fx.t.db, ids.get(c.email)!) };
      expect(mayRead(reader, access), c.email).toBe(c.whole);
    }
    // Ten recipients, two variants: two renders (the whole story and its teaser), none per recipient.
    expect(sent.renders).toBe(2);
  });

  it("of one tier goes whole only to that tier's paying or complimentary members; another tier's get the teaser", async () => {
    const letter = await storiesNewsletter();
    await member("t-patron@example.org", letter.id, { kind: "subscription", status: "active", tier: "patron" });
    await member("t-patron-comp@example.org", letter.id, { kind: "comp", tier: "patron", until: null });
    await member("t-supporter@example.org", letter.id, { kind: "subscription", status: "active", tier: "supporter" });
    await member("t-supporter-comp@example.org", letter.id, { kind: "comp", tier: "supporter", until: null });
    await sendStory("patron-only", letter.id, { level: "paid", tierId: patron });
    expect(isWhole(onlyMessageTo("t-patron@example.org"))).toBe(true);
    expect(isWhole(onlyMessageTo("t-patron-comp@example.org"))).toBe(true);
    expect(isTeaser(onlyMessageTo("t-supporter@example.org"))).toBe(true);
    expect(isTeaser(onlyMessageTo("t-supporter-comp@example.org"))).toBe(true);
  });

  it("is cut at its “Paywall here” block when it has one, and the block itself is in neither variant", async () => {
    const letter = await storiesNewsletter();
    await member("p-paid@example.org", letter.id, { kind: "subscription", status: "active", tier: "supporter" });
    await member("p-free@example.org", letter.id, { kind: "free" });
    const paragraph = (text: string) => ({ type: "paragraph", content: [{ type: "text", text }] });
    const doc = { type: "doc", content: [paragraph(FREE_1), { type: "paywall" }, paragraph(FREE_2), paragraph(GATED_3), paragraph(GATED_4)] };
    await sendStory("cut-at-block", letter.id, { level: "paid", tierId: null }, doc);
    const free = onlyMessageTo("p-free@example.org");
    expect(free.html).toContain("free-alpha");
    // The block comes before the second paragraph: that is gated now.
    expect(free.html).not.toContain("free-beta");
    expect(free.html).not.toContain("gated-gamma");
    expect(free.html).toContain(SUBSCRIBE_CTA);
    const paid = onlyMessageTo("p-paid@example.org");
    expect(isWhole(paid)).toBe(true);
    expect(paid.html).not.toMatch(/paywall/i);
  });
});

describe("a Members story by e-mail", () => {
  it("goes whole to every member, free ones too (each recipient is a confirmed subscriber: a member)", async () => {
    const letter = await storiesNewsletter();
    await member("m-free@example.org", letter.id, { kind: "free" });
    await member("m-paid@example.org", letter.id, { kind: "subscription", status: "active", tier: "supporter" });
    await member("m-canceled@example.org", letter.id, { kind: "subscription", status: "canceled", tier: "supporter" });
    await sendStory("members-only", letter.id, { level: "members", tierId: null });
    for (const address of ["m-free@example.org", "m-paid@example.org", "m-canceled@example.org"]) {
      const message = onlyMessageTo(address);
      expect(isWhole(message), address).toBe(true);
      expect(message.html).not.toContain("Sign in to read");
    }
  });
});

describe("a public story by e-mail", () => {
  it("is one e-mail, rendered once, whole to everyone, with no call to action", async () => {
    const letter = await storiesNewsletter();
    await member("pub-free@example.org", letter.id, { kind: "free" });
    await member("pub-paid@example.org", letter.id, { kind: "subscription", status: "active", tier: "supporter" });
    const sent = await sendStory("public-one", letter.id, { level: "public", tierId: null });
    expect(sent.renders).toBe(1);
    for (const address of ["pub-free@example.org", "pub-paid@example.org"]) {
      const message = onlyMessageTo(address);
      expect(isWhole(message)).toBe(true);
      expect(message.html).not.toContain(SUBSCRIBE_CTA);
    }
  });
});

describe("the browser view and digests", () => {
  it("a digest shows a Paid story's title and summary, marked, and none of its body, to everyone and in its public browser view", async () => {
    const stories = await storiesNewsletter();
    const digest = await storiesNewsletter({ kind: "digest", digestFrequency: "daily", digestTime: "07:00" });
    await member("d-story-reader@example.org", stories.id, { kind: "free" });
    await member("d-free@example.org", digest.id, { kind: "free" });
    await member("d-paid@example.org", digest.id, { kind: "subscription", status: "active", tier: "supporter" });
    const { sendId: storySendId } = await sendStory("digest-paid", stories.id, { level: "paid", tierId: null });
    const [send] = await fx.t.db.insert(newsletterSends).values({ newsletterId: digest.id, kind: "digest", subject: "Digest" }).returning();
    await runSend(deps, send!.id);
    for (const address of ["d-free@example.org", "d-paid@example.org"]) {
      const message = onlyMessageTo(address);
      expect(message.html).toContain("Story digest-paid");
      expect(message.html).toContain("Summary of digest-paid");
      expect(message.html).toContain("For paying subscribers");
      expect(message.html).not.toContain("gated-gamma");
    }
    // "View in your browser" of the digest: public by its address, the same free content.
    const page = await digestSendPage(fx.t.db, send!.id, PUBLIC_URL);
    expect(page).toContain("Story digest-paid");
    expect(page).toContain("For paying subscribers");
    expect(page).not.toContain("gated-gamma");
    // A story send has no browser view of its own (its "View in your browser" is the article, gated at
    // the page cache's door by the reader's class): /newsletter/view/<story send> is 404.
    expect(await digestSendPage(fx.t.db, storySendId, PUBLIC_URL)).toBeNull();
    const storyMessage = onlyMessageTo("d-story-reader@example.org");
    expect(storyMessage.html).toContain(`href="${PUBLIC_URL}/article/digest-paid?utm_source=newsletter&amp;utm_medium=email&amp;utm_campaign=`);
    expect(storyMessage.html).not.toContain("/newsletter/view/");
  });
});

describe("Send test e-mail of a gated story", () => {
  /** The test e-mails queued to `to`, each delivered through the sink by the queue's own task: the messages received. */
  const testJobs = async (to: string) => {
    const jobs = await fx.t.db.execute<{ payload: Record<string, unknown> }>(
      sql`select j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
          where t.identifier = ${NEWSLETTER_TEST_TASK} and j.payload->>'to' = ${to} order by j.id`,
    );
    const task = newsletterTasks(deps).tasks[NEWSLETTER_TEST_TASK]!;
    for (const job of jobs.rows) await task(job.payload, {} as Parameters<typeof task>[1]);
    return sink.messages.filter((m) => m.to.includes(to));
  };
  const form = (values: Record<string, string>) => {
    const fd = new FormData();
    for (const [k, v] of Object.entries({ title: "Test story", slug: "test-story", content: BODY, testEmailTo: "me@example.org", ...values })) fd.append(k, v);
    return fd;
  };

  it("sends both variants, labelled, by default; one when asked; a public story's one e-mail unlabelled", async () => {
    await storiesNewsletter();
    const options = { publicUrl: PUBLIC_URL, timeZone: "America/New_York" };
    expect((await sendTestEmailOfForm(fx.t.db, editor, form({ access: "paid", testEmailTo: "both@example.org" }), options)).emails).toBe(2);
    const [whole, teaser] = await testJobs("both@example.org");
    expect(whole!.subject).toBe("[Test] [Whole story] Test story");
    expect(whole!.html).toContain("gated-gamma");
    expect(teaser!.subject).toBe("[Test] [Free part] Test story");
    expect(teaser!.html).not.toContain("gated-gamma");
    expect(teaser!.text).not.toContain("gated-gamma");
    expect(teaser!.html).toContain(SUBSCRIBE_CTA);

    expect((await sendTestEmailOfForm(fx.t.db, editor, form({ access: "members", testVariant: "teaser", testEmailTo: "members@example.org" }), options)).emails).toBe(1);
    const [members] = await testJobs("members@example.org");
    expect(members!.subject).toBe("[Test] [Free part] Test story");
    expect(members!.html).toContain("Sign in to read");
    expect(members!.html).toContain(`href="${PUBLIC_URL}/account/sign-in?utm_source=newsletter&amp;utm_medium=email&amp;utm_campaign=`);
    expect(members!.html).not.toContain("gated-gamma");

    expect((await sendTestEmailOfForm(fx.t.db, editor, form({ testVariant: "teaser", testEmailTo: "public@example.org" }), options)).emails).toBe(1);
    const [plain] = await testJobs("public@example.org");
    expect(plain!.subject).toBe("[Test] Test story");
    expect(plain!.html).toContain("gated-gamma");
  });
});
