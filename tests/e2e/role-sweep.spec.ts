import { expect, test, type APIRequestContext } from "./fixtures";
import { accountWithRole, newContext, PNG, signIn } from "./accounts";
import { ADMIN } from "./admin-session";
import { snapshot, withDb } from "./db";

// Acceptance 3 of the people issue: every admin route and method, swept for the five roles (anonymous,
// reader, author, editor, admin) against one table of what each may do (written here from the issue's
// words, not from the code's permission table), including object-level refusals: an author opening or
// posting to another writer's article by id. Every refused request changes nothing in the database.

type Who = "anonymous" | "reader" | "author" | "editor" | "admin";
const EVERYONE: Who[] = ["anonymous", "reader", "author", "editor", "admin"];
const BACK_OFFICE: Who[] = ["author", "editor", "admin"];
const EDITORS: Who[] = ["editor", "admin"];
const ADMINS: Who[] = ["admin"];

type Body = { form: Record<string, string> } | { multipart: Record<string, string | { name: string; mimeType: string; buffer: Buffer }> };

interface Probe {
  method: "GET" | "POST";
  url: string;
  body?: Body;
  /** Who gets an answer (200, or a redirect that is not the login page); everyone else is refused. */
  allowed: Who[];
  /** A state change: sent only to those it must refuse (an allowed one would change the data). */
  refusalOnly?: boolean;
}

interface Ids {
  categoryId: string;
  commentId: string;
  publishedId: string;
  /** A draft written by the other author (authorB): not the swept author's. */
  othersDraftId: string;
  media: { bucket: string; name: string };
  /** A member (issue 40) the sweep must neither comp, e-mail nor erase. */
  memberId: string;
}

const articleFields = (ids: Ids, slug: string) => ({
  title: "Sweep Article",
  slug,
  excerpt: "An article the sweep must not save",
  content: "Body text of an article the sweep must not save.",
  categoryId: ids.categoryId,
  authorName: "Intruder",
  featuredImage: "",
  videoUrl: "",
});

