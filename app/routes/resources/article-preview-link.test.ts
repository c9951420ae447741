import { and, eq } from "drizzle-orm";
import pino from "pino";
import type { AppLoadContext } from "react-router";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { articles, auditEvents, user } from "~/db/schema";
import type { Role } from "~/domain/accounts/roles";
import { createPreviewLinks, previewKeyOf } from "~/domain/articles/preview-links.server";
import { loader as sharedPreviewLoader } from "~/routes/preview/shared-preview";
import { createTestDatabase } from "../../../tests/setup/test-database";

// Shared preview links and their revocation (issue 28): "Revoke preview links" changes the story's
// preview key, so every link made before stops opening while a new one works. The guard's own
// behaviour is tested with the accounts work; here it answers with the signed-in user the test names.

const signedIn = vi.hoisted(() => ({ user: null as null | { id: string; email: string; name: string; role: string } }));
vi.mock("~/domain/accounts/guard.server", () => ({
  requireCapabilityApi: async () => signedIn.user,
}));
const { action } = await import("./article-preview-link");

const { db } = await createTestDatabase();
const previewLinks = createPreviewLinks("a-session-secret-of-at-least-thirty-two-characters", (id) => previewKeyOf(db, id));
const context = { db, previewLinks, log: pino({ level: "silent" }), env: { publicUrl: "https://news.example" } } as unknown as AppLoadContext;

const people: Record<string, { id: string; email: string; name: string; role: Role }> = {
  editor: { id: "editor-1", email: "editor@example.com", name: "Ed Itor", role: "editor" },
  ann: { id: "author-ann", email: "ann@example.com", name: "Ann", role: "author" },
  bob: { id: "author-bob", email: "bob@example.com", name: "Bob", role: "author" },
};

beforeAll(async () => {
  for (const person of Object.values(people)) await db.insert(user).values({ id: person.id, name: person.name, email: person.email, emailVerified: true });
});

async function draftBy(who: string, slug: string) {
  const [row] = await db.insert(articles).values({ title: `Draft ${slug}`, slug, content: "Body", status: "draft", createdById: people[who]!.id }).returning();
  return row!;
}

/** POSTs to /api/admin/articles/:id/preview-link as `who` (an intent, or none: make a link); the status and body. */
async function post(who: string, id: string, intent?: string) {
  signedIn.user = people[who]!;
  const body = new URLSearchParams(intent ? { intent } : {});
  const request = new Request(`http://localhost/api/admin/articles/${id}/preview-link`, { method: "POST", body });
  const answer = (await action({ request, params: { id }, context } as never)) as unknown as { data: Record<string, unknown>; init: ResponseInit | null };
  return { status: answer.init?.status ?? 200, body: answer.data };
}

/** What opening a shared link answers: 200 with the story's title, or the status thrown. */
async function open(url: unknown) {
  const path = new URL(String(url)).pathname;
  try {
    const answer = (await sharedPreviewLoader({ params: { token: path.replace("/preview/", "") }, context, request: new Request(`http://localhost${path}`) } as never)) as unknown as {
      data: { article: { title: string } };
    };
    return `200 ${answer.data.article.title}`;
  } catch (thrown) {
    return String((thrown as { init?: { status?: number } }).init?.status ?? thrown);
  }
}

describe("Revoke preview links", () => {
  it("every link made before stops opening (404) and a new one opens; the answer says so and the activity log names who did it", async () => {
    const draft = await draftBy("ann", "revoked-by-editor");
    const first = await post("editor", draft.id);
    const second = await post("ann", draft.id);
    expect(first.status).toBe(201);
    expect(await open(first.body.url)).toBe("200 Draft revoked-by-editor");
    expect(await open(second.body.url)).toBe("200 Draft revoked-by-editor");

    const revoked = await post("editor", draft.id, "revoke");
    expect(revoked).toEqual({ status: 200, body: { revoked: true } });
    expect(await open(first.body.url)).toBe("404");
    expect(await open(second.body.url)).toBe("404");
    const fresh = await post("editor", draft.id);
    expect(await open(fresh.body.url)).toBe("200 Draft revoked-by-editor");

    const trail = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.objectId, draft.id), eq(auditEvents.kind, "article.revoke_preview_links")));
    expect(trail).toHaveLength(1);
    expect(trail[0]).toMatchObject({ actorId: "editor-1", actorName: "Ed Itor (editor@example.com)", objectType: "article", objectLabel: "Draft revoked-by-editor" });
  });

  it("an author revokes the links of their own draft only: another's is refused with 403 and its links still open", async () => {
    const draft = await draftBy("ann", "anns-own-draft");
    const link = await post("ann", draft.id);
    const refused = await post("bob", draft.id, "revoke");
    expect(refused.status).toBe(403);
    expect(await open(link.body.url)).toBe("200 Draft anns-own-draft");
    expect(await db.select().from(auditEvents).where(eq(auditEvents.objectId, draft.id))).toHaveLength(0);

    expect((await post("ann", draft.id, "revoke")).status).toBe(200);
    expect(await open(link.body.url)).toBe("404");
  });

  it("an unknown story is 404", async () => {
    expect((await post("editor", "0f1c0a52-3b7e-4b8a-9a55-0c3f1e2d4b6a", "revoke")).status).toBe(404);
  });
});
