import { randomBytes } from "node:crypto";
import path from "node:path";
import pino from "pino";
import { createDb } from "../app/db/client.server";
import { createAuth } from "../app/domain/accounts/auth.server";
import { isAppError } from "../app/lib/app-error";
import { loadEnv } from "../app/lib/env.server";
import { createMailer } from "../app/lib/mail.server";
import { findRunningPostgres, startEmbeddedPostgres, type EmbeddedDatabase } from "../server/embedded-db";
import { migrateDatabase } from "../server/migrate";
import { clusterDirOf } from "../server/postgres-placement";
import { loadSecrets } from "../server/secrets";
import { EXIT_USAGE, parseAdminArgs, runAdminCommand, USAGE, type ParsedCommand } from "./admin-commands";

// `npm run admin -- create|grant|revoke|list`: account administration against the server's own
// database, also while the server runs (a running embedded PostgreSQL is joined, not started twice).

const io = { out: (line: string) => console.log(line), err: (line: string) => console.error(line) };

async function main(): Promise<number> {
  let parsed: ParsedCommand;
  try {
    parsed = parseAdminArgs(process.argv.slice(2));
  } catch (error) {
    if (!isAppError(error, "invalid_input")) throw error;
    io.err(`Error: ${error.message}\n`);
    io.err(USAGE);
    return EXIT_USAGE;
  }
  if (parsed.command === "help") {
    io.out(USAGE);
    return 0;
  }

  let env;
  try {
    env = loadEnv();
  } catch (error) {
    if (isAppError(error, "invalid_config")) {
      io.err(error.message);
      return EXIT_USAGE;
    }
    throw error;
  }
  const log = pino({ level: env.LOG_LEVEL === "info" ? "warn" : env.LOG_LEVEL }, pino.destination(2));

  let embedded: EmbeddedDatabase | null = null;
  let databaseUrl = env.DATABASE_URL;
  if (!databaseUrl) {
    // DATA_DIR/postgres, or where DATA_DIR/postgres.location says (as root, out of the postgres user's reach).
    const databaseDir = clusterDirOf(env.dataDir);
    const running = await findRunningPostgres(databaseDir);
    if (running && running !== "stale") {
      // The server is running: join its PostgreSQL with the login kept in DATA_DIR/secrets.json.
      const { postgresPassword } = await loadSecrets(env.dataDir);
      databaseUrl = `postgres://frontpage:${encodeURIComponent(postgresPassword)}@127.0.0.1:${running.port}/frontpage`;
    } else {
      if (parsed.command !== "create") {
        const { existsSync } = await import("node:fs");
        if (!existsSync(path.join(databaseDir, "PG_VERSION"))) {
          io.err(`Error: there is no database in ${databaseDir} yet. Start the server once (or set DATA_DIR / DATABASE_URL).`);
          return 1;
        }
      }
      // Its own shutdown chatter ("terminating connection due to administrator command") is noise
      // here; failures to start still throw and are reported.
      const databaseLog = pino({ level: ["debug", "trace"].includes(env.LOG_LEVEL) ? env.LOG_LEVEL : "silent" }, pino.destination(2));
      embedded = await startEmbeddedPostgres(env.dataDir, databaseLog);
      databaseUrl = embedded.url;
    }
  }

  const { db, pool } = createDb(databaseUrl, 2);
  const stopDatabase = async () => {
    await pool.end().catch(() => {});
    await embedded?.stop().catch((error) => log.error({ err: error }, "could not stop PostgreSQL"));
  };
  const onSignal = () => void stopDatabase().finally(() => process.exit(130));
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    await migrateDatabase(databaseUrl);
    // The secret signs sessions and tokens; creating an account uses none, so a throw-away one will do
    // when SESSION_SECRET is not set (the CLI never issues a session).
    const auth = () =>
      createAuth({
        db,
        baseURL: env.publicUrl,
        secret: env.SESSION_SECRET ?? randomBytes(32).toString("base64url"),
        mailer: createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, log, outboxDir: path.join(env.dataDir, "outbox") }),
        log,
      });
    return await runAdminCommand(parsed, { db, auth }, io);
  } finally {
    await stopDatabase();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? `Error: ${error.message}` : error);
    process.exit(1);
  },
);
