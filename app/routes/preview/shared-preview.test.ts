import type { AppLoadContext } from "react-router";
import { describe, expect, it } from "vitest";
import { createPreviewLinks, PREVIEW_LINK_DAYS } from "~/domain/articles/preview-links.server";
import { loader } from "./shared-preview";

// The route's answers before any article is read: an expired link is 410 (it was real once), a
// forged one 404, both never stored and never indexed. (The journey with a real draft is in
// tests/e2e/publishing.spec.ts.)
// Every story's key is the empty one here: a forged link is refused by its signature.
const previewLinks = createPreviewLinks("a-session-secret-of-at-least-thirty-two-characters", async () => "");
const db = new Proxy({}, { get: () => expect.fail("the database was read for a refused link") });
const context = { previewLinks, db } as unknown as AppLoadContext;
const ID = "6f1c0a52-3b7e-4b8a-9a55-0c3f1e2d4b6a";

async function answerFor(token: string) {
  try {
    await loader({ params: { token }, context, request: new Request(`http://localhost/preview/${token}`) } as Parameters<typeof loader>[0]);
    return { status: "answered" };
  } catch (thrown) {
    const init = (thrown as { init?: { status?: number; headers?: Record<string, string> } }).init;
    if (!init?.status) throw thrown;
    return { status: init.status, headers: Object.fromEntries(new Headers(init.headers).entries()) };
  }
}

describe("GET /preview/:token", () => {
  it("an expired link answers 410, never stored or indexed", async () => {
    const old = await previewLinks.create(ID, new Date(Date.now() - (PREVIEW_LINK_DAYS + 1) * 24 * 60 * 60 * 1000));
    expect(await answerFor(old.path.replace("/preview/", ""))).toMatchObject({
      status: 410,
      headers: { "cache-control": "no-store", "x-robots-tag": "noindex, nofollow" },
    });
  });

  it("a forged link answers 404", async () => {
    const forged = await createPreviewLinks("someone-elses-secret-someone-elses-secret", async () => "").create(ID);
    expect(await answerFor(forged.path.replace("/preview/", ""))).toMatchObject({ status: 404 });
    expect(await answerFor("nonsense")).toMatchObject({ status: 404 });
  });
});
