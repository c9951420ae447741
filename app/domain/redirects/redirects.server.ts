import { and, count, desc, eq, ilike, inArray, or, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { isUniqueViolation } from "~/db/pg-errors";
import { redirects } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { classifyPath, type PathClass } from "~/lib/path-classes";
import type { Actor } from "~/domain/accounts/actor";
import { recordActivity } from "~/domain/activity/activity.server";
import { isLocalTarget, normalizeRedirectPath, normalizeRedirectTarget, redirectKeysOf } from "./redirect-paths";
import {
  FROM_INVALID,
  FROM_TAKEN,
  HOME_NOT_REDIRECTED,
  LEADS_TO_ITSELF,
  makesLoop,
  MAX_REDIRECT_HOPS,
  REDIRECTS_PAGE_SIZE,
  reservedPath,
  TO_INVALID,
  TOO_MANY_HOPS,
  type RedirectFieldName,
  type RedirectInput,
  type RedirectRow,
  type RedirectStatusCode,
} from "./redirects.schema";

export { normalizeRedirectPath } from "./redirect-paths";

/** A database handle or an open transaction. */
type Queryable = Db | Parameters<Parameters<Db["transaction"]>[0]>[0];

/** Rows per INSERT of a bulk add (each row is 4 parameters; PostgreSQL takes at most 65,535). */
const BULK_CHUNK = 2000;

/**
 * The path classes an old address may be in: those the reader site answers. Everything else is the
 * site's own machinery (the back office, APIs, sign-in, media, assets, health, previews): a redirect
 * there could lock an admin out, so it is refused when saved and never answered (server/redirect-door.ts).
 */
const REDIRECTABLE_CLASSES: ReadonlySet<PathClass> = new Set(["reader page", "article page", "feed", "search page"]);

/** Whether an old address may be redirected at all (its path's class; the home page itself may not, its queries may). */
export function isRedirectablePath(fromPath: string): boolean {
  const path = fromPath.split("?")[0]!;
  return REDIRECTABLE_CLASSES.has(classifyPath(path).pathClass);
}

/** Why an old address can never be redirected, or null. */
function fromPathProblem(fromPath: string): string | null {
  if (fromPath === "/") return HOME_NOT_REDIRECTED;
  if (!isRedirectablePath(fromPath)) return reservedPath(fromPath.split("?")[0]!);
  return null;
}

/** Whether following `target` would ask for `fromPath` again (the same address, or it with another query or slash). */
function leadsTo(target: string, fromPath: string): boolean {
  return isLocalTarget(target) && redirectKeysOf(target).includes(fromPath);
}

/** Serializes every write of redirects: two saves at once could otherwise close a loop neither sees. */
async function lockRedirects(tx: Queryable) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('frontpage.redirects'))`);
}

type ChainProblem = { kind: "loop"; through: string } | { kind: "too-long" };

/**
 * For each new redirect (its old address → its target), whether following the target through the
 * redirects stored (those of `skipIds` left out: the rows being replaced) and the new ones comes back
 * to an address already passed (a loop) or takes more than MAX_REDIRECT_HOPS redirects. One query per
 * hop for all of them. Keyed by old address; only those with a problem.
 */
async function chainProblems(q: Queryable, added: ReadonlyMap<string, string>, skipIds: number[] = []): Promise<Map<string, ChainProblem>> {
  const problems = new Map<string, ChainProblem>();
  let walking = [...added].map(([from, to]) => ({ from, target: to, seen: new Set([from]), hops: 1 }));
  while (walking.length > 0) {
    const keysOf = new Map(walking.map((walk) => [walk, isLocalTarget(walk.target) ? redirectKeysOf(walk.target) : []]));
    const wanted = [...new Set([...keysOf.values()].flat())].filter((key) => !added.has(key));
    const stored = new Map<string, string>();
    for (let i = 0; i < wanted.length; i += BULK_CHUNK) {
      const rows = await q
        .select({ fromPath: redirects.fromPath, toPath: redirects.toPath })
        .from(redirects)
        .where(and(inArray(redirects.fromPath, wanted.slice(i, i + BULK_CHUNK)), skipIds.length > 0 ? sql`${redirects.id} <> all(${sql.param(skipIds)}::bigint[])` : undefined));
      for (const row of rows) stored.set(row.fromPath, row.toPath);
    }
    const next: typeof walking = [];
    for (const walk of walking) {
      const keys = keysOf.get(walk)!;
      const back = keys.find((key) => walk.seen.has(key));
      if (back) {
        problems.set(walk.from, { kind: "loop", through: walk.target });
        continue;
      }
      const key = keys.find((k) => added.has(k) || stored.has(k));
      if (key === undefined) continue;
      if (walk.hops + 1 > MAX_REDIRECT_HOPS) {
        problems.set(walk.from, { kind: "too-long" });
        continue;
      }
      walk.seen.add(key);
      next.push({ ...walk, target: added.get(key) ?? stored.get(key)!, hops: walk.hops + 1 });
    }
    walking = next;
  }
  return problems;
}

/** Whether following the new rows alone from `from` comes back to `from` (it is in a loop, not only leading into one). */
function leadsBackTo(edges: ReadonlyMap<string, string>, from: string): boolean {
  let target = edges.get(from);
  for (let hop = 0; target !== undefined && hop <= edges.size; hop++) {
    if (!isLocalTarget(target)) return false;
    const keys = redirectKeysOf(target);
    if (keys.includes(from)) return true;
    const next = keys.find((key) => edges.has(key));
    target = next === undefined ? undefined : edges.get(next);
  }
  return false;
}

const invalid = (field: RedirectFieldName, message: string) => new AppError<RedirectFieldName>("invalid_input", message, { field });

/** The server's own rules for one redirect (the form's schema checked the rest): refused with the field it concerns. */
async function checkRedirect(tx: Queryable, input: RedirectInput, editingId?: number) {
  const fromProblem = fromPathProblem(input.fromPath);
  if (fromProblem) throw invalid("fromPath", fromProblem);
  if (leadsTo(input.toPath, input.fromPath)) throw invalid("toPath", LEADS_TO_ITSELF);
  const problem = (await chainProblems(tx, new Map([[input.fromPath, input.toPath]]), editingId === undefined ? [] : [editingId])).get(input.fromPath);
  if (problem?.kind === "loop") throw invalid("toPath", makesLoop(input.fromPath, problem.through));
  if (problem) throw invalid("toPath", TOO_MANY_HOPS);
}

// ---------------------------------------------------------------- reads

/** The redirect a request for `pathWithQuery` is answered with (see redirectKeysOf): the database's answer, for tools and tests. */
export async function findRedirect(db: Queryable, pathWithQuery: string): Promise<{ id: number; fromPath: string; toPath: string; statusCode: RedirectStatusCode } | null> {
  const keys = redirectKeysOf(pathWithQuery);
  if (keys.length === 0) return null;
  const rows = await db
    .select({ id: redirects.id, fromPath: redirects.fromPath, toPath: redirects.toPath, statusCode: redirects.statusCode })
    .from(redirects)
    .where(inArray(redirects.fromPath, keys));
  for (const key of keys) {
    const row = rows.find((r) => r.fromPath === key);
    if (row) return { ...row, statusCode: row.statusCode as RedirectStatusCode };
  }
  return null;
}

/** Every redirect, as the in-memory table of each process loads it (server/redirect-door.ts). */
export async function loadRedirectEntries(db: Db): Promise<{ id: number; fromPath: string; toPath: string; statusCode: RedirectStatusCode }[]> {
  const rows = await db.select({ id: redirects.id, fromPath: redirects.fromPath, toPath: redirects.toPath, statusCode: redirects.statusCode }).from(redirects);
  return rows.map((row) => ({ ...row, statusCode: row.statusCode as RedirectStatusCode }));
}

/** A page of /admin/redirects: newest first, filtered by `search` in either address. */
export async function listRedirects(db: Db, options: { search?: string; page?: number; pageSize?: number } = {}): Promise<{ rows: RedirectRow[]; total: number }> {
  const pageSize = options.pageSize ?? REDIRECTS_PAGE_SIZE;
  const page = Math.max(1, options.page ?? 1);
  const search = options.search?.trim();
  const pattern = search ? `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const where = pattern ? or(ilike(redirects.fromPath, pattern), ilike(redirects.toPath, pattern)) : undefined;
  const [{ total }] = (await db.select({ total: count() }).from(redirects).where(where)) as [{ total: number }];
  const rows = await db
    .select({
      id: redirects.id,
      fromPath: redirects.fromPath,
      toPath: redirects.toPath,
      statusCode: redirects.statusCode,
      hits: redirects.hits,
      lastHitAt: redirects.lastHitAt,
      source: redirects.source,
    })
    .from(redirects)
    .where(where)
    .orderBy(desc(redirects.createdAt), desc(redirects.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return { rows: rows.map((row) => ({ ...row, statusCode: row.statusCode as RedirectStatusCode })), total };
}

/** Every redirect in the order of their old addresses (the CSV export). */
export async function allRedirects(db: Db): Promise<Pick<RedirectRow, "fromPath" | "toPath" | "statusCode">[]> {
  const rows = await db.select({ fromPath: redirects.fromPath, toPath: redirects.toPath, statusCode: redirects.statusCode }).from(redirects).orderBy(redirects.fromPath);
  return rows.map((row) => ({ ...row, statusCode: row.statusCode as RedirectStatusCode }));
}

// ---------------------------------------------------------------- writes

const notFound = () => new AppError("not_found", "This redirect no longer exists.");
const label = (input: { fromPath: string; toPath: string }) => `${input.fromPath} → ${input.toPath}`;

/** Adds a redirect from the back office (source "manual"); refused with a field message when a rule is broken. */
export async function createRedirect(db: Db, actor: Actor, input: RedirectInput): Promise<RedirectRow> {
  try {
    return await db.transaction(async (tx) => {
      await lockRedirects(tx);
      await checkRedirect(tx, input);
      const [row] = await tx.insert(redirects).values({ fromPath: input.fromPath, toPath: input.toPath, statusCode: input.statusCode, source: "manual" }).returning();
      await recordActivity(tx, actor, { kind: "redirect.create", objectType: "redirect", objectId: String(row!.id), objectLabel: label(input), details: { statusCode: input.statusCode } });
      return { ...row!, statusCode: row!.statusCode as RedirectStatusCode };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw invalid("fromPath", FROM_TAKEN);
    throw error;
  }
}

/** Changes a redirect's addresses or status (its counts stay). */
export async function updateRedirect(db: Db, actor: Actor, id: number, input: RedirectInput): Promise<void> {
  if (!Number.isSafeInteger(id) || id < 1) throw notFound();
  try {
    await db.transaction(async (tx) => {
      await lockRedirects(tx);
      const [existing] = await tx.select({ id: redirects.id }).from(redirects).where(eq(redirects.id, id));
      if (!existing) throw notFound();
      await checkRedirect(tx, input, id);
      await tx.update(redirects).set({ fromPath: input.fromPath, toPath: input.toPath, statusCode: input.statusCode, updatedAt: new Date() }).where(eq(redirects.id, id));
      await recordActivity(tx, actor, { kind: "redirect.update", objectType: "redirect", objectId: String(id), objectLabel: label(input), details: { statusCode: input.statusCode } });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw invalid("fromPath", FROM_TAKEN);
    throw error;
  }
}

export async function deleteRedirect(db: Db, actor: Actor, id: number): Promise<void> {
  if (!Number.isSafeInteger(id) || id < 1) throw notFound();
  await db.transaction(async (tx) => {
    const [row] = await tx.delete(redirects).where(eq(redirects.id, id)).returning({ fromPath: redirects.fromPath, toPath: redirects.toPath });
    if (!row) throw notFound();
    await recordActivity(tx, actor, { kind: "redirect.delete", objectType: "redirect", objectId: String(id), objectLabel: label(row) });
  });
}

/** A row of a bulk add, as given. */
export interface RedirectRowInput {
  fromPath: string;
  toPath: string;
  statusCode?: RedirectStatusCode;
}

export interface BulkRedirectResult {
  added: number;
  unchanged: number;
  /** Old addresses that already redirect elsewhere: the stored redirect is kept. */
  conflicts: { fromPath: string; existingTo: string }[];
  /** Rows not saved for a rule of their own (invalid, leading to itself, the site's own address, a loop or too long a chain), by index in `rows`. */
  skipped: { index: number; fromPath: string; reason: string }[];
}

/**
 * The importer's entry (issue 29): adds the redirects of `rows` inside the caller's transaction `tx`,
 * one INSERT per 2,000 rows, marked with `source` ("import:<id>"). Idempotent: a row whose old address
 * already leads to the same place is `unchanged`; one that leads elsewhere is a `conflict` and never
 * overwritten; rows whose normalized old address equals their target (`/category/news/` →
 * `/category/news`), the site's own addresses and rows that would make a loop or too long a chain are
 * `skipped` with their reason. Of two rows in `rows` with one old address, the first counts.
 */
export async function addImportedRedirects(tx: Queryable, rows: readonly RedirectRowInput[], source: string): Promise<BulkRedirectResult> {
  return addRedirects(tx, rows, source, { overwrite: false });
}

/** addImportedRedirects with, when `overwrite`, a different stored redirect replaced (the back office's CSV import): counted in `updated`. */
async function addRedirects(tx: Queryable, rows: readonly RedirectRowInput[], source: string, { overwrite }: { overwrite: boolean }): Promise<BulkRedirectResult & { updated: number }> {
  const result: BulkRedirectResult & { updated: number } = { added: 0, unchanged: 0, updated: 0, conflicts: [], skipped: [] };
  await lockRedirects(tx);
  const wanted = new Map<string, { index: number; toPath: string; statusCode: RedirectStatusCode }>();
  rows.forEach((row, index) => {
    const fromPath = normalizeRedirectPath(row.fromPath);
    const toPath = normalizeRedirectTarget(row.toPath);
    const statusCode = row.statusCode ?? 301;
    const skip = (reason: string) => result.skipped.push({ index, fromPath: fromPath ?? row.fromPath, reason });
    if (fromPath === null) return skip(FROM_INVALID);
    if (toPath === null) return skip(TO_INVALID);
    if (statusCode !== 301 && statusCode !== 302) return skip("The status must be 301 or 302.");
    const problem = fromPathProblem(fromPath);
    if (problem) return skip(problem);
    if (leadsTo(toPath, fromPath)) return skip(LEADS_TO_ITSELF);
    const first = wanted.get(fromPath);
    if (first) {
      if (first.toPath === toPath) result.unchanged++;
      else result.conflicts.push({ fromPath, existingTo: first.toPath });
      return;
    }
    wanted.set(fromPath, { index, toPath, statusCode });
  });

  // What is stored already under those old addresses.
  const froms = [...wanted.keys()];
  const replacing: { id: number; fromPath: string }[] = [];
  for (let i = 0; i < froms.length; i += BULK_CHUNK) {
    const stored = await tx
      .select({ id: redirects.id, fromPath: redirects.fromPath, toPath: redirects.toPath, statusCode: redirects.statusCode })
      .from(redirects)
      .where(inArray(redirects.fromPath, froms.slice(i, i + BULK_CHUNK)));
    for (const row of stored) {
      const want = wanted.get(row.fromPath)!;
      if (row.toPath === want.toPath && (!overwrite || row.statusCode === want.statusCode)) {
        result.unchanged++;
        wanted.delete(row.fromPath);
      } else if (overwrite) {
        replacing.push({ id: row.id, fromPath: row.fromPath });
      } else {
        result.conflicts.push({ fromPath: row.fromPath, existingTo: row.toPath });
        wanted.delete(row.fromPath);
      }
    }
  }

  // Loops and long chains, through what is stored and what this adds (rows in a loop together are all skipped).
  // A row that only led into others' loop is checked again once those are out.
  for (let pass = 0; pass < MAX_REDIRECT_HOPS; pass++) {
    const edges = new Map([...wanted].map(([from, want]) => [from, want.toPath]));
    const problems = await chainProblems(tx, edges, replacing.map((r) => r.id));
    const own = [...problems].filter(([from, problem]) => problem.kind === "too-long" || pass === MAX_REDIRECT_HOPS - 1 || leadsBackTo(edges, from));
    for (const [from, problem] of own.length > 0 ? own : [...problems]) {
      result.skipped.push({ index: wanted.get(from)!.index, fromPath: from, reason: problem.kind === "loop" ? makesLoop(from, problem.through) : TOO_MANY_HOPS });
      wanted.delete(from);
    }
    if (problems.size === 0 || own.length === problems.size) break;
  }
  result.skipped.sort((a, b) => a.index - b.index);

  const replaced = new Set(replacing.filter((r) => wanted.has(r.fromPath)).map((r) => r.fromPath));
  for (const fromPath of replaced) {
    const want = wanted.get(fromPath)!;
    await tx.update(redirects).set({ toPath: want.toPath, statusCode: want.statusCode, source, updatedAt: new Date() }).where(eq(redirects.fromPath, fromPath));
    result.updated++;
  }
  const inserts = [...wanted].filter(([from]) => !replaced.has(from)).map(([fromPath, want]) => ({ fromPath, toPath: want.toPath, statusCode: want.statusCode, source }));
  for (let i = 0; i < inserts.length; i += BULK_CHUNK) {
    const added = await tx.insert(redirects).values(inserts.slice(i, i + BULK_CHUNK)).onConflictDoNothing({ target: redirects.fromPath }).returning({ id: redirects.id });
    result.added += added.length;
  }
  return result;
}

/** A line of an imported CSV file that was not saved. */
export interface CsvLineProblem {
  line: number;
  reason: string;
}

/**
 * The back office's CSV import (rows already parsed, with their line numbers): the good lines are
 * saved together in one transaction, a line whose old address exists with another target replaces it,
 * and each bad line is reported with its number and reason (decision 0040).
 */
export async function importRedirectRows(
  db: Db,
  actor: Actor,
  rows: readonly (RedirectRowInput & { line: number })[],
): Promise<{ added: number; updated: number; unchanged: number; problems: CsvLineProblem[] }> {
  return db.transaction(async (tx) => {
    const result = await addRedirects(tx, rows, "manual", { overwrite: true });
    const problems = [
      ...result.skipped.map((s) => ({ line: rows[s.index]!.line, reason: s.reason })),
      ...result.conflicts.map((c) => ({ line: rows.findLast((r) => normalizeRedirectPath(r.fromPath) === c.fromPath)!.line, reason: `${c.fromPath} is given twice in this file with different new addresses; the first line counts.` })),
    ].sort((a, b) => a.line - b.line);
    if (result.added + result.updated > 0) {
      await recordActivity(tx, actor, { kind: "redirect.import", objectType: "redirect", objectLabel: `${result.added} added, ${result.updated} changed`, details: { added: result.added, updated: result.updated, unchanged: result.unchanged, refused: problems.length } });
    }
    return { added: result.added, updated: result.updated, unchanged: result.unchanged, problems };
  });
}
