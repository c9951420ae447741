import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

export interface Secrets {
  postgresPassword: string;
  sessionSecret: string;
}

/** Secrets generated on first start and kept in DATA_DIR, so restarts keep sessions and the database login. */
export async function loadSecrets(dataDir: string): Promise<Secrets> {
  const file = path.join(dataDir, "secrets.json");
  try {
    return JSON.parse(await fs.readFile(file, "utf8")) as Secrets;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const secrets: Secrets = {
    postgresPassword: randomBytes(18).toString("base64url"),
    sessionSecret: randomBytes(32).toString("base64url"),
  };
  await fs.mkdir(dataDir, { recursive: true });
  // "wx" fails if another process wrote the file first; then that one's secrets win.
  try {
    await fs.writeFile(file, JSON.stringify(secrets, null, 2), { mode: 0o600, flag: "wx" });
    return secrets;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return JSON.parse(await fs.readFile(file, "utf8")) as Secrets;
  }
}
