import pino from "pino";
import { describe, expect, test, vi } from "vitest";
import { BatchedWriter } from "./batched-writer.server";

/** An error as the driver gives it (a SQLSTATE or system code), wrapped in `cause` as Drizzle does. */
function dbError(code: string, message: string) {
  return new Error("Failed query", { cause: Object.assign(new Error(message), { code }) });
}

/** Numbers buffered and written by a fake write: each call takes the next outcome, if any is queued. */
class NumberWriter extends BatchedWriter<number[]> {
  private waiting: number[] = [];
  readonly written: number[][] = [];
  /** Each write's outcome in turn: an error to throw, or a promise to wait for first. */
  readonly outcomes: (Error | Promise<void>)[] = [];
  writes = 0;

  constructor(
    readonly lines: { msg: string; [field: string]: unknown }[] = [],
    private readonly cap = 1000,
  ) {
    super(
      pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line) as { msg: string }) }),
      "numbers",
    );
  }

  add(...numbers: number[]) {
    this.waiting.push(...numbers);
  }

  pending() {
    return [...this.waiting];
  }

  protected take() {
    if (this.waiting.length === 0) return null;
    const batch = this.waiting;
    this.waiting = [];
    return batch;
  }

  protected async write(batch: number[]) {
    this.writes++;
    const outcome = this.outcomes.shift();
    if (outcome instanceof Error) throw outcome;
    if (outcome) await outcome;
    this.written.push(batch);
  }

  protected putBack(batch: number[]) {
    this.waiting = batch.concat(this.waiting).slice(-this.cap);
  }

  protected override droppedFields(batch: number[]) {
    return { numbers: batch.length };
  }
}

describe("BatchedWriter", () => {
  test("a flush with nothing waiting writes nothing", async () => {
    const writer = new NumberWriter();
    await writer.flush();
    expect(writer.writes).toBe(0);
  });

  test("a write that fails with a connection error puts the batch back (before what came meanwhile) and the next flush writes it", async () => {
    const writer = new NumberWriter();
    let release!: () => void;
    writer.outcomes.push(new Promise<void>((resolve) => (release = resolve)).then(() => Promise.reject(dbError("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:5432"))));
    writer.add(1, 2, 3);
    const failing = writer.flush();
    writer.add(4);
    release();
    await failing;
    expect(writer.written).toEqual([]);
    expect(writer.pending()).toEqual([1, 2, 3, 4]);
    expect(writer.lines.map((line) => line.msg)).toEqual(["could not write numbers; will retry"]);

    await writer.flush();
    expect(writer.written).toEqual([[1, 2, 3, 4]]);
    expect(writer.pending()).toEqual([]);
  });

  test("a batch put back keeps to the recorder's cap (its putBack's)", async () => {
    const writer = new NumberWriter([], 3);
    writer.outcomes.push(dbError("57P01", "terminating connection due to administrator command"));
    writer.add(1, 2, 3, 4, 5);
    await writer.flush();
    expect(writer.pending()).toEqual([3, 4, 5]);
  });

  test("a data exception drops the batch, logged with its size, and later batches are written", async () => {
    const writer = new NumberWriter();
    writer.outcomes.push(dbError("22021", 'invalid byte sequence for encoding "UTF8": 0x00'));
    writer.add(1, 2);
    await writer.flush();
    expect(writer.pending()).toEqual([]);
    expect(writer.lines).toHaveLength(1);
    expect(writer.lines[0]).toMatchObject({ msg: "dropped numbers the database refuses", numbers: 2, err: expect.objectContaining({ type: "Error" }) });

    writer.add(3);
    await writer.flush();
    expect(writer.written).toEqual([[3]]);
  });

  test("concurrent flushes share one write, and each returns once it is done", async () => {
    const writer = new NumberWriter();
    let release!: () => void;
    writer.outcomes.push(new Promise<void>((resolve) => (release = resolve)));
    writer.add(1, 2);
    let done = 0;
    const flushes = [writer.flush(), writer.flush(), writer.flush()].map((flush) => flush.then(() => done++));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(done).toBe(0);
    release();
    await Promise.all(flushes);
    expect(done).toBe(3);
    expect(writer.writes).toBe(1);
    expect(writer.written).toEqual([[1, 2]]);
  });

  test("a flush called during a write waits for it, then writes what came meanwhile", async () => {
    const writer = new NumberWriter();
    let release!: () => void;
    writer.outcomes.push(new Promise<void>((resolve) => (release = resolve)));
    writer.add(1);
    const first = writer.flush();
    writer.add(2);
    const second = writer.flush();
    release();
    await Promise.all([first, second]);
    expect(writer.written).toEqual([[1], [2]]);
  });

  test("start flushes on its timer; stop makes a last flush and the timer stops", async () => {
    const writer = new NumberWriter();
    writer.start(5);
    writer.add(1);
    await vi.waitFor(() => expect(writer.written).toEqual([[1]]));
    writer.add(2);
    await writer.stop();
    expect(writer.written).toEqual([[1], [2]]);
    writer.add(3);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(writer.written).toEqual([[1], [2]]);
    expect(writer.pending()).toEqual([3]);
  });
});
