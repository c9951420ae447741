import path from "node:path";
import type { AppLoadContext } from "react-router";
import { createDb } from "../app/db/client.server";
import { ensureAdminAccount } from "../app/domain/accounts/accounts.server";
import { createPreviewLinks, previewKeyOf } from "../app/domain/articles/preview-links.server";
import { startPublishingScheduler } from "../app/domain/articles/scheduler.server";
import { createStoryMemo } from "../app/domain/articles/story-memo.server";
import { scheduleCommentUploadPruning } from "../app/domain/comments/comment-uploads.server";
import { notificationEmailTasks } from "../app/domain/notifications/notification-email.server";
import { subscriberTasks } from "../app/domain/newsletters/subscribers.server";
import { AUDIENCE_ROLLUP_TASK, audienceRollupTasks } from "../app/domain/audience/audience-rollup.server";
import { AdBook } from "../app/domain/ads/ad-book.server";
import { AdRecorder } from "../app/domain/ads/ad-recorder.server";
import { adTasks } from "../app/domain/ads/ad-tasks.server";
import { createAuth } from "../app/domain/accounts/auth.server";
import { createMemberAuth, EMAIL_CHANGE_LINK_MINUTES, SIGN_IN_LINK_MINUTES } from "../app/domain/members/member-auth.server";
import { createKnownDevices } from "../app/domain/accounts/known-devices.server";
import { upcomingPinEnds } from "../app/domain/front-page/front-page.server";
import { activeBreakingNews } from "../app/domain/settings/breaking-news.schema";
import { createSiteFrame } from "../app/domain/settings/site-frame.server";
import { RedirectTable } from "../app/domain/redirects/redirect-table.server";
import { categoryTag, HOME_TAG, SITE_TAG } from "../app/lib/cache-tags.server";
import { ChangeFeed } from "../app/lib/change-feed.server";
import { cdnSettingsOf, type Env } from "../app/lib/env.server";
import type { Logger } from "../app/lib/logger.server";
import { createFormTimer } from "../app/lib/form-timer.server";
import { enqueueJob, startJobQueue } from "../app/lib/job-queue.server";
import { importTasks, resumeImports } from "../app/domain/import/import-job.server";
import { createMailer, memberEmailChangeMail, memberSignInMail } from "../app/lib/mail.server";
import { createStripeBilling, createStripeClient } from "../app/domain/members/stripe.server";
import { stripeTasks } from "../app/domain/members/stripe-events.server";
import { getSettings } from "../app/domain/settings/settings.server";
import { createNewsletterTransport } from "../app/domain/newsletters/newsletter-transport.server";
import { newsletterTasks, resumeSends } from "../app/domain/newsletters/newsletter-sends.server";
import { embedHostsOf, embedPosterTasks } from "../app/domain/articles/embed-posters.server";
import { storageFromEnv } from "../app/lib/storage-from-env.server";
import { cleanUploadParts, scheduleUploadPartsCleanup } from "../app/lib/uploads.server";
import { ViewRecorder } from "../app/lib/view-recorder.server";
import { AudienceRecorder } from "../app/domain/audience/audience-recorder.server";
import { startEmbeddedPostgres } from "./embedded-db";
import type { Lifecycle } from "./lifecycle";
import { DatabaseHealth } from "./database-health";
import { seedDemoContentApart } from "./demo-seeder";
import { migrateDatabase } from "./migrate";
import { cdnStatusOf } from "./cdn";
import { cdnCheckTasks, purgeWhenCdnAnswers } from "./cdn/check";
import { createPurgeAdapter } from "./cdn/adapters";
import { cdnPurgeTasks, type PurgeObserver } from "./cdn/purger";
import { cacheChangeOf, PageCache } from "./page-cache";
import { loadSecrets } from "./secrets";
import { seedDatabase } from "./seed";
import { observeSchedulerRun } from "./metrics/registry";
import { watchDatabasePool, watchJobQueue } from "./metrics/sources";

