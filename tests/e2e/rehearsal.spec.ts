import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import S3rver from "s3rver";
import sharp from "sharp";
import { envSchema, loadEnv } from "../../app/lib/env.server";
import { debianPostgresMissing, killGroup, startDebianPostgres, type DebianPostgres } from "../setup/debian-postgres";
import { signInThroughApi } from "./admin-session";
import { expect, test } from "./fixtures";

// Issue 32: "Running several processes" (docs/several-machines.md) rehearsed. Two production processes
// (the build, as `npm start` runs it) on two ports stand for two machines; they share nothing but what
// that guide says to share: one external PostgreSQL (Debian's PostgreSQL 15 in a throw-away cluster, not the
// embedded one), one S3 bucket (s3rver), one SESSION_SECRET, and the environment of
// deploy/env/frontpage.env.example. nginx (deploy/proxy) balances a share of the loads over both.
// Every process started here is ended at the end (process groups), every directory removed.
const ROOT = path.resolve(import.meta.dirname, "../..");
const ENV_EXAMPLE = path.join(ROOT, "deploy/env/frontpage.env.example");
const UNIT = path.join(ROOT, "deploy/systemd/frontpage.service");
const NGINX_CONF = path.join(ROOT, "deploy/proxy/frontpage.nginx.conf");
// The rehearsal's ports (tests run side by side on one machine use others): PostgreSQL, two machines, s3rver, nginx.
const PG_PORT = 55432;
const MACHINE_PORTS = [4622, 4623] as const;
const S3_PORT = 4624;
const NGINX_PORT = 4625;
const ADMIN = { email: "rehearsal-admin@example.com", password: "rehearsal-password-7-long" };
const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36";
const NGINX = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((file) => fs.existsSync(file)) ?? null;

/** KEY=value lines of a systemd EnvironmentFile (comments and blank lines skipped); a line of any other shape fails. */
function parseEnvFile(file: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [i, line] of fs.readFileSync(file, "utf8").split("\n").entries()) {
    if (line.trim() === "" || line.startsWith("#")) continue;
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (!match) throw new Error(`${file}:${i + 1}: not KEY=value: ${line}`);
    expect(env[match[1]!], `${file}: ${match[1]} set twice`).toBeUndefined();
    env[match[1]!] = match[2]!;
  }
  return env;
}

interface Machine {
  name: string;
  child: ChildProcess;
  base: string;
  dataDir: string;
  output: () => string;
  exited: Promise<void>;
}

/** One "machine": `node build/node/index.js` with `env` and nothing else (as systemd's EnvironmentFile= gives it). */
async function startMachine(name: string, env: Record<string, string>): Promise<Machine> {
  const child = spawn(process.execPath, ["--enable-source-maps", "build/node/index.js"], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: env.DATA_DIR!, ...env },
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const machine = { name, child, base: `http://127.0.0.1:${env.PORT}`, dataDir: env.DATA_DIR!, output: () => output, exited };
  await expect
    .poll(() => (child.exitCode !== null ? `exited: ${output}` : output.includes("Frontpage is ready: listening on")), { timeout: 90_000, message: `${name} starts` })
    .toBe(true);
  return machine;
}

/** SIGKILL to a machine's process group (the server and anything it started), and its exit awaited. */
async function kill(machine: Machine) {
  if (machine.child.exitCode === null && machine.child.signalCode === null) killGroup(machine.child.pid);
  await Promise.race([machine.exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
}

/** The lines a machine logged with this message (pino JSON lines). */
const logLines = (machine: Machine, msg: string) =>
  machine
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.msg === msg);

/** A GET over https that accepts the test's self-signed certificate (nginx's). */
function httpsGet(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { headers, rejectUnauthorized: false }, (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      })
      .on("error", reject);
  });
}

/** A self-signed certificate and key for 127.0.0.1 in `dir` (openssl). */
function selfSignedCertificate(dir: string) {
  const cert = path.join(dir, "cert.pem");
  const key = path.join(dir, "key.pem");
  execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1", "-keyout", key, "-out", cert], { stdio: "ignore" });
  return { cert, key };
}

