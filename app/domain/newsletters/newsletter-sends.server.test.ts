import { spawn } from "node:child_process";
import { and, eq, sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { articleNewsletters, articles, auditEvents, newsletters, newsletterSends, sendRecipients, subscribers, subscriptions, websiteSettings } from "~/db/schema";
import { DEFAULT_SETTINGS } from "~/domain/settings/settings.schema";
import { unpublishArticle } from "~/domain/articles/article-admin.server";
import { publishDueArticles } from "~/domain/articles/scheduler.server";
import { createDb } from "~/db/client.server";
import { loadEnv } from "~/lib/env.server";
import { startJobQueue, type JobQueue } from "~/lib/job-queue.server";
import { saveArticle, setUpArticleFixture } from "../../../tests/setup/article-fixture";
import { startSmtpSink, type SmtpSink } from "../../../tests/setup/smtp-sink";
import { CLAIM_BATCH, cancelSend, newsletterTasks, queueTestEmail, resumeSends, retryDelayMs, runSend, sendsOfNewsletter, type NewsletterDeps } from "./newsletter-sends.server";
import { createNewsletterTransport, type NewsletterTransport } from "./newsletter-transport.server";
import { newTokenKey, tokenHolds } from "./subscriber-tokens.server";

// The send engine end to end: graphile-worker runs the jobs against this file's database and the
// transport delivers to a real SMTP server (tests/setup/smtp-sink.ts) on a local port.

const fx = setUpArticleFixture("newsletter-sends");
const PUBLIC_URL = "https://news.example.org";
const SECRET = "newsletter-test-secret-0123456789abcdef";
const POOL = 3;
/** The claim batch of this file's queue: small, so that a few dozen recipients take several claims. */
const BATCH = 4;
const log = pino({ level: process.env.NEWSLETTER_TEST_LOG ?? "silent" });

let sink: SmtpSink;
let transport: NewsletterTransport;
let queue: JobQueue;
let deps: NewsletterDeps;
let stopTasks: () => void;

const envOf = (smtpUrl: string) =>
  loadEnv({ NEWSLETTER_SMTP_URL: smtpUrl, NEWSLETTER_SMTP_POOL: String(POOL), MAIL_FROM: "Frontpage <desk@example.org>", PUBLIC_URL, NODE_ENV: "test" });

beforeAll(async () => {
  // The site's settings as a set-up site has them (its name, the postal address of every footer).
  await fx.t.db.insert(websiteSettings).values({ ...DEFAULT_SETTINGS, id: 1, postalAddress: "1 Press Row, Springfield" }).onConflictDoNothing();
  sink = await startSmtpSink({ keep: true });
  const env = envOf(sink.url);
  transport = createNewsletterTransport(env, log);
  deps = { db: fx.t.db, log, transport, env, secret: SECRET, retryDelaysMs: [300], pauseMs: 300, claimBatch: BATCH };
  const newsletterJobs = newsletterTasks(deps);
  stopTasks = newsletterJobs.stop;
  queue = await startJobQueue({ connectionString: fx.t.url, log, tasks: newsletterJobs.tasks, pollIntervalMs: 100 });
});
afterAll(async () => {
  stopTasks?.();
  await queue?.stop();
  await transport?.close();
  await sink?.stop();
});

async function waitFor<T>(read: () => Promise<T> | T, done: (value: T) => boolean, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A database handle whose connections report each statement that records results and claims
 * recipients: how many it asked for (its limit) and how many it claimed.
 */
function watchClaims() {
  const watched = createDb(fx.t.url, 2);
  const claims: { limit: number; claimed: number }[] = [];
  watched.pool.on("connect", (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = async (...args: unknown[]) => {
      const result = await query(...args);
      if (typeof args[0] === "string" && args[0].includes("with results as")) {
        const rows = (result as { rows: { subscriber_id: string | null }[] }).rows;
        claims.push({ limit: (args[1] as unknown[])[5] as number, claimed: rows.filter((row) => row.subscriber_id !== null).length });
      }
      return result;
    };
  });
  return { ...watched, claims };
}

/** `n` active subscribers of the newsletter, `{prefix}-1@example.org` to `{prefix}-{n}@example.org`, made in one statement. */
async function manySubscribers(newsletterId: string, prefix: string, n: number) {
  await fx.t.db.execute(sql`
    with made as (
      insert into subscribers (email, status, token_key)
      select ${prefix} || '-' || g || '@example.org', 'active', md5(${prefix} || g) from generate_series(1, ${n}) g
      returning id
    )
    insert into subscriptions (subscriber_id, newsletter_id) select id, ${newsletterId}::uuid from made`);
}

let serial = 0;
async function newsletter(values: Partial<typeof newsletters.$inferInsert> = {}) {
  const n = ++serial;
  const [row] = await fx.t.db
    .insert(newsletters)
    .values({ name: `Letter ${n}`, slug: `letter-${n}-${Date.now().toString(36)}`, senderName: "The Desk", replyTo: "letters@example.org", ...values })
    .returning();
  return row!;
}

async function subscriber(email: string, newsletterId: string, status: "active" | "pending" | "unsubscribed" = "active") {
  const [row] = await fx.t.db.insert(subscribers).values({ email, status, tokenKey: newTokenKey(), consentSource: "/newsletter", consentAt: new Date() }).returning();
  await fx.t.db.insert(subscriptions).values({ subscriberId: row!.id, newsletterId });
  return row!;
}

async function sendsOfArticle(articleId: string) {
  return fx.t.db.select().from(newsletterSends).where(eq(newsletterSends.articleId, articleId));
}

const sendStatus = async (id: string) => (await fx.t.db.select({ status: newsletterSends.status }).from(newsletterSends).where(eq(newsletterSends.id, id)))[0]?.status;

async function recipientsOf(sendId: string) {
  return fx.t.db.select().from(sendRecipients).where(eq(sendRecipients.sendId, sendId));
}

/** A draft with "Send by e-mail" ticked for `newsletterIds`, as the article form stores the choice. */
async function draftFor(slug: string, newsletterIds: string[]) {
  const draft = await saveArticle(fx, { title: `Story ${slug}`, slug, intent: "draft" });
  for (const newsletterId of newsletterIds) await fx.t.db.insert(articleNewsletters).values({ articleId: draft.id, newsletterId });
  return draft;
}

const publish = (id: string, slug: string, title = `Story ${slug}`) => saveArticle(fx, { title, slug, intent: "publish" }, { id });

describe("a story goes once per newsletter", () => {
  it("is sent when published, with both List-Unsubscribe headers, and never again on update, unpublish or republish", async () => {
    const letter = await newsletter();
    const reader = await subscriber("reader-once@example.org", letter.id);
    await subscriber("pending-once@example.org", letter.id, "pending");
    const draft = await draftFor("once-story", [letter.id]);
    expect(await sendsOfArticle(draft.id)).toHaveLength(0);

    await publish(draft.id, "once-story");
    const [send] = await sendsOfArticle(draft.id);
    expect(send).toMatchObject({ kind: "story", subject: "Story once-story", newsletterId: letter.id });
    expect(await waitFor(() => sendStatus(send!.id), (s) => s === "sent")).toBe("sent");
    expect(sink.receivedBy("reader-once@example.org")).toBe(1);
    expect(sink.receivedBy("pending-once@example.org")).toBe(0);

    const message = sink.messages.find((m) => m.to.includes("reader-once@example.org"))!;
    expect(message.subject).toBe("Story once-story");
    expect(message.from).toBe('"The Desk" <desk@example.org>');
    expect(message.headers.get("reply-to")).toBe("letters@example.org");
    const header = message.headers.get("list-unsubscribe")!;
    const match = /^<https:\/\/news\.example\.org\/newsletter\/unsubscribe\/([^?>]+)\?send=([0-9a-f-]+)>, <mailto:desk@example\.org\?subject=unsubscribe>$/.exec(header);
    expect(match, header).not.toBeNull();
    expect(tokenHolds(SECRET, "unsubscribe", match![1]!, { id: reader.id, tokenKey: reader.tokenKey })).toBe(true);
    expect(match![2]).toBe(send!.id);
    expect(message.headers.get("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");

    // Update, unpublish, republish: no second send, no second message.
    await publish(draft.id, "once-story", "Story once-story, updated");
    await unpublishArticle(fx.t.db, draft.id);
    await publish(draft.id, "once-story");
    expect(await sendsOfArticle(draft.id)).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 500));
    expect(sink.receivedBy("reader-once@example.org")).toBe(1);

    const logged = await fx.t.db.select().from(auditEvents).where(and(eq(auditEvents.kind, "newsletter.send"), eq(auditEvents.objectId, send!.id)));
    expect(logged).toHaveLength(1);
    const [summary] = await sendsOfNewsletter(fx.t.db, letter.id);
    expect(summary).toMatchObject({ id: send!.id, status: "sent", recipients: 1, accepted: 1, bounced: 0, failed: 0, mayBeDuplicate: 0, opens: null, clicks: null, articleTitle: "Story once-story" });
  });

  it("goes when the scheduler publishes a scheduled story, with no request, by the system", async () => {
    const letter = await newsletter();
    await subscriber("reader-scheduled@example.org", letter.id);
    const [article] = await fx.t.db
      .insert(articles)
      .values({ title: "Scheduled story", slug: "scheduled-send", content: "Body", status: "scheduled", publishedAt: new Date(Date.now() - 1000) })
      .returning({ id: articles.id });
    await fx.t.db.insert(articleNewsletters).values({ articleId: article!.id, newsletterId: letter.id });
    await publishDueArticles(fx.t.db);
    const [send] = await sendsOfArticle(article!.id);
    expect(send!.createdById).toBeNull();
    expect(await waitFor(() => sendStatus(send!.id), (s) => s === "sent")).toBe("sent");
    expect(sink.receivedBy("reader-scheduled@example.org")).toBe(1);
    const [logged] = await fx.t.db.select().from(auditEvents).where(and(eq(auditEvents.kind, "newsletter.send"), eq(auditEvents.objectId, send!.id)));
    expect(logged!.actorName).toBe("System");
    // The scheduler running again publishes nothing and sends nothing more.
    await publishDueArticles(fx.t.db);
    expect(await sendsOfArticle(article!.id)).toHaveLength(1);
  });

  it("an archived newsletter is not sent to", async () => {
    const letter = await newsletter({ archivedAt: new Date() });
    await subscriber("reader-archived@example.org", letter.id);
    const draft = await draftFor("archived-story", [letter.id]);
    await publish(draft.id, "archived-story");
    expect(await sendsOfArticle(draft.id)).toHaveLength(0);
  });
});

describe("faults", () => {
  it("a 550 bounces and suppresses the address; a 451 is delivered on retry", async () => {
    const letter = await newsletter();
    const bad = await subscriber("bad-550@example.org", letter.id);
    await subscriber("slow-451@example.org", letter.id);
    await subscriber("fine@example.org", letter.id);
    sink.setRule("bad-550@example.org", { code: 550 });
    sink.setRule("slow-451@example.org", { code: 451, times: 2 });

    const draft = await draftFor("fault-story", [letter.id]);
    await publish(draft.id, "fault-story");
    const [send] = await sendsOfArticle(draft.id);
    expect(await waitFor(() => sendStatus(send!.id), (s) => s === "sent")).toBe("sent");
    const rows = new Map((await recipientsOf(send!.id)).map((r) => [r.email, r]));
    expect(rows.get("bad-550@example.org")).toMatchObject({ status: "bounced", attempts: 1 });
    expect(rows.get("bad-550@example.org")!.lastError).toContain("550");
    expect(rows.get("slow-451@example.org")).toMatchObject({ status: "sent", attempts: 3 });
    expect(rows.get("fine@example.org")).toMatchObject({ status: "sent", attempts: 1 });
    expect(sink.receivedBy("slow-451@example.org")).toBe(1);
    expect(sink.receivedBy("bad-550@example.org")).toBe(0);
    const [bounced] = await fx.t.db.select({ status: subscribers.status }).from(subscribers).where(eq(subscribers.id, bad.id));
    expect(bounced!.status).toBe("bounced");
    const [summary] = await sendsOfNewsletter(fx.t.db, letter.id);
    expect(summary).toMatchObject({ recipients: 3, accepted: 2, bounced: 1, failed: 0 });

    // The next story is not even tried on the bounced address.
    const second = await draftFor("fault-story-2", [letter.id]);
    await publish(second.id, "fault-story-2");
    const [next] = await sendsOfArticle(second.id);
    expect(await waitFor(() => sendStatus(next!.id), (s) => s === "sent")).toBe("sent");
    expect((await recipientsOf(next!.id)).map((r) => r.email).sort()).toEqual(["fine@example.org", "slow-451@example.org"]);
  });

  it("a recipient still refused with 4xx past the retry window has failed", () => {
    expect(retryDelayMs(1)).toBe(60_000);
    expect(retryDelayMs(4)).toBe(3_600_000);
    // 1 + 5 + 15 + 60 + 120 + 240 + 480 minutes have passed after 8 attempts; 480 more would pass 24 h.
    expect(retryDelayMs(8)).toBe(8 * 3_600_000);
    expect(retryDelayMs(9)).toBeNull();
    expect(retryDelayMs(3, [1000], 2500)).toBeNull();
  });

  it("a transport that is down pauses the send, which resumes where it was", async () => {
    const letter = await newsletter();
    for (let i = 0; i < 6; i++) await subscriber(`paused-${i}@example.org`, letter.id);
    const down = await startSmtpSink();
    const deadUrl = down.url;
    await down.stop();
    const deadTransport = createNewsletterTransport(envOf(deadUrl), log);
    // A send made by hand (no job yet), run once by a process whose mail server is unreachable.
    const [send] = await fx.t.db.insert(newsletterSends).values({ newsletterId: letter.id, kind: "digest", subject: "Paused" }).returning();
    const article = await draftFor("paused-story", []);
    await publish(article.id, "paused-story");
    await fx.t.db.update(newsletterSends).set({ kind: "story", articleId: article.id }).where(eq(newsletterSends.id, send!.id));
    await runSend({ ...deps, transport: deadTransport }, send!.id);
    await deadTransport.close();
    expect(await sendStatus(send!.id)).toBe("sending");
    const rows = await recipientsOf(send!.id);
    expect(rows).toHaveLength(6);
    expect(rows.every((r) => r.status === "queued" && r.attempts === 0)).toBe(true);
    // The job it left behind (a little later) runs in the queue's process, whose server answers.
    expect(await waitFor(() => sendStatus(send!.id), (s) => s === "sent")).toBe("sent");
    for (let i = 0; i < 6; i++) expect(sink.receivedBy(`paused-${i}@example.org`)).toBe(1);
  });
});

describe("cancel and resume", () => {
  it("cancelling stops what has not gone yet", async () => {
    const letter = await newsletter();
    for (const name of ["c-sent-1", "c-sent-2", "c-held-1", "c-held-2", "c-held-3"]) await subscriber(`${name}@example.org`, letter.id);
    for (const name of ["c-held-1", "c-held-2", "c-held-3"]) sink.setRule(`${name}@example.org`, { code: 451, times: 1000 });
    const draft = await draftFor("cancel-story", [letter.id]);
    await publish(draft.id, "cancel-story");
    const [send] = await sendsOfArticle(draft.id);
    await waitFor(
      () => recipientsOf(send!.id),
      (rows) => rows.filter((r) => r.status === "sent").length === 2 && rows.filter((r) => r.status === "deferred").length === 3,
    );
    const author = { id: null, name: "Author", role: "author" as const };
    await expect(cancelSend(fx.t.db, send!.id, author)).rejects.toMatchObject({ code: "forbidden" });
    const editor = { id: null, name: "Editor", role: "editor" as const };
    expect(await cancelSend(fx.t.db, send!.id, editor)).toEqual({ cancelled: 3 });
    expect(await sendStatus(send!.id)).toBe("cancelled");
    for (const name of ["c-held-1", "c-held-2", "c-held-3"]) sink.setRule(`${name}@example.org`, null);
    await new Promise((r) => setTimeout(r, 800));
    for (const name of ["c-held-1", "c-held-2", "c-held-3"]) expect(sink.receivedBy(`${name}@example.org`)).toBe(0);
    await expect(cancelSend(fx.t.db, send!.id, editor)).rejects.toMatchObject({ code: "invalid_input", status: 409 });
    const [summary] = await sendsOfNewsletter(fx.t.db, letter.id);
    expect(summary).toMatchObject({ status: "cancelled", accepted: 2, recipients: 5 });
    const [logged] = await fx.t.db.select().from(auditEvents).where(and(eq(auditEvents.kind, "newsletter.cancel"), eq(auditEvents.objectId, send!.id)));
    expect(logged!.actorName).toBe("Editor");
  });

  it("a send cut off mid-way (rows left 'sending') resumes: the rest delivered, the ones in flight sent again and listed", async () => {
    const letter = await newsletter();
    const people = [];
    for (let i = 0; i < 10; i++) people.push(await subscriber(`crash-${i}@example.org`, letter.id));
    const article = await draftFor("crash-story", []);
    await publish(article.id, "crash-story");
    // The state a kill -9 leaves: the list frozen, 4 sent, 3 in flight (at most the pool), 3 waiting.
    const [send] = await fx.t.db
      .insert(newsletterSends)
      .values({ newsletterId: letter.id, articleId: article.id, kind: "story", subject: "Crash", status: "sending", startedAt: new Date(), recipients: 10 })
      .returning();
    await fx.t.db.insert(sendRecipients).values(
      people.map((p, i) => ({ sendId: send!.id, subscriberId: p.id, email: p.email, status: i < 4 ? ("sent" as const) : i < 7 ? ("sending" as const) : ("queued" as const), attempts: i < 7 ? 1 : 0 })),
    );
    expect(await resumeSends(fx.t.db)).toBeGreaterThanOrEqual(1);
    expect(await waitFor(() => sendStatus(send!.id), (s) => s === "sent")).toBe("sent");
    for (let i = 0; i < 10; i++) expect(sink.receivedBy(`crash-${i}@example.org`)).toBe(i < 4 ? 0 : 1);
    const rows = await recipientsOf(send!.id);
    expect(rows.filter((r) => r.mayBeDuplicate).map((r) => r.email).sort()).toEqual(["crash-4@example.org", "crash-5@example.org", "crash-6@example.org"]);
    const [summary] = await sendsOfNewsletter(fx.t.db, letter.id);
    expect(summary).toMatchObject({ accepted: 10, mayBeDuplicate: 3 });
  });

  it("never has more than the pool's size plus one claim batch of recipients in 'sending' at once", async () => {
    const letter = await newsletter();
    for (let i = 0; i < 40; i++) await subscriber(`window-${i}@example.org`, letter.id);
    const draft = await draftFor("window-story", [letter.id]);
    let most = 0;
    let watching = true;
    const watch = (async () => {
      while (watching) {
        const [row] = (await fx.t.db.execute<{ n: number }>(sql`select count(*)::int as n from send_recipients r join newsletter_sends s on s.id = r.send_id where s.article_id = ${draft.id} and r.status = 'sending'`)).rows;
        most = Math.max(most, row!.n);
      }
    })();
    await publish(draft.id, "window-story");
    const [send] = await sendsOfArticle(draft.id);
    expect(await waitFor(() => sendStatus(send!.id), (s) => s === "sent")).toBe("sent");
    watching = false;
    await watch;
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(POOL + BATCH);
    for (let i = 0; i < 40; i++) expect(sink.receivedBy(`window-${i}@example.org`)).toBe(1);
  });

  it("records and claims in batches, a statement per half batch, not one per message (the pool never waits on the database)", async () => {
    const letter = await newsletter();
    const N = 300;
    await manySubscribers(letter.id, "batched", N);
    const article = await draftFor("batched-story", []);
    await publish(article.id, "batched-story");
    const [send] = await fx.t.db.insert(newsletterSends).values({ newsletterId: letter.id, articleId: article.id, kind: "story", subject: "Batched" }).returning();
    const watched = watchClaims();
    try {
      await runSend({ ...deps, db: watched.db, claimBatch: 50 }, send!.id);
    } finally {
      await watched.pool.end();
    }
    expect(await sendStatus(send!.id)).toBe("sent");
    for (let i = 1; i <= N; i++) expect(sink.receivedBy(`batched-${i}@example.org`), `batched-${i}`).toBe(1);
    // 300 messages in batches of 25 results: a dozen statements, a few at the start and the end, and a
    // few more when results come slowly (one waits at most half a second): not one per message.
    expect(watched.claims.length).toBeLessThanOrEqual(N / 10);
  });

  it("claims no more than it asks for when PostgreSQL's statistics have not seen the send's rows yet (a second send)", async () => {
    const letter = await newsletter();
    const N = 2000;
    await manySubscribers(letter.id, "second", N);
    const stories = [await draftFor("first-of-two", []), await draftFor("second-of-two", [])];
    for (const story of stories) await publish(story.id, story.slug);
    const [first, second] = await fx.t.db
      .insert(newsletterSends)
      .values(stories.map((story) => ({ newsletterId: letter.id, articleId: story.id, kind: "story" as const, subject: story.slug, status: "sent" as const })))
      .returning();
    // The first send went out, and PostgreSQL's statistics were taken then: they know nothing of the second.
    await fx.t.db.execute(sql`insert into send_recipients (send_id, subscriber_id, email, status) select ${first!.id}::uuid, subscriber_id, 'x', 'sent' from subscriptions where newsletter_id = ${letter.id}::uuid`);
    await fx.t.db.execute(sql`analyze send_recipients`);
    await fx.t.db.update(newsletterSends).set({ status: "queued" }).where(eq(newsletterSends.id, second!.id));
    const watched = watchClaims();
    try {
      await runSend({ ...deps, db: watched.db, claimBatch: 50 }, second!.id);
    } finally {
      await watched.pool.end();
    }
    expect(await sendStatus(second!.id)).toBe("sent");
    expect(watched.claims.filter((c) => c.claimed > c.limit)).toEqual([]);
    for (let i = 1; i <= N; i += 97) expect(sink.receivedBy(`second-${i}@example.org`), `second-${i}`).toBe(1);
    // Two sends of 2,000 messages: 20 s on a loaded two-core machine, more than the default 30 s in CI's busiest minutes.
  }, 120_000);
});

describe("test e-mail", () => {
  it("goes to one address with [Test] before the subject; an author may not send one", async () => {
    const letter = await newsletter();
    const email = { subject: "A story to check", html: "<p>Hello</p>", text: "Hello" };
    await expect(queueTestEmail(fx.t.db, { newsletterId: letter.id, to: "me@example.org", email }, { id: null, name: "Author", role: "author" })).rejects.toMatchObject({ code: "forbidden" });
    await expect(queueTestEmail(fx.t.db, { newsletterId: letter.id, to: "not an address", email }, { id: null, name: "Editor", role: "editor" })).rejects.toMatchObject({ code: "invalid_input" });
    await queueTestEmail(fx.t.db, { newsletterId: letter.id, to: "tester@example.org", email }, { id: null, name: "Editor", role: "editor" });
    await waitFor(() => sink.receivedBy("tester@example.org"), (n) => n > 0);
    const message = sink.messages.find((m) => m.to.includes("tester@example.org"))!;
    expect(message.subject).toBe("[Test] A story to check");
    expect(message.from).toBe('"The Desk" <desk@example.org>');
    const [logged] = await fx.t.db.select().from(auditEvents).where(and(eq(auditEvents.kind, "newsletter.test"), eq(auditEvents.objectId, letter.id)));
    expect(logged!.details).toMatchObject({ to: "tester@example.org" });
  });
});

describe("kill -9", () => {
  it("a process killed mid-send and a new one started: everyone gets it once, but at most the pool's size plus one claim batch twice, and those are listed", async () => {
    const letter = await newsletter();
    const N = 400;
    await manySubscribers(letter.id, "killed", N);
    const article = await draftFor("killed-story", []);
    await publish(article.id, "killed-story");
    // A send with no job: the child process delivers it, as the queue's process would.
    const [send] = await fx.t.db.insert(newsletterSends).values({ newsletterId: letter.id, articleId: article.id, kind: "story", subject: "Killed" }).returning();
    const before = sink.stats().accepted;
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        `import { runSend } from "./app/domain/newsletters/newsletter-sends.server.ts";
         import { createNewsletterTransport } from "./app/domain/newsletters/newsletter-transport.server.ts";
         import { createDb } from "./app/db/client.server.ts";
         import { loadEnv } from "./app/lib/env.server.ts";
         import pino from "pino";
         const env = loadEnv(${JSON.stringify({ NEWSLETTER_SMTP_URL: sink.url, NEWSLETTER_SMTP_POOL: String(POOL), NEWSLETTER_RATE: "200", MAIL_FROM: "Frontpage <desk@example.org>", PUBLIC_URL, NODE_ENV: "test" })});
         const { db } = createDb(${JSON.stringify(fx.t.url)});
         const log = pino({ level: "silent" });
         await runSend({ db, log, env, transport: createNewsletterTransport(env, log), secret: ${JSON.stringify(SECRET)} }, ${JSON.stringify(send!.id)});`,
      ],
      { cwd: process.cwd(), stdio: "ignore" },
    );
    const exited = new Promise((resolve) => child.once("exit", resolve));
    // Halfway, by the sink's count: SIGKILL, no chance to tidy up.
    await waitFor(() => sink.stats().accepted - before, (n) => n >= N / 2, 60_000);
    child.kill("SIGKILL");
    await exited;
    // The child runs with the default claim batch: at most the pool and one batch were claimed and unrecorded.
    const inFlight = (await recipientsOf(send!.id)).filter((r) => r.status === "sending").length;
    expect(inFlight).toBeLessThanOrEqual(POOL + CLAIM_BATCH);
    expect(await sendStatus(send!.id)).toBe("sending");

    // Started again (the queue's process here): the job is back at once, and the send finishes.
    expect(await resumeSends(fx.t.db)).toBeGreaterThanOrEqual(1);
    expect(await waitFor(() => sendStatus(send!.id), (s) => s === "sent", 60_000)).toBe("sent");
    let twice = 0;
    for (let i = 1; i <= N; i++) {
      const got = sink.receivedBy(`killed-${i}@example.org`);
      expect(got, `killed-${i}`).toBeGreaterThanOrEqual(1);
      twice += got - 1;
    }
    expect(twice).toBeLessThanOrEqual(POOL + CLAIM_BATCH);
    const [summary] = await sendsOfNewsletter(fx.t.db, letter.id);
    expect(summary!.accepted).toBe(N);
    expect(summary!.mayBeDuplicate).toBe(inFlight);
    expect(summary!.mayBeDuplicate).toBeGreaterThanOrEqual(twice);
  }, 120_000);
});
