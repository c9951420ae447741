import fs from "node:fs";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";

// A real SMTP server (npm smtp-server) that takes newsletters in tests and in the benchmark (issue 30):
// it counts the messages it accepts and the distinct recipients, keeps the messages parsed only when
// asked (a benchmark's 100,000 are streamed to nothing), and answers as told for chosen addresses:
// 550 (refused for good) or 451 (try again later, N times, then accepted).
//
// In a test:      const sink = await startSmtpSink({ keep: true }); … sink.url … await sink.stop()
// In a process:   node --import tsx tests/setup/smtp-sink.ts --port 2525 --stats-file /tmp/sink.json
//                   [--keep-dir DIR] [--reject ADDRESS]… [--defer ADDRESS:TIMES]…
//   It writes its stats (JSON) to --stats-file every 200 ms and when stopped (SIGTERM/SIGINT), saves each
//   accepted message as DIR/<n>.eml with --keep-dir, and prints "listening <port>" once it listens.
//   Started with an IPC channel (fork), it answers {type: "stats"} with {type: "stats", stats} and takes
//   {type: "rule", address, rule} and {type: "reset"}.

export interface SinkRule {
  /** 550: every delivery to the address is refused; 451: the next `times` are, then it is accepted. */
  code: 550 | 451;
  times?: number;
}

export interface SinkStats {
  /** Messages accepted (one per recipient here: a newsletter message has one). */
  accepted: number;
  /** Distinct recipient addresses among the accepted messages. */
  recipients: number;
  /** Accepted messages to an address that had already received one. */
  duplicates: number;
  /** Deliveries refused, 550 or 451. */
  refused: number;
  /** Connections opened since the start. */
  connections: number;
}

export interface SinkMessage {
  to: string[];
  from: string;
  subject: string;
  /** Header names lower-cased, values as written (unfolded). */
  headers: Map<string, string>;
  html: string;
  text: string;
  raw: string;
}

export interface SmtpSink {
  port: number;
  /** smtp://127.0.0.1:<port> */
  url: string;
  stats(): SinkStats;
  /** The parsed messages (with `keep`), in the order accepted. */
  messages: SinkMessage[];
  /** How many messages each address received. */
  receivedBy(address: string): number;
  setRule(address: string, rule: SinkRule | null): void;
  /** Forgets counts, messages and rules. */
  reset(): void;
  /** Waits until `n` messages in all have been accepted (or throws after `ms`). */
  waitForAccepted(n: number, ms?: number): Promise<void>;
  stop(): Promise<void>;
}

export interface SinkOptions {
  port?: number;
  host?: string;
  /** Keep every accepted message parsed (headers, html, text). Off: counted and dropped unread. */
  keep?: boolean;
  /** Save every accepted message as <n>.eml in this folder. */
  keepDir?: string;
  rules?: Record<string, SinkRule>;
}

const normal = (address: string) => address.trim().toLowerCase();

