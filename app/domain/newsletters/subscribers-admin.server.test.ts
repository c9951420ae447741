import { eq, sql } from "drizzle-orm";
import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, it } from "vitest";
import { articles, auditEvents, newsletters, newsletterSends, sendRecipients, subscriberTombstones, subscribers, subscriptions } from "~/db/schema";
import type { Actor } from "~/domain/accounts/actor";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { refusal } from "../../../tests/setup/refusal";
import { newTokenKey } from "./subscriber-tokens.server";
import { createNewsletter } from "./newsletter-admin.server";
import {
  CONSENT_REQUIRED,
  deleteSubscriber,
  ERASED_SKIP,
  exportSubscribers,
  importSubscribers,
  listSubscribers,
  signupsByArticle,
  subscriberCounts,
} from "./subscribers-admin.server";
import { parseSubscribersCsv, SUBSCRIBER_CSV_COLUMNS, subscribersToCsv } from "./subscribers-csv.server";
import { emailHash } from "./subscribers.server";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});

const admin: Actor = { id: null, name: "Ad Min", role: "admin" };
const editor: Actor = { id: null, name: "Ed Itor", role: "editor" };

const importCsv = (text: string, actor: Actor = admin, consent = true) => {
  const parsed = parseSubscribersCsv(text);
  return importSubscribers(t.db, actor, parsed.rows, { consent, fileProblems: parsed.problems });
};
const statusOf = async (email: string) => (await t.db.select({ status: subscribers.status }).from(subscribers).where(sql`lower(${subscribers.email}) = ${email.toLowerCase()}`))[0]?.status;

describe("the subscribers' CSV import", () => {
  it("a 1,000-line file with 3 bad lines: the 3 are listed by line with why, the 997 others imported together as active, by import", async () => {
    const lines = ["Email,Name,Newsletters"];
    for (let i = 1; i <= 1000; i++) lines.push(`reader${i}@example.com,Reader ${i},stories`);
    // Lines of the file are counted from the header (line 1): person i is on line i + 1.
    lines[101] = "not-an-address,Broken,stories"; // line 102
    lines[501] = "reader7@example.com,Twice,stories"; // line 502: already on line 8
    lines[901] = "reader900b@example.com,Lost,no-such-letter"; // line 902
    const before = await t.db.select({ n: sql<number>`count(*)::int` }).from(subscribers);
    const report = await importCsv(lines.join("\n"));
    expect(report.problems.map((p) => p.line)).toEqual([102, 502, 902]);
    expect(report.problems[0]!.reason).toMatch(/not a valid e-mail address/);
    expect(report.problems[1]!.reason).toMatch(/already on line 8/);
    expect(report.problems[2]!.reason).toMatch(/no-such-letter/);
    expect(report.added).toBe(997);
    const after = await t.db.select({ n: sql<number>`count(*)::int` }).from(subscribers);
    expect(after[0]!.n - before[0]!.n).toBe(997);
    const [one] = await t.db.select().from(subscribers).where(eq(subscribers.email, "reader1@example.com"));
    expect(one).toMatchObject({ status: "active", name: "Reader 1", consentSource: "import" });
    expect(one!.consentAt).toBeInstanceOf(Date);
    const [stories] = await t.db.select().from(newsletters).where(eq(newsletters.slug, "stories"));
    const subs = await t.db.select().from(subscriptions).where(eq(subscriptions.subscriberId, one!.id));
    expect(subs.map((s) => s.newsletterId)).toEqual([stories!.id]);
    const logged = await t.db.select().from(auditEvents).where(eq(auditEvents.kind, "subscribers.import"));
    expect(logged.at(-1)!.details).toMatchObject({ added: 997, refused: 3 });
  });

  it("someone who unsubscribed, bounced or complained stays so, and is reported as skipped", async () => {
    await t.db.insert(subscribers).values([
      { email: "gone@example.com", status: "unsubscribed", tokenKey: newTokenKey() },
      { email: "bounce@example.com", status: "bounced", tokenKey: newTokenKey() },
      { email: "spam@example.com", status: "complained", tokenKey: newTokenKey() },
    ]);
    const report = await importCsv("address\nGone@example.com\nbounce@example.com\nspam@example.com\nnew-one@example.com\n");
    expect(report.skipped.map((s) => [s.line, s.email])).toEqual([
      [2, "Gone@example.com"],
      [3, "bounce@example.com"],
      [4, "spam@example.com"],
    ]);
    expect(report.added).toBe(1);
    expect(await statusOf("gone@example.com")).toBe("unsubscribed");
    expect(await statusOf("bounce@example.com")).toBe("bounced");
    expect(await statusOf("spam@example.com")).toBe("complained");
  });

  it("without the tick “These people agreed to receive it” nothing is imported", async () => {
    const refused = await refusal(importCsv("email\nno-consent@example.com\n", admin, false));
    expect(refused.message).toBe(CONSENT_REQUIRED);
    expect(refused.field).toBe("consent");
    expect(await statusOf("no-consent@example.com")).toBeUndefined();
  });

  it("an editor may not import (403) and nothing is written", async () => {
    const refused = await refusal(importCsv("email\neditor-import@example.com\n", editor));
    expect(refused.status).toBe(403);
    expect(await statusOf("editor-import@example.com")).toBeUndefined();
  });

  it("a file without an address column is one problem, and nothing else happens", () => {
    expect(parseSubscribersCsv("name,newsletters\nX,stories\n").problems).toEqual([{ line: 1, reason: expect.stringMatching(/address column/) }]);
  });
});

