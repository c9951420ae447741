// The back office's roles and what each may do (decision 0017): one table, read by the server's guard
// (requireCapability), by the object-level checks of articles, and by the screens that hide what a role
// may not do. Browser-safe: no server code, no zod.

/** The roles user_roles may hold, most powerful first. An account with none is a reader. */
export const ROLES = ["admin", "editor", "author"] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = { admin: "Admin", editor: "Editor", author: "Author" };

export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  admin: "Everything, including settings and the team.",
  editor: "All articles, authors, categories, media and comments; publishing, scheduling and the review queue.",
  author: "Writes articles and edits their own drafts, uploads media, submits drafts for review.",
};

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** The most powerful of the roles an account holds (rows in user_roles), or null for a reader. */
export function highestRole(roles: readonly string[]): Role | null {
  return ROLES.find((role) => roles.includes(role)) ?? null;
}

/**
 * What a role may do. Object-level rules sit on top of these (an author's own drafts: see
 * `mayEditArticle`); a capability never listed for a role is refused by the server, whatever the screen shows.
 */
export const CAPABILITIES = {
  /** Open the back office: the dashboard, the article list, the media library. */
  backOffice: ["admin", "editor", "author"],
  /** Write a new article (saved as a draft unless the role may also publish). */
  "articles.create": ["admin", "editor", "author"],
  /** Edit, preview and see the history of any article, whoever wrote it and whatever its status. */
  "articles.editAny": ["admin", "editor"],
  /** Publish, schedule and unpublish; decide the review queue (publish, schedule, send back). */
  "articles.publish": ["admin", "editor"],
  /** Delete any article (an author may delete only their own drafts). */
  "articles.deleteAny": ["admin", "editor"],
  /** Ask for review of one's own draft. */
  "articles.submit": ["admin", "editor", "author"],
  "authors.manage": ["admin", "editor"],
  "categories.manage": ["admin", "editor"],
  /** Rename, merge and delete tags (/admin/tags). Anyone who may edit a story may tag it, and so create a tag by name. */
  "tags.manage": ["admin", "editor"],
  /** Write, publish, unpublish and list standalone pages at /{slug} and their footer links (/admin/pages). */
  "pages.manage": ["admin", "editor"],
  /** Upload images, videos and files (the article form's uploads, the media library's Upload). */
  "media.upload": ["admin", "editor", "author"],
  /** Delete media, publish an article from the media library. */
  "media.manage": ["admin", "editor"],
  "comments.moderate": ["admin", "editor"],
  /** Choose the home page's lead and top stories, a category page's first story, and Explore Topics (/admin/front-page). */
  "frontPage.manage": ["admin", "editor"],
  /** Create, edit and archive newsletters, see their sends and cancel one (/admin/newsletters). */
  "newsletters.manage": ["admin", "editor"],
  /** Send a story by e-mail ("Send by e-mail" in the publish panel, "Send test e-mail"). Authors cannot. */
  "newsletters.send": ["admin", "editor"],
  /** Search and read the subscriber list (/admin/subscribers). */
  "subscribers.view": ["admin", "editor"],
  /** Import and export subscribers as CSV, erase a person (GDPR): every address at stake. */
  "subscribers.manage": ["admin"],
  "settings.manage": ["admin"],
  /** Members (issue 40): search and read members and their timelines (/admin/members); editors see no billing. */
  "members.view": ["admin", "editor"],
  /** Give and take complimentary plans, resend a sign-in link, import, export and delete members. */
  "members.manage": ["admin"],
  /** Members' payments: plans' prices and revenue, subscriptions' amounts, the revenue cards. */
  "members.billing": ["admin"],
  /** Paid tiers and their Stripe products and prices (/admin/members/tiers), paywall and meter settings. */
  "tiers.manage": ["admin"],
  /** Import a WordPress or Ghost site (/admin/import): writes stories, people and redirects in bulk. */
  "import.run": ["admin"],
  /** Old addresses and where they lead (/admin/redirects): every public address of the site is at stake. */
  "redirects.manage": ["admin"],
  "team.manage": ["admin"],
  "activity.view": ["admin", "editor"],
  /** Audience figures (issue 42): /admin/audience, a story's report and the exports; an author's scope is their own stories. */
  "audience.view": ["admin", "editor", "author"],
  /** The whole site's audience figures (every story, author, category, source); without it, one's own stories only. */
  "audience.viewAll": ["admin", "editor"],
  /**
   * Live coverage (issue 31): start, end and restart it, pin and unpin an update, and post, edit and
   * delete updates on any story. Authors hold only `live.post` (and the rule `mayPostLiveUpdate`).
   */
  "live.manage": ["admin", "editor"],
  /** Post updates on a live story whose byline names them, and edit and delete their own (see mayChangeLiveUpdate). */
  "live.post": ["admin", "editor", "author"],
  /**
   * Advertising (issue 43): advertisers, campaigns, creatives and their reports (/admin/ads). Admins
   * hold it; an admin may give it to an editor (GRANTABLE, on the Team screen).
   */
  "ads.manage": ["admin"],
} as const satisfies Record<string, readonly Role[]>;

