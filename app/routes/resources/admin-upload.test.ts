import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import type { AppLoadContext } from "react-router";
import sharp from "sharp";
import { afterAll, beforeEach, describe, expect, test, vi } from "vitest";
import { media } from "~/db/schema";
import { createLocalStorage } from "~/lib/storage.server";
import { createTestDatabase } from "../../../tests/setup/test-database";

// The guard's own behaviour is tested with the accounts work; here it answers as the test says.
const guard = vi.hoisted(() => ({ allow: true }));
vi.mock("~/domain/accounts/guard.server", async () => {
  const { data } = await import("react-router");
  return {
    requireCapabilityApi: async () => {
      if (!guard.allow) throw data({ error: "Sign in required" }, { status: 401 });
      return { id: "u1", email: "admin@example.com", role: "admin" };
    },
  };
});
const { action, loader } = await import("./admin-upload");

const { db } = await createTestDatabase();
const root = await fs.mkdtemp(path.join(os.tmpdir(), "frontpage-admin-upload-"));
const storage = createLocalStorage(root);
afterAll(() => fs.rm(root, { recursive: true, force: true }));
const context = { db, storage, log: pino({ level: "silent" }) } as unknown as AppLoadContext;

const MB = 1024 * 1024;
const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#36c" } }).png().toBuffer();

function request(kind: string, body: Buffer | string, fileName: string, type = "application/octet-stream") {
  const form = new FormData();
  form.append("file", new File([typeof body === "string" ? body : new Uint8Array(body)], fileName, { type }));
  return new Request(`http://localhost/api/admin/uploads/${kind}`, { method: "POST", body: form });
}

/** Runs the action and unwraps React Router's data() answer into status + JSON body. */
async function upload(kind: string, body: Buffer | string, fileName: string, type?: string) {
  try {
    const result = (await action({ request: request(kind, body, fileName, type), context, params: { kind } } as never)) as unknown as {
      data: Record<string, unknown>;
      init: ResponseInit | null;
    };
    return { status: result.init?.status ?? 200, body: result.data, headers: new Headers(result.init?.headers) };
  } catch (thrown) {
    const response = thrown as { data: Record<string, unknown>; init: ResponseInit | null };
    return { status: response.init?.status ?? 500, body: response.data, headers: new Headers(response.init?.headers) };
  }
}

async function storedFiles() {
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile());
}

beforeEach(async () => {
  guard.allow = true;
  await db.delete(media);
  await fs.rm(root, { recursive: true, force: true });
});

describe("POST /api/admin/uploads/:kind", () => {
  test("an image is stored and answered with 201 and the documented fields", async () => {
    const answer = await upload("image", png, "Front Page.png", "image/png");
    expect(answer.status).toBe(201);
    expect(answer.headers.get("Cache-Control")).toBe("no-store");
    expect(Object.keys(answer.body).sort()).toEqual(["contentType", "name", "originalName", "size", "url"]);
    expect(answer.body).toMatchObject({ originalName: "Front Page.png", contentType: "image/png", size: png.length });
    expect(answer.body.url).toBe(`/media/images/${answer.body.name}`);
    const [row] = await db.select().from(media);
    expect(row).toMatchObject({ bucket: "images", source: "library" });
  });

  test("a file whose bytes are not an accepted type is refused with 415, whatever its name says", async () => {
    const answer = await upload("image", "<html><script>alert(1)</script></html>", "innocent.png", "image/png");
    expect(answer.status).toBe(415);
    expect(answer.body).toEqual({ ok: false, code: "unsupported_type", error: "Only JPEG, PNG, GIF and WebP images are accepted.", fieldErrors: {} });
    expect(await db.select().from(media)).toHaveLength(0);
  });

  test("a PNG sent as a document is refused with 415", async () => {
    const answer = await upload("file", png, "report.pdf", "application/pdf");
    expect(answer.status).toBe(415);
    expect(answer.body.error).toBe("Only PDF, Word and Excel files are accepted.");
  });

  test("an image over 10 MB is refused with 413 and nothing is kept", async () => {
    const big = Buffer.alloc(10 * MB + 10);
    png.copy(big);
    const answer = await upload("image", big, "huge.png", "image/png");
    expect(answer.status).toBe(413);
    expect(answer.body.error).toBe("Image is larger than the 10 MB limit.");
    expect(await db.select().from(media)).toHaveLength(0);
    expect(await storedFiles()).toHaveLength(0);
  });

  test("an SVG favicon is refused; an SVG image is refused", async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>`;
    expect((await upload("favicon", svg, "f.svg", "image/svg+xml")).status).toBe(415);
    expect((await upload("image", svg, "i.svg", "image/svg+xml")).status).toBe(415);
  });

  test("an SVG logo is stored as a PNG in the branding source", async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="60" height="20"><rect width="60" height="20" fill="#900"/></svg>`;
    const answer = await upload("logo", svg, "brand.svg", "image/svg+xml");
    expect(answer.status).toBe(201);
    expect(answer.body.contentType).toBe("image/png");
    expect(answer.body.name).toMatch(/\.png$/);
    const [row] = await db.select().from(media);
    expect(row).toMatchObject({ contentType: "image/png", source: "branding" });
  });

  test("an unknown kind is refused with 400", async () => {
    const answer = await upload("script", png, "a.png", "image/png");
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe("Unknown upload kind. Use image, video, file, logo or favicon.");
  });

  test("a request without a multipart body is refused with 400", async () => {
    const result = (await action({
      request: new Request("http://localhost/api/admin/uploads/image", { method: "POST", body: "x", headers: { "content-type": "text/plain" } }),
      context,
      params: { kind: "image" },
    } as never)) as unknown as { data: { error: string }; init: ResponseInit };
    expect(result.init.status).toBe(400);
    expect(result.data.error).toBe("Send the file as multipart/form-data.");
  });

  test("without an admin the guard's refusal stands and nothing is stored", async () => {
    guard.allow = false;
    const answer = await upload("image", png, "a.png", "image/png");
    expect(answer.status).toBe(401);
    expect(await db.select().from(media)).toHaveLength(0);
  });

  test("GET is answered 405", async () => {
    const result = (await loader({ request: new Request("http://localhost/api/admin/uploads/image"), context, params: { kind: "image" } } as never)) as unknown as {
      init: ResponseInit;
    };
    expect(result.init.status).toBe(405);
  });
});
