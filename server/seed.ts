import { count } from "drizzle-orm";
import type { Db } from "../app/db/client.server";
import { categories, websiteSettings } from "../app/db/schema";
import { DEFAULT_CATEGORIES } from "../app/domain/categories/categories.schema";
import { DEFAULT_SETTINGS } from "../app/domain/settings/settings.schema";
import type { Logger } from "../app/lib/logger.server";
import type { Storage } from "../app/lib/storage.server";
import { seedDemoContent } from "./demo-content";

/**
 * Seeds a new database (one without its settings row): the six categories and the settings row,
 * and with `demo` the demo articles, images and comments (with `seedDemo`, made that way: the server
 * makes them in a process of its own, server/demo-seeder.ts). An existing database is left alone.
 */
export async function seedDatabase(options: { db: Db; storage: Storage; log: Logger; demo: boolean; seedDemo?: () => Promise<void> }) {
  const { db, log } = options;
  const isNew = await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(websiteSettings)
      .values({ id: 1, ...DEFAULT_SETTINGS })
      .onConflictDoNothing()
      .returning({ id: websiteSettings.id });
    if (inserted.length === 0) return false;
    const [{ n }] = await tx.select({ n: count() }).from(categories);
    if (n === 0) await tx.insert(categories).values([...DEFAULT_CATEGORIES]).onConflictDoNothing();
    return true;
  });
  if (!isNew) return;
  log.info("seeded categories and settings on a new database");
  if (options.demo) {
    await (options.seedDemo ? options.seedDemo() : seedDemoContent(options));
    log.info("seeded demo content");
  }
}
