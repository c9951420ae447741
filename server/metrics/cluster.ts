import cluster, { type Worker } from "node:cluster";
import { AggregatorRegistry } from "prom-client";
import type { Logger } from "../../app/lib/logger.server";
import { registry } from "./registry";

/** One process's metrics as prom-client gives them (getMetricsAsJSON): what crosses the IPC channel. */
type ProcessMetrics = Awaited<ReturnType<typeof registry.getMetricsAsJSON>>;

// One scrape shows the whole machine (decision 0047): the primary of a cluster asks each worker for
// its metrics over the cluster's IPC channel, adds its own, and adds them up with prom-client's
// AggregatorRegistry.aggregate (counters and histograms summed, series by series; the event-loop
// lag averaged as prom-client marks it). Every series carries its process's role, so the primary's
// memory and the workers' stay apart. A worker answering the public /metrics asks the primary for the
// whole. The messages are our own ("metrics:*": server/cluster.ts's are "database?" and "database"),
// not prom-client's clusterMetrics(): that one fails the whole scrape after 5 s when one worker does
// not answer (one being replaced, say) and leaves out the primary's own registry.

/** Primary → worker: send your registry's metrics. */
interface CollectRequest {
  type: "metrics:collect";
  id: number;
}
/** Worker → primary: its metrics (prom-client's getMetricsAsJSON), or null when they could not be read. */
interface CollectAnswer {
  type: "metrics:collected";
  id: number;
  metrics: ProcessMetrics | null;
}
/** Worker → primary: the whole machine's text, please (the public /metrics reached a worker). */
interface ScrapeRequest {
  type: "metrics:scrape";
  id: number;
}
/** Primary → worker: the text, or why not. */
interface ScrapeAnswer {
  type: "metrics:scraped";
  id: number;
  text: string | null;
}

type Message = CollectRequest | CollectAnswer | ScrapeRequest | ScrapeAnswer;

/** How long the primary waits for a worker's metrics: one that has not answered by then is left out of this scrape. */
export const WORKER_ANSWER_MS = 2000;

/** The text of `metrics` (several processes' getMetricsAsJSON) added up into one exposition. */
export async function aggregateText(metrics: ProcessMetrics[]): Promise<string> {
  return AggregatorRegistry.aggregate(metrics).metrics();
}

/** This process's metrics alone, as text (a single process). */
export function ownText(): Promise<string> {
  return registry.metrics();
}

let nextId = 0;

/**
 * In the primary: answers `scrape()` with the whole machine's metrics, and answers the workers that
 * ask for them. Starts listening to the workers' messages; call once.
 */
export function clusterScraper(log: Logger): { scrape(): Promise<string> } {
  const pending = new Map<number, { answers: ProcessMetrics[]; waiting: Set<Worker>; done: () => void }>();

  cluster.on("message", (worker: Worker, message: Message) => {
    if (message?.type === "metrics:collected") {
      const request = pending.get(message.id);
      if (!request || !request.waiting.delete(worker)) return;
      if (message.metrics) request.answers.push(message.metrics);
      if (request.waiting.size === 0) request.done();
    } else if (message?.type === "metrics:scrape") {
      scrape().then(
        (text) => worker.isConnected() && worker.send({ type: "metrics:scraped", id: message.id, text } satisfies ScrapeAnswer),
        (error: unknown) => {
          log.warn({ err: error }, "metrics: could not gather the cluster's metrics");
          if (worker.isConnected()) worker.send({ type: "metrics:scraped", id: message.id, text: null } satisfies ScrapeAnswer);
        },
      );
    }
  });

  async function scrape(): Promise<string> {
    const id = nextId++;
    const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => Boolean(worker?.isConnected()));
    const answers: ProcessMetrics[] = [];
    const waiting = new Set(workers);
    const gathered = new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        if (waiting.size > 0) log.warn({ workers: waiting.size }, "metrics: a worker did not send its metrics in time; this scrape leaves it out");
        resolve();
      }, WORKER_ANSWER_MS);
      pending.set(id, {
        answers,
        waiting,
        done: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
    for (const worker of workers) {
      try {
        worker.send({ type: "metrics:collect", id } satisfies CollectRequest);
      } catch {
        waiting.delete(worker);
      }
    }
    // A worker that exits meanwhile never answers: the timer ends the wait.
    if (waiting.size === 0) pending.get(id)!.done();
    const own = await registry.getMetricsAsJSON();
    await gathered;
    pending.delete(id);
    return aggregateText([own, ...answers]);
  }

  return { scrape };
}

/**
 * In a worker: answers the primary's requests for this process's metrics, and gives `scrape()`, which
 * asks the primary for the whole machine's (the public /metrics answered by this worker).
 */
export function workerMetrics(): { scrape(): Promise<string> } {
  const waiting = new Map<number, (text: string | null) => void>();
  process.on("message", (message: Message) => {
    if (message?.type === "metrics:collect") {
      registry.getMetricsAsJSON().then(
        (metrics) => process.send?.({ type: "metrics:collected", id: message.id, metrics } satisfies CollectAnswer),
        () => process.send?.({ type: "metrics:collected", id: message.id, metrics: null } satisfies CollectAnswer),
      );
    } else if (message?.type === "metrics:scraped") {
      waiting.get(message.id)?.(message.text);
    }
  });
  return {
    scrape() {
      const id = nextId++;
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => settle(null), WORKER_ANSWER_MS * 2);
        function settle(text: string | null) {
          clearTimeout(timer);
          waiting.delete(id);
          if (text === null) reject(new Error("the primary did not send the cluster's metrics"));
          else resolve(text);
        }
        waiting.set(id, settle);
        process.send!({ type: "metrics:scrape", id } satisfies ScrapeRequest);
      });
    },
  };
}
