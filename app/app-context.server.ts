import type { Db } from "~/db/client.server";
import type { Auth } from "~/domain/accounts/auth.server";
import type { MemberAuth } from "~/domain/members/member-auth.server";
import type { StoryAccess, Variant } from "~/domain/members/access";
import type { Billing } from "~/domain/members/billing.server";

/** A gated story shown on a page: what the page cache picks its copy by. */
export interface GateNote {
  access: StoryAccess;
  articleId: string;
}
import type { PreviewLinks } from "~/domain/articles/preview-links.server";
import type { RedirectTable } from "~/domain/redirects/redirect-table.server";
import type { KnownDevices } from "~/domain/accounts/known-devices.server";
import type { CommentSpamRules } from "~/domain/comments/comment-spam.server";
import type { StoryMemo } from "~/domain/articles/story-memo.server";
import type { SiteFrame } from "~/domain/settings/site-frame.server";
import type { ChangeFeed } from "~/lib/change-feed.server";
import type { Env } from "~/lib/env.server";
import type { Logger } from "~/lib/logger.server";
import type { Mailer } from "~/lib/mail.server";
import type { Storage } from "~/lib/storage.server";
import type { ViewRecorder } from "~/lib/view-recorder.server";
import type { AudienceRecorder } from "~/domain/audience/audience-recorder.server";
import type { AdBook } from "./domain/ads/ad-book.server";
import type { AdRecorder } from "./domain/ads/ad-recorder.server";
import type { VisitorSalts } from "./domain/audience/visitor-hash.server";

/** The services the Node entry hands to every loader and action (one instance per process). */
export interface AppServices {
  db: Db;
  /** Better Auth (sessions, sign-in, sign-up); see app/domain/accounts/auth.server.ts. */
  auth: Auth;
  /** Readers' accounts (issue 40): Better Auth's second instance, sign-in by e-mail link; never staff. */
  memberAuth: MemberAuth;
  /** Stripe (app/domain/members/billing.server.ts): null without STRIPE_SECRET_KEY (free members only). */
  billing: Billing | null;
  env: Env;
  log: Logger;
  /** E-mail (SMTP_URL, or the log when none is configured): confirmations and team invitations. */
  mailer: Mailer;
  storage: Storage;
  views: ViewRecorder;
  /**
   * Audience analytics (issue 42): loads and reading reports, buffered and written a second at a time
   * (app/domain/audience/audience-recorder.server.ts). It records only while env.AUDIENCE_RECORDING is on.
   */
  audience: AudienceRecorder;
  changes: ChangeFeed;
  /** Signed, expiring links to a draft's preview (app/domain/articles/preview-links.server.ts). */
  previewLinks: PreviewLinks;
  /** Browsers that signed in to an account before (the account-wide sign-in slowdown spares them). */
  knownDevices: KnownDevices;
  /** Every page's settings and navigation, kept until they change (app/domain/settings/site-frame.server.ts). */
  siteFrame: () => Promise<SiteFrame>;
  /** Story counts and related-story picks, kept until a public story changes (app/domain/articles/story-memo.server.ts). */
  storyMemo: StoryMemo;
  /** The comment form's spam rules and its signed "shown at" stamps (app/domain/comments/comment-spam.server.ts). */
  commentSpam: CommentSpamRules;
  /**
   * The key newsletter subscribers' links are signed with (the session secret): their confirm,
   * preferences and unsubscribe links (subscriber-tokens.server.ts) and a tracked e-mail's open pixel
   * and click redirect (newsletter-tracking.server.ts), each through a key derived for its purpose.
   */
  subscriberSecret: string;
  /**
   * The redirects this process answers before routing (decision 0040): a screen that changes them
   * reloads it before answering, so the writer's next request meets the change. Absent in tests.
   */
  redirects?: RedirectTable;
  /**
   * Advertising (issue 43, decision 0061): the live campaigns held in memory (the door and
   * /api/ads/fill choose from them), the recorder of impressions, viewable impressions and clicks,
   * and the day's visitor salts (a click counts once per reader and day). Absent in tests.
   */
  ads?: { book: AdBook; recorder: AdRecorder; salts: VisitorSalts };
}

declare module "react-router" {
  // An interface, not a type alias: module augmentation only merges interfaces.
  interface AppLoadContext extends AppServices {
    /** This answer's script nonce (server/middleware/security-headers.ts), for app/entry.server.tsx. */
    cspNonce?: string;
    /** What the page shows, as cache tags (app/lib/cache-tags.server.ts): set for a render the page cache may keep. */
    shown?: Set<string>;
    /**
     * Issue 40 (decision 0054): the copy of a gated story this render is for, when the page cache
     * keeps it (a class, never a person: server/reader-access.ts chose it from signed cookies). Absent:
     * a render for one signed-in reader, whose loader finds the reader itself (readerOf).
     */
    variant?: Variant;
    /** Where a story's loader notes the access of the story the page shows (the page cache keeps one copy per variant of such a page). */
    gate?: { note: GateNote | null };
  }
}