/**
 * Starts what the site has once, whatever the number of processes answering requests (the primary
 * of a cluster, or the only process; decision 0027), in order: PostgreSQL (embedded unless
 * DATABASE_URL), migrations, seeding (the demo content in a process of its own, run from `entry`,
 * the server's entry file), upload pruning, the publishing scheduler, the job queue (decision 0032),
 * the ADMIN_EMAIL account. Each is registered with the lifecycle to stop in reverse.
 */
export async function startSiteServices({
  env,
  log,
  lifecycle,
  entry,
  onCdnPurge,
}: {
  env: Env;
  log: Logger;
  lifecycle: Lifecycle;
  entry: string;
  /** Told of each CDN purge attempt (metrics: decision 0045). */
  onCdnPurge?: PurgeObserver;
}) {
  const embedded = env.DATABASE_URL ? null : await lifecycle.ownLast(startEmbeddedPostgres(env.dataDir, log));
  const databaseUrl = env.DATABASE_URL || embedded!.url;
  lifecycle.checkpoint();
  const database = createDb(databaseUrl);
  const { db, pool } = database;
  watchDatabasePool(pool);
  lifecycle.onShutdown("database pool", () => pool.end());
  await migrateDatabase(databaseUrl);
  lifecycle.checkpoint();

  const storage = storageFromEnv(env);
  await seedDatabase({
    db,
    storage,
    log,
    demo: env.SEED_DEMO ?? Boolean(embedded?.created),
    seedDemo: () => seedDemoContentApart({ entry, databaseUrl, lifecycle }),
  });
  lifecycle.checkpoint();

  const stopPruning = scheduleCommentUploadPruning(db, storage, log);
  lifecycle.onShutdown("upload pruning", async () => stopPruning());
  // Partial files of uploads a crash interrupted: cleaned now (before any process listens, so none is
  // in flight) and every 10 minutes.
  const stopPartsCleanup = scheduleUploadPartsCleanup(storage, log);
  lifecycle.onShutdown("upload parts cleanup", async () => stopPartsCleanup());
  // Publishes scheduled articles at their time (and at once what became due while nothing ran).
  const stopScheduler = startPublishingScheduler(db, log, env.SCHEDULER_INTERVAL_MS, observeSchedulerRun);
  lifecycle.onShutdown("publishing scheduler", stopScheduler);
  // The background jobs (notification e-mails), run here only: one runner per site (decision 0032).
  const mailer = createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, log, outboxDir: path.join(env.dataDir, "outbox") });
  // Newsletter sign-ups' e-mails (their links signed with the session secret) and the hourly expiry of unconfirmed ones.
  const subscriberSecret = env.SESSION_SECRET ?? (await loadSecrets(env.dataDir)).sessionSecret;
  const subscribing = subscriberTasks({ db, mailer, publicUrl: env.publicUrl, secret: subscriberSecret, log });
  const importing = importTasks({ db, storage, log, allowPrivateHosts: env.IMPORT_ALLOW_PRIVATE_HOSTS, publicUrl: env.publicUrl, dataDir: env.dataDir });
  // Newsletters (issue 30, decision 0043): one transport (its SMTP pool) for every send of this process;
  // the subscribers' links are signed with the session secret.
  const newsletterTransport = createNewsletterTransport(env, log);
  lifecycle.onShutdown("newsletter transport", () => newsletterTransport.close());
  const newsletters = newsletterTasks({
    db,
    log,
    env,
    transport: newsletterTransport,
    secret: subscriberSecret,
  });
  // Sends a stop or a crash interrupted get their job back now (graphile-worker would free a dead
  // runner's job only after 4 hours); before the queue starts, so no runner holds one yet.
  const resumedSends = await resumeSends(db);
  if (resumedSends > 0) log.info({ sends: resumedSends }, "resuming newsletter sends a stop interrupted");
  // The CDN (decision 0045): its purge task whenever its settings are complete (purges queued by another
  // machine run here too), and the check of a purge target that did not answer (issue 39); whether
  // this process queues purges is known once the CDN took the credentials.
  const cdnSettings = cdnSettingsOf(env);
  const cdnConfigured = cdnSettings !== null && "settings" in cdnSettings;
  const cdn = cdnStatusOf(env);
  const purging = cdnConfigured
    ? { ...cdnPurgeTasks({ adapter: createPurgeAdapter(cdnSettings.settings, env.publicUrl), db, log, onPurge: onCdnPurge }), ...cdnCheckTasks({ status: cdn, db }) }
    : {};
  // Stripe's webhook events and the billing mails they queue (issue 40), when Stripe is configured.
  const stripe = createStripeClient(env);
  const billingTasks = stripe ? stripeTasks({ db, stripe, log, mailer, publicUrl: env.publicUrl }) : {};
  // Embed posters (issue 41, decision 0057): a story's videos' and posts' posters, fetched once.
  const posterTasks = embedPosterTasks({ db, storage, log, hosts: embedHostsOf(env.EMBED_FETCH_BASE) });
  // Audience analytics (issue 42, decision 0058): the hourly rollup of the raw events, their partitions,
  // retention and the finished days' salts.
  const audience = audienceRollupTasks({ db, log, timeZone: env.TIME_ZONE });
  // Advertising (issue 43): the day's marks of counted clicks and viewable impressions, forgotten after it.
  const adJobs = adTasks({ db, log });
  const jobs = await startJobQueue({
    connectionString: databaseUrl,
    log,
    tasks: { ...notificationEmailTasks({ db, mailer, publicUrl: env.publicUrl, log }), ...importing.tasks, ...subscribing.tasks, ...newsletters.tasks, ...purging, ...billingTasks, ...posterTasks, ...audience.tasks, ...adJobs.tasks },
    cron: [...subscribing.cron, ...newsletters.cron, ...audience.cron, ...adJobs.cron],
  });
  // Once at start-up too: a machine that was down catches up its hours (and makes today's partitions) now.
  await enqueueJob(db, AUDIENCE_ROLLUP_TASK, {}, { key: "audience-rollup-at-start", maxAttempts: 3 });
  watchJobQueue({ db, events: jobs.events, log });
  lifecycle.onShutdown("job queue", () => jobs.stop());
  // Runs before the queue's stop: a send under way stops claiming, records what is in flight and
  // continues at the next start.
  lifecycle.onShutdown("newsletter sends", async () => newsletters.stop());
  // Runs before the queue's stop (steps run in reverse): an import under way pauses between two stories.
  lifecycle.onShutdown("imports", async () => importing.stop());
  if (cdnConfigured) {
    void purgeWhenCdnAnswers({ status: cdn, databaseUrl, db, log, lifecycle }).catch((error: unknown) =>
      log.error({ err: error }, "CDN purge off: the change feed could not start; shared caches may keep pages up to their lifetime"),
    );
  } else if (cdnSettings) log.error(`CDN purge off: ${cdnSettings.off}; shared caches keep pages 30 s`);
  // Imports a stop cut off (or a crash) go on where they stopped.
  const resumed = await resumeImports(db);
  if (resumed > 0) log.info({ imports: resumed }, "resuming imports a stop interrupted");
  lifecycle.checkpoint();

  let accounts: Accounts | null = null;
  if (env.ADMIN_EMAIL && env.ADMIN_PASSWORD) {
    accounts = await openAccounts(env, db, log);
    const { created, granted, refused } = await ensureAdminAccount(accounts.auth, db, env.ADMIN_EMAIL, env.ADMIN_PASSWORD);
    if (refused) {
      log.warn(
        { email: env.ADMIN_EMAIL },
        "an account with ADMIN_EMAIL exists with another password: not made admin. If it is yours, run `npm run admin -- grant <email>`",
      );
    }
    if (created) log.info({ email: env.ADMIN_EMAIL }, "created the ADMIN_EMAIL account");
    if (granted) log.info({ email: env.ADMIN_EMAIL }, "granted admin to the ADMIN_EMAIL account");
  }
  // What a single process answering requests itself goes on with (startRequestServices' `shared`).
  const shared: SharedServices = { database, storage, accounts };
  return { databaseUrl, shared };
}

