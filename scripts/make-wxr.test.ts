import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readWordPressExport } from "~/domain/import/wordpress-reader.server";
import { writeSyntheticWxr } from "./make-wxr";

describe("readWordPressExport: streaming a synthetic export", () => {
  it("reads 20,000 comments across 500 posts", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "wxr-synthetic-"));
    const out = path.join(dir, "synthetic.xml");
    try {
      const summary = await writeSyntheticWxr({ posts: 500, comments: 20_000, out });
      const counts: Record<string, number> = {};
      let comments = 0;
      let ids = 0;
      for await (const record of readWordPressExport(out)) {
        counts[record.type] = (counts[record.type] ?? 0) + 1;
        if (record.type === "post") {
          comments += record.comments.length;
          ids += new Set(record.comments.map((c) => c.sourceId)).size;
        }
      }
      const pingbacks = Math.floor((20_000 - 77) / 120) + 1;
      expect(counts).toMatchObject({ site: 1, author: 20, term: summary.categories + summary.tags, attachment: 500, post: 500 + summary.pages });
      expect(comments).toBe(20_000 - pingbacks);
      expect(ids).toBe(comments);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