function probes(ids: Ids): Probe[] {
  const article = (intent: string, slug = "sweep-article") => ({ form: { ...articleFields(ids, slug), intent } });
  const write = (url: string, body: Body, allowed: Who[]): Probe => ({ method: "POST", url, body, allowed, refusalOnly: true });
  return [
    // Screens.
    { method: "GET", url: "/admin", allowed: BACK_OFFICE },
    { method: "GET", url: "/admin/articles", allowed: BACK_OFFICE },
    { method: "GET", url: "/admin/articles/new", allowed: BACK_OFFICE },
    { method: "GET", url: `/admin/articles/edit/${ids.publishedId}`, allowed: EDITORS },
    { method: "GET", url: `/admin/articles/edit/${ids.othersDraftId}`, allowed: EDITORS },
    { method: "GET", url: `/admin/articles/edit/${ids.othersDraftId}/history`, allowed: EDITORS },
    { method: "GET", url: `/admin/articles/preview/${ids.othersDraftId}`, allowed: EDITORS },
    { method: "GET", url: "/admin/categories", allowed: EDITORS },
    { method: "GET", url: "/admin/front-page", allowed: EDITORS },
    { method: "GET", url: "/admin/authors", allowed: EDITORS },
    { method: "GET", url: "/admin/media", allowed: BACK_OFFICE },
    { method: "GET", url: "/admin/comments", allowed: EDITORS },
    { method: "GET", url: "/admin/settings", allowed: ADMINS },
    { method: "GET", url: "/admin/activity", allowed: EDITORS },
    { method: "GET", url: "/admin/team", allowed: ADMINS },
    { method: "GET", url: "/admin/profile", allowed: BACK_OFFICE },
    { method: "GET", url: "/admin/team.data", allowed: ADMINS },
    { method: "GET", url: "/admin/activity.data", allowed: EDITORS },
    { method: "GET", url: "/admin/settings.data", allowed: ADMINS },
    // Redirects (issue 29): every public address is at stake, admins only; the export too.
    { method: "GET", url: "/admin/redirects", allowed: ADMINS },
    { method: "GET", url: "/admin/redirects.data", allowed: ADMINS },
    { method: "GET", url: "/api/admin/redirects.csv", allowed: ADMINS },
    // Advertising (issue 43): admins, and an editor an admin gave ads.manage (not in this sweep's accounts).
    { method: "GET", url: "/admin/ads", allowed: ADMINS },
    { method: "GET", url: "/admin/ads.data", allowed: ADMINS },
    { method: "GET", url: "/admin/ads/advertisers/new", allowed: ADMINS },
    { method: "GET", url: "/admin/ads/campaigns/new", allowed: ADMINS },
    { method: "GET", url: "/admin/categories.data", allowed: EDITORS },
    { method: "GET", url: "/admin/front-page.data", allowed: EDITORS },
    // Tags (issue 29): editors and admins; the import: admins only.
    { method: "GET", url: "/admin/tags", allowed: EDITORS },
    { method: "GET", url: "/admin/tags.data", allowed: EDITORS },
    { method: "GET", url: "/admin/import", allowed: ADMINS },
    { method: "GET", url: "/admin/import.data", allowed: ADMINS },
    // Pages (issue 29): editors and admins.
    { method: "GET", url: "/admin/pages", allowed: EDITORS },
    { method: "GET", url: "/admin/pages/new", allowed: EDITORS },
    { method: "GET", url: "/admin/pages.data", allowed: EDITORS },
    // Newsletters (issue 30): editors and admins; the subscriber list too, its export admins only.
    { method: "GET", url: "/admin/newsletters", allowed: EDITORS },
    { method: "GET", url: "/admin/newsletters.data", allowed: EDITORS },
    // (/admin/subscribers now redirects to /admin/members: issue 40.)
    { method: "GET", url: "/api/admin/subscribers.csv", allowed: ADMINS },
    // Members (issue 40): editors read the list and a member's page; the export is admins'.
    { method: "GET", url: "/admin/members", allowed: EDITORS },
    { method: "GET", url: "/admin/members.data", allowed: EDITORS },
    { method: "GET", url: `/admin/members/${ids.memberId}`, allowed: EDITORS },
    { method: "GET", url: `/admin/members/${ids.memberId}.data`, allowed: EDITORS },
    { method: "GET", url: "/api/admin/members.csv", allowed: ADMINS },
    // Live updates (issue 31): editors open any story's screen; an author only a live story whose byline names them.
    { method: "GET", url: `/admin/articles/live/${ids.publishedId}`, allowed: EDITORS },
    // Audience (issue 42): every role opens the screen (an author's scope is their own stories); another's story report and its export are editors'.
    { method: "GET", url: "/admin/audience", allowed: BACK_OFFICE },
    { method: "GET", url: "/admin/audience/now", allowed: BACK_OFFICE },
    { method: "GET", url: `/admin/audience/story/${ids.publishedId}`, allowed: EDITORS },
    { method: "GET", url: `/admin/audience/export?table=sources&period=today&story=${ids.publishedId}`, allowed: EDITORS },
    // The event stream never ends for those it answers: they are checked apart (streamOpens).
    { method: "GET", url: "/api/admin/events", allowed: BACK_OFFICE, refusalOnly: true },

    // Publishing: an author may save drafts, never publish, schedule or unpublish.
    write("/admin/articles/new", article("publish"), EDITORS),
    write("/admin/articles/new", { form: { ...articleFields(ids, "sweep-scheduled"), intent: "publish", publishAt: "2031-01-01T09:00" } }, EDITORS),
    write(`/admin/articles/edit/${ids.publishedId}`, article("publish", "sweep-renamed"), EDITORS),
    write(`/admin/articles/edit/${ids.publishedId}`, article("draft", "sweep-renamed"), EDITORS),
    write(`/admin/articles/edit/${ids.publishedId}`, { form: { intent: "unpublish" } }, EDITORS),
    // Someone else's draft, by id: neither saved, autosaved, shared nor deleted by an author.
    write(`/admin/articles/edit/${ids.othersDraftId}`, article("draft", "sweep-stolen"), EDITORS),
    write(`/admin/articles/edit/${ids.othersDraftId}`, article("autosave", "sweep-stolen"), EDITORS),
    write(`/api/admin/articles/${ids.othersDraftId}/preview-link`, { form: {} }, EDITORS),
    write("/admin/articles", { form: { intent: "delete", id: ids.othersDraftId } }, EDITORS),
    write("/admin/articles", { form: { intent: "delete", id: ids.publishedId } }, EDITORS),
    // The list's bulk actions (issue 27): each story checked as its own button would be.
    write("/admin/articles", { form: { intent: "bulk", bulkAction: "unpublish", ids: ids.publishedId } }, EDITORS),
    write("/admin/articles", { form: { intent: "bulk", bulkAction: "delete", ids: ids.othersDraftId } }, EDITORS),
    write("/admin/articles", { form: { intent: "bulk", bulkAction: "move", ids: ids.othersDraftId, categoryId: ids.categoryId } }, EDITORS),
    // Breaking news is on every public page: an editor's call.
    write("/admin", { form: { intent: "show-banner", text: "Hijacked", expiresAt: "2031-01-01T09:00" } }, EDITORS),
    write("/admin", { form: { intent: "remove-banner" } }, EDITORS),
    // The front page (decision 0034): editors choose what leads it; "Feature on the front page" too.
    write("/admin/front-page", { form: { intent: "pin", articleId: ids.publishedId, placement: "lead", categoryId: "", until: "" } }, EDITORS),
    write("/admin/front-page", { form: { intent: "feature", articleId: ids.publishedId } }, EDITORS),
    write("/admin/front-page", { form: { intent: "explore", explore: "chosen", categoryIds: ids.categoryId } }, EDITORS),
    write("/admin/pages/new", { form: { intent: "publish", title: "Sweep Page", slug: "sweep-page", content: "A page the sweep must not save.", contentDoc: "", showInFooter: "on", footerPosition: "0" } }, EDITORS),
    // Tags: editors rename, merge and delete. Imports write a whole site: admins.
    write("/admin/tags", { form: { intent: "delete", id: "5b0c7a5e-3f7e-4a53-9d8e-1f0b3d7c2a11" } }, EDITORS),
    write("/admin/import", { form: { intent: "start", id: "5b0c7a5e-3f7e-4a53-9d8e-1f0b3d7c2a11" } }, ADMINS),
    write("/api/admin/imports", { multipart: { file: { name: "export.xml", mimeType: "text/xml", buffer: Buffer.from('<rss xmlns:wp="http://wordpress.org/export/1.2/"><channel><title>Sweep</title></channel></rss>') } } }, ADMINS),
    // Categories, authors, comments, media: editors.
    write("/admin/categories", { form: { intent: "create", name: "Sweep Category", slug: "sweep-category" } }, EDITORS),
    write("/admin/categories", { form: { intent: "delete", id: ids.categoryId } }, EDITORS),
    write("/admin/authors", { form: { intent: "create", name: "Sweep Author", slug: "sweep-author" } }, EDITORS),
    write("/admin/comments", { form: { intent: "delete", id: ids.commentId } }, EDITORS),
    write("/admin/media", { form: { intent: "delete", ...ids.media } }, EDITORS),
    write("/admin/media", { form: { intent: "publish", ...ids.media, title: "Published by the sweep", categoryId: ids.categoryId, excerpt: "", content: "x", featuredImageAlt: "x" } }, EDITORS),
    // Uploads: anyone in the back office; the logo and favicon are settings (admins).
    write("/api/admin/uploads/image", { multipart: { file: { name: "pixel.png", mimeType: "image/png", buffer: PNG } } }, BACK_OFFICE),
    write("/api/admin/uploads/logo", { multipart: { file: { name: "logo.png", mimeType: "image/png", buffer: PNG } } }, ADMINS),
    write("/api/admin/uploads/favicon", { multipart: { file: { name: "icon.png", mimeType: "image/png", buffer: PNG } } }, ADMINS),
    // The team: admins only (an editor cannot make themselves an admin, nor invite one).
    write("/admin/team", { form: { intent: "invite", email: "sweep-invite@example.com", role: "admin" } }, ADMINS),
    write("/admin/team", { form: { intent: "role", userId: "sweep-nobody", role: "admin" } }, ADMINS),
    // Newsletters (issue 30): editors manage them and send stories by e-mail (an author's "Send by e-mail"
    // or test e-mail is refused); importing and erasing subscribers is admins' alone.
    write("/admin/newsletters", { form: { intent: "create", name: "Sweep Letter", description: "", isPublic: "on", senderName: "", replyTo: "", kind: "stories" } }, EDITORS),
    write("/admin/articles/new", { form: { ...articleFields(ids, "sweep-mailed"), intent: "draft", newsletterChoice: "1" } }, EDITORS),
    write("/admin/articles/new", { form: { ...articleFields(ids, "sweep-test-mail"), intent: "test-email", testEmailTo: "sweep@example.com" } }, EDITORS),
    // Members (issue 40): importing, comping, e-mailing a sign-in link and erasing are admins' alone.
    write("/admin/members", { multipart: { intent: "dry-run", consent: "on", file: { name: "people.csv", mimeType: "text/csv", buffer: Buffer.from("email\nsweep-import@example.com\n") } } }, ADMINS),
    write("/admin/members", { multipart: { intent: "import", consent: "on", file: { name: "people.csv", mimeType: "text/csv", buffer: Buffer.from("email\nsweep-import@example.com\n") } } }, ADMINS),
    write(`/admin/members/${ids.memberId}`, { form: { intent: "comp-grant", tierId: "5b0c7a5e-3f7e-4a53-9d8e-1f0b3d7c2a11", until: "" } }, ADMINS),
    write(`/admin/members/${ids.memberId}`, { form: { intent: "comp-remove" } }, ADMINS),
    write(`/admin/members/${ids.memberId}`, { form: { intent: "resend-link" } }, ADMINS),
    write(`/admin/members/${ids.memberId}`, { form: { intent: "delete" } }, ADMINS),
    // Live coverage (issue 31): an author not on the byline posts nothing (403), nor starts or pins.
    write(`/admin/articles/live/${ids.publishedId}`, { form: { intent: "post", headline: "Hijacked", content: "Posted by the sweep", contentDoc: "", authorId: "", keyEvent: "on" } }, EDITORS),
    write(`/admin/articles/live/${ids.publishedId}`, { form: { intent: "start" } }, EDITORS),
    // Settings: admins only.
    write("/admin/settings", { form: { siteName: "Hijacked", siteTagline: "x", siteDescription: "x", footerText: "x", contactEmail: "intruder@example.com" } }, ADMINS),
  ];
}

