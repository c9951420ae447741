import { randomBytes } from "node:crypto";
import path from "node:path";
import pino from "pino";
import { createAuth } from "../app/domain/accounts/auth.server";
import { isAppError } from "../app/lib/app-error";
import { loadEnv } from "../app/lib/env.server";
import { createMailer } from "../app/lib/mail.server";
import { openCliDatabase, runCommand } from "./cli";
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

  const database = await openCliDatabase(env, log, { mayCreate: parsed.command === "create" }, io.err);
  if (!database) return 1;
  const { db } = database;
  try {
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
    await database.stop();
  }
}

runCommand(main);
