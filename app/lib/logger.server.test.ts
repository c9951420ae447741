import { sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { createTestDatabase } from "../../tests/setup/test-database";
import { comments } from "~/db/schema";
import { AppError } from "./app-error";
import { createLogger, loggableError } from "./logger.server";

const { db } = await createTestDatabase();

function recording() {
  const lines: string[] = [];
  return { log: createLogger("debug", { write: (line: string) => void lines.push(line) }), text: () => lines.join("\n") };
}

describe("errors in the log", () => {
  test("a failed query is logged with its SQL and the database's reason, never its parameters (a commenter's e-mail)", async () => {
    const { log, text } = recording();
    const [article] = (await db.execute(sql`select gen_random_uuid() as id`)).rows as { id: string }[];
    let failure: unknown;
    try {
      await db.insert(comments).values({ articleId: article!.id, authorName: "Ann", authorEmail: "secret.commenter@example.com", content: "a\0b" });
    } catch (error) {
      failure = error;
    }
    expect(String((failure as Error).message)).toContain("secret.commenter@example.com"); // Drizzle's own message has it
    log.error({ err: new AppError("server_error", "Failed to post comment.", { cause: failure }) }, "could not save a comment");
    const logged = text();
    expect(logged).toContain("insert into");
    expect(logged).toContain("parameters not logged");
    expect(logged).toContain("0x00");
    expect(logged).not.toContain("secret.commenter@example.com");
    expect(logged).not.toContain("Ann");
  });

  test("a database error keeps its code and constraint but not its detail, which quotes values", () => {
    const error = Object.assign(new Error("duplicate key value violates unique constraint"), {
      code: "23505",
      constraint: "user_email_unique",
      detail: "Key (email)=(someone@example.com) already exists.",
    });
    expect(loggableError(error)).toMatchObject({ code: "23505", constraint: "user_email_unique" });
    expect(JSON.stringify(loggableError(error))).not.toContain("someone@example.com");
  });
});
