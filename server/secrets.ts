import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

export interface Secrets {
  postgresPassword: string;
  sessionSecret: string;
  /**
   * Signs backups' manifests (decision 0036). Never written into an archive; sites made before it
   * get one at their first backup.
   */
  backupKey?: string;
}

const newKey = () => randomBytes(32).toString("base64url");

/** Secrets generated on first start and kept in DATA_DIR, so restarts keep sessions and the database login. */
export async function loadSecrets(dataDir: string): Promise<Secrets> {
  const existing = await readSecrets(dataDir);
  if (existing) return existing;
  const secrets: Secrets = {
    postgresPassword: randomBytes(18).toString("base64url"),
    sessionSecret: newKey(),
    backupKey: newKey(),
  };
  await fs.mkdir(dataDir, { recursive: true });
  // "wx" fails if another process wrote the file first; then that one's secrets win.
  try {
    await fs.writeFile(path.join(dataDir, "secrets.json"), JSON.stringify(secrets, null, 2), { mode: 0o600, flag: "wx" });
    return secrets;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return (await readSecrets(dataDir))!;
  }
}

/** DATA_DIR's secrets, or null when it has none yet (nothing is written). */
export async function readSecrets(dataDir: string): Promise<Secrets | null> {
  try {
    return JSON.parse(await fs.readFile(path.join(dataDir, "secrets.json"), "utf8")) as Secrets;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/** Writes DATA_DIR's secrets whole (a temporary file renamed over the old one: never half a file). */
export async function writeSecrets(dataDir: string, secrets: Secrets): Promise<void> {
  const file = path.join(dataDir, "secrets.json");
  const temp = `${file}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await fs.writeFile(temp, JSON.stringify(secrets, null, 2), { mode: 0o600, flag: "wx" });
    await fs.rename(temp, file);
  } finally {
    await fs.rm(temp, { force: true });
  }
}

/**
 * The key backups are signed with: DATA_DIR's, made now for a site that has none yet. (Two first
 * backups of one old site at the same moment could each make one; the one written last is kept, and
 * the other backup would then need --trust-unsigned.)
 */
export async function loadBackupKey(dataDir: string): Promise<string> {
  const secrets = await loadSecrets(dataDir);
  if (secrets.backupKey) return secrets.backupKey;
  const backupKey = newKey();
  await writeSecrets(dataDir, { ...secrets, backupKey });
  return backupKey;
}
