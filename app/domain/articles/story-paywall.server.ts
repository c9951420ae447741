import { and, asc, gt, ne, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { articles } from "~/db/schema";
import { freeContentOf } from "./story-paywall";

/** Gated stories read and written per statement when the paywall setting changes. */
export const FREE_CONTENT_BATCH = 500;

/**
 * The paywall setting changed (issue 40): every gated story's `free_content` is cut again at the new
 * number of paragraphs (a story with a "Paywall here" block keeps its point), in the settings save's
 * transaction, a batch of FREE_CONTENT_BATCH stories per statement, walked by id (never every story
 * in memory at once). Returns how many gated stories it read. Public stories are not touched.
 */
export async function recomputeFreeContent(tx: Pick<Db, "select" | "execute">, paragraphs: number, batch = FREE_CONTENT_BATCH): Promise<number> {
  let after: string | null = null;
  let seen = 0;
  for (;;) {
    const rows: { id: string; access: "public" | "members" | "paid"; content: string; contentDoc: unknown }[] = await tx
      .select({ id: articles.id, access: articles.access, content: articles.content, contentDoc: articles.contentDoc })
      .from(articles)
      .where(and(ne(articles.access, "public"), after ? gt(articles.id, after) : undefined))
      .orderBy(asc(articles.id))
      .limit(batch);
    if (rows.length === 0) return seen;
    const values = rows.map((row) => sql`(${row.id}::uuid, ${freeContentOf(row.access, row, paragraphs)}::text)`);
    await tx.execute(
      sql`update ${articles} set free_content = v.free from (values ${sql.join(values, sql`, `)}) as v(id, free)
          where ${articles.id} = v.id and ${articles.freeContent} is distinct from v.free`,
    );
    seen += rows.length;
    after = rows[rows.length - 1]!.id;
    if (rows.length < batch) return seen;
  }
}
