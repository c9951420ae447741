import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { articles, auditEvents, authors, liveUpdates, user } from "~/db/schema";
import type { Actor } from "~/domain/accounts/actor";
import type { Role } from "~/domain/accounts/roles";
import { saveArticleFromForm } from "~/domain/articles/article-admin.server";
import { articleForm, fixtureCategoryId, setUpArticleFixture, TEST_TIME_ZONE } from "../../../tests/setup/article-fixture";
import { refusal } from "../../../tests/setup/refusal";
import { LIVE_REFUSALS } from "./live-admin.schema";
import {
  deleteLiveUpdate,
  editLiveUpdate,
  endLiveCoverage,
  getLivePanel,
  pinLiveUpdate,
  postLiveUpdate,
  restartLiveCoverage,
  startLiveCoverage,
  unpinLiveUpdate,
} from "./live-admin.server";

// The newsroom's live coverage (issue 31) against the real database: every write takes a new version,
// one update is pinned per story, posting needs a live story, and the role rules (editors anything,
// authors their byline's live stories and their own updates) refuse with 403 and write nothing.

const fx = setUpArticleFixture("live-admin");

let seq = 0;
async function account(name: string, role: Role, withAuthor = true): Promise<Actor & { authorId: string | null }> {
  const id = `user-${name}`;
  await fx.t.db.insert(user).values({ id, name, email: `${name}@example.com`, emailVerified: true }).onConflictDoNothing();
  let authorId: string | null = null;
  if (withAuthor) {
    const [row] = await fx.t.db.insert(authors).values({ name: `${name} Reporter`, slug: `${name}-reporter`, userId: id }).onConflictDoNothing().returning();
    authorId = row?.id ?? (await fx.t.db.select().from(authors).where(eq(authors.userId, id)))[0]!.id;
  }
  return { id, name, role, authorId };
}

/** A published story with these authors on its byline, live unless told. */
async function story(byline: string[], options: { live?: boolean } = {}) {
  const slug = `live-story-${++seq}`;
  const saved = await saveArticleFromForm(
    fx.t.db,
    fx.storage,
    articleForm({ title: `Live story ${seq}`, slug, intent: "publish", categoryId: await fixtureCategoryId(fx), authorIds: byline.join(","), authorName: byline.length ? "" : "Desk" }),
    { timeZone: TEST_TIME_ZONE, startLive: options.live ?? true },
  );
  return saved.id;
}

const doc = (text: string) => JSON.stringify({ type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text }] }] });
const form = (values: Partial<Record<"headline" | "contentDoc" | "content" | "authorId" | "keyEvent", string>>) => ({
  headline: "",
  contentDoc: "",
  content: "",
  authorId: "",
  keyEvent: "",
  ...values,
});
const rowsOf = async (articleId: string) => fx.t.db.select().from(liveUpdates).where(eq(liveUpdates.articleId, articleId)).orderBy(liveUpdates.createdAt);
const rowOf = async (id: string) => (await fx.t.db.select().from(liveUpdates).where(eq(liveUpdates.id, id)))[0]!;
const activityOf = async (articleId: string) =>
  (await fx.t.db.select({ kind: auditEvents.kind }).from(auditEvents).where(eq(auditEvents.objectId, articleId)).orderBy(auditEvents.id)).map((r) => r.kind);

