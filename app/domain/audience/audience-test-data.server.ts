import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { articleAuthors, articles, authors, categories } from "~/db/schema";

// Raw audience rows for tests (what the recorder writes), inserted with SQL as it does.

export interface RawEvent {
  at: Date;
  articleId?: string | null;
  path?: string;
  visitor?: string;
  newVisitor?: boolean;
  newStoryVisitor?: boolean;
  source?: string;
  host?: string;
  utmSource?: string;
  utmMedium?: string;
  utmCampaign?: string;
  ref?: string;
  device?: string;
}

export async function insertEvents(db: Db, events: RawEvent[]) {
  for (const e of events) {
    await db.execute(sql`insert into audience_events (at, path, article_id, visitor, new_visitor, new_story_visitor, source, source_host, utm_source, utm_medium, utm_campaign, ref, device)
      values (${e.at.toISOString()}::timestamptz, ${e.path ?? "/"}, ${e.articleId ?? null}::uuid, decode(md5(${e.visitor ?? "v1"}), 'hex'),
        ${e.newVisitor ?? false}, ${e.newStoryVisitor ?? false}, ${e.source ?? "direct"}, ${e.host ?? ""}, ${e.utmSource ?? ""}, ${e.utmMedium ?? ""},
        ${e.utmCampaign ?? ""}, ${e.ref ?? ""}, ${e.device ?? "desktop"})`);
  }
}

export interface RawRead {
  at: Date;
  articleId: string;
  loadId: string;
  engagedMs: number;
  depth: 0 | 25 | 50 | 75 | 100;
  visitor?: string;
}

export async function insertReads(db: Db, reads: RawRead[]) {
  for (const r of reads) {
    await db.execute(sql`insert into audience_reads (at, article_id, visitor, load_id, engaged_ms, depth)
      values (${r.at.toISOString()}::timestamptz, ${r.articleId}::uuid, decode(md5(${r.visitor ?? "v1"}), 'hex'), ${r.loadId}::uuid, ${r.engagedMs}, ${r.depth})`);
  }
}

/** A published story (its category and byline authors made as needed). */
export async function insertStory(db: Db, input: { title: string; category?: string; authors?: string[]; publishedAt?: Date }) {
  let categoryId: string | null = null;
  if (input.category) {
    const slug = input.category.toLowerCase().replace(/\W+/g, "-");
    await db.insert(categories).values({ name: input.category, slug }).onConflictDoNothing();
    const found = await db.execute(sql`select id from categories where slug = ${slug}`);
    categoryId = String(found.rows[0]!.id);
  }
  const slug = `${input.title.toLowerCase().replace(/\W+/g, "-")}-${randomUUID().slice(0, 6)}`;
  const [article] = await db
    .insert(articles)
    .values({ title: input.title, slug, content: "Text", categoryId, status: "published", publishedAt: input.publishedAt ?? new Date("2031-01-01T00:00:00Z") })
    .returning({ id: articles.id });
  const authorIds: string[] = [];
  for (const [position, name] of (input.authors ?? []).entries()) {
    const authorSlug = name.toLowerCase().replace(/\W+/g, "-");
    await db.insert(authors).values({ name, slug: authorSlug }).onConflictDoNothing();
    const found = await db.execute(sql`select id from authors where slug = ${authorSlug}`);
    const authorId = String(found.rows[0]!.id);
    authorIds.push(authorId);
    await db.insert(articleAuthors).values({ articleId: article!.id, authorId, position });
  }
  return { id: article!.id, slug, authorIds };
}

/** Empties the rollups and the raw rows, and sets where the rollup stands. */
export async function resetAudience(db: Db, rolledUntil: Date) {
  await db.execute(sql`truncate audience_events, audience_reads, audience_story_hours, audience_source_hours, audience_site_source_hours, audience_site_hours, audience_read_hours, audience_story_days, audience_read_days, audience_conversions, audience_salts, audience_day_visitors`);
  await db.execute(sql`update audience_rollup_state set rolled_until = ${rolledUntil.toISOString()}::timestamptz where id = 1`);
}

/** Every rollup table's rows, sorted: to compare two states. */
export async function rollupSnapshot(db: Db) {
  const out: Record<string, unknown[]> = {};
  for (const table of ["audience_story_hours", "audience_source_hours", "audience_site_source_hours", "audience_site_hours", "audience_read_hours", "audience_story_days", "audience_read_days"]) {
    const result = await db.execute(sql`select * from ${sql.raw(table)} order by 1, 2, 3, 4`);
    out[table] = result.rows.map((r) => JSON.stringify(r));
  }
  return out;
}
