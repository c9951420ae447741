import { index, layout, route, type RouteConfig } from "@react-router/dev/routes";

export default [
  // Resource routes: no UI.
  route("api/views", "routes/resources/views.ts"),
  route("api/audience/read", "routes/resources/audience-read.ts"),
  // Advertising (issue 43): a slot's fill asked by the reader's browser, a viewable impression's beacon, a click.
  route("api/ads/fill", "routes/resources/ads-fill.ts"),
  route("api/ads/seen", "routes/resources/ads-seen.ts"),
  route("ads/click/:token", "routes/resources/ads-click.ts"),
  route("api/uploads/comment", "routes/resources/comment-upload.ts"),
  route("api/articles/:slug/comments", "routes/resources/article-comments.ts"),
  // SES's bounce and complaint notifications through Amazon SNS (issue 30): signed, no session.
  route("api/newsletter/sns", "routes/resources/newsletter-sns.ts"),
  // Stripe's webhook events (issue 40): signed, no session; applied by the job queue.
  route("api/stripe/webhook", "routes/resources/stripe-webhook.ts"),
  // A member's way to Stripe's Customer Portal ("Manage billing" posts here; the payment-failed mail links here): signs them in first.
  route("account/billing", "routes/resources/account-billing.ts"),
  // Feeds and sitemaps (decision 0019).
  route("sitemap.xml", "routes/resources/sitemap.ts"),
  route("sitemaps/:file", "routes/resources/sitemap-child.ts"),
  route("news-sitemap.xml", "routes/resources/news-sitemap.ts"),
  route("robots.txt", "routes/resources/robots.ts"),
  route("rss.xml", "routes/resources/rss.ts"),
  route("category/:slug/rss.xml", "routes/resources/category-rss.ts"),
  route("author/:slug/rss.xml", "routes/resources/author-rss.ts"),
  route("tag/:slug/rss.xml", "routes/resources/tag-rss.ts"),
  // A live story's updates (issue 31).
  route("article/:slug/rss.xml", "routes/resources/article-rss.ts"),

  // Accounts (Better Auth's own endpoints live under /api/auth).
  route("api/auth/*", "routes/resources/auth.ts"),
  route("auth/sign-out", "routes/resources/sign-out.ts"),
  route("admin/login", "routes/admin/login.tsx"),
  route("admin/forgot-password", "routes/admin/forgot-password.tsx"),
  route("admin/reset-password", "routes/admin/reset-password.tsx"),
  // A team invitation's link (a public page: the invited person has no role yet).
  route("join/:token", "routes/join.tsx"),

  // Admin resource routes: every one calls requireCapabilityApi.
  route("api/admin/uploads/:kind", "routes/resources/admin-upload.ts"),
  route("api/admin/events", "routes/resources/admin-events.ts"),
  route("api/admin/articles/:id/preview-link", "routes/resources/article-preview-link.ts"),
  route("api/admin/imports", "routes/resources/import-upload.ts"),
  route("api/admin/imports/:id/report", "routes/resources/import-report.ts"),
  route("api/admin/redirects.csv", "routes/resources/redirects-export.ts"),
  route("api/admin/subscribers.csv", "routes/resources/subscribers-export.ts"),
  route("api/admin/members.csv", "routes/resources/members-export.ts"),

  // A newsletter e-mail's open pixel and signed click redirect (only in a newsletter that tracks), and
  // a digest's "View in your browser" (issue 30; never cached or counted).
  route("newsletter/open/:token", "routes/resources/newsletter-open.ts"),
  route("newsletter/click/:token", "routes/resources/newsletter-click.ts"),
  route("newsletter/view/:id", "routes/resources/newsletter-view.ts"),

  // A draft's preview through a signed, expiring link (no account needed; never cached or indexed).
  route("preview/:token", "routes/preview/shared-preview.tsx"),

  // The admin back office: every loader and action calls requireCapability (app/domain/accounts/roles.ts).
  layout("routes/admin/layout.tsx", [
    route("admin", "routes/admin/dashboard.tsx"),
    route("admin/articles", "routes/admin/articles.tsx"),
    route("admin/articles/new", "routes/admin/article-new.tsx"),
    route("admin/articles/edit/:id", "routes/admin/article-edit.tsx"),
    // The edit form's History panel (a resource route: no screen of its own).
    route("admin/articles/edit/:id/history", "routes/admin/article-history.ts"),
    route("admin/articles/preview/:id", "routes/admin/article-preview.tsx"),
    // A live story's "Live updates" (issue 31): the screen of an author on its byline, and the one home of every live write.
    route("admin/articles/live/:id", "routes/admin/article-live.tsx"),
    route("admin/categories", "routes/admin/categories.tsx"),
    route("admin/tags", "routes/admin/tags.tsx"),
    route("admin/pages", "routes/admin/pages.tsx"),
    route("admin/pages/new", "routes/admin/page-new.tsx"),
    route("admin/pages/edit/:id", "routes/admin/page-edit.tsx"),
    route("admin/pages/edit/:id/history", "routes/admin/page-history.ts"),
    route("admin/front-page", "routes/admin/front-page.tsx"),
    route("admin/authors", "routes/admin/authors.tsx"),
    route("admin/media", "routes/admin/media.tsx"),
    route("admin/comments", "routes/admin/comments.tsx"),
    route("admin/settings", "routes/admin/settings.tsx"),
    route("admin/import", "routes/admin/import.tsx"),
    // Paid tiers and their Stripe products and prices (issue 40).
    route("admin/members/tiers", "routes/admin/member-tiers.tsx"),
    route("admin/redirects", "routes/admin/redirects.tsx"),
    // Advertising (issue 43): ads.manage in every loader and action; ":id" is "new" for the add forms.
    route("admin/ads", "routes/admin/ads.tsx"),
    route("admin/ads/advertisers/:id", "routes/admin/ads-advertiser.tsx"),
    route("admin/ads/campaigns/:id", "routes/admin/ads-campaign.tsx"),
    // Newsletters (issue 30): the lists, their sends, and the people who receive them.
    route("admin/newsletters", "routes/admin/newsletters.tsx"),
    route("admin/newsletters/:id", "routes/admin/newsletter.tsx"),
    // Issue 40: /admin/subscribers became /admin/members (one person, one record); the old address redirects with its filters.
    route("admin/subscribers", "routes/admin/subscribers.tsx"),
    route("admin/members", "routes/admin/members.tsx"),
    route("admin/members/:id", "routes/admin/member.tsx"),
    // Audience figures (issue 42): the newsroom's screen, its live "Right now" (JSON), its CSV exports, and a story's report.
    route("admin/audience", "routes/admin/audience.tsx"),
    route("admin/audience/now", "routes/admin/audience-now.ts"),
    route("admin/audience/export", "routes/admin/audience-export.ts"),
    route("admin/audience/story/:id", "routes/admin/audience-story.tsx"),
    // Advertising's reports (issue 43): a campaign's screen and CSV, and an advertiser's printable report and CSV.
    route("admin/ads/campaigns/:id/report", "routes/admin/ads-campaign-report.tsx"),
    route("admin/ads/campaigns/:id/report.csv", "routes/admin/ads-campaign-report-csv.ts"),
    route("admin/ads/advertisers/:id/report", "routes/admin/ads-advertiser-report.tsx"),
    route("admin/ads/advertisers/:id/report.csv", "routes/admin/ads-advertiser-report-csv.ts"),
    route("admin/activity", "routes/admin/activity.tsx"),
    route("admin/team", "routes/admin/team.tsx"),
    route("admin/profile", "routes/admin/profile.tsx"),
    route("admin/welcome", "routes/admin/welcome.tsx"),
    route("admin/notifications", "routes/admin/notifications.tsx"),
  ]),

  // The reader site.
  layout("routes/site/layout.tsx", [
    index("routes/site/home.tsx"),
    route("category/:slug", "routes/site/category.tsx"),
    route("article/:slug", "routes/site/article.tsx"),
    route("author/:slug", "routes/site/author.tsx"),
    route("tag/:slug", "routes/site/tag.tsx"),
    route("search", "routes/site/search.tsx"),
    route("about", "routes/site/about.tsx"),
    route("contact", "routes/site/contact.tsx"),
    route("disclaimer", "routes/site/disclaimer.tsx"),
    route("cookie-policy", "routes/site/cookie-policy.tsx"),
    route("privacy-policy", "routes/site/privacy-policy.tsx"),
    route("terms-of-service", "routes/site/terms-of-service.tsx"),
    // Newsletters (issue 30): the sign-up page (every sign-up form posts here), then each subscriber's
    // own signed links: personal, never cached, counted or indexed.
    route("newsletter", "routes/site/newsletter.tsx"),
    route("newsletter/confirm/:token", "routes/site/newsletter-confirm.tsx"),
    route("newsletter/preferences/:token", "routes/site/newsletter-preferences.tsx"),
    route("newsletter/unsubscribe/:token", "routes/site/newsletter-unsubscribe.tsx"),
    // Readers' accounts (issue 40, decision 0054): sign-in by e-mailed link, the member's own page,
    // a new address's confirmation and "Delete my account". Personal: never cached, counted or indexed.
    route("account/sign-in", "routes/site/account-sign-in.tsx"),
    route("account/verify", "routes/site/account-verify.tsx"),
    route("account", "routes/site/account.tsx"),
    route("account/email", "routes/site/account-email.tsx"),
    route("account/delete", "routes/site/account-delete.tsx"),
    // Paid plans (issue 40): the tiers and Stripe Checkout, and the page Checkout returns to.
    route("subscribe", "routes/site/subscribe.tsx"),
    route("subscribe/return", "routes/site/subscribe-return.tsx"),
    // Pages written in the back office (issue 29): ranked after every static route above, and no page
    // may take a slug those use (app/domain/pages/reserved-slugs.ts).
    route(":slug", "routes/site/page.tsx"),
    route("*", "routes/site/not-found.tsx"),
  ]),
] satisfies RouteConfig;