describe("live coverage, an editor's journey", () => {
  it("starts with the save, posts, edits, pins, deletes, ends and restarts, each change a new version and an activity entry", async () => {
    const editor = await account("eddie", "editor");
    const writer = await account("wanda", "author");
    const id = await story([writer.authorId!]);
    const [started] = await fx.t.db.select({ startedAt: articles.liveStartedAt, endedAt: articles.liveEndedAt }).from(articles).where(eq(articles.id, id));
    expect(started!.startedAt).toBeInstanceOf(Date);
    expect(started!.endedAt).toBeNull();

    const first = await postLiveUpdate(fx.t.db, fx.storage, editor, id, form({ headline: "Polls close", contentDoc: doc("Polls have closed."), keyEvent: "on" }));
    const second = await postLiveUpdate(fx.t.db, fx.storage, editor, id, form({ contentDoc: doc("Turnout was high."), authorId: writer.authorId! }));
    // Without the editor (no JavaScript): the plain text becomes the document.
    const third = await postLiveUpdate(fx.t.db, fx.storage, editor, id, form({ content: "First result in.\n\nA second paragraph." }));
    const posted = await rowsOf(id);
    expect(posted.map((r) => [r.headline, r.content, r.keyEvent, r.authorId])).toEqual([
      ["Polls close", "Polls have closed.", true, editor.authorId],
      [null, "Turnout was high.", false, writer.authorId],
      [null, "First result in.\n\nA second paragraph.", false, editor.authorId],
    ]);
    expect(posted.every((r) => r.createdById === editor.id)).toBe(true);

    // Edit: edited_at and a newer version.
    await editLiveUpdate(fx.t.db, fx.storage, editor, id, second.id, form({ headline: "Turnout", contentDoc: doc("Turnout was a record."), authorId: writer.authorId! }));
    const edited = await rowOf(second.id);
    expect([edited.headline, edited.content, edited.editedAt instanceof Date]).toEqual(["Turnout", "Turnout was a record.", true]);
    expect(Number(edited.version)).toBeGreaterThan(third.version);

    // Pin one, then another: the first is unpinned in the same transaction, both take new versions.
    await pinLiveUpdate(fx.t.db, editor, id, first.id);
    const pinnedFirst = await rowOf(first.id);
    expect(pinnedFirst.pinned).toBe(true);
    await pinLiveUpdate(fx.t.db, editor, id, third.id);
    const [a, c] = [await rowOf(first.id), await rowOf(third.id)];
    expect([a.pinned, c.pinned]).toEqual([false, true]);
    expect(Number(a.version)).toBeGreaterThan(Number(pinnedFirst.version));
    expect(Number(c.version)).toBeGreaterThan(Number(a.version));
    await unpinLiveUpdate(fx.t.db, editor, id, third.id);
    expect((await rowOf(third.id)).pinned).toBe(false);

    // Delete: soft, with a new version (the streams tell readers); the panel no longer lists it.
    const before = Number((await rowOf(first.id)).version);
    await deleteLiveUpdate(fx.t.db, editor, id, first.id);
    const deleted = await rowOf(first.id);
    expect(deleted.deletedAt).toBeInstanceOf(Date);
    expect(Number(deleted.version)).toBeGreaterThan(before);
    expect((await getLivePanel(fx.t.db, id, editor))!.updates.map((u) => u.id)).toEqual([third.id, second.id]);
    expect((await refusal(deleteLiveUpdate(fx.t.db, editor, id, first.id))).code).toBe("not_found");

    // End: posting is refused with what to do; restart keeps the start time.
    await endLiveCoverage(fx.t.db, editor, id);
    const ended = await refusal(postLiveUpdate(fx.t.db, fx.storage, editor, id, form({ contentDoc: doc("Too late.") })));
    expect([ended.status, ended.message]).toEqual([409, LIVE_REFUSALS.ended]);
    expect((await refusal(endLiveCoverage(fx.t.db, editor, id))).status).toBe(409);
    await restartLiveCoverage(fx.t.db, editor, id);
    const [restarted] = await fx.t.db.select({ startedAt: articles.liveStartedAt, endedAt: articles.liveEndedAt }).from(articles).where(eq(articles.id, id));
    expect(restarted).toEqual({ startedAt: started!.startedAt, endedAt: null });
    await postLiveUpdate(fx.t.db, fx.storage, editor, id, form({ contentDoc: doc("We are back.") }));

    expect(await activityOf(id)).toEqual(
      expect.arrayContaining(["live.start", "live_update.post", "live_update.edit", "live_update.pin", "live_update.unpin", "live_update.delete", "live.end", "live.restart"]),
    );
    expect((await activityOf(id)).filter((k) => k === "live_update.post")).toHaveLength(4);
  });

  it("refuses a story that is not live, an empty body, a long headline, an unknown author and another site's image; nothing is written", async () => {
    const editor = await account("eddie", "editor");
    const quiet = await story([], { live: false });
    const notLive = await refusal(postLiveUpdate(fx.t.db, fx.storage, editor, quiet, form({ contentDoc: doc("Hello") })));
    expect([notLive.status, notLive.message]).toEqual([409, LIVE_REFUSALS.notLive]);
    const id = await story([]);
    const attempts: [Record<string, string>, string, string][] = [
      [form({ contentDoc: JSON.stringify({ type: "doc", content: [{ type: "paragraph" }] }) }), "missing_fields", "contentDoc"],
      [form({ headline: "x".repeat(201), contentDoc: doc("Body") }), "invalid_input", "headline"],
      [form({ contentDoc: doc("Body"), authorId: "5b0c7a5e-3f7e-4a53-9d8e-1f0b3d7c2a11" }), "invalid_input", "authorId"],
      [form({ contentDoc: JSON.stringify({ type: "doc", content: [{ type: "script", text: "x" }] }) }), "invalid_input", "contentDoc"],
      [
        form({ contentDoc: JSON.stringify({ type: "doc", content: [{ type: "storyImage", attrs: { src: "https://elsewhere.example/a.png", alt: "A", caption: "", credit: "" } }] }) }),
        "invalid_media",
        "contentDoc",
      ],
    ];
    for (const [values, code, field] of attempts) {
      const error = await refusal(postLiveUpdate(fx.t.db, fx.storage, editor, id, values as never));
      expect([error.code, error.field ?? Object.keys(error.fieldErrors ?? {})[0]], JSON.stringify(values).slice(0, 80)).toEqual([code, field]);
    }
    expect(await rowsOf(id)).toEqual([]);
    // Starting twice is refused; an ended story is restarted, not started.
    expect((await refusal(startLiveCoverage(fx.t.db, editor, id))).status).toBe(409);
  });
});

