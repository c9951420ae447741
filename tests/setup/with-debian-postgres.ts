// Runs a command against a throw-away cluster of Debian's PostgreSQL (default 15, DEBIAN_PG_MAJOR
// for another), given to it as TEST_DATABASE_URL (a superuser's URL), then stops the cluster and
// removes it, whatever the command did. `.ci/run` runs the integration tests on PostgreSQL 15 with it:
//   node --import tsx tests/setup/with-debian-postgres.ts -- npx vitest run app/db app/domain server
// Exits with the command's status (1 when it was ended by a signal).
import { spawn } from "node:child_process";
import net from "node:net";
import { debianPostgresBin, startDebianPostgres } from "./debian-postgres";

const separator = process.argv.indexOf("--");
const command = separator === -1 ? [] : process.argv.slice(separator + 1);
if (command.length === 0) {
  console.error("usage: node --import tsx tests/setup/with-debian-postgres.ts -- <command> [args…]");
  process.exit(2);
}

/** A port free on 127.0.0.1 now (PG_PORT to choose one). */
async function freePort(): Promise<number> {
  if (process.env.PG_PORT) return Number(process.env.PG_PORT);
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const started = Date.now();
const postgres = await startDebianPostgres({ port: await freePort(), bin: debianPostgresBin() });
console.log(`with-debian-postgres: PostgreSQL from ${debianPostgresBin()} on 127.0.0.1:${postgres.port}; running ${command.join(" ")}`);
const child = spawn(command[0]!, command.slice(1), { stdio: "inherit", env: { ...process.env, TEST_DATABASE_URL: postgres.superuserUrl } });
// Ctrl-C or a CI timeout: pass it on, and still stop the cluster below.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
const status = await new Promise<number>((resolve) => {
  child.once("error", (error) => {
    console.error(`with-debian-postgres: could not run ${command[0]}: ${error.message}`);
    resolve(127);
  });
  child.once("exit", (code) => resolve(code ?? 1));
});
await postgres.stop();
console.log(`with-debian-postgres: ${command.join(" ")} exited ${status} after ${Math.round((Date.now() - started) / 1000)} s; the cluster is stopped and removed`);
process.exit(status);