/** The Billing of a site with Stripe keys (one SDK client per process), else null. */
function billingOf(env: Env, db: ReturnType<typeof createDb>["db"], log: Logger) {
  const stripe = createStripeClient(env);
  return stripe ? createStripeBilling({ stripe, db, env, log }) : null;
}

/** How long after a pin's end its pages are dropped a second time (a render that straddled the end). */
const PIN_END_GRACE_MS = 2000;

type Accounts = Awaited<ReturnType<typeof openAccounts>>;

/** What startSiteServices opened that the same process's startRequestServices uses as it is. */
export interface SharedServices {
  database: ReturnType<typeof createDb>;
  storage: ReturnType<typeof storageFromEnv>;
  /** Opened for the ADMIN_EMAIL account, when one is set. */
  accounts: Accounts | null;
}

/** Accounts: the session secret (DATA_DIR's unless SESSION_SECRET), mail (SMTP or the outbox) and Better Auth. */
async function openAccounts(env: Env, db: ReturnType<typeof createDb>["db"], log: Logger) {
  const sessionSecret = env.SESSION_SECRET ?? (await loadSecrets(env.dataDir)).sessionSecret;
  const mailer = createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, log, outboxDir: path.join(env.dataDir, "outbox") });
  const auth = createAuth({ db, baseURL: env.publicUrl, secret: sessionSecret, mailer, log });
  const memberAuth = createMemberAuth({
    db,
    baseURL: env.publicUrl,
    secret: sessionSecret,
    log,
    async sendSignInLink(email, token, next) {
      const settings = await getSettings(db).catch(() => null);
      const url = `${env.publicUrl}/account/verify?token=${encodeURIComponent(token)}${next ? `&next=${encodeURIComponent(next)}` : ""}`;
      await mailer.send(memberSignInMail({ to: email, siteName: settings?.siteName ?? "Frontpage", url, minutes: SIGN_IN_LINK_MINUTES }));
    },
    async sendEmailChangeLink(newEmail, token) {
      const settings = await getSettings(db).catch(() => null);
      const url = `${env.publicUrl}/account/email?token=${encodeURIComponent(token)}`;
      await mailer.send(memberEmailChangeMail({ to: newEmail, siteName: settings?.siteName ?? "Frontpage", url, minutes: EMAIL_CHANGE_LINK_MINUTES }));
    },
  });
  return { sessionSecret, mailer, auth, memberAuth };
}

