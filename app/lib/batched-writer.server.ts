import { isDataException } from "~/db/pg-errors";
import type { Logger } from "./logger.server";

/**
 * What the recorders that buffer counts in memory and write them in batches share (the view, ad and
 * audience recorders): the timer, start and stop, and a flush that takes what waits, writes it, and on
 * a passing database error puts it back for the next flush (a value the database refuses is dropped).
 * Concurrent flushes share one write. A recorder keeps its buffers and says how to take them
 * (`take`), write them (`write`) and put them back under its caps (`putBack`).
 */
export abstract class BatchedWriter<Batch> {
  private timer: NodeJS.Timeout | null = null;
  /** The write under way, if any (a flush that finds one waits for it first). */
  protected flushing: Promise<void> | null = null;

  /** `noun` names what is written in the log's messages ("page views": "could not write page views; will retry"). */
  protected constructor(
    protected readonly log: Logger,
    private readonly noun: string,
  ) {}

  /** Takes everything waiting (the buffers swapped for empty ones), or null when nothing waits. */
  protected abstract take(): Batch | null;
  /** Writes a batch taken. */
  protected abstract write(batch: Batch): Promise<void>;
  /** Puts a batch whose write failed back in front of what arrived meanwhile, within the caps. */
  protected abstract putBack(batch: Batch): void;

  /** What the log says of a batch dropped, besides its error (its size). */
  protected droppedFields(_batch: Batch): Record<string, unknown> {
    return {};
  }

  /** What the timer runs (default: a flush). */
  protected tick(): Promise<void> {
    return this.flush();
  }

  start(intervalMs = 1000) {
    this.timer = setInterval(() => void this.tick(), intervalMs);
    this.timer.unref();
  }

  async stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }

  /** Writes everything waiting so far. Concurrent calls share one write. */
  async flush(): Promise<void> {
    if (this.flushing) await this.flushing;
    const batch = this.take();
    if (batch === null) return;
    this.flushing = this.write(batch)
      .catch((error: unknown) => {
        if (isDataException(error)) {
          // Values the database refuses would fail every retry and hold back everything after them.
          this.log.error({ err: error, ...this.droppedFields(batch) }, `dropped ${this.noun} the database refuses`);
          return;
        }
        // Put back so the next flush retries; nothing is lost on a passing database error.
        this.log.error({ err: error }, `could not write ${this.noun}; will retry`);
        this.putBack(batch);
      })
      .finally(() => {
        this.flushing = null;
      });
    await this.flushing;
  }
}