describe("the export", () => {
  it("has the consent record's columns and reads back as an import; it is logged; an editor is refused", async () => {
    const weekly = await createNewsletter(t.db, admin, {
      name: "Weekly Letter",
      description: "",
      isPublic: false,
      senderName: null,
      replyTo: null,
      kind: "stories",
      digestFrequency: null,
      digestWeekday: null,
      digestTime: null,
      digestCategoryIds: null,
      trackEngagement: false,
    });
    await importCsv('email,name,newsletters\nexport-me@example.com,"Doe, Jane",stories|Weekly Letter\n');
    const rows = await exportSubscribers(t.db, admin, { search: "export-me" });
    const csv = subscribersToCsv(rows);
    const [header, line] = parse(csv) as string[][];
    expect(header).toEqual([...SUBSCRIBER_CSV_COLUMNS]);
    expect(header).toEqual(["email", "name", "status", "newsletters", "consent_source", "consent_at", "confirmed_at", "created_at"]);
    expect(line!.slice(0, 5)).toEqual(["export-me@example.com", "Doe, Jane", "active", `stories;${weekly.slug}`, "import"]);
    expect(new Date(line![5]!).getTime()).toBeGreaterThan(0);
    expect(parseSubscribersCsv(csv).rows[0]).toMatchObject({ email: "export-me@example.com", name: "Doe, Jane", newsletters: ["stories", weekly.slug] });
    expect((await t.db.select().from(auditEvents).where(eq(auditEvents.kind, "subscribers.export"))).at(-1)!.details).toMatchObject({ count: 1 });
    expect((await refusal(exportSubscribers(t.db, editor))).status).toBe(403);
  });
});

describe("erasing a person (GDPR)", () => {
  it("leaves only the address's hash: no row, no subscription, no address in sends; a re-import does not add them back", async () => {
    await importCsv("email\nErase.Me@example.com\n");
    const [person] = await t.db.select().from(subscribers).where(eq(subscribers.email, "erase.me@example.com"));
    const [stories] = await t.db.select().from(newsletters).where(eq(newsletters.slug, "stories"));
    const [send] = await t.db.insert(newsletterSends).values({ newsletterId: stories!.id, kind: "digest", status: "sending", subject: "Digest" }).returning();
    await t.db.insert(sendRecipients).values({ sendId: send!.id, subscriberId: person!.id, email: person!.email, status: "queued" });

    expect((await refusal(deleteSubscriber(t.db, editor, person!.id))).status).toBe(403);
    await deleteSubscriber(t.db, admin, person!.id);

    expect(await t.db.select().from(subscribers).where(eq(subscribers.id, person!.id))).toEqual([]);
    expect(await t.db.select().from(subscriptions).where(eq(subscriptions.subscriberId, person!.id))).toEqual([]);
    const [recipient] = await t.db.select().from(sendRecipients).where(eq(sendRecipients.subscriberId, person!.id));
    expect(recipient).toMatchObject({ email: "", status: "cancelled" });
    const everything = JSON.stringify(await t.db.execute(sql`select * from subscriber_tombstones`));
    expect(everything.toLowerCase()).not.toContain("erase.me");
    expect(await t.db.select().from(subscriberTombstones).where(eq(subscriberTombstones.emailHash, emailHash("  erase.me@EXAMPLE.com ")))).toHaveLength(1);
    const [entry] = await t.db.select().from(auditEvents).where(eq(auditEvents.kind, "subscriber.delete"));
    expect(JSON.stringify(entry).toLowerCase()).not.toContain("erase.me");
    expect(entry!.objectLabel).toBe("a subscriber");

    const again = await importCsv("email\nerase.me@example.com\n");
    expect(again.added).toBe(0);
    expect(again.skipped).toEqual([{ line: 2, email: "erase.me@example.com", reason: ERASED_SKIP }]);
    expect(await statusOf("erase.me@example.com")).toBeUndefined();
  });
});

describe("the list and the counts", () => {
  it("searches by address and filters by state, 50 a page", async () => {
    const page1 = await listSubscribers(t.db, { search: "reader1" }, 1);
    // reader1, reader10–19, reader100–199 (but reader101, the file's bad line 102), reader1000.
    expect(page1.total).toBe(111);
    expect(page1.rows).toHaveLength(50);
    expect((await listSubscribers(t.db, { status: "bounced" }, 1)).rows.map((r) => r.email)).toEqual(["bounce@example.com"]);
  });

  it("the dashboard counts active subscribers and those confirmed in the last 30 days; sign-ups per article count confirmed ones", async () => {
    const before = await subscriberCounts(t.db);
    const [story] = await t.db.insert(articles).values({ title: "Signups", slug: "signups", content: "Body", authorName: "Desk" }).returning();
    const old = new Date(Date.now() - 40 * 24 * 60 * 60 * 1000);
    await t.db.insert(subscribers).values([
      { email: "from-story-1@example.com", status: "active", tokenKey: newTokenKey(), signupArticleId: story!.id, confirmedAt: new Date() },
      { email: "from-story-2@example.com", status: "unsubscribed", tokenKey: newTokenKey(), signupArticleId: story!.id, confirmedAt: old },
      { email: "from-story-3@example.com", status: "pending", tokenKey: newTokenKey(), signupArticleId: story!.id },
    ]);
    const after = await subscriberCounts(t.db);
    expect(after.active - before.active).toBe(1);
    expect(after.newLast30Days - before.newLast30Days).toBe(1);
    expect((await signupsByArticle(t.db, [story!.id])).get(story!.id)).toBe(2);
  });
});
