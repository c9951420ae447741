/**
 * The live bench's readers (scripts/bench-live.ts forks two of these): a bounded load generator on
 * loopback holding many server-sent event streams open with raw node:http GETs, noting when each
 * `id:` line arrives. Driven over IPC:
 *   {type: "open", url, count}  → {type: "opened", open, failed, statuses}   (at most 100 connecting at once)
 *   {type: "report"}            → {type: "report", open, arrivals: {version: [ms, …]}}  (ms: performance.timeOrigin + now)
 *   {type: "close"}             → every connection closed, and the process exits.
 *
 * With `--hold` it is instead the baseline server: node:http answering every GET with the stream's
 * headers and `retry: 2000`, holding the response open (nothing else), and printing `listening {port}`.
 * With `--door {databaseUrl}` it is the site's live door alone (server/live-door.ts, its hub on a change
 * feed of that database) in a fresh process, the same way. Both answer {type: "memory"} with their RSS
 * and heap in use after a full GC (run with --expose-gc), in KB.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

const now = () => performance.timeOrigin + performance.now();

/** This process's memory after a full collection (the heap without garbage). */
function memory() {
  (globalThis as { gc?: () => void }).gc?.();
  const usage = process.memoryUsage();
  return { type: "memory", rssKb: usage.rss / 1024, heapKb: usage.heapUsed / 1024, externalKb: (usage.external + usage.arrayBuffers) / 1024 };
}

if (process.argv.includes("--hold") || process.argv.includes("--door")) {
  let handler: (req: http.IncomingMessage, res: http.ServerResponse) => void;
  if (process.argv.includes("--door")) {
    const databaseUrl = process.argv[process.argv.indexOf("--door") + 1]!;
    const { createDb } = await import("../app/db/client.server");
    const { ChangeFeed } = await import("../app/lib/change-feed.server");
    const { createLogger } = await import("../app/lib/logger.server");
    const { securityHeaderWriter } = await import("../server/middleware/security-headers");
    const { liveDoor } = await import("../server/live-door");
    const log = createLogger("warn");
    const changes = new ChangeFeed(databaseUrl, log);
    await changes.start();
    // Every reader here comes from 127.0.0.1: no per-address share.
    const door = liveDoor({ db: createDb(databaseUrl, 2).db, changes, writeSecurityHeaders: securityHeaderWriter({ closing: () => false }), log, maxPerAddress: Infinity });
    handler = (req, res) => {
      if (!door(req, res)) res.writeHead(404).end();
    };
  } else {
    const held = new Set<http.ServerResponse>();
    handler = (req, res) => {
      res.writeHead(200, { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store, no-transform" });
      res.write("retry: 2000\n\n");
      held.add(res);
      res.on("close", () => held.delete(res));
    };
  }
  const server = http.createServer(handler);
  server.listen(0, "127.0.0.1", () => console.log(`listening ${(server.address() as AddressInfo).port}`));
  process.on("message", (message: { type: string }) => {
    if (message.type === "memory") process.send!(memory());
  });
  process.on("disconnect", () => process.exit(0));
} else {
  const requests = new Set<http.ClientRequest>();
  const arrivals = new Map<string, number[]>();
  let open = 0;

  /** One reader: its stream's text is scanned for `id:` lines as it comes (an event may span chunks). */
  const connect = (url: string) =>
    new Promise<number>((resolve) => {
      const req = http.get(url, { agent: false, headers: { Accept: "text/event-stream" } });
      requests.add(req);
      req.on("error", () => resolve(0));
      req.setTimeout(30_000, () => req.destroy());
      req.on("response", (res) => {
        const status = res.statusCode ?? 0;
        if (status !== 200) {
          res.resume();
          requests.delete(req);
          resolve(status);
          return;
        }
        open++;
        req.setTimeout(0);
        res.setEncoding("utf8");
        let rest = "";
        res.on("data", (chunk: string) => {
          const at = now();
          const text = rest + chunk;
          let from = 0;
          for (;;) {
            const line = text.indexOf("\n", from);
            if (line === -1) break;
            if (text.startsWith("id: ", from)) {
              const id = text.slice(from + 4, line);
              let list = arrivals.get(id);
              if (!list) arrivals.set(id, (list = []));
              list.push(at);
            }
            from = line + 1;
          }
          rest = text.slice(from);
        });
        res.on("close", () => {
          open--;
          requests.delete(req);
        });
        resolve(200);
      });
    });

  process.on("message", async (message: { type: string; url?: string; count?: number }) => {
    if (message.type === "open") {
      const statuses: Record<string, number> = {};
      let next = 0;
      const worker = async () => {
        while (next < message.count!) {
          next++;
          const status = await connect(message.url!);
          statuses[status] = (statuses[status] ?? 0) + 1;
        }
      };
      await Promise.all(Array.from({ length: 100 }, worker));
      process.send!({ type: "opened", open, failed: message.count! - (statuses[200] ?? 0), statuses });
    } else if (message.type === "report") {
      process.send!({ type: "report", open, arrivals: Object.fromEntries(arrivals) });
    } else if (message.type === "close") {
      for (const req of requests) req.destroy();
      process.exit(0);
    }
  });
  process.on("disconnect", () => process.exit(0));
}
