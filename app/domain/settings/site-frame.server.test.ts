import { EventEmitter } from "node:events";
import { sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import type { ChangeEvent } from "~/lib/change-feed.server";
import { createTestDatabase } from "../../../tests/setup/test-database";
import { createSiteFrame } from "./site-frame.server";

const { db } = await createTestDatabase();

describe("the site frame (settings and navigation of every page)", () => {
  test("is read once and kept until a notice names its tables (or the feed reconnects); other notices keep it", async () => {
    const changes = new EventEmitter<{ change: [ChangeEvent] }>();
    const frame = createSiteFrame(db, changes);
    await db.execute(sql`insert into website_settings (id, site_name) values (1, 'First name') on conflict (id) do update set site_name = 'First name'`);
    expect((await frame()).settings.siteName).toBe("First name");

    await db.execute(sql`update website_settings set site_name = 'Second name' where id = 1`);
    await db.execute(sql`insert into categories (name, slug) values ('Frame Test', 'frame-test')`);
    expect((await frame()).settings.siteName).toBe("First name");
    changes.emit("change", { table: "articles", op: "UPDATE", public: { ids: [], slugs: [], categories: [], authors: [] } });
    expect((await frame()).settings.siteName).toBe("First name");

    changes.emit("change", { table: "website_settings", op: "UPDATE" });
    expect((await frame()).settings.siteName).toBe("Second name");
    expect((await frame()).categories.map((c) => c.slug)).toContain("frame-test");

    await db.execute(sql`delete from categories where slug = 'frame-test'`);
    changes.emit("change", { table: "categories", op: "DELETE" });
    expect((await frame()).categories.map((c) => c.slug)).not.toContain("frame-test");

    await db.execute(sql`update website_settings set site_name = 'Third name' where id = 1`);
    changes.emit("change", { table: "*", op: "RECONNECT" });
    expect((await frame()).settings.siteName).toBe("Third name");
  });

  test("keeps the footer's pages (issue 29) until a notice names the pages table", async () => {
    const changes = new EventEmitter<{ change: [ChangeEvent] }>();
    const frame = createSiteFrame(db, changes);
    expect((await frame()).footerPages).toEqual([]);
    await db.execute(sql`insert into pages (title, slug, content, status, show_in_footer) values ('Masthead', 'masthead', 'Editors', 'published', true)`);
    expect((await frame()).footerPages).toEqual([]);
    changes.emit("change", { table: "pages", op: "INSERT" });
    expect((await frame()).footerPages).toEqual([{ title: "Masthead", slug: "masthead" }]);
  });
});