/**
 * deploy/proxy/frontpage.nginx.conf made runnable here: its upstream lines name `upstreams`, the TLS
 * server listens on 127.0.0.1:`port` with a self-signed certificate, the port-80 server on none.
 * Everything else is the file as shipped. Returns the main configuration file that includes it.
 */
function nginxConfig(dir: string, upstreams: string[], port: number): string {
  const { cert, key } = selfSignedCertificate(dir);
  let site = fs.readFileSync(NGINX_CONF, "utf8");
  const servers = site.match(/^ {4}server 10\.0\.0\.\d+:3000 .*;$/gm) ?? [];
  expect(servers.length, "the upstream lists the machines").toBeGreaterThanOrEqual(2);
  site = site.replace(/(^ {4}server 10\.0\.0\.\d+:3000 .*;\n)+/m, upstreams.map((u) => `    server ${u} max_fails=3 fail_timeout=10s;\n`).join(""));
  site = site.replace(/^ {4}listen (\[::\]:)?80;\n/gm, "").replace("return 301", `listen 127.0.0.1:${port + 1};\n    return 301`);
  site = site.replace(/^ {4}listen \[::\]:443 ssl http2;\n/m, "").replace(/^ {4}listen 443 ssl http2;$/m, `    listen 127.0.0.1:${port} ssl http2;`);
  site = site.replace(/^( {4}ssl_certificate) .*;$/m, `$1 ${cert};`).replace(/^( {4}ssl_certificate_key) .*;$/m, `$1 ${key};`);
  fs.writeFileSync(path.join(dir, "frontpage.conf"), site);
  const main = path.join(dir, "nginx.conf");
  fs.writeFileSync(
    main,
    [
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/error.log warn;`,
      "daemon off;",
      "worker_processes 1;",
      process.getuid?.() === 0 ? "user nobody nogroup;" : "",
      "events { worker_connections 256; }",
      `http { access_log off; client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; include ${dir}/frontpage.conf; }`,
      "",
    ].join("\n"),
  );
  return main;
}

test.describe("deploy/ files an operator copies", () => {
  test("the environment for N machines is a valid configuration, with every shared setting and no unknown variable", () => {
    const env = parseEnvFile(ENV_EXAMPLE);
    const known = new Set(Object.keys(envSchema.shape));
    expect(Object.keys(env).filter((key) => !known.has(key))).toEqual([]);
    // Each is documented in the Configuration table (docs/configuration.md).
    const table = fs.readFileSync(path.join(ROOT, "docs/configuration.md"), "utf8");
    expect(Object.keys(env).filter((key) => !table.includes(`\`${key}\``))).toEqual([]);
    for (const key of ["DATABASE_URL", "SESSION_SECRET", "S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY", "PUBLIC_URL", "TRUST_PROXY"]) {
      expect(env[key], `${key} in ${ENV_EXAMPLE}`).toBeTruthy();
    }
    // Loads as the server loads it (every value passes its check), and stays a placeholder until edited.
    const loaded = loadEnv(env);
    expect(loaded.DATABASE_URL).toMatch(/^postgres:\/\//);
    expect(loaded.S3_BUCKET).toBeTruthy();
    expect(env.SESSION_SECRET).toContain("CHANGE_ME");
  });

  test("the systemd unit passes systemd-analyze verify and runs the build with the shared environment file, hardened", () => {
    const unit = fs.readFileSync(UNIT, "utf8");
    const keys = new Map<string, string>();
    for (const line of unit.split("\n")) {
      const match = /^([A-Za-z]+)=(.*)$/.exec(line);
      if (match) keys.set(match[1]!, match[2]!);
    }
    expect(keys.get("User")).toBe("frontpage");
    expect(keys.get("EnvironmentFile")).toBe("/etc/frontpage/frontpage.env");
    expect(keys.get("ExecStart")).toMatch(/^\/usr\/bin\/node .*build\/node\/index\.js$/);
    expect(keys.get("WorkingDirectory")).toBe("/opt/frontpage");
    expect(keys.get("Restart")).toBe("on-failure");
    for (const [key, value] of [
      ["NoNewPrivileges", "yes"],
      ["ProtectSystem", "strict"],
      ["ProtectHome", "yes"],
      ["PrivateTmp", "yes"],
      ["CapabilityBoundingSet", ""],
    ]) {
      expect(keys.get(key!), key).toBe(value);
    }
    // What ExecStart runs is the server `npm start` runs (scripts/ensure-build.mjs's SERVER_ENTRY), and it exists once built.
    expect(fs.readFileSync(path.join(ROOT, "scripts/ensure-build.mjs"), "utf8")).toContain('SERVER_ENTRY = path.join(root, "build/node/index.js")');
    expect(fs.existsSync(path.join(ROOT, "build/node/index.js"))).toBe(true);
    const verify = spawnSync("systemd-analyze", ["verify", UNIT], { encoding: "utf8" });
    if (verify.error && (verify.error as NodeJS.ErrnoException).code === "ENOENT") {
      test.info().annotations.push({ type: "skipped check", description: "systemd-analyze is not installed: only the keys above were checked" });
      return;
    }
    // An unknown or misspelt key is only a warning to systemd: any output fails the check.
    expect({ status: verify.status, output: `${verify.stdout}${verify.stderr}`.trim() }).toEqual({ status: 0, output: "" });
  });

  test("the nginx example passes nginx -t", () => {
    test.skip(!NGINX && !process.env.CI, "nginx is not installed (apt-get install nginx; .ci/run installs it)");
    expect(NGINX, "nginx (installed by .ci/run)").not.toBeNull();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "frontpage-nginx-t-"));
    try {
      const main = nginxConfig(dir, ["127.0.0.1:1", "127.0.0.1:2"], NGINX_PORT);
      const check = spawnSync(NGINX!, ["-t", "-q", "-p", dir, "-e", path.join(dir, "error.log"), "-c", main], { encoding: "utf8" });
      // No warning either, but the one nginx 1.25.1 and later give for `listen … http2` (kept for Debian 12's 1.22).
      const warnings = check.stderr
        .trim()
        .split("\n")
        .filter((line) => line && !/the "listen \.\.\. http2" directive is deprecated/.test(line));
      expect({ status: check.status, warnings }).toEqual({ status: 0, warnings: [] });
      // And the check can fail: a directive nginx does not know.
      fs.appendFileSync(path.join(dir, "frontpage.conf"), "proxy_bufering off;\n");
      expect(spawnSync(NGINX!, ["-t", "-q", "-p", dir, "-e", path.join(dir, "error.log"), "-c", main], { encoding: "utf8" }).status).not.toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

test("two machines on one external PostgreSQL 15 and one S3 bucket: uploads, comments, scheduled stories, view counts, and one machine killed", async () => {
  const missing = debianPostgresMissing();
  // In CI it is installed by .ci/run: a missing server there is a failure, not a skip.
  test.skip(missing !== null && !process.env.CI, `Debian's PostgreSQL 15 is needed for the rehearsal: ${missing}`);
  test.setTimeout(300_000);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "frontpage-rehearsal-"));
  fs.chmodSync(tmp, 0o755);
  let postgres: DebianPostgres | null = null;
  let s3: S3rver | null = null;
  let nginx: ChildProcess | null = null;
  let db: pg.Client | null = null;
  const machines: Machine[] = [];
  try {
    // One PostgreSQL, as a managed service gives it: a database and an account that owns it, not a superuser.
    postgres = await startDebianPostgres({ port: PG_PORT });
    const password = randomBytes(12).toString("hex");
    const superuser = new pg.Client({ connectionString: postgres.superuserUrl });
    await superuser.connect();
    expect((await superuser.query<{ v: string }>("select current_setting('server_version_num') as v")).rows[0]!.v).toMatch(/^15/);
    await superuser.query(`create role frontpage login password '${password}'`);
    await superuser.query("create database frontpage owner frontpage");
    await superuser.end();
    const databaseUrl = `postgres://frontpage:${password}@127.0.0.1:${PG_PORT}/frontpage`;

    // One bucket, named as in the example environment.
    const shipped = parseEnvFile(ENV_EXAMPLE);
    fs.mkdirSync(path.join(tmp, "s3"));
    s3 = new S3rver({ port: S3_PORT, address: "127.0.0.1", silent: true, directory: path.join(tmp, "s3"), configureBuckets: [{ name: shipped.S3_BUCKET! }] });
    await s3.run();

    // deploy/env/frontpage.env.example, with the values an operator replaces set to this test's.
    const shared = {
      ...shipped,
      DATABASE_URL: databaseUrl,
      SESSION_SECRET: randomBytes(36).toString("base64url"),
      S3_ENDPOINT: `http://127.0.0.1:${S3_PORT}`,
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      PUBLIC_URL: `https://127.0.0.1:${NGINX_PORT}`,
      // The proxy is nginx on this machine.
      TRUST_PROXY: "loopback",
      HOST: "127.0.0.1",
      // Each story due within a second; the comment form's minimum fill time kept, but short.
      SCHEDULER_INTERVAL_MS: "1000",
      COMMENT_MIN_FILL_SECONDS: "1",
      // One process a machine (two cores run the whole rehearsal).
      WEB_CONCURRENCY: "1",
      LOG_LEVEL: "info",
    };
    const machineEnv = (i: number, extra: Record<string, string> = {}) => {
      const dataDir = path.join(tmp, `machine-${i + 1}`);
      fs.mkdirSync(dataDir, { mode: 0o700 });
      return { ...shared, PORT: String(MACHINE_PORTS[i]), DATA_DIR: dataDir, ...extra };
    };
    // The first migrates the empty database; the second finds it migrated. Started one after the other
    // only so the administrator is created once.
    machines.push(await startMachine("machine 1", machineEnv(0, { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password })));
    machines.push(await startMachine("machine 2", machineEnv(1)));
    const [one, two] = machines as [Machine, Machine];

    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const adminId = (await db.query<{ id: string }>(`select id from "user" where email = $1`, [ADMIN.email])).rows[0]!.id;

    // nginx from deploy/proxy in front of both (its upstream lines swapped for them).
    if (NGINX) {
      const main = nginxConfig(tmp, MACHINE_PORTS.map((port) => `127.0.0.1:${port}`), NGINX_PORT);
      nginx = spawn(NGINX, ["-p", tmp, "-e", path.join(tmp, "error.log"), "-c", main], { detached: true, stdio: "ignore" });
      await expect.poll(async () => (await httpsGet(`https://127.0.0.1:${NGINX_PORT}/healthz`, {}).catch(() => null))?.status, { timeout: 10_000 }).toBe(200);
    } else {
      expect(process.env.CI, "nginx (installed by .ci/run)").toBeFalsy();
    }

    await test.step("signed in through one machine, an admin uploads through the other; both serve the file from the bucket", async () => {
      const { response: signIn, cookie } = await signInThroughApi(one.base, shared.PUBLIC_URL, ADMIN);
      expect(signIn.status, await signIn.clone().text()).toBe(200);
      const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#c0392b" } }).png().toBuffer();
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "rehearsal.png");
      const upload = await fetch(`${two.base}/api/admin/uploads/image`, { method: "POST", headers: { Origin: shared.PUBLIC_URL, Cookie: cookie }, body: form });
      expect(upload.status, await upload.clone().text()).toBe(201);
      const { url } = (await upload.json()) as { url: string };
      expect(url).toMatch(/^\/media\/images\//);
      const fromOne = await fetch(`${one.base}${url}`);
      expect(fromOne.status).toBe(200);
      expect(fromOne.headers.get("content-type")).toBe("image/png");
      const bytes = Buffer.from(await fromOne.arrayBuffer());
      expect((await sharp(bytes).metadata()).width).toBe(64);
      expect(Buffer.from(await (await fetch(`${two.base}${url}`)).arrayBuffer()).equals(bytes)).toBe(true);
      // From the bucket, not a disk: neither machine's DATA_DIR holds it.
      const name = path.basename(url);
      for (const machine of machines) expect(fs.existsSync(path.join(machine.dataDir, "media", "images", name))).toBe(false);
    });

    const { rows: created } = await db.query<{ id: string; slug: string }>(
      `insert into articles (title, slug, content, status, published_at) values ('Two machines, one newsroom', 'two-machines-one-newsroom', 'Rehearsed.', 'published', now() - interval '1 hour') returning id, slug`,
    );
    const story = created[0]!;
    const storyPath = `/article/${story.slug}`;

    await test.step("a comment posted through one machine shows on the other's cached page", async () => {
      // The other machine's page is cached: a miss, then hits (once the notice of the story's insert,
      // which may drop a page rendered before it arrived, has been heard).
      expect((await fetch(`${two.base}${storyPath}`)).headers.get("x-cache")).toBe("MISS");
      await expect.poll(async () => (await fetch(`${two.base}${storyPath}`)).headers.get("x-cache"), { timeout: 5000 }).toBe("HIT");
      const cached = await fetch(`${two.base}${storyPath}`);
      expect(cached.headers.get("x-cache")).toBe("HIT");
      // The form as machine 2 gave it (its fill-time stamp signed with the shared secret), posted to machine 1.
      const page = await cached.text();
      const formStarted = /name="formStarted" value="([^"]+)"/.exec(page)?.[1];
      expect(formStarted, "the comment form's time stamp").toBeTruthy();
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const text = `Seen from both machines ${randomBytes(4).toString("hex")}`;
      const posted = await fetch(`${one.base}/api/articles/${story.slug}/comments`, {
        method: "POST",
        headers: { Origin: shared.PUBLIC_URL },
        body: new URLSearchParams({ authorName: "Reader", authorEmail: "reader@example.org", content: text, parentCommentId: "", imageUrl: "", videoUrl: "", website: "", formStarted: formStarted! }),
      });
      expect(posted.status, await posted.clone().text()).toBe(201);
      // Machine 2 heard it through PostgreSQL and renders the page again (its stale copy served meanwhile).
      await expect.poll(async () => (await (await fetch(`${two.base}${storyPath}`)).text()).includes(text), { timeout: 5000, intervals: [100] }).toBe(true);
      const again = await fetch(`${two.base}${storyPath}`);
      expect(again.headers.get("x-cache")).toBe("HIT");
      expect(await again.text()).toContain(text);
    });

    await test.step("stories scheduled for the same second are each published once, though both machines' schedulers run", async () => {
      const { rows: scheduled } = await db!.query<{ id: string }>(
        `insert into articles (title, slug, content, status, published_at, created_by_id)
         select 'Scheduled ' || n, 'scheduled-rehearsal-' || n, 'Due.', 'scheduled', date_trunc('second', now()) + interval '4 seconds', $1
         from generate_series(1, 20) as n returning id`,
        [adminId],
      );
      const ids = scheduled.map((row) => row.id);
      // Both machines at the same moment, not a tick apart: the table is held (reads allowed, writes not)
      // until each machine's scheduler has found the stories due and waits to publish them; then let go.
      const holder = new pg.Client({ connectionString: databaseUrl });
      await holder.connect();
      try {
        await holder.query("begin");
        await holder.query("lock table articles in share row exclusive mode");
        const waiting = async () =>
          (
            await db!.query<{ n: number }>(
              `select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query like '%with published as%' and datname = current_database()`,
            )
          ).rows[0]!.n;
        await expect.poll(waiting, { timeout: 15_000, message: "both machines' schedulers wait to publish" }).toBe(2);
        await holder.query("rollback");
      } finally {
        await holder.end();
      }
      await expect
        .poll(async () => (await db!.query<{ n: number }>(`select count(*)::int as n from articles where id = any($1) and status = 'published'`, [ids])).rows[0]!.n, {
          timeout: 15_000,
        })
        .toBe(20);
      // A few more ticks of both schedulers: still once each, in the activity log and in the notifications.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const published = await db!.query<{ object_id: string; n: number }>(
        `select object_id, count(*)::int as n from audit_events where kind = 'article.publish' and object_id = any($1) group by object_id`,
        [ids],
      );
      expect(published.rows.map((row) => row.n)).toEqual(Array(20).fill(1));
      const notified = await db!.query<{ article_id: string; n: number }>(
        `select article_id, count(*)::int as n from notifications where kind = 'article.published' and article_id = any($1) group by article_id`,
        [ids],
      );
      expect(notified.rows.map((row) => row.n)).toEqual(Array(20).fill(1));
      const logged = machines.map((machine) => logLines(machine, "scheduled article published").filter((line) => ids.includes(line.articleId as string)).length);
      expect(logged[0]! + logged[1]!).toBe(20);
    });

    await test.step("page loads spread over both machines (and through nginx) are counted exactly", async () => {
      const before = (await db!.query<{ views: number }>(`select views from articles where id = $1`, [story.id])).rows[0]!.views;
      const pageViewsBefore = (await db!.query<{ n: number }>(`select count(*)::int as n from page_views where path = $1`, [storyPath])).rows[0]!.n;
      const headers = { "User-Agent": CHROME };
      const loads: Promise<number>[] = [];
      for (let i = 0; i < 30; i++) loads.push(fetch(`${machines[i % 2]!.base}${storyPath}`, { headers }).then((r) => r.status));
      const viaProxy = NGINX ? 20 : 0;
      for (let i = 0; i < viaProxy; i++) loads.push(httpsGet(`https://127.0.0.1:${NGINX_PORT}${storyPath}`, headers).then((r) => r.status));
      expect(await Promise.all(loads)).toEqual(Array(30 + viaProxy).fill(200));
      const total = 30 + viaProxy;
      await expect
        .poll(async () => (await db!.query<{ views: number }>(`select views from articles where id = $1`, [story.id])).rows[0]!.views, { timeout: 5000 })
        .toBe(before + total);
      expect((await db!.query<{ n: number }>(`select count(*)::int as n from page_views where path = $1`, [storyPath])).rows[0]!.n).toBe(pageViewsBefore + total);
      // Each machine answers the live count from the same stored number, once nothing waits in memory.
      for (const machine of machines) {
        const answer = await fetch(`${machine.base}/api/views`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ path: storyPath }) });
        expect(((await answer.json()) as { views: number }).views).toBe(before + total);
      }
      // Still exact a moment later (no late second write).
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect((await db!.query<{ views: number }>(`select views from articles where id = $1`, [story.id])).rows[0]!.views).toBe(before + total);
    });

    await test.step("a machine killed outright leaves the other serving: pages, media, sign-in, comments", async () => {
      await kill(one);
      expect(one.child.signalCode).toBe("SIGKILL");
      expect((await fetch(`${two.base}/healthz`)).status).toBe(200);
      expect((await fetch(`${two.base}/`)).status).toBe(200);
      expect((await fetch(`${two.base}${storyPath}`)).status).toBe(200);
      const { response: signIn } = await signInThroughApi(two.base, shared.PUBLIC_URL, ADMIN);
      expect(signIn.status).toBe(200);
      if (nginx) {
        // The proxy skips the dead machine: every load through it is answered.
        const statuses = await Promise.all(Array.from({ length: 6 }, () => httpsGet(`https://127.0.0.1:${NGINX_PORT}${storyPath}`, {}).then((r) => r.status)));
        expect(statuses).toEqual(Array(6).fill(200));
      }
      expect(two.child.exitCode).toBeNull();
    });

    // Nothing went wrong on either machine but what the kill explains.
    for (const machine of machines) {
      const errors = machine
        .output()
        .split("\n")
        .filter((line) => /"level":(50|60)/.test(line));
      expect(errors, `${machine.name}'s errors`).toEqual([]);
    }
  } finally {
    await db?.end().catch(() => {});
    for (const machine of machines) await kill(machine);
    if (nginx) {
      killGroup(nginx.pid);
      await new Promise((resolve) => (nginx!.exitCode !== null || nginx!.signalCode !== null ? resolve(null) : nginx!.once("exit", resolve)));
    }
    await s3?.close().catch(() => {});
    await postgres?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
