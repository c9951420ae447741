import type { Db } from "../app/db/client.server";
import type { Logger } from "../app/lib/logger.server";
import type { Storage } from "../app/lib/storage.server";

/** Demo articles, images and comments for a new site (filled in by the demo-content work). */
export async function seedDemoContent(_options: { db: Db; storage: Storage; log: Logger }) {}
