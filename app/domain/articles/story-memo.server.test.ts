import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import type { ChangeEvent } from "~/lib/change-feed.server";
import { AUDIENCE_NOTICE } from "~/domain/audience/audience-recorder.server";
import { createStoryMemo } from "./story-memo.server";

function setUp(options: { ttlMs?: number; maxEntries?: number } = {}) {
  const changes = new EventEmitter<{ change: [ChangeEvent] }>();
  let clock = 1_000;
  const memo = createStoryMemo(changes, { ...options, now: () => clock });
  let reads = 0;
  const count = () => memo("category-count:city", async () => ++reads);
  return { changes, memo, count, advance: (ms: number) => (clock += ms) };
}

const publicChange = (ids: string[]): ChangeEvent => ({ table: "articles", op: "UPDATE", public: { ids, slugs: [], categories: [], authors: [] } });

describe("the story memo", () => {
  it("reads a value once and answers it again until a public story changes", async () => {
    const { changes, count } = setUp();
    expect(await count()).toBe(1);
    expect(await count()).toBe(1);
    changes.emit("change", publicChange(["a1"]));
    expect(await count()).toBe(2);
    expect(await count()).toBe(2);
  });

  it("keeps its values through a comment, and through a change to drafts or scheduled stories only", async () => {
    const { changes, count } = setUp();
    await count();
    changes.emit("change", { table: "comments", op: "INSERT", articles: ["tram-line-opens"] });
    changes.emit("change", publicChange([]));
    expect(await count()).toBe(1);
  });

  it("keeps its values through the audience's notice of counted loads (issue 42)", async () => {
    const { changes, count } = setUp();
    await count();
    changes.emit("change", JSON.parse(AUDIENCE_NOTICE) as ChangeEvent);
    expect(await count()).toBe(1);
  });

  it("reads again after a notice that does not say which stories changed, and after a lost connection", async () => {
    const { changes, count } = setUp();
    await count();
    changes.emit("change", { table: "authors", op: "UPDATE" });
    expect(await count()).toBe(2);
    changes.emit("change", { table: "*", op: "reconnect" });
    expect(await count()).toBe(3);
  });

  it("keeps a value at most ttlMs", async () => {
    const { count, advance } = setUp({ ttlMs: 60_000 });
    await count();
    advance(59_999);
    expect(await count()).toBe(1);
    advance(1);
    expect(await count()).toBe(2);
  });

  it("does not keep a failed read", async () => {
    const { memo } = setUp();
    let attempts = 0;
    const read = () =>
      memo("related:a1", async () => {
        attempts += 1;
        if (attempts === 1) throw new Error("database down");
        return ["a2"];
      });
    await expect(read()).rejects.toThrow("database down");
    expect(await read()).toEqual(["a2"]);
    expect(attempts).toBe(2);
  });

  it("readers asking while a value is being read share that one read", async () => {
    const { memo } = setUp();
    let reads = 0;
    const read = () => memo("author-count:x", () => new Promise<number>((resolve) => setTimeout(() => resolve(++reads), 5)));
    expect(await Promise.all([read(), read(), read()])).toEqual([1, 1, 1]);
  });

  it("holds at most maxEntries values", async () => {
    const { memo } = setUp({ maxEntries: 2 });
    let reads = 0;
    const read = (key: string) => memo(key, async () => ++reads);
    await read("a");
    await read("b");
    expect(await read("a")).toBe(1);
    await read("c");
    expect(await read("a")).toBe(4);
  });
});
