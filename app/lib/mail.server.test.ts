import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { createLogger } from "./logger.server";
import { createMailer, verificationMail } from "./mail.server";

describe("mail without an SMTP server", () => {
  test("is saved to the outbox, readable by the operator alone; the log says where, never the address or the link", async () => {
    const outboxDir = path.join(await fs.mkdtemp(path.join(os.tmpdir(), "outbox-")), "outbox");
    const lines: string[] = [];
    const log = createLogger("debug", { write: (line: string) => void lines.push(line) });
    const mailer = createMailer({ from: "Frontpage <no-reply@localhost>", log, outboxDir });
    const link = "http://localhost:3000/api/auth/verify-email?token=very-secret-token";
    await mailer.send(verificationMail({ to: "new.reader@example.com", siteName: "Frontpage", url: link }));
    const [file] = await fs.readdir(outboxDir);
    const saved = await fs.readFile(path.join(outboxDir, file!), "utf8");
    expect(saved).toContain("To: new.reader@example.com");
    expect(saved).toContain("very-secret-token");
    expect((await fs.stat(path.join(outboxDir, file!))).mode & 0o777).toBe(0o600);
    const logged = lines.join("\n");
    expect(logged).toContain(file);
    expect(logged).not.toContain("very-secret-token");
    expect(logged).not.toContain("new.reader@example.com");
  });
});
