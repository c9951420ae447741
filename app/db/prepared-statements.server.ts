import { createHash } from "node:crypto";
import pg from "pg";

// Named statements for the queries a process runs again and again (decision 0031). An unnamed query is
// parsed and planned by PostgreSQL every time; a named one is parsed once per connection and then only
// bound and run. A page's queries are the same few texts with other values, so after a text has been
// seen a few times it gets a name derived from the text, and each connection prepares it once.

/** How often a text is seen before it is named: a text run once (an admin's rare query) never takes a slot. */
export const NAME_AFTER_RUNS = 3;
/** At most this many named statements per connection (each keeps a parsed query in the server's memory). */
export const MAX_NAMED_PER_CONNECTION = 200;
/** How many texts are counted before the count starts afresh (bounds this process's memory). */
const MAX_COUNTED_TEXTS = 5_000;
/**
 * A longer text is a bulk write (an import's hundreds of rows, each row its own placeholders): never
 * named, nor kept to be counted. Kept, 5,000 such texts held hundreds of megabytes (issue 29's import).
 */
export const MAX_NAMED_TEXT_LENGTH = 4_000;

/**
 * Written into a statement whose best plan depends on its values, it keeps that statement unnamed, so
 * PostgreSQL plans it for its values at every run. A named statement is switched to one generic plan
 * after five runs when that plan looks no costlier; for full-text search it is not: a common word and
 * a rare one need opposite plans (at 100,000 articles a common word's page took 21 ms on the generic
 * plan, 3 ms on its own).
 */
export const PLAN_EACH_TIME = "/* plan each time */";

/** Texts seen, with how often (a number) or, once named, their name. */
const seen = new Map<string, number | string>();

/** The statement name of `text` once it has been seen often enough, else null. */
export function statementNameOf(text: string): string | null {
  if (text.length > MAX_NAMED_TEXT_LENGTH || text.includes(PLAN_EACH_TIME)) return null;
  const known = seen.get(text);
  if (typeof known === "string") return known;
  const runs = (known ?? 0) + 1;
  if (runs < NAME_AFTER_RUNS) {
    if (known === undefined && seen.size >= MAX_COUNTED_TEXTS) seen.clear();
    seen.set(text, runs);
    return null;
  }
  const name = `fp_${createHash("sha256").update(text).digest("base64url").slice(0, 22)}`;
  seen.set(text, name);
  return name;
}

interface QueryConfigLike {
  text?: unknown;
  name?: unknown;
  submit?: unknown;
}

/**
 * A pg client that names the statements it runs often (the pool's `Client`). Only a query given as a
 * config object with a text and no name is named (Drizzle's form); a string (`begin`, `select 1`) and a
 * query that names itself go as they are.
 */
export class PreparingClient extends pg.Client {
  /** The names this connection has been asked to prepare. */
  private readonly named = new Set<string>();

  // pg's overloads cannot be overridden one by one; the arguments go on to pg as they came.
  override query(...args: unknown[]): never {
    const [config] = args;
    if (config !== null && typeof config === "object") {
      const query = config as QueryConfigLike;
      if (typeof query.text === "string" && query.name == null && typeof query.submit !== "function") {
        const name = statementNameOf(query.text);
        if (name && (this.named.has(name) || this.named.size < MAX_NAMED_PER_CONNECTION)) {
          this.named.add(name);
          args[0] = { ...query, name };
        }
      }
    }
    return (pg.Client.prototype.query as (...a: unknown[]) => never).apply(this, args);
  }
}
