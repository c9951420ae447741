import type { AddressInfo } from "node:net";
import pino from "pino";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user, userRoles } from "~/db/schema";
import { enqueueJob, startJobQueue, type JobQueue } from "~/lib/job-queue.server";
import { createMailer } from "~/lib/mail.server";
import { ensureAccountAuthor } from "~/domain/authors/account-author.server";
import { sendBack } from "~/domain/articles/review.server";
import { saveArticle, setUpArticleFixture } from "../../../tests/setup/article-fixture";
import { notificationEmailTasks } from "./notification-email.server";
import { listNotifications, NOTIFICATION_EMAIL_TASK, setEmailNotifications } from "./notifications.server";

// The queue and the mail end to end: graphile-worker runs the jobs against this file's database and
// sends through a real SMTP server (npm smtp-server) on a local port.

const fx = setUpArticleFixture("notification-email");
const PUBLIC_URL = "https://news.example.org";

interface Received {
  to: string;
  subject: string;
  text: string;
}
const received: Received[] = [];
/** How many of the next deliveries the server refuses (451, a temporary failure), to see the queue retry. */
let refuseNext = 0;
let attempts = 0;

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS", "AUTH"],
  logger: false,
  onData(stream, session, callback) {
    attempts++;
    const chunks: Buffer[] = [];
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => {
      if (refuseNext > 0) {
        refuseNext--;
        const error = Object.assign(new Error("Try again later"), { responseCode: 451 });
        return callback(error);
      }
      const raw = Buffer.concat(chunks).toString("utf8");
      received.push({ to: session.envelope.rcptTo.map((r) => r.address).join(","), subject: /^Subject: (.*)$/m.exec(raw)?.[1] ?? "", text: quotedPrintable(raw) });
      callback();
    });
  },
});

/** The message as a reader sees it: quoted-printable soft breaks and escapes undone (nodemailer's text part). */
function quotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

let queue: JobQueue;
const log = pino({ level: "silent" });

beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const { port } = smtp.server.address() as AddressInfo;
  const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: "Frontpage <desk@example.org>", log, outboxDir: "/nonexistent" });
  queue = await startJobQueue({ connectionString: fx.t.url, log, tasks: notificationEmailTasks({ db: fx.t.db, mailer, publicUrl: PUBLIC_URL, log }), pollIntervalMs: 200 });
});
afterAll(async () => {
  await queue?.stop();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

async function waitFor<T>(read: () => T, done: (value: T) => boolean, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function person(name: string, role: "author" | "editor" | "admin") {
  const id = `user-${name}`;
  const email = `${name}@example.com`;
  await fx.t.db.insert(user).values({ id, name, email, emailVerified: true }).onConflictDoNothing();
  await fx.t.db.insert(userRoles).values({ userId: id, role }).onConflictDoNothing();
  const author = await ensureAccountAuthor(fx.t.db, { id, name, email });
  return { id, email, name: `${name} (${email})`, role, authorId: author.id };
}

describe("notification e-mails through the job queue", () => {
  it("a story sent back is e-mailed to its author with the site's name, the sentence, the note and the story's edit link; the editor who turned e-mail off gets none", async () => {
    const ann = await person("ann", "author");
    const ed = await person("ed", "editor");
    await setEmailNotifications(fx.t.db, ed.id, false);
    const draft = await saveArticle(fx, { title: "Council budget", slug: "council-budget", intent: "submit", authorIds: ann.authorId }, { actor: ann });
    await sendBack(fx.t.db, draft.id, ed, "Add the figures for 2025.");
    const mails = await waitFor(() => received.filter((m) => m.to === ann.email), (m) => m.length >= 1);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Frontpage: ed sent back 'Council budget'");
    expect(mails[0]!.text).toContain("ed sent back 'Council budget'.");
    expect(mails[0]!.text).toContain("Add the figures for 2025.");
    expect(mails[0]!.text).toContain(`${PUBLIC_URL}/admin/articles/edit/${draft.id}`);
    expect(mails[0]!.text).toContain(`${PUBLIC_URL}/admin/profile`);
    // The editor was told in the back office (the submission) but not by e-mail.
    expect((await listNotifications(fx.t.db, ed.id)).map((n) => n.text)).toEqual(["'Council budget' is waiting for review"]);
    await new Promise((r) => setTimeout(r, 500));
    expect(received.filter((m) => m.to === ed.email)).toEqual([]);
  });

  it("a refused delivery is retried until it goes through, and the same notification is e-mailed once however often it is queued", async () => {
    const ann = await person("ann", "author");
    const ed = await person("ed", "editor");
    await setEmailNotifications(fx.t.db, ed.id, true);
    refuseNext = 1;
    const attemptsBefore = attempts;
    const before = received.length;
    const draft = await saveArticle(fx, { title: "Harbour works", slug: "harbour-works", intent: "draft", authorIds: ann.authorId }, { actor: ann });
    const [notice] = await fx.t.db.transaction(async (tx) => {
      const { notifySentBack } = await import("./notifications.server");
      const created = await notifySentBack(tx, { id: draft.id, title: "Harbour works" }, ed, "Check the date.");
      // Queued a second time under the same key: still one job.
      for (const row of created) await enqueueJob(tx, NOTIFICATION_EMAIL_TASK, { id: row.id }, { key: `${NOTIFICATION_EMAIL_TASK}:${row.id}` });
      return created;
    });
    expect(notice).toBeDefined();
    // graphile-worker waits exp(1) ≈ 2.7 s before the second attempt.
    const mails = await waitFor(() => received.slice(before), (m) => m.length >= 1, 20_000);
    expect(mails.map((m) => [m.to, m.subject])).toEqual([[ann.email, "Frontpage: ed sent back 'Harbour works'"]]);
    expect(attempts - attemptsBefore).toBe(2);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(received.slice(before)).toHaveLength(1);
  }, 40_000);
});
