import express from "express";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { errorHandler } from "./error-handler";
import { recordingLogger, serve } from "./test-app";

const { log, entries } = recordingLogger();
let origin = "";
let close: () => Promise<void>;
beforeAll(async () => {
  const app = express();
  app.get("/refused/:status", (req) => {
    throw Object.assign(new Error("refused"), { status: Number(req.params.status) });
  });
  app.get("/broken", () => {
    throw new Error("secret database detail");
  });
  app.get("/half-sent", (_req, res, next) => {
    res.write("partial");
    next(new Error("failed midway"));
  });
  app.get("/aborted", (_req, res, next) => {
    res.write("partial");
    next(Object.assign(new Error("Request aborted"), { code: "ECONNABORTED" }));
  });
  app.use(errorHandler(log));
  ({ origin, close } = await serve(app));
});
afterAll(() => close());

describe("the error handler", () => {
  test("Express's own refusals keep their status with a plain answer", async () => {
    const bad = await fetch(`${origin}/refused/400`);
    expect([bad.status, await bad.text()]).toEqual([400, "Bad Request"]);
    const missing = await fetch(`${origin}/refused/404`);
    expect([missing.status, await missing.text()]).toEqual([404, "Not Found"]);
    expect(entries().at(-1)).toMatchObject({ msg: "request refused", status: 404, path: "/refused/404" });
  });

  test("anything else is a 500 that does not show the cause, which the log keeps", async () => {
    const response = await fetch(`${origin}/broken`);
    expect(response.status).toBe(500);
    expect(await response.text()).toBe("Internal Server Error");
    expect(entries().at(-1)).toMatchObject({ msg: "unhandled request error", path: "/broken", err: { message: "secret database detail" } });
  });

  test("a client that went away (a cancelled image) is no error: no stack trace, nothing above debug", async () => {
    const before = entries().length;
    await (await fetch(`${origin}/aborted`)).text();
    const logged = entries().slice(before);
    expect(logged.map((e) => e.msg)).toEqual(["client went away"]);
    expect(logged.some((e) => e.err || (e.level as number) > 20)).toBe(false);
  });

  test("an answer already under way is ended, not left hanging", async () => {
    const response = await fetch(`${origin}/half-sent`);
    expect(await response.text()).toBe("partial");
  });
});
