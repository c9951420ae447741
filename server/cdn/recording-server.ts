import http from "node:http";
import type { AddressInfo } from "node:net";

// A real HTTP server standing for a CDN's API in the purge tests (decision 0045): it records every
// request (method, path, headers, body) and answers with what the test queued (200 `{"success":true}`
// once the queue is empty).

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface RecordingServer {
  url: string;
  requests: RecordedRequest[];
  /** Answers the next requests with these statuses (and bodies), in order. */
  answer(...answers: { status: number; body?: string }[]): void;
  close(): Promise<void>;
}

/** Starts one on `port` (default: any free port; a given one stands for a CDN that comes up later). */
export async function startRecordingServer(port = 0): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const queued: { status: number; body?: string }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      const next = queued.shift() ?? { status: 200, body: JSON.stringify({ success: true }) };
      res.writeHead(next.status, { "Content-Type": "application/json" });
      res.end(next.body ?? JSON.stringify({ success: next.status < 300 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    answer: (...answers) => queued.push(...answers),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
