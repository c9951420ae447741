import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { describe, expect, test } from "vitest";
import { isAppError } from "../app/lib/app-error";
import { closeHttpServer, listen, readyMessage, urlOf } from "./http-server";
import { recordingLogger } from "./middleware/test-app";

describe("listening", () => {
  test("resolves with the address really bound: PORT 0 is a free port", async () => {
    const server = http.createServer((_req, res) => res.end("ok"));
    try {
      const address = await listen(server, 0, "127.0.0.1");
      expect(address.address).toBe("127.0.0.1");
      expect(address.port).toBeGreaterThan(0);
      expect(await (await fetch(`${urlOf(address)}/`)).text()).toBe("ok");
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test("a port in use is a start_failed AppError naming PORT and HOST, for one line in the log", async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const failure = await listen(http.createServer(), port, "127.0.0.1").catch((error: unknown) => error);
      expect(isAppError(failure, "start_failed")).toBe(true);
      expect((failure as Error).message).toBe(`port ${port} is already in use (HOST 127.0.0.1): stop what runs there or set PORT to another port`);
    } finally {
      blocker.close();
    }
  });
});

describe("the start's last line", () => {
  test("names the address really listened on, what was asked for, and the public URL", () => {
    const address = { address: "0.0.0.0", family: "IPv4", port: 3000 };
    expect(readyMessage(address, { HOST: "0.0.0.0", PORT: 3000, publicUrl: "http://localhost:3000" })).toBe(
      "Frontpage is ready: listening on http://0.0.0.0:3000 (HOST 0.0.0.0, PORT 3000), public URL http://localhost:3000",
    );
    expect(readyMessage({ address: "127.0.0.1", family: "IPv4", port: 41234 }, { HOST: "127.0.0.1", PORT: 0, publicUrl: "https://news.example" })).toBe(
      "Frontpage is ready: listening on http://127.0.0.1:41234 (HOST 127.0.0.1, PORT 0), public URL https://news.example",
    );
  });

  test("an IPv6 address is written in brackets", () => {
    expect(urlOf({ address: "::", family: "IPv6", port: 3000 })).toBe("http://[::]:3000");
    expect(urlOf({ address: "::1", family: "IPv6", port: 8080 })).toBe("http://[::1]:8080");
  });
});

/** A GET on a connection of its own (no keep-alive), resolving with the whole body. */
function get(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http.get(url, { agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve(body));
      res.on("error", reject);
    }).on("error", reject);
  });
}

describe("closing the HTTP server", () => {
  test("a request in flight finishes; event streams are ended at once; then it resolves", async () => {
    let finish: () => void = () => {};
    const server = http.createServer((_req, res) => {
      res.write("started ");
      finish = () => res.end("finished");
    });
    const address = await listen(server, 0, "127.0.0.1");
    const arrived = new Promise((resolve) => server.once("request", resolve));
    const answer = get(urlOf(address));
    await arrived;
    let streamsEnded = false;
    const closed = closeHttpServer(server, { graceMs: 5000, log: recordingLogger().log, endStreams: () => (streamsEnded = true) });
    expect(streamsEnded).toBe(true);
    finish();
    expect(await answer).toBe("started finished");
    await closed;
    expect(server.listening).toBe(false);
  });

  test("after the grace period, whatever is left is cut", async () => {
    const server = http.createServer((_req, res) => res.write("never ends"));
    const address = await listen(server, 0, "127.0.0.1");
    // Close only once the request is in (a fixed wait is too short on a loaded machine).
    const arrived = new Promise((resolve) => server.once("request", resolve));
    const answer = get(urlOf(address)).catch(() => "cut");
    await arrived;
    const { log, entries } = recordingLogger();
    await closeHttpServer(server, { graceMs: 200, log, endStreams: () => {} });
    expect(await answer).toBe("cut");
    expect(entries().map((e) => e.msg)).toEqual(["grace period over; closing remaining connections"]);
  });
});
