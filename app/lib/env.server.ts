import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { isCommonPassword } from "./common-passwords.server";
import { AppError } from "./app-error";

const flag = z
  .enum(["1", "0", "true", "false", "yes", "no", "on", "off"], {
    error: "must be one of 1, 0, true, false, yes, no, on, off",
  })
  .transform((v) => ["1", "true", "yes", "on"].includes(v));

const url = (protocols: string[]) =>
  z.string().refine(
    (v) => {
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    { message: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(" or ")}` },
  );

const emptyToUndefined = (v: unknown) => (v === "" ? undefined : v);
const opt = <T extends z.ZodType>(schema: T) => z.preprocess(emptyToUndefined, schema.optional());

export const envSchema = z.object({
  NODE_ENV: opt(z.enum(["development", "production", "test"])).default("production"),
  PORT: opt(z.coerce.number({ error: "must be a port number" }).int().min(0).max(65535)).default(3000),
  HOST: opt(z.string()).default("0.0.0.0"),
  DATA_DIR: opt(z.string()).default("./data"),
  DATABASE_URL: opt(url(["postgres:", "postgresql:"])),
  PUBLIC_URL: opt(url(["http:", "https:"])),
  SMTP_URL: opt(url(["smtp:", "smtps:"])),
  MAIL_FROM: opt(z.string()).default("Frontpage <no-reply@localhost>"),
  /** How newsletters leave (issue 30): "smtp" (NEWSLETTER_SMTP_URL, else SMTP_URL), "ses" (Amazon SES v2), "outbox" (files in DATA_DIR/outbox). Unset: smtp when an SMTP URL is set, else outbox. */
  NEWSLETTER_TRANSPORT: opt(z.enum(["smtp", "ses", "outbox"], { error: "must be smtp, ses or outbox" })),
  NEWSLETTER_SMTP_URL: opt(url(["smtp:", "smtps:"])),
  /** The newsletters' From address (default: MAIL_FROM's). */
  NEWSLETTER_FROM: opt(z.string()),
  /** At most this many newsletter messages a second, over every process. */
  NEWSLETTER_RATE: opt(
    z.coerce.number({ error: "must be a number of messages a second" }).int({ error: "must be a whole number" }).min(1, { error: "must be at least 1" }).max(100_000, { error: "must be at most 100000" }),
  ).default(1000),
  /**
   * SMTP connections the newsletter transport keeps open: messages in flight at once, and so the most
   * recipients a crash mid-send can leave "may have been sent twice" (decision 0043).
   */
  NEWSLETTER_SMTP_POOL: opt(
    z.coerce.number({ error: "must be a number of connections" }).int({ error: "must be a whole number" }).min(1).max(50, { error: "must be at most 50" }),
  ).default(10),
  /** Open reader streams of live stories one process holds at most (issue 31): past it a reader hears 503 and its browser tries again. */
  LIVE_STREAM_LIMIT: opt(
    z.coerce.number({ error: "must be a number of streams" }).int({ error: "must be a whole number" }).min(1, { error: "must be at least 1" }).max(1_000_000, { error: "must be at most 1000000" }),
  ).default(10_000),
  /** Of those, how many one client address may hold (an office or a carrier's shared address; one machine cannot take them all): 429 past it. */
  LIVE_STREAMS_PER_ADDRESS: opt(
    z.coerce.number({ error: "must be a number of streams" }).int({ error: "must be a whole number" }).min(1, { error: "must be at least 1" }).max(1_000_000, { error: "must be at most 1000000" }),
  ).default(200),
  /** DKIM signing of newsletters sent by SMTP (all three or none). */
  DKIM_DOMAIN: opt(z.string()),
  DKIM_SELECTOR: opt(z.string()),
  DKIM_PRIVATE_KEY: opt(z.string()),
  /** Amazon SES (NEWSLETTER_TRANSPORT=ses): its region, keys, and its own sending rate. */
  SES_REGION: opt(z.string()).default("us-east-1"),
  SES_ACCESS_KEY_ID: opt(z.string()),
  SES_SECRET_ACCESS_KEY: opt(z.string()),
  SES_ENDPOINT: opt(url(["http:", "https:"])),
  SES_RATE: opt(z.coerce.number({ error: "must be a number of messages a second" }).int().min(1).max(10_000)).default(14),
  /**
   * The SNS topic that carries SES's bounce and complaint notifications to /api/newsletter/sns (issue 30);
   * unset, that endpoint answers 404. Its region is the only one whose signing certificate is fetched.
   */
  SES_SNS_TOPIC_ARN: opt(
    z.string().regex(/^arn:aws(-cn|-us-gov)?:sns:[a-z]{2}(-[a-z]+)+-\d+:\d{12}:[A-Za-z0-9_-]{1,256}(\.fifo)?$/, {
      error: "must be an SNS topic ARN (arn:aws:sns:<region>:<account>:<topic>)",
    }),
  ),
  S3_BUCKET: opt(z.string()),
  S3_REGION: opt(z.string()).default("us-east-1"),
  S3_ENDPOINT: opt(url(["http:", "https:"])),
  S3_ACCESS_KEY_ID: opt(z.string()),
  S3_SECRET_ACCESS_KEY: opt(z.string()),
  S3_PUBLIC_URL: opt(url(["http:", "https:"])),
  ADMIN_EMAIL: opt(z.email({ error: "must be an e-mail address" })),
  ADMIN_PASSWORD: opt(
    z
      .string()
      .min(8, { error: "must be at least 8 characters" })
      .refine((password) => !isCommonPassword(password), { error: "is one of the most common passwords; choose a longer, less predictable one" }),
  ),
  SEED_DEMO: opt(flag),
  LOG_LEVEL: opt(z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])).default("info"),
  SESSION_SECRET: opt(z.string().min(32, { error: "must be at least 32 characters" })),
  /**
   * Signs backups and checks them at restore (decision 0036); unset, DATA_DIR/secrets.json keeps one.
   * Kept apart from the archives: whoever holds both can change an archive and sign it again.
   */
  BACKUP_KEY: opt(z.string().min(32, { error: "must be at least 32 characters" })),
  AD_CLIENT_ID: opt(z.string()),
  /**
   * Lets an import (issue 29) fetch images from loopback and private addresses (a test server, an
   * intranet copy of the old site). Off: an export's image URLs cannot reach the machine's own services.
   */
  IMPORT_ALLOW_PRIVATE_HOSTS: opt(flag).default(false),
  /** Express "trust proxy": which proxies' X-Forwarded-For to believe (client IPs count sign-in attempts). */
  TRUST_PROXY: opt(z.string())
    .default("loopback")
    .transform((v): boolean | number | string => (v === "true" ? true : v === "false" ? false : /^\d+$/.test(v) ? Number(v) : v)),
  /** How often the publishing scheduler looks for scheduled articles that are due (decision 0009). */
  SCHEDULER_INTERVAL_MS: opt(
    z.coerce.number({ error: "must be a number of milliseconds" }).int({ error: "must be a whole number of milliseconds" }).min(1000, { error: "must be at least 1000" }).max(3_600_000, { error: "must be at most 3600000 (one hour)" }),
  ).default(20_000),
  /** Comment spam rules (issue 12): one comment per address and per e-mail this often; 0 turns it off. */
  COMMENT_INTERVAL_SECONDS: opt(
    z.coerce.number({ error: "must be a number of seconds" }).int({ error: "must be a whole number of seconds" }).min(0).max(3600, { error: "must be at most 3600" }),
  ).default(15),
  /** How long the comment form must be open before it may be posted; 0 turns it off. */
  COMMENT_MIN_FILL_SECONDS: opt(
    z.coerce.number({ error: "must be a number of seconds" }).int({ error: "must be a whole number of seconds" }).min(0).max(60, { error: "must be at most 60" }),
  ).default(3),
  /**
   * How many processes answer requests (decision 0027): unset, one per core in production and one in
   * development. With more than one, a primary process owns PostgreSQL, migrations, seeding and the
   * background jobs, and forks that many workers sharing the port.
   */
  WEB_CONCURRENCY: opt(
    z.coerce.number({ error: "must be a number of processes" }).int({ error: "must be a whole number of processes" }).min(1, { error: "must be at least 1" }).max(64, { error: "must be at most 64" }),
  ),
  /**
   * Purging a CDN on change (issue 32, decision 0045): which one. Its settings below are read apart
   * (cdnSettingsOf): one that is missing or malformed turns purging off with one line at start, never
   * stops the start, and pages keep the short shared-cache lifetime.
   */
  CDN: opt(z.string()),
  FASTLY_API_TOKEN: opt(z.string()),
  FASTLY_SERVICE_ID: opt(z.string()),
  /** Fastly's API (tests: a local server). */
  FASTLY_API_URL: opt(z.string()),
  CLOUDFLARE_API_TOKEN: opt(z.string()),
  CLOUDFLARE_ZONE_ID: opt(z.string()),
  /** "tags" (Cache-Tag purge: Enterprise plans) or "urls" (the default: the addresses a change touched). */
  CLOUDFLARE_PURGE_BY: opt(z.string()),
  /** Cloudflare's API (tests: a local server). */
  CLOUDFLARE_API_URL: opt(z.string()),
  /** Varnish servers to send PURGE to (comma-separated: one per Varnish machine). */
  VARNISH_URL: opt(z.string()),
  CDN_WEBHOOK_URL: opt(z.string()),
  /** Sent as `Authorization: Bearer …` with each webhook call. */
  CDN_WEBHOOK_SECRET: opt(z.string()),
  /**
   * Metrics (issue 32, decision 0047): /metrics in Prometheus's text format on a listener of its own at
   * this port (the primary's, for the whole machine), bound to METRICS_HOST. Unset with METRICS_TOKEN
   * unset too: no metrics are collected.
   */
  METRICS_PORT: opt(z.coerce.number({ error: "must be a port number" }).int({ error: "must be a port number" }).min(0).max(65535, { error: "must be a port number" })),
  /** The address the metrics listener binds (default: loopback only). */
  METRICS_HOST: opt(z.string()).default("127.0.0.1"),
  /** Also answers /metrics on the public port, to `Authorization: Bearer <token>` only (at least 16 characters). */
  METRICS_TOKEN: opt(z.string().min(16, { error: "must be at least 16 characters" }).regex(/^\S+$/, { error: "must not contain spaces" })),
  /** One JSON line per request (its path class, status, duration, cache result), at info whatever LOG_LEVEL says. Off by default: decision 0047. */
  ACCESS_LOG: opt(flag).default(false),
  /**
   * Audience analytics (issue 42, decision 0058): each counted page load also records an audience event
   * (a visitor hash, never the address). Off: page views are still counted, no audience event or
   * reading report is (the baseline of `npm run bench -- --audience`).
   */
  AUDIENCE_RECORDING: opt(flag).default(true),
  /** Access-log lines carry the client address (as "trust proxy" derives it). Off: none is written. */
  LOG_CLIENT_ADDRESSES: opt(flag).default(false),
  /**
   * Paid plans through Stripe (issue 40): its secret key (sk_test_…/sk_live_…, or a restricted rk_…) and
   * the webhook endpoint's signing secret (whsec_…), set together. Unset: free members only.
   */
  STRIPE_SECRET_KEY: opt(z.string().regex(/^(sk|rk)_(test|live)_[A-Za-z0-9_]+$/, { error: "must be a Stripe secret key (sk_test_…, sk_live_… or a restricted rk_… key)" })),
  STRIPE_WEBHOOK_SECRET: opt(z.string().regex(/^whsec_[A-Za-z0-9_+/=]+$/, { error: "must be a webhook signing secret (whsec_…), as the Dashboard or `stripe listen` shows it" })),
  /** Another address for Stripe's API (tests: a local stand-in, http://127.0.0.1:12111): its protocol, host and port go to the SDK. */
  STRIPE_API_BASE: opt(url(["http:", "https:"])),
  /**
   * Where the embed posters' fetches go (issue 41, decision 0057): unset, the real hosts (YouTube's
   * oEmbed at www.youtube.com and its thumbnails at i.ytimg.com, X's oEmbed at publish.twitter.com);
   * set (tests: a local stand-in, http://127.0.0.1:4010), every one of them goes to this base instead,
   * under /youtube/oembed, /youtube/vi/<id>/hqdefault.jpg and /x/oembed.
   */
  EMBED_FETCH_BASE: opt(url(["http:", "https:"])),
  /** The site's currency for paid plans (ISO 4217, default USD); kept lower-case, as Stripe writes it. */
  CURRENCY: opt(
    z
      .string()
      .regex(/^[A-Za-z]{3}$/, { error: "must be a three-letter ISO 4217 currency code such as USD or EUR" })
      .refine((code) => Intl.supportedValuesOf("currency").includes(code.toUpperCase()), { error: "is not a currency code Node knows (ISO 4217, such as USD or EUR)" }),
  )
    .default("usd")
    .transform((code) => code.toLowerCase()),
  TIME_ZONE: opt(
    z.string().refine(
      (tz) => {
        try {
          new Intl.DateTimeFormat("en-US", { timeZone: tz });
          return true;
        } catch {
          return false;
        }
      },
      { message: "must be an IANA time zone such as America/New_York" },
    ),
  ).default("America/New_York"),
});

export type Env = z.infer<typeof envSchema> & { dataDir: string; publicUrl: string; workers: number };

const httpUrl = url(["http:", "https:"]);
const required = (schema: z.ZodString = z.string({ error: "is required" })) => schema.min(1, { error: "is required" });

/** Each CDN's settings (decision 0045), checked when CDN names it. */
const cdnSchema = z.discriminatedUnion(
  "CDN",
  [
    z.object({
      CDN: z.literal("fastly"),
      FASTLY_API_TOKEN: required(),
      FASTLY_SERVICE_ID: z.string({ error: "is required" }).regex(/^[A-Za-z0-9]+$/, { error: "must be a service id (letters and digits)" }),
      FASTLY_API_URL: httpUrl.default("https://api.fastly.com"),
    }),
    z.object({
      CDN: z.literal("cloudflare"),
      CLOUDFLARE_API_TOKEN: required(),
      CLOUDFLARE_ZONE_ID: z.string({ error: "is required" }).regex(/^[A-Za-z0-9]+$/, { error: "must be a zone id (letters and digits)" }),
      CLOUDFLARE_PURGE_BY: z.enum(["tags", "urls"], { error: "must be tags or urls" }).default("urls"),
      CLOUDFLARE_API_URL: httpUrl.default("https://api.cloudflare.com"),
    }),
    z.object({
      CDN: z.literal("varnish"),
      VARNISH_URL: z
        .string({ error: "is required" })
        .transform((v) => v.split(",").map((part) => part.trim()).filter(Boolean))
        .pipe(z.array(httpUrl).min(1, { error: "is required" })),
    }),
    z.object({
      CDN: z.literal("webhook"),
      CDN_WEBHOOK_URL: z.string({ error: "is required" }).pipe(httpUrl),
      CDN_WEBHOOK_SECRET: z.string().optional(),
    }),
  ],
  { error: "must be fastly, cloudflare, varnish or webhook" },
);

export type CdnSettings = z.infer<typeof cdnSchema>;

/**
 * The CDN to purge (decision 0045): its settings, null when CDN is unset, or why purging is off (a
 * missing or malformed setting; its value never quoted, as it may be a credential). Never throws: a
 * site whose CDN settings are wrong still starts, with the short shared-cache lifetime.
 */
export function cdnSettingsOf(env: Pick<Env, "CDN" | "FASTLY_API_TOKEN" | "FASTLY_SERVICE_ID" | "FASTLY_API_URL" | "CLOUDFLARE_API_TOKEN" | "CLOUDFLARE_ZONE_ID" | "CLOUDFLARE_PURGE_BY" | "CLOUDFLARE_API_URL" | "VARNISH_URL" | "CDN_WEBHOOK_URL" | "CDN_WEBHOOK_SECRET">): { settings: CdnSettings } | { off: string } | null {
  if (!env.CDN) return null;
  const parsed = cdnSchema.safeParse(env);
  if (parsed.success) return { settings: parsed.data };
  const issue = parsed.error.issues[0]!;
  return { off: `${String(issue.path[0] ?? "CDN")} ${issue.message}` };
}


/** Variables whose value is a credential: named, never quoted, when refused. */
const SECRET_NAME = /(TOKEN|SECRET|PASSWORD|_KEY$|KEY_ID$)/;

/** Reads and checks the environment once; a bad value throws an "invalid_config" AppError: one line naming the variable. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0]);
    // A credential's value is never printed (the line reaches the log).
    // nor a URL's user and password (DATABASE_URL, SMTP_URL).
    const shown = SECRET_NAME.test(name) ? "" : `=${JSON.stringify((source[name] ?? "").replace(/\/\/[^/@]*@/, "//…@"))}`;
    throw new AppError("invalid_config", `Invalid environment variable ${name}${shown}: ${issue.message}`);
  }
  const env = parsed.data;
  if (env.ADMIN_EMAIL && !env.ADMIN_PASSWORD) throw new AppError("invalid_config", "Invalid environment variable ADMIN_PASSWORD: required when ADMIN_EMAIL is set");
  if (env.S3_BUCKET && !(env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY)) {
    throw new AppError("invalid_config", "Invalid environment variable S3_ACCESS_KEY_ID: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are required when S3_BUCKET is set");
  }
  if (env.NEWSLETTER_TRANSPORT === "ses" && !(env.SES_ACCESS_KEY_ID && env.SES_SECRET_ACCESS_KEY)) {
    throw new AppError("invalid_config", "Invalid environment variable SES_ACCESS_KEY_ID: SES_ACCESS_KEY_ID and SES_SECRET_ACCESS_KEY are required when NEWSLETTER_TRANSPORT=ses");
  }
  if (env.NEWSLETTER_TRANSPORT === "smtp" && !(env.NEWSLETTER_SMTP_URL || env.SMTP_URL)) {
    throw new AppError("invalid_config", "Invalid environment variable NEWSLETTER_SMTP_URL: NEWSLETTER_SMTP_URL or SMTP_URL is required when NEWSLETTER_TRANSPORT=smtp");
  }
  const dkim = [env.DKIM_DOMAIN, env.DKIM_SELECTOR, env.DKIM_PRIVATE_KEY].filter(Boolean).length;
  if (dkim > 0 && dkim < 3) throw new AppError("invalid_config", "Invalid environment variable DKIM_PRIVATE_KEY: DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY go together");
  if (env.STRIPE_SECRET_KEY && !env.STRIPE_WEBHOOK_SECRET) {
    throw new AppError("invalid_config", "Invalid environment variable STRIPE_WEBHOOK_SECRET: required when STRIPE_SECRET_KEY is set (the endpoint's signing secret, whsec_…; `stripe listen` prints one)");
  }
  if (env.STRIPE_WEBHOOK_SECRET && !env.STRIPE_SECRET_KEY) {
    throw new AppError("invalid_config", "Invalid environment variable STRIPE_SECRET_KEY: required when STRIPE_WEBHOOK_SECRET is set (sk_test_… or sk_live_…)");
  }
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT || 3000}`).replace(/\/+$/, "");
  const workers = env.WEB_CONCURRENCY ?? (env.NODE_ENV === "production" ? os.availableParallelism() : 1);
  return { ...env, dataDir: path.resolve(env.DATA_DIR), publicUrl, workers };
}
