import nodemailer from "nodemailer";
import { afterAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../tests/setup/test-database";
import { MemoryWatch, memoryOf, nodeChildrenOf, seedSubscribers, startSinkProcess, type SinkProcess } from "./bench-newsletter";

// The newsletter bench's pieces (issue 30): its seeding, the sink in its own process, the memory
// sampling. The whole bench runs by `npm run bench -- --newsletter`, never in the test suite.

describe("the newsletter bench's pieces", () => {
  let sink: SinkProcess | null = null;
  afterAll(async () => {
    await sink?.stop();
  });

  it("makes the active subscribers of the Stories newsletter in one statement", async () => {
    const { pool } = await createTestDatabase();
    await seedSubscribers(pool, 2500);
    const { rows } = await pool.query<{ active: number; stories: number; addresses: number }>(
      `select (select count(*) from subscribers where status = 'active')::int as active,
         (select count(*) from subscriptions x join newsletters n on n.id = x.newsletter_id where n.slug = 'stories')::int as stories,
         (select count(distinct lower(email)) from subscribers)::int as addresses`,
    );
    expect(rows[0]).toEqual({ active: 2500, stories: 2500, addresses: 2500 });
  });

  it("runs the SMTP sink in a process of its own, counting what it accepts, its recipients and duplicates; reset forgets them", async () => {
    sink = await startSinkProcess();
    expect(sink.pid).not.toBe(process.pid);
    const transport = nodemailer.createTransport({ url: sink.url, pool: true, maxConnections: 2 });
    for (const to of ["a@bench.example", "b@bench.example", "a@bench.example"]) await transport.sendMail({ from: "n@bench.example", to, subject: "s", text: "t" });
    transport.close();
    expect(await sink.stats()).toMatchObject({ accepted: 3, recipients: 2, duplicates: 1 });
    await sink.reset();
    expect(await sink.stats()).toMatchObject({ accepted: 0, recipients: 0, duplicates: 0 });
    // Its memory is read from /proc, and it is one of this process's Node children.
    expect(memoryOf(sink.pid)!.hwmMb).toBeGreaterThan(10);
    expect(nodeChildrenOf(process.pid)).toContain(sink.pid);
  });

  it("keeps each process's peak, and the last one of a process that is gone", async () => {
    const watch = new MemoryWatch();
    watch.watch(process.pid, "bench", "child");
    const peak = memoryOf(process.pid)!.hwmMb;
    expect(watch.byLabel().find((row) => row.label === "bench")!.mb).toBeGreaterThanOrEqual(peak);
    const child = sink!;
    await child.stop();
    sink = null;
    watch.sample();
    expect(memoryOf(child.pid)).toBeNull();
    // The sink was sampled as this process's child before it stopped: its reading stays.
    expect(watch.byLabel().find((row) => row.label === "child")?.mb ?? 0).toBeGreaterThan(10);
  });
});