/** Whether the dashboard's event stream opens (200, text/event-stream) for this client, reading its headers only. */
async function streamOpens(baseURL: string, client: APIRequestContext): Promise<boolean> {
  const cookies = (await client.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  const abort = new AbortController();
  try {
    const response = await fetch(`${baseURL}/api/admin/events`, { headers: { cookie: cookies }, signal: abort.signal });
    return response.status === 200 && (response.headers.get("content-type") ?? "").startsWith("text/event-stream");
  } finally {
    abort.abort();
  }
}

/** What a refusal looks like for `who`: the login page for a screen read without a back-office role, else 401/403. */
function refusedAs(who: Who, probe: Probe, status: number, location: string | undefined, body: string): boolean {
  const screenRead = probe.method === "GET" && !probe.url.startsWith("/api/") && !probe.url.endsWith(".data");
  if (who === "anonymous" || who === "reader") {
    if (screenRead) return status === 302 && location === "/admin/login";
    // A .data read is answered with React Router's redirect (202 naming the login page) or 401/403.
    if (probe.url.endsWith(".data")) return status === 401 || status === 403 || (status === 202 && body.includes("/admin/login"));
    return status === (who === "anonymous" ? 401 : 403);
  }
  return status === 403;
}

test.describe("the five roles against every admin route", () => {
  test("each role gets exactly what the table allows; every refused request changes nothing", async ({ baseURL }) => {
    test.setTimeout(240_000);
    const origin = new URL(baseURL!).origin;

    // The people: a reader, two authors (the sweep uses the first; the second owns a draft), an editor, the admin.
    const reader = await accountWithRole(baseURL, "sweep-reader", null);
    const author = await accountWithRole(baseURL, "sweep-author", "author");
    const otherAuthor = await accountWithRole(baseURL, "sweep-other", "author");
    const editor = await accountWithRole(baseURL, "sweep-editor", "editor");
    const admin = await newContext(baseURL);
    await signIn(admin, ADMIN.email, ADMIN.password);
    const anonymous = await newContext(baseURL);
    const clients: Record<Who, APIRequestContext> = {
      anonymous,
      reader: reader.context,
      author: author.context,
      editor: editor.context,
      admin,
    };

    try {
      // The other author writes a draft of their own (through the form's action, as the browser would).
      const draftSlug = `others-draft-${Date.now().toString(36)}`;
      const ids0 = await withDb(async (db) => ({
        categoryId: (await db.query<{ id: string }>(`select id from categories order by created_at limit 1`)).rows[0].id,
        publishedId: (await db.query<{ id: string }>(`select id from articles where status = 'published' order by published_at desc limit 1`)).rows[0].id,
        commentId: (await db.query<{ id: string }>(`select id from comments order by created_at desc limit 1`)).rows[0]?.id ?? "5b0c7a5e-3f7e-4a53-9d8e-1f0b3d7c2a11",
        media: (await db.query<{ bucket: string; name: string }>(`select bucket, name from media order by created_at limit 1`)).rows[0] ?? { bucket: "images", name: "1700000000000-photo.png" },
        memberId: (
          await db.query<{ id: string }>(`insert into subscribers (email, status, token_key) values ($1, 'active', 'sweep') returning id`, [`sweep-member-${Date.now().toString(36)}@example.com`])
        ).rows[0]!.id,
      }));
      const memberNow = () =>
        withDb(async (db) => ({
          row: (await db.query(`select email, status, comp_tier_id, comp_until, access_changed_at from subscribers where id = $1`, [ids0.memberId])).rows,
          events: (await db.query(`select kind from member_events where member_id = $1`, [ids0.memberId])).rows,
          imported: (await db.query(`select 1 from subscribers where email = 'sweep-import@example.com'`)).rows.length,
        }));
      const memberBefore = await memberNow();
      const created = await otherAuthor.context.post("/admin/articles/new", {
        form: { ...articleFields({ ...ids0, othersDraftId: "" }, draftSlug), title: "The other writer's draft", intent: "draft" },
        headers: { Origin: origin },
        maxRedirects: 0,
      });
      expect(created.status(), await created.text()).toBe(302);
      const othersDraftId = await withDb(async (db) => (await db.query<{ id: string; status: string }>(`select id, status from articles where slug = $1`, [draftSlug])).rows[0]);
      expect(othersDraftId.status).toBe("draft");
      const ids: Ids = { ...ids0, othersDraftId: othersDraftId.id };

      const before = await snapshot();
      const sweepStarted = new Date();
      const mismatches: string[] = [];
      let sent = 0;
      for (const probe of probes(ids)) {
        for (const who of EVERYONE) {
          const allowed = probe.allowed.includes(who);
          if (allowed && probe.refusalOnly) continue;
          const response = await clients[who].fetch(probe.url, {
            method: probe.method,
            maxRedirects: 0,
            headers: { Origin: origin },
            ...(probe.body ?? {}),
          });
          sent++;
          const status = response.status();
          const location = response.headers()["location"];
          const body = await response.text();
          const ok = allowed
            ? status === 200 && !(location ?? "").startsWith("/admin/login")
            : refusedAs(who, probe, status, location, body);
          if (!ok) mismatches.push(`${who} ${probe.method} ${probe.url}: ${allowed ? "expected an answer" : "expected a refusal"}, got ${status} ${location ?? body.slice(0, 120)}`);
          if (!allowed) {
            const written = await withDb(async (db) => (await db.query(`select slug from articles where updated_at >= $1`, [sweepStarted])).rows);
            if (written.length > 0) mismatches.push(`${who} ${probe.method} ${probe.url} (${JSON.stringify(probe.body ?? {}).slice(0, 60)}): answered ${status} but wrote ${JSON.stringify(written)}`);
          }
          if (response.headers()["cache-control"] !== "no-store") mismatches.push(`${who} ${probe.method} ${probe.url}: Cache-Control ${response.headers()["cache-control"]}`);
        }
      }
      for (const who of BACK_OFFICE) {
        sent++;
        if (!(await streamOpens(baseURL!, clients[who]))) mismatches.push(`${who} GET /api/admin/events: expected the event stream`);
      }
      test.info().annotations.push({ type: "sweep", description: `${sent} requests across five roles` });
      expect(mismatches, `${mismatches.length} of ${sent} answers did not match the table`).toEqual([]);
      // Nothing a refused request carried was written: articles, categories, authors, comments, media
      // (rows and files), settings, roles.
      const changed = await withDb(async (db) => (await db.query(`select title, slug, status, updated_at from articles where updated_at >= $1`, [sweepStarted])).rows);
      expect(changed, "articles written during the sweep").toEqual([]);
      expect(await snapshot()).toEqual(before);
      expect(await memberNow(), "the sweep's member: neither comped, e-mailed, erased, nor anyone imported").toEqual(memberBefore);
    } finally {
      for (const client of Object.values(clients)) await client.dispose();
      await otherAuthor.context.dispose();
    }
  });
});