export async function startSmtpSink(options: SinkOptions = {}): Promise<SmtpSink> {
  const rules = new Map<string, SinkRule & { left: number }>();
  const setRule = (address: string, rule: SinkRule | null) => {
    if (rule) rules.set(normal(address), { ...rule, left: rule.times ?? 1 });
    else rules.delete(normal(address));
  };
  for (const [address, rule] of Object.entries(options.rules ?? {})) setRule(address, rule);
  const perAddress = new Map<string, number>();
  const counts = { accepted: 0, duplicates: 0, refused: 0, connections: 0 };
  const messages: SinkMessage[] = [];
  let saved = 0;
  if (options.keepDir) fs.mkdirSync(options.keepDir, { recursive: true });

  const accept = (to: string[]) => {
    for (const address of to) {
      const n = perAddress.get(address) ?? 0;
      if (n > 0) counts.duplicates++;
      perAddress.set(address, n + 1);
      counts.accepted++;
    }
  };

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    // A benchmark's pool keeps its connections open: no limit on their number or their messages.
    maxClients: 1000,
    // Stopping does not wait for a sender's pooled connections to hang up.
    closeTimeout: 200,
    onConnect(_session, callback) {
      counts.connections++;
      callback();
    },
    onRcptTo(address, _session, callback) {
      const rule = rules.get(normal(address.address));
      if (rule?.code === 550) {
        counts.refused++;
        return callback(Object.assign(new Error(`5.1.1 <${address.address}>: Recipient address rejected: user unknown`), { responseCode: 550 }));
      }
      if (rule?.code === 451 && rule.left > 0) {
        rule.left--;
        counts.refused++;
        return callback(Object.assign(new Error(`4.7.1 <${address.address}>: Try again later`), { responseCode: 451 }));
      }
      callback();
    },
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback) {
      const to = session.envelope.rcptTo.map((r) => normal(r.address));
      if (!options.keep && !options.keepDir) {
        // Counted and dropped: nothing is buffered or parsed.
        stream.on("end", () => {
          accept(to);
          callback();
        });
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks);
        accept(to);
        if (options.keepDir) fs.writeFileSync(path.join(options.keepDir, `${String(++saved).padStart(7, "0")}.eml`), raw);
        if (!options.keep) return callback();
        simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true })
          .then((parsed) => {
            const headers = new Map<string, string>();
            for (const line of parsed.headerLines) headers.set(line.key, line.line.slice(line.line.indexOf(":") + 1).replace(/\r?\n[ \t]+/g, " ").trim());
            messages.push({
              to,
              from: parsed.from?.text ?? "",
              subject: parsed.subject ?? "",
              headers,
              html: typeof parsed.html === "string" ? parsed.html : "",
              text: parsed.text ?? "",
              raw: raw.toString("utf8"),
            });
            callback();
          })
          .catch((error: Error) => callback(error));
      });
    },
  });
  server.on("error", () => {
    // A client that drops its connection mid-message (a killed sender) is no fault of the sink.
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;

  const stats = (): SinkStats => ({ ...counts, recipients: perAddress.size });
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    stats,
    messages,
    receivedBy: (address) => perAddress.get(normal(address)) ?? 0,
    setRule,
    reset() {
      perAddress.clear();
      messages.length = 0;
      rules.clear();
      Object.assign(counts, { accepted: 0, duplicates: 0, refused: 0 });
    },
    async waitForAccepted(n, ms = 20_000) {
      const until = Date.now() + ms;
      while (counts.accepted < n) {
        if (Date.now() > until) throw new Error(`the SMTP sink accepted ${counts.accepted} messages, not ${n}, in ${ms} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The command line: `--port N --stats-file F [--keep-dir D] [--reject A]… [--defer A:TIMES]…`. */
function argsOf(argv: string[]): { port: number; statsFile: string | null; keepDir: string | null; rules: Record<string, SinkRule> } {
  const out = { port: 2525, statsFile: null as string | null, keepDir: null as string | null, rules: {} as Record<string, SinkRule> };
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i + 1];
    switch (argv[i]) {
      case "--port":
        out.port = Number(value);
        i++;
        break;
      case "--stats-file":
        out.statsFile = value ?? null;
        i++;
        break;
      case "--keep-dir":
        out.keepDir = value ?? null;
        i++;
        break;
      case "--reject":
        out.rules[value!] = { code: 550 };
        i++;
        break;
      case "--defer": {
        const at = value!.lastIndexOf(":");
        out.rules[value!.slice(0, at)] = { code: 451, times: Number(value!.slice(at + 1)) };
        i++;
        break;
      }
      default:
        throw new Error(`smtp-sink: unknown argument ${argv[i]}`);
    }
  }
  return out;
}

async function main() {
  const args = argsOf(process.argv.slice(2));
  const sink = await startSmtpSink({ port: args.port, ...(args.keepDir ? { keepDir: args.keepDir } : {}), rules: args.rules });
  const writeStats = () => {
    if (!args.statsFile) return;
    const tmp = `${args.statsFile}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify({ ...sink.stats(), rssBytes: process.memoryUsage().rss }));
    fs.renameSync(tmp, args.statsFile);
  };
  writeStats();
  const timer = setInterval(writeStats, 200);
  process.on("message", (message: { type?: string; address?: string; rule?: SinkRule | null }) => {
    if (message.type === "stats") process.send?.({ type: "stats", stats: sink.stats() });
    else if (message.type === "rule" && message.address) sink.setRule(message.address, message.rule ?? null);
    else if (message.type === "reset") sink.reset();
  });
  const stop = async () => {
    clearInterval(timer);
    writeStats();
    await sink.stop();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
  process.stdout.write(`listening ${sink.port}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
