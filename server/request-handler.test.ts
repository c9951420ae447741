import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { PageCache } from "./page-cache";

// React Router itself is replaced by a stand-in that answers like it does: a page for GET, the same
// status and headers without a body for HEAD (React Router drops the body of a HEAD answer).
vi.mock("react-router", () => ({
  createRequestHandler: () => async (request: Request) => {
    const body = `<!doctype html><p>page ${new URL(request.url).pathname}</p>`;
    return new Response(request.method === "HEAD" ? null : body, { status: 200, headers: { "Content-Type": "text/html; charset=utf-8" } });
  },
}));

const { createAppHandler } = await import("./request-handler");

const cache = new PageCache();
let origin = "";
let server: ReturnType<ReturnType<typeof express>["listen"]>;

beforeAll(async () => {
  const app = express();
  app.all("/{*path}", createAppHandler({ build: {} as never, mode: "production", cache, getLoadContext: () => ({}) as never }));
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe("the page cache in the request handler", () => {
  test("a HEAD request never stores its empty body for the GETs that follow", async () => {
    const head = await fetch(`${origin}/category/world`, { method: "HEAD" });
    expect(head.status).toBe(200);
    const get = await fetch(`${origin}/category/world`);
    expect(get.status).toBe(200);
    expect(await get.text()).toBe("<!doctype html><p>page /category/world</p>");
  });

  test("a HEAD after a GET is answered from the stored page, without a body", async () => {
    expect(await (await fetch(`${origin}/about`)).text()).toContain("page /about");
    const head = await fetch(`${origin}/about`, { method: "HEAD", headers: { "Accept-Encoding": "identity" } });
    expect(head.headers.get("x-cache")).toBe("HIT");
    expect(await head.text()).toBe("");
  });
});