/**
 * Starts what every request is served with, in each process that answers requests: the database pool
 * (in a single process, `shared`: what startSiteServices opened), the change feed, the view
 * recorder, the page cache (none in development), accounts, mail, the database's health. Each is
 * registered with the lifecycle to stop in reverse.
 */
export async function startRequestServices({
  env,
  log,
  lifecycle,
  databaseUrl,
  shared,
}: {
  env: Env;
  log: Logger;
  lifecycle: Lifecycle;
  databaseUrl: string;
  shared?: SharedServices;
}) {
  let db: ReturnType<typeof createDb>["db"];
  if (shared) db = shared.database.db;
  else {
    const opened = createDb(databaseUrl);
    watchDatabasePool(opened.pool);
    db = opened.db;
    lifecycle.onShutdown("database pool", () => opened.pool.end());
  }
  const storage = shared?.storage ?? storageFromEnv(env);
  // A worker replacing one that was killed removes what that one's uploads left (issue 28); the
  // primary cleans the rest, and every 10 minutes.
  if (!shared) void cleanUploadParts(storage, log);
  const changes = new ChangeFeed(databaseUrl, log);
  await changes.start();
  lifecycle.onShutdown("change feed", () => changes.stop());
  lifecycle.checkpoint();
  const views = new ViewRecorder(db, log);
  views.start();
  lifecycle.onShutdown("view recorder", () => views.stop());
  // Audience analytics (issue 42): the same loads, as audience events; reading reports of story pages.
  const audience = new AudienceRecorder({ db, log, timeZone: env.TIME_ZONE, siteOrigin: env.publicUrl });
  await audience.start();
  lifecycle.onShutdown("audience recorder", () => audience.stop());

  // Advertising (issue 43, decision 0061): the live campaigns in memory (the door fills slots from
  // them), reloaded on the ad tables' notices and each minute; what they got, written in batches.
  const adRecorder = new AdRecorder(db, log);
  adRecorder.start();
  lifecycle.onShutdown("ad recorder", () => adRecorder.stop());
  const adSecret = env.SESSION_SECRET ?? (await loadSecrets(env.dataDir)).sessionSecret;
  const adBook = new AdBook(db, log, { timeZone: env.TIME_ZONE, secret: adSecret });
  adBook.watch(changes);
  await adBook.reload();
  adBook.start();
  lifecycle.onShutdown("ad book", async () => adBook.stop());

  const cache = env.NODE_ENV === "development" ? null : new PageCache();
  // Every page's settings and navigation, kept until a change notice names them. Made before the
  // listener below, so a settings change is read anew when that listener asks for the banner. The
  // banner is on every page: its story's live state changing ("LIVE" or "Breaking") drops them all.
  const siteFrame = createSiteFrame(db, changes, { onBannerStoryChange: () => cache?.clearTags([SITE_TAG]) });
  const storyMemo = createStoryMemo(changes);
  // Pages show the breaking-news banner until it expires: at that time they must render again.
  const clearWhenBannerExpires = async () => {
    const banner = activeBreakingNews((await siteFrame()).settings);
    if (banner) cache?.clearAt(banner.expiresAt);
  };
  // A story pin that ends changes the home page (or its category's) at that time (decision 0034): the
  // same clock drops those pages then, and once more a moment later, in case a render that began
  // just before the end was stored just after it.
  const clearWhenPinsEnd = async () => {
    if (!cache) return;
    for (const { until, categorySlug } of await upcomingPinEnds(db)) {
      const tags = [categorySlug ? categoryTag(categorySlug) : HOME_TAG];
      cache.clearAt(until, tags);
      cache.clearAt(new Date(until.getTime() + PIN_END_GRACE_MS), tags);
    }
  };
  changes.on("change", (event) => {
    // Editorial changes drop the pages they touch at once (decision 0028); a comment marks its
    // article's pages stale, served while rendered again (decisions 0024, 0026).
    const { drop, stale } = cacheChangeOf(event);
    if (drop.length > 0) cache?.clearTags(drop);
    if (stale.length > 0) cache?.markStale(stale);
    if (event.table === "website_settings" || event.table === "*") {
      clearWhenBannerExpires().catch((error: unknown) => log.warn({ err: error }, "could not read the banner's expiry"));
    }
    // A category renamed (its slug) changes which page a category pin's end drops.
    if (event.table === "story_pins" || event.table === "categories" || event.table === "*") {
      clearWhenPinsEnd().catch((error: unknown) => log.warn({ err: error }, "could not read when the story pins end"));
    }
  });
  await clearWhenBannerExpires();
  await clearWhenPinsEnd();
  // Old addresses answered before routing (decision 0040), read again when a notice names them.
  const redirects = new RedirectTable(db, log);
  redirects.watch(changes);
  await redirects.reload();
  lifecycle.onShutdown("redirects", async () => redirects.stop());

  const { sessionSecret, mailer, auth, memberAuth } = shared?.accounts ?? (await openAccounts(env, db, log));

  const commentSpam = {
    intervalSeconds: env.COMMENT_INTERVAL_SECONDS,
    minFillSeconds: env.COMMENT_MIN_FILL_SECONDS,
    formTimer: createFormTimer(sessionSecret),
  };
  // Whether PostgreSQL answers: requests that need it get 503 at once while it does not (issue 12).
  const health = new DatabaseHealth(databaseUrl, log, () => lifecycle.shuttingDown);
  health.start();
  lifecycle.onShutdown("database health", () => health.stop());

  const services: AppLoadContext = {
    db,
    auth,
    memberAuth,
    // Stripe (issue 40): null without STRIPE_SECRET_KEY, and the site has free members only.
    billing: billingOf(env, db, log),
    env,
    log,
    mailer,
    storage,
    views,
    audience,
    changes,
    previewLinks: createPreviewLinks(sessionSecret, (articleId) => previewKeyOf(db, articleId)),
    knownDevices: createKnownDevices(sessionSecret),
    commentSpam,
    subscriberSecret: sessionSecret,
    siteFrame,
    storyMemo,
    redirects,
    ads: { book: adBook, recorder: adRecorder, salts: audience.salts },
  };
  return { services, cache, health, redirects, ads: { book: adBook, recorder: adRecorder } };
}
