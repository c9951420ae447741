import type http from "node:http";
import { describe, expect, test } from "vitest";
import type { AudienceLoad } from "../app/domain/audience/audience-recorder.server";
import { audienceCounter } from "./audience-counter";

describe("audienceCounter", () => {
  test("hands the recorder the path without its query, the query, the referrer, the agent and the derived address", () => {
    const recorded: AudienceLoad[] = [];
    const count = audienceCounter({ record: (load) => void recorded.push(load) }, (req) => `addr-of:${req.socket.remoteAddress}`);
    const req = {
      url: "/article/floods.data?utm_source=newsletter&utm_campaign=morning&_routes=routes%2Fsite%2Farticle",
      headers: { "user-agent": "Agent/1.0", referer: "https://www.google.com/" },
      socket: { remoteAddress: "10.0.0.9" },
    } as unknown as http.IncomingMessage;
    count("/article/floods?utm_source=newsletter&utm_campaign=morning", "floods", req);
    expect(recorded).toEqual([
      {
        path: "/article/floods",
        articleSlug: "floods",
        address: "addr-of:10.0.0.9",
        userAgent: "Agent/1.0",
        referrer: "https://www.google.com/",
        query: "utm_source=newsletter&utm_campaign=morning&_routes=routes%2Fsite%2Farticle",
      },
    ]);
  });

  test("a load with no agent, referrer or query records empty ones", () => {
    const recorded: AudienceLoad[] = [];
    const count = audienceCounter({ record: (load) => void recorded.push(load) }, () => "192.0.2.1");
    count("/", null, { url: "/", headers: {}, socket: {} } as unknown as http.IncomingMessage);
    expect(recorded).toEqual([{ path: "/", articleSlug: null, address: "192.0.2.1", userAgent: "", referrer: "", query: "" }]);
  });
});