describe("live coverage, the authors' rules", () => {
  it("an author on the byline posts and changes their own updates; not another's, not pins, not the live state; never after the end", async () => {
    const editor = await account("eddie", "editor");
    const ann = await account("ann", "author");
    const bob = await account("bob", "author");
    const id = await story([ann.authorId!, bob.authorId!]);
    const annsPost = await postLiveUpdate(fx.t.db, fx.storage, ann, id, form({ contentDoc: doc("Ann reports."), keyEvent: "on" }));
    expect((await rowOf(annsPost.id)).authorId).toBe(ann.authorId);
    const editorsPost = await postLiveUpdate(fx.t.db, fx.storage, editor, id, form({ contentDoc: doc("The desk reports.") }));
    // Posted by the editor in Bob's name: Bob's own.
    const forBob = await postLiveUpdate(fx.t.db, fx.storage, editor, id, form({ contentDoc: doc("Filed for Bob."), authorId: bob.authorId! }));

    await editLiveUpdate(fx.t.db, fx.storage, ann, id, annsPost.id, form({ contentDoc: doc("Ann reports, corrected."), keyEvent: "" }));
    expect((await rowOf(annsPost.id)).keyEvent).toBe(false);
    await editLiveUpdate(fx.t.db, fx.storage, bob, id, forBob.id, form({ contentDoc: doc("Bob's own words.") }));

    const before = await rowsOf(id);
    const forbidden: [string, () => Promise<unknown>][] = [
      ["edit another's", () => editLiveUpdate(fx.t.db, fx.storage, ann, id, editorsPost.id, form({ contentDoc: doc("Taken over") }))],
      ["delete another's", () => deleteLiveUpdate(fx.t.db, ann, id, editorsPost.id)],
      ["pin", () => pinLiveUpdate(fx.t.db, ann, id, annsPost.id)],
      ["unpin", () => unpinLiveUpdate(fx.t.db, ann, id, annsPost.id)],
      ["end", () => endLiveCoverage(fx.t.db, ann, id)],
      ["restart", () => restartLiveCoverage(fx.t.db, ann, id)],
    ];
    for (const [what, attempt] of forbidden) expect((await refusal(attempt())).status, what).toBe(403);
    expect((await refusal(editLiveUpdate(fx.t.db, fx.storage, ann, id, editorsPost.id, form({ contentDoc: doc("x") })))).message).toBe(LIVE_REFUSALS.notYours);
    expect(await rowsOf(id)).toEqual(before);

    // After the end an author changes nothing (an editor still may correct).
    await endLiveCoverage(fx.t.db, editor, id);
    expect((await refusal(editLiveUpdate(fx.t.db, fx.storage, ann, id, annsPost.id, form({ contentDoc: doc("Late") })))).status).toBe(403);
    expect((await refusal(deleteLiveUpdate(fx.t.db, ann, id, annsPost.id))).status).toBe(403);
    expect((await refusal(postLiveUpdate(fx.t.db, fx.storage, ann, id, form({ contentDoc: doc("Late") })))).status).toBe(409);
    await editLiveUpdate(fx.t.db, fx.storage, editor, id, annsPost.id, form({ contentDoc: doc("Corrected by the desk."), authorId: ann.authorId! }));
    await deleteLiveUpdate(fx.t.db, editor, id, forBob.id);
  });

  it("an author not on the byline is refused (403) whatever they send, and nothing is written", async () => {
    const ann = await account("ann", "author");
    const cat = await account("cat", "author");
    const id = await story([ann.authorId!]);
    const annsPost = await postLiveUpdate(fx.t.db, fx.storage, ann, id, form({ contentDoc: doc("Ann reports.") }));
    const before = await rowsOf(id);
    const activity = await activityOf(id);
    const attempts = [
      () => postLiveUpdate(fx.t.db, fx.storage, cat, id, form({ contentDoc: doc("Not mine to post.") })),
      // Even with a broken form, the answer is the 403 (they learn nothing of the story).
      () => postLiveUpdate(fx.t.db, fx.storage, cat, id, form({})),
      () => editLiveUpdate(fx.t.db, fx.storage, cat, id, annsPost.id, form({ contentDoc: doc("Hijacked") })),
      () => deleteLiveUpdate(fx.t.db, cat, id, annsPost.id),
    ];
    for (const attempt of attempts) {
      const error = await refusal(attempt());
      expect([error.status, error.message]).toEqual([403, LIVE_REFUSALS.notOnByline]);
    }
    expect(await rowsOf(id)).toEqual(before);
    expect(await activityOf(id)).toEqual(activity);
    const panel = (await getLivePanel(fx.t.db, id, cat))!;
    expect([panel.mayOpen, panel.mayPost, panel.updates.every((u) => !u.mayChange)]).toEqual([false, false, true]);
    // A story that is not live: the author is refused (403) before being told it is not live.
    const quiet = await story([cat.authorId!], { live: false });
    expect((await refusal(postLiveUpdate(fx.t.db, fx.storage, ann, quiet, form({ contentDoc: doc("x") })))).status).toBe(403);
    expect((await refusal(postLiveUpdate(fx.t.db, fx.storage, cat, quiet, form({ contentDoc: doc("x") })))).status).toBe(409);
  });
});
