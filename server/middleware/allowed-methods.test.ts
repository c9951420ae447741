import http from "node:http";
import express from "express";
import { afterAll, describe, expect, it } from "vitest";
import { allowedMethods, NUL_ADDRESS_REFUSED } from "./allowed-methods";
import { recordingLogger, serve } from "./test-app";

// Methods the site never uses answer at the door (issue 12): TRACE 405 and no stack trace in the log.

const { log, entries } = recordingLogger();
const app = express();
app.use(allowedMethods(log));
app.all("/{*path}", () => {
  throw new Error("routing reached");
});
app.use(((error, _req, res, _next) => {
  log.error({ err: error }, "unhandled request error");
  res.status(500).send("Internal Server Error");
}) as express.ErrorRequestHandler);
const { origin, close } = await serve(app);
afterAll(close);

/** A raw request (fetch refuses TRACE): status, Allow header and body. */
function send(method: string, path = "/"): Promise<{ status: number; allow?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${origin}${path}`, { method }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, allow: res.headers.allow, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("allowed methods", () => {
  it("TRACE, PUT, DELETE, PATCH and PROPFIND answer 405 with Allow, and log one line without a stack", async () => {
    for (const method of ["TRACE", "PUT", "DELETE", "PATCH", "PROPFIND"]) {
      expect(await send(method, "/article/x"), method).toEqual({ status: 405, allow: "GET, HEAD, POST, OPTIONS", body: "Method Not Allowed" });
    }
    const logged = entries();
    expect(logged.filter((e) => e.msg === "method not allowed").map((e) => e.method)).toEqual(["TRACE", "PUT", "DELETE", "PATCH", "PROPFIND"]);
    expect(logged.some((e) => e.err || e.msg === "unhandled request error")).toBe(false);
  });

  it("OPTIONS answers 204 with the methods allowed, and nothing else", async () => {
    expect(await send("OPTIONS", "/admin/settings")).toEqual({ status: 204, allow: "GET, HEAD, POST, OPTIONS", body: "" });
  });

  it("an address with an escaped NUL, in the path or the query, answers 400 with a message and logs no stack", async () => {
    for (const path of ["/article/a%00b", "/search?q=a%00b", "/category/%00"]) {
      expect(await send("GET", path), path).toEqual({ status: 400, allow: undefined, body: NUL_ADDRESS_REFUSED });
    }
    expect(entries().filter((e) => e.msg === "NUL in the address refused")).toHaveLength(3);
    expect(entries().some((e) => e.err)).toBe(false);
  });

  it("GET, HEAD and POST go on to routing", async () => {
    for (const method of ["GET", "POST"]) expect((await send(method)).status, method).toBe(500);
    expect(entries().filter((e) => e.msg === "unhandled request error")).toHaveLength(2);
  });
});