export type Capability = keyof typeof CAPABILITIES;

export function can(role: Role | null | undefined, capability: Capability): boolean {
  return role != null && (CAPABILITIES[capability] as readonly Role[]).includes(role);
}

/**
 * Capabilities an admin may give one account beyond its role's (user_grants), and the roles whose
 * accounts may receive each. A grant to any other role, or of anything else, gives nothing.
 */
export const GRANTABLE = {
  "ads.manage": ["editor"],
} as const satisfies Partial<Record<Capability, readonly Role[]>>;
export type GrantableCapability = keyof typeof GRANTABLE;

export function isGrantable(capability: string): capability is GrantableCapability {
  return Object.hasOwn(GRANTABLE, capability);
}

/** What a grant is called on the Team screen. */
export const GRANT_LABELS: Record<GrantableCapability, string> = { "ads.manage": "May manage advertising" };

/** Who holds capabilities: a role, and the grants on top of it. */
export interface CapabilityHolder {
  role: Role | null;
  /** The account's grants (user_grants); absent: none. */
  grants?: readonly string[];
}

/** Whether the account may do `capability`: its role may, or it was given it (GRANTABLE to its role). */
export function holds(holder: CapabilityHolder | null | undefined, capability: Capability): boolean {
  if (!holder) return false;
  if (can(holder.role, capability)) return true;
  if (!holder.role || !isGrantable(capability) || !holder.grants?.includes(capability)) return false;
  return (GRANTABLE[capability] as readonly Role[]).includes(holder.role);
}

/** Who is asking, as the object-level rules need it. */
export interface RoleHolder {
  id: string;
  role: Role | null;
}

/** An article as the object-level rules see it. */
export interface ArticleOwnership {
  status: "draft" | "scheduled" | "published";
  /** True when the user created it or is one of its authors (articles.server: `isOwnArticle`). */
  own: boolean;
}

/** May this user open and save this article? Editors and admins: any. Authors: their own drafts only. */
export function mayEditArticle(user: RoleHolder, article: ArticleOwnership): boolean {
  if (can(user.role, "articles.editAny")) return true;
  return can(user.role, "backOffice") && article.own && article.status === "draft";
}

/** May this user delete this article? Editors and admins: any. Authors: their own drafts only. */
export function mayDeleteArticle(user: RoleHolder, article: ArticleOwnership): boolean {
  if (can(user.role, "articles.deleteAny")) return true;
  return can(user.role, "backOffice") && article.own && article.status === "draft";
}

/** A story as the live-coverage rules see it (issue 31). */
export interface LiveStoryAccess {
  /** Started and not ended. */
  live: boolean;
  /** One of its authors (article_authors) is the user's own author record. */
  onByline: boolean;
}

/**
 * May this user post an update on this story? Editors and admins: on any live story. Authors: on a live
 * story whose byline names them (not one they merely created: the byline is who reports it).
 */
export function mayPostLiveUpdate(user: RoleHolder, story: LiveStoryAccess): boolean {
  if (!story.live) return false;
  if (can(user.role, "live.manage")) return true;
  return can(user.role, "live.post") && story.onByline;
}

/**
 * May this user edit, delete or mark as a key event this update? Editors and admins: any update of any
 * story, live or ended (a correction after the end). Authors: their own updates (they posted it, or it
 * names them as its author), while the story is live and their byline is on it.
 */
export function mayChangeLiveUpdate(user: RoleHolder, story: LiveStoryAccess, update: { own: boolean }): boolean {
  if (can(user.role, "live.manage")) return true;
  return mayPostLiveUpdate(user, story) && update.own;
}

/** May this user open a story's "Live updates" screen? Editors and admins: any story (they start coverage there too). Authors: where they may post. */
export function mayOpenLiveUpdates(user: RoleHolder, story: LiveStoryAccess): boolean {
  if (can(user.role, "live.manage")) return true;
  return mayPostLiveUpdate(user, story);
}

/**
 * May this user see a story's audience report and export (issue 42)? Editors and admins: any story.
 * Authors: their own (they created it or are on its byline), whatever its status.
 */
export function mayViewStoryAudience(user: RoleHolder, story: { own: boolean }): boolean {
  if (can(user.role, "audience.viewAll")) return true;
  return can(user.role, "audience.view") && story.own;
}
