import { relations, sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  customType,
  date,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";

/** The byline used when an article names no author. */
export const DEFAULT_AUTHOR_NAME = "Frontpage Newsroom";

/** PostgreSQL's full-text document type (drizzle has no built-in for it). */
const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

/**
 * What site search matches (decision 0018): the title above the excerpt above the body, English
 * stemming. A stored generated column, so the database keeps it current on every write.
 */
const ARTICLE_SEARCH_DOCUMENT = sql`setweight(to_tsvector('english', coalesce(title, '')), 'A') || setweight(to_tsvector('english', coalesce(excerpt, '')), 'B') || setweight(to_tsvector('english', coalesce(free_content, content, '')), 'C')`;

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

// ---------------------------------------------------------------- content

/**
 * An article's lifecycle (decision 0009): a draft is never public; a scheduled article becomes
 * public when the scheduler publishes it at `published_at`; a published article is public once its
 * `published_at` has passed.
 */
export const articleStatus = pgEnum("article_status", ["draft", "scheduled", "published"]);
export type ArticleStatus = (typeof articleStatus.enumValues)[number];

export const categories = pgTable(
  "categories",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("categories_slug_key").on(t.slug), index("categories_name_idx").on(t.name)],
);

export const articles = pgTable(
  "articles",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    title: text("title").notNull(),
    slug: text("slug").notNull(),
    excerpt: text("excerpt"),
    content: text("content").notNull(),
    /** The story editor's document (TipTap JSON); null for a plain-text story written before the editor. */
    contentDoc: jsonb("content_doc"),
    featuredImage: text("featured_image"),
    /**
     * The featured image's alt text (required with an image on every save; null for articles saved
     * before it existed, which render alt="" until edited), its optional caption and credit.
     */
    featuredImageAlt: text("featured_image_alt"),
    featuredImageCaption: text("featured_image_caption"),
    featuredImageCredit: text("featured_image_credit"),
    /**
     * The featured image's subject (issue 41): where every crop of it centres, as fractions of its width
     * and height (0 to 1). Copied from the image's media record when chosen and kept in step when the
     * focal point is moved; null: the centre (imported and older images).
     */
    featuredImageFocalX: real("featured_image_focal_x"),
    featuredImageFocalY: real("featured_image_focal_y"),
    /**
     * Search and social overrides (issue 41): the title and description search engines and social
     * cards show instead of the headline and standfirst, and the social card's own image. Null: derived.
     */
    seoTitle: text("seo_title"),
    seoDescription: text("seo_description"),
    socialImage: text("social_image"),
    videoUrl: text("video_url"),
    authorName: text("author_name").notNull().default(DEFAULT_AUTHOR_NAME),
    categoryId: uuid("category_id").references(() => categories.id, { onDelete: "set null" }),
    views: integer("views").notNull().default(0),
    status: articleStatus("status").notNull().default("published"),
    /**
     * When it went (or goes) public: always set for scheduled and published articles (an insert without
     * it takes created_at, by the trigger of migration 0003); null or the planned time for a draft.
     */
    publishedAt: timestamp("published_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * When readers are told the article was last substantially changed ("Updated {date}", later
     * schema.org dateModified): set by a save with "Show as updated" and by adding a correction or
     * update note (decision 0012). Null: never shown as updated. Not `updated_at`, which every save moves.
     */
    modifiedAt: timestamp("modified_at", { withTimezone: true }),
    /**
     * The account that created it (decision 0017): with the article's own authors, what makes it an
     * author-role user's "own" article. Null for articles made before roles, or once the account is gone.
     */
    createdById: text("created_by_id").references((): AnyPgColumn => user.id, { onDelete: "set null" }),
    /**
     * The review queue (decision 0017): a draft an author submitted waits for an editor while
     * `review_requested_at` is set; publishing or scheduling it, or sending it back, clears it.
     */
    reviewRequestedAt: timestamp("review_requested_at", { withTimezone: true }),
    reviewRequestedById: text("review_requested_by_id").references((): AnyPgColumn => user.id, { onDelete: "set null" }),
    /** An editor's note when sending a draft back, shown on the draft until it is submitted again. */
    reviewNote: text("review_note"),
    reviewNoteByName: text("review_note_by_name"),
    reviewNoteAt: timestamp("review_note_at", { withTimezone: true }),
    /**
     * Signed into every shared preview link of the story (app/domain/articles/preview-links.server.ts):
     * "Revoke preview links" gives it a new random value, and every link made before stops opening
     * (issue 28). Empty until then, so links made before the column existed keep working.
     */
    previewKey: text("preview_key").notNull().default(""),
    /**
     * Live coverage (issue 31, migration 0032): the story is live while `live_started_at` is set and
     * `live_ended_at` is not. "End live coverage" sets the end (the updates stay); a restart clears it.
     */
    liveStartedAt: timestamp("live_started_at", { withTimezone: true }),
    liveEndedAt: timestamp("live_ended_at", { withTimezone: true }),
    /**
     * Who may read the whole story (issue 40, decision 0054): everyone, signed-in members, or paying
     * members (of `access_tier_id`'s tier, or of any paid tier when it is null).
     */
    access: text("access", { enum: ["public", "members", "paid"] }).notNull().default("public"),
    accessTierId: uuid("access_tier_id").references((): AnyPgColumn => memberTiers.id, { onDelete: "set null" }),
    /**
     * A gated story's plain text up to its paywall point (null for a public story): what search matches
     * and quotes instead of `content`, so a word of the gated part finds nothing (issue 40).
     */
    freeContent: text("free_content"),
    searchVector: tsvector("search_vector").generatedAlwaysAs(ARTICLE_SEARCH_DOCUMENT),
  },
  (t) => [
    uniqueIndex("articles_slug_key").on(t.slug),
    index("articles_search_vector_idx").using("gin", t.searchVector),
    index("articles_created_by_idx").on(t.createdById),
    index("articles_review_queue_idx").on(t.reviewRequestedAt).where(sql`${t.reviewRequestedAt} is not null`),
    // Readers' lists ("published, published_at <= now(), newest first") and the scheduler ("scheduled,
    // published_at <= now()"): one index serves both through its leading status column. The id ends
    // them as it ends newestFirst, so a deep page is an index-only walk (issue 13: category page 500
    // at 100,000 articles, 73 ms to 3 ms) and an author's page walks dates probing their bylines.
    index("articles_status_published_at_idx").on(t.status, t.publishedAt.desc(), t.id.desc()),
    index("articles_category_status_published_at_idx").on(t.categoryId, t.status, t.publishedAt.desc(), t.id.desc()),
    check("articles_published_at_set", sql`${t.status} = 'draft' or ${t.publishedAt} is not null`),
    // The categories' sitemap: each category's newest change in one probe (migration 0018).
    index("articles_category_status_updated_at_idx").on(t.categoryId, t.status, t.updatedAt.desc()),
    index("articles_created_at_idx").on(t.createdAt.desc()),
    index("articles_category_created_at_idx").on(t.categoryId, t.createdAt.desc()),
    index("articles_views_idx").on(t.views.desc()),
    check("articles_access_known", sql`${t.access} in ('public', 'members', 'paid')`),
    check(
      "articles_featured_image_focal_range",
      sql`(${t.featuredImageFocalX} is null) = (${t.featuredImageFocalY} is null) and coalesce(${t.featuredImageFocalX} between 0 and 1 and ${t.featuredImageFocalY} between 0 and 1, true)`,
    ),
  ],
);

/**
 * A person who writes for the site (decision 0015): their own record, tied to a back-office account
 * or not (a guest writer). Articles name them in order through article_authors; an article without
 * authors shows its free-text `author_name`.
 */
export const authors = pgTable(
  "authors",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    bio: text("bio"),
    photoUrl: text("photo_url"),
    roleTitle: text("role_title"),
    websiteUrl: text("website_url"),
    xUrl: text("x_url"),
    linkedinUrl: text("linkedin_url"),
    /** The back-office account this author is (null: a guest writer, or the account was deleted). */
    userId: text("user_id").references((): AnyPgColumn => user.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("authors_slug_key").on(t.slug),
    uniqueIndex("authors_user_id_key").on(t.userId).where(sql`${t.userId} is not null`),
    index("authors_name_idx").on(t.name),
  ],
);

/**
 * An article's authors in byline order (position 0 first). Deleting an article removes its rows;
 * an author with articles cannot be deleted (RESTRICT): the service refuses first, with a message.
 */
export const articleAuthors = pgTable(
  "article_authors",
  {
    articleId: uuid("article_id")
      .notNull()
      .references(() => articles.id, { onDelete: "cascade" }),
    authorId: uuid("author_id")
      .notNull()
      .references(() => authors.id, { onDelete: "restrict" }),
    position: integer("position").notNull(),
  },
  (t) => [primaryKey({ columns: [t.articleId, t.authorId] }), index("article_authors_author_article_idx").on(t.authorId, t.articleId)],
);

export type Author = typeof authors.$inferSelect;

/**
 * One save of an article (decision 0011): every editable field as saved, who saved it and when. Written
 * in the same transaction as the article; the newest 50 per article are kept (REVISIONS_KEPT). An
 * autosave (`autosave` true) updates its own newest revision instead of adding one per keystroke.
 */
export const articleRevisions = pgTable(
  "article_revisions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    articleId: uuid("article_id")
      .notNull()
      .references(() => articles.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    slug: text("slug").notNull(),
    excerpt: text("excerpt"),
    content: text("content").notNull(),
    contentDoc: jsonb("content_doc"),
    // No foreign key: a revision keeps the category it had, even after that category is deleted.
    categoryId: uuid("category_id"),
    authorName: text("author_name").notNull(),
    featuredImage: text("featured_image"),
    featuredImageAlt: text("featured_image_alt"),
    featuredImageCaption: text("featured_image_caption"),
    featuredImageCredit: text("featured_image_credit"),
    videoUrl: text("video_url"),
    status: articleStatus("status").notNull(),
    publishedAt: timestamp("published_at", { withTimezone: true }),
    /**
     * The article's authors in byline order as saved (decision 0015); no foreign key, like the category.
     * Null for a revision saved before authors existed (restoring it keeps the form's authors).
     */
    authorIds: uuid("author_ids").array(),
    /** The article's tags' names in order as saved (issue 29); null for a revision saved before tags existed. */
    tagNames: text("tag_names").array(),
    /** Who saved it: the account (null once deleted) and its name as it was then. */
    savedById: text("saved_by_id").references((): AnyPgColumn => user.id, { onDelete: "set null" }),
    savedByName: text("saved_by_name").notNull(),
    autosave: boolean("autosave").notNull().default(false),
    /** A "Save for later" of a published story (issue 27): the pending version, not what readers saw. */
    pending: boolean("pending").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index("article_revisions_article_created_at_idx").on(t.articleId, t.createdAt.desc())],
);

/**
 * Edits to a published (or scheduled) story kept apart from the live story (issue 27, "Save for
 * later" and its autosave): the article form's fields as JSON. Readers' queries never read this
 * table; "Update Article" applies it to the story and deletes it, "Discard changes" deletes it.
 */
export const articlePendingVersions = pgTable("article_pending_versions", {
  articleId: uuid("article_id")
    .primaryKey()
    .references(() => articles.id, { onDelete: "cascade" }),
  /** The form's fields (ArticleFormFields plus the chosen authors), as the writer left them. */
  fields: jsonb("fields").notNull(),
  savedAt: timestamp("saved_at", { withTimezone: true }).notNull().defaultNow(),
  savedById: text("saved_by_id").references((): AnyPgColumn => user.id, { onDelete: "set null" }),
  savedByName: text("saved_by_name").notNull(),
});

/**
 * Stories placed by hand (issue 27): the home page's lead (one) and top stories (ordered by
 * `position`), and one story at the top of a category page. Each may fall back at `until`.
 */
export const storyPinPlacement = pgEnum("story_pin_placement", ["lead", "top", "category"]);
export type StoryPinPlacement = (typeof storyPinPlacement.enumValues)[number];

export const storyPins = pgTable(
  "story_pins",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    placement: storyPinPlacement("placement").notNull(),
    /** The category page a "category" pin leads (null for the home page's pins). */
    categoryId: uuid("category_id").references((): AnyPgColumn => categories.id, { onDelete: "cascade" }),
    articleId: uuid("article_id")
      .notNull()
      .references((): AnyPgColumn => articles.id, { onDelete: "cascade" }),
    position: integer("position").notNull().default(0),
    /** After this moment the pin no longer applies (null: until removed). */
    until: timestamp("until", { withTimezone: true }),
    createdById: text("created_by_id").references((): AnyPgColumn => user.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    check("story_pins_category_placement", sql`(${t.placement} = 'category') = (${t.categoryId} is not null)`),
    uniqueIndex("story_pins_one_lead").on(t.placement).where(sql`${t.placement} = 'lead'`),
    uniqueIndex("story_pins_home_article").on(t.articleId).where(sql`${t.placement} <> 'category'`),
    uniqueIndex("story_pins_one_per_category").on(t.categoryId).where(sql`${t.placement} = 'category'`),
  ],
);

/**
 * What the back office tells a person (issue 27): a story sent back, waiting for review, published,
 * comments waiting. Each is also e-mailed unless the person turned that off (user.email_notifications).
 */
export const notifications = pgTable(
  "notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references((): AnyPgColumn => user.id, { onDelete: "cascade" }),
    /** "article.sent_back" | "article.review_requested" | "article.published" | "comments.pending" */
    kind: text("kind").notNull(),
    articleId: uuid("article_id").references((): AnyPgColumn => articles.id, { onDelete: "cascade" }),
    /** The sentence shown in the list, written when it happened (names and titles as they were then). */
    text: text("text").notNull(),
    /** The editor's note of a sent-back story (shown under the sentence). */
    note: text("note"),
    /** Where the notification leads in the back office. */
    href: text("href").notNull(),
    createdAt: createdAt(),
    readAt: timestamp("read_at", { withTimezone: true }),
  },
  (t) => [
    index("notifications_user_created_at_idx").on(t.userId, t.createdAt.desc()),
    index("notifications_user_unread_idx").on(t.userId).where(sql`${t.readAt} is null`),
  ],
);

/**
 * Old addresses of articles whose slug changed while they were published (decision 0012):
 * /article/{old_slug} answers 301 to the article's current slug while the article is publicly
 * visible. Keyed by the article, not the next slug, so a chain of renames is always one hop.
 */
export const articleSlugRedirects = pgTable(
  "article_slug_redirects",
  {
    oldSlug: text("old_slug").primaryKey(),
    articleId: uuid("article_id")
      .notNull()
      .references(() => articles.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [index("article_slug_redirects_article_idx").on(t.articleId)],
);

/**
 * Tags (issue 29): any number per article besides its category, each with its own public page
 * /tag/{slug}. Created by name from the article form's picker (the slug derived from the name; a name
 * whose slug exists reuses that tag), renamed, merged and deleted on /admin/tags.
 */
export const tags = pgTable(
  "tags",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("tags_slug_key").on(t.slug), index("tags_name_idx").on(t.name)],
);

/** An article's tags in the order they were given (position 0 first); both sides cascade. */
export const articleTags = pgTable(
  "article_tags",
  {
    articleId: uuid("article_id")
      .notNull()
      .references(() => articles.id, { onDelete: "cascade" }),
    tagId: uuid("tag_id")
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
  },
  (t) => [primaryKey({ columns: [t.articleId, t.tagId] }), index("article_tags_tag_article_idx").on(t.tagId, t.articleId)],
);

/**
 * Old addresses of tags (issue 29): a tag merged into another, or renamed to a new slug, leaves its
 * old slug here, and /tag/{old_slug} answers 301 to the tag's current page. Keyed by the tag, like
 * article_slug_redirects, so a chain of merges is always one hop.
 */
export const tagSlugRedirects = pgTable(
  "tag_slug_redirects",
  {
    oldSlug: text("old_slug").primaryKey(),
    tagId: uuid("tag_id")
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [index("tag_slug_redirects_tag_idx").on(t.tagId)],
);

/**
 * Old addresses answered with a redirect before routing (issue 29, decision 0040): `from_path` is
 * normalized by `normalizeRedirectPath` (app/domain/redirects/redirect-paths.ts), one row per address;
 * `to_path` a local path or an absolute http(s) URL. `hits`/`last_hit_at` are added by the view
 * recorder's flush (an UPDATE naming only them sends no change notice: migration 0029).
 */
export const redirects = pgTable(
  "redirects",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    fromPath: text("from_path").notNull(),
    toPath: text("to_path").notNull(),
    statusCode: integer("status_code").notNull().default(301),
    hits: bigint("hits", { mode: "number" }).notNull().default(0),
    lastHitAt: timestamp("last_hit_at", { withTimezone: true }),
    /** Who made it: "manual" (the back office, its CSV import) or "import:<id>" (the WordPress/Ghost importer). */
    source: text("source").notNull().default("manual"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("redirects_from_path_key").on(t.fromPath), check("redirects_status_code_check", sql`${t.statusCode} in (301, 302)`)],
);

export type Redirect = typeof redirects.$inferSelect;

export type Tag = typeof tags.$inferSelect;

/**
 * Standalone pages (issue 29): an ethics policy, a masthead, a corrections policy, written in the
 * story editor and served at /{slug} once published. A slug any route uses is refused
 * (app/domain/pages/reserved-slugs.ts). `content` is the plain text derived on the server from
 * `content_doc`, as for articles. Published pages with `show_in_footer` are listed in the site's
 * footer by `footer_position`.
 */
export const pageStatus = pgEnum("page_status", ["draft", "published"]);
export type PageStatus = (typeof pageStatus.enumValues)[number];

export const pages = pgTable(
  "pages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    title: text("title").notNull(),
    slug: text("slug").notNull(),
    content: text("content").notNull(),
    contentDoc: jsonb("content_doc"),
    status: pageStatus("status").notNull().default("draft"),
    /** When it was first published (kept while unpublished, so a republished page keeps its date). */
    publishedAt: timestamp("published_at", { withTimezone: true }),
    showInFooter: boolean("show_in_footer").notNull().default(false),
    footerPosition: integer("footer_position").notNull().default(0),
    createdById: text("created_by_id").references((): AnyPgColumn => user.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("pages_slug_key").on(t.slug), index("pages_footer_idx").on(t.status, t.showInFooter, t.footerPosition)],
);

/** A page's saves (like article_revisions, decision 0011): every field as saved, who saved it; the newest REVISIONS_KEPT kept. */
export const pageRevisions = pgTable(
  "page_revisions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    pageId: uuid("page_id")
      .notNull()
      .references(() => pages.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    slug: text("slug").notNull(),
    content: text("content").notNull(),
    contentDoc: jsonb("content_doc"),
    status: pageStatus("status").notNull(),
    showInFooter: boolean("show_in_footer").notNull(),
    footerPosition: integer("footer_position").notNull(),
    savedById: text("saved_by_id").references((): AnyPgColumn => user.id, { onDelete: "set null" }),
    savedByName: text("saved_by_name").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("page_revisions_page_created_at_idx").on(t.pageId, t.createdAt.desc())],
);

export type Page = typeof pages.$inferSelect;

/** What a dated note on a published article says it is. */
export const articleCorrectionKind = pgEnum("article_correction_kind", ["correction", "update"]);

/** Dated corrections and updates shown under a published article's byline (decision 0012). */
export const articleCorrections = pgTable(
  "article_corrections",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    articleId: uuid("article_id")
      .notNull()
      .references(() => articles.id, { onDelete: "cascade" }),
    kind: articleCorrectionKind("kind").notNull(),
    text: text("text").notNull(),
    createdAt: createdAt(),
    /** The administrator who added it (kept as written if the account goes away). */
    createdById: text("created_by_id").references(() => user.id, { onDelete: "set null" }),
    createdByName: text("created_by_name").notNull(),
  },
  (t) => [index("article_corrections_article_created_at_idx").on(t.articleId, t.createdAt.desc())],
);

/**
 * A live story's updates (issue 31, migration 0032): newest first under the story. A delete keeps the
 * row with `deleted_at` set, so a reader's stream can be told to remove it; `version` takes the next
 * number of the sequence `live_update_versions` at every change (the stream's event id).
 */
export const liveUpdates = pgTable(
  "live_updates",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    articleId: uuid("article_id")
      .notNull()
      .references(() => articles.id, { onDelete: "cascade" }),
    headline: text("headline"),
    /** The body as plain text (structured data, RSS, search of the admin): kept with content_doc. */
    content: text("content").notNull(),
    contentDoc: jsonb("content_doc").notNull(),
    authorId: uuid("author_id").references(() => authors.id, { onDelete: "set null" }),
    keyEvent: boolean("key_event").notNull().default(false),
    pinned: boolean("pinned").notNull().default(false),
    createdById: text("created_by_id").references((): AnyPgColumn => user.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    editedAt: timestamp("edited_at", { withTimezone: true }),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    version: bigint("version", { mode: "number" })
      .notNull()
      .default(sql`nextval('live_update_versions')`),
  },
  (t) => [
    index("live_updates_article_created_idx").on(t.articleId, t.createdAt.desc(), t.id.desc()).where(sql`${t.deletedAt} is null`),
    index("live_updates_article_version_idx").on(t.articleId, t.version),
    uniqueIndex("live_updates_one_pinned_key").on(t.articleId).where(sql`${t.pinned} and ${t.deletedAt} is null`),
  ],
);

export const comments = pgTable(
  "comments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    articleId: uuid("article_id")
      .notNull()
      .references(() => articles.id, { onDelete: "cascade" }),
    parentCommentId: uuid("parent_comment_id").references((): AnyPgColumn => comments.id, {
      onDelete: "cascade",
    }),
    authorName: text("author_name").notNull(),
    authorEmail: text("author_email").notNull(),
    content: text("content").notNull(),
    imageUrl: text("image_url"),
    videoUrl: text("video_url"),
    createdAt: createdAt(),
    /** "published": readers see it; "pending": held for moderation (spam rules), shown to moderators only. */
    status: text("status", { enum: ["published", "pending"] }).notNull().default("published"),
    /** Why a pending comment was held (COMMENT_HOLD_REASONS). */
    heldReason: text("held_reason"),
    /** The client address it was posted from (moderators may block it); null for comments from before. */
    authorAddress: text("author_address"),
  },
  (t) => [
    index("comments_article_created_at_idx").on(t.articleId, t.createdAt.desc()),
    index("comments_parent_idx").on(t.parentCommentId),
    index("comments_created_at_idx").on(t.createdAt.desc()),
    index("comments_pending_idx").on(t.createdAt.desc()).where(sql`${t.status} = 'pending'`),
    // An article's readable threads (issue 13): a page of its top-level comments, newest first, read
    // from here alone; the counts of its comments and threads from the index without the rows.
    index("comments_article_threads_idx")
      .on(t.articleId, t.parentCommentId, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.status} = 'published'`),
    // The same threads alone, in page order (issue 39): with the parent column between the article and
    // the time, PostgreSQL read every thread of an article and sorted them for a page of 20.
    index("comments_article_top_threads_idx")
      .on(t.articleId, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.status} = 'published' and ${t.parentCommentId} is null`),
    check("comments_status_check", sql`${t.status} in ('published', 'pending')`),
  ],
);

/** E-mail addresses and client addresses whose comments are held for moderation ("Block this e-mail/address"). */
export const commentBlocks = pgTable(
  "comment_blocks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind", { enum: ["email", "address"] }).notNull(),
    /** A lower-cased e-mail address, or a client address. */
    value: text("value").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("comment_blocks_kind_value_idx").on(t.kind, t.value), check("comment_blocks_kind_check", sql`${t.kind} in ('email', 'address')`)],
);

export const websiteSettings = pgTable(
  "website_settings",
  {
    id: integer("id").primaryKey().default(1),
    siteName: text("site_name").notNull(),
    siteTagline: text("site_tagline"),
    siteDescription: text("site_description"),
    logoUrl: text("logo_url"),
    faviconUrl: text("favicon_url"),
    contactEmail: text("contact_email"),
    contactPhone: text("contact_phone"),
    facebookUrl: text("facebook_url"),
    twitterUrl: text("twitter_url"),
    instagramUrl: text("instagram_url"),
    linkedinUrl: text("linkedin_url"),
    youtubeUrl: text("youtube_url"),
    footerText: text("footer_text"),
    adClientId: text("ad_client_id"),
    /** Every back-office account must use a second factor (set by an admin on the Team screen). */
    requireTwoFactor: boolean("require_two_factor").notNull().default(false),
    analyticsId: text("analytics_id"),
    /** The breaking-news banner on every reader page: its text, an optional link, and when it goes away. */
    breakingNewsText: text("breaking_news_text"),
    breakingNewsUrl: text("breaking_news_url"),
    breakingNewsExpiresAt: timestamp("breaking_news_expires_at", { withTimezone: true }),
    /** The seed's welcome banner above the news on the home page (issue 27: a newsroom may put news first). */
    showWelcomeBanner: boolean("show_welcome_banner").notNull().default(true),
    /** The categories "Explore Topics" shows, in order (null: every category, by name). */
    exploreCategoryIds: uuid("explore_category_ids").array(),
    /** The newsroom's postal address, in every newsletter's footer (issue 30; CAN-SPAM). */
    postalAddress: text("postal_address").notNull().default(""),
    /** E-mail domains the newsletter sign-up refuses (issue 30). */
    newsletterBlockedDomains: text("newsletter_blocked_domains").array().notNull().default(sql`'{}'::text[]`),
    /** Reader revenue (issue 40): a gated story without a "Paywall here" block is cut after this many paragraphs. */
    paywallParagraphs: integer("paywall_paragraphs").notNull().default(3),
    /** Gated stories an anonymous reader may read whole per 30 days (0: none), and a signed-in free member. */
    meterAnonymous: integer("meter_anonymous").notNull().default(0),
    meterMembers: integer("meter_members").notNull().default(0),
    /** Audience analytics (issue 42): days the raw events are kept before their day's partition is dropped whole. */
    audienceRetentionDays: integer("audience_retention_days").notNull().default(90),
    /**
     * Advertising (issue 43): the ad network (adClientId) loads only after the reader's consent, asked
     * by the site's own banner. The newsroom's own campaigns set no cookie and ask nothing.
     */
    adConsentRequired: boolean("ad_consent_required").notNull().default(true),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("website_settings_single_row", sql`${t.id} = 1`)],
);

/** Metadata of every stored upload: media library files, comment attachments, branding. */
export const media = pgTable(
  "media",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    bucket: text("bucket").notNull(),
    name: text("name").notNull(),
    originalName: text("original_name").notNull(),
    contentType: text("content_type").notNull(),
    size: bigint("size", { mode: "number" }).notNull(),
    source: text("source").notNull().default("library"),
    /** The image's subject, clicked in the media dialog (issue 41): fractions of width and height; null: the centre. */
    focalX: real("focal_x"),
    focalY: real("focal_y"),
    createdAt: createdAt(),
  },
  (t) => [
    check("media_focal_point_range", sql`(${t.focalX} is null) = (${t.focalY} is null) and coalesce(${t.focalX} between 0 and 1 and ${t.focalY} between 0 and 1, true)`),
    uniqueIndex("media_bucket_name_key").on(t.bucket, t.name),
    index("media_bucket_source_created_at_idx").on(t.bucket, t.source, t.createdAt.desc()),
  ],
);

/**
 * The poster of a YouTube video or an X post embedded in a story (issue 41, decision 0057): what the
 * reader page shows before the reader presses play, fetched once in the background (the
 * "embed-posters" job) from the provider's oEmbed, so the reader's browser talks to nobody before
 * the click. One row per embed, whichever stories show it. A video's thumbnail is a file of our media
 * library (`poster_url`, /media/images/…); a post has none (its poster is a card of its author and
 * text). `failed_at` set and `fetched_at` null: the fetch failed (after `attempts` tries), and readers
 * see a titled placeholder.
 */
export const embedPosters = pgTable(
  "embed_posters",
  {
    provider: text("provider").notNull(),
    embedId: text("embed_id").notNull(),
    title: text("title"),
    author: text("author"),
    /** An X post's text (plain, as its oEmbed answer's blockquote holds it). */
    text: text("text"),
    posterUrl: text("poster_url"),
    fetchedAt: timestamp("fetched_at", { withTimezone: true }),
    failedAt: timestamp("failed_at", { withTimezone: true }),
    attempts: integer("attempts").notNull().default(0),
  },
  (t) => [
    primaryKey({ name: "embed_posters_pk", columns: [t.provider, t.embedId] }),
    check("embed_posters_provider", sql`${t.provider} in ('youtube', 'x')`),
  ],
);

/**
 * Public articles per month of publication (UTC, "2026-11"), with the newest change among them: what
 * the sitemap index lists (decision 0019). Kept by triggers on articles (migration 0017), so the index
 * reads a row a month instead of grouping the whole archive (issue 13: 793 ms at 100,000 articles).
 */
export const articleSitemapMonths = pgTable("article_sitemap_months", {
  month: text("month").primaryKey(),
  articles: integer("articles").notNull(),
  lastmod: timestamp("lastmod", { withTimezone: true }).notNull(),
});

/**
 * Authors with public articles: how many, and the newest change among them (the authors' sitemap,
 * decision 0019). Kept by triggers on articles and article_authors (migration 0019), so the sitemap
 * reads a row an author instead of joining every byline of the archive (issue 13: 86 ms at 100,000).
 */
export const authorSitemap = pgTable("author_sitemap", {
  authorId: uuid("author_id")
    .primaryKey()
    .references(() => authors.id, { onDelete: "cascade" }),
  articles: integer("articles").notNull(),
  lastmod: timestamp("lastmod", { withTimezone: true }).notNull(),
});

/**
 * The public stories of each author, by publication time: a byline of a published story (decision
 * 0031). Kept by triggers on articles and article_authors (migration 0021), so an author's page reads
 * its page of ids from one index, as a category's does, instead of joining every byline of the author
 * to every public story (issue 13: page 423 of an author with 10,000 stories took 16 ms at 100,000).
 * `published_at` is the story's; a story scheduled for later is here already, and `published_at <=
 * now()` keeps it off the page until its time, as publiclyVisible does.
 */
export const authorListing = pgTable(
  "author_listing",
  {
    authorId: uuid("author_id")
      .notNull()
      .references(() => authors.id, { onDelete: "cascade" }),
    articleId: uuid("article_id")
      .notNull()
      .references(() => articles.id, { onDelete: "cascade" }),
    publishedAt: timestamp("published_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    // By story first: the triggers find a story's rows by it.
    primaryKey({ columns: [t.articleId, t.authorId] }),
    index("author_listing_author_published_at_idx").on(t.authorId, t.publishedAt.desc(), t.articleId.desc()),
  ],
);

// ---------------------------------------------------------------- analytics

export const pageViews = pgTable(
  "page_views",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    path: text("path").notNull(),
    viewedAt: timestamp("viewed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("page_views_viewed_at_idx").on(t.viewedAt)],
);

// ---------------------------------------------------------------- audience (issue 42, decision 0058)
//
// The raw events (audience_events: a counted page load; audience_reads: a page script's report of time
// and depth) are tables partitioned by UTC day, made by migration 0040's SQL (drizzle-kit has no
// partitioned tables), kept `audience_retention_days` and dropped a day at a time: app/domain/audience.
// What is kept for ever is rolled up from them by the hour, below. A visitor is a SHA-256 of the day's
// salt, the site, the client address and the user agent: no address, agent or cookie is stored.

/** Which kinds of source a load came from (the referrer's host, utm tags). */
export const AUDIENCE_SOURCES = ["search", "social", "newsletter", "other", "direct", "internal"] as const;
export type AudienceSource = (typeof AUDIENCE_SOURCES)[number];
export const AUDIENCE_DEVICES = ["desktop", "phone", "tablet"] as const;
export type AudienceDevice = (typeof AUDIENCE_DEVICES)[number];
/** Conversions attributed to a story and source. */
export const AUDIENCE_CONVERSIONS = ["newsletter", "member", "paid"] as const;
export type AudienceConversion = (typeof AUDIENCE_CONVERSIONS)[number];
/** The story key of a load that is not a story's page (rollups key every row by a story). */
export const NO_STORY = "00000000-0000-0000-0000-000000000000";

/** The day's secret salt of the visitor hash (the site's day, in its time zone): deleted once the day is over. */
export const audienceSalts = pgTable("audience_salts", {
  day: text("day").primaryKey(),
  salt: bytea("salt").notNull(),
  createdAt: createdAt(),
});

/**
 * Who has been counted today (the site's day): one row per visitor for the site (article_id NO_STORY)
 * and per story they loaded. A load's "new visitor" flags come from inserting here (on conflict do
 * nothing), so unique visitors add up across hours and processes. Deleted with the day's salt.
 */
export const audienceDayVisitors = pgTable(
  "audience_day_visitors",
  {
    day: text("day").notNull(),
    visitor: bytea("visitor").notNull(),
    articleId: uuid("article_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.visitor, t.articleId] })],
);

/** Loads and visitors by UTC hour and story (NO_STORY: every page that is not a story's), kept for ever. */
export const audienceStoryHours = pgTable(
  "audience_story_hours",
  {
    hour: timestamp("hour", { withTimezone: true }).notNull(),
    articleId: uuid("article_id").notNull(),
    views: integer("views").notNull(),
    /** Visitors whose first load of this story that day was in this hour: adds up over a day. */
    visitors: integer("visitors").notNull(),
  },
  (t) => [primaryKey({ columns: [t.hour, t.articleId] }), index("audience_story_hours_article_idx").on(t.articleId, t.hour)],
);

/** Loads and visitors by UTC hour, story and source (host and utm tags; '' when absent), kept for ever. */
export const audienceSourceHours = pgTable(
  "audience_source_hours",
  {
    hour: timestamp("hour", { withTimezone: true }).notNull(),
    articleId: uuid("article_id").notNull(),
    source: text("source").$type<AudienceSource>().notNull(),
    sourceHost: text("source_host").notNull().default(""),
    utmSource: text("utm_source").notNull().default(""),
    utmMedium: text("utm_medium").notNull().default(""),
    utmCampaign: text("utm_campaign").notNull().default(""),
    ref: text("ref").notNull().default(""),
    views: integer("views").notNull(),
    /** Visitors whose first load of the day (the site) was in this hour from this source. */
    visitors: integer("visitors").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.hour, t.articleId, t.source, t.sourceHost, t.utmSource, t.utmMedium, t.utmCampaign, t.ref] }),
    index("audience_source_hours_article_idx").on(t.articleId, t.hour),
  ],
);

/**
 * The whole site's loads and visitors by UTC hour and source (host and utm tags), every page: the
 * overview's sources and campaigns read these few rows instead of every story's (audience_source_hours
 * holds about a row per load at 10 million raw events; `npm run bench -- --audience`). Kept for ever.
 */
export const audienceSiteSourceHours = pgTable(
  "audience_site_source_hours",
  {
    hour: timestamp("hour", { withTimezone: true }).notNull(),
    source: text("source").$type<AudienceSource>().notNull(),
    sourceHost: text("source_host").notNull().default(""),
    utmSource: text("utm_source").notNull().default(""),
    utmMedium: text("utm_medium").notNull().default(""),
    utmCampaign: text("utm_campaign").notNull().default(""),
    ref: text("ref").notNull().default(""),
    views: integer("views").notNull(),
    /** Visitors whose first load of the day (the site) was in this hour from this source. */
    visitors: integer("visitors").notNull(),
  },
  (t) => [primaryKey({ columns: [t.hour, t.source, t.sourceHost, t.utmSource, t.utmMedium, t.utmCampaign, t.ref] })],
);

/**
 * The story hours and read hours added up by UTC day (`day`: the day's first instant), recomputed with
 * each rolled hour of the day: a month's top stories and reading read ~30 rows a story instead of ~720
 * (the whole UTC days of a period; its first and last hours come from the hour tables). Kept for ever.
 */
export const audienceStoryDays = pgTable(
  "audience_story_days",
  {
    day: timestamp("day", { withTimezone: true }).notNull(),
    articleId: uuid("article_id").notNull(),
    views: integer("views").notNull(),
    visitors: integer("visitors").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.articleId] })],
);

export const audienceReadDays = pgTable(
  "audience_read_days",
  {
    day: timestamp("day", { withTimezone: true }).notNull(),
    articleId: uuid("article_id").notNull(),
    reads: integer("reads").notNull(),
    engagedMs: bigint("engaged_ms", { mode: "number" }).notNull(),
    engagedBuckets: integer("engaged_buckets").array().notNull(),
    depth25: integer("depth_25").notNull(),
    depth50: integer("depth_50").notNull(),
    depth75: integer("depth_75").notNull(),
    depth100: integer("depth_100").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.articleId] })],
);

/** The site's loads and visitors by UTC hour and device, kept for ever (a day is its hours in the site's time zone). */
export const audienceSiteHours = pgTable(
  "audience_site_hours",
  {
    hour: timestamp("hour", { withTimezone: true }).notNull(),
    device: text("device").$type<AudienceDevice>().notNull(),
    views: integer("views").notNull(),
    /** Visitors whose first load of the day was in this hour. */
    visitors: integer("visitors").notNull(),
  },
  (t) => [primaryKey({ columns: [t.hour, t.device] })],
);

/**
 * Reading of a story by UTC hour, from the page script's reports (one read = one page load that
 * reported): engaged time as a histogram (ENGAGED_BUCKETS_SECONDS' edges) and how many reached each
 * quarter of the story.
 */
export const audienceReadHours = pgTable(
  "audience_read_hours",
  {
    hour: timestamp("hour", { withTimezone: true }).notNull(),
    articleId: uuid("article_id").notNull(),
    reads: integer("reads").notNull(),
    engagedMs: bigint("engaged_ms", { mode: "number" }).notNull(),
    engagedBuckets: integer("engaged_buckets").array().notNull(),
    depth25: integer("depth_25").notNull(),
    depth50: integer("depth_50").notNull(),
    depth75: integer("depth_75").notNull(),
    depth100: integer("depth_100").notNull(),
  },
  (t) => [primaryKey({ columns: [t.hour, t.articleId] }), index("audience_read_hours_article_idx").on(t.articleId, t.hour)],
);

/** Sign-ups credited to the story and source that brought them (the visitor's latest story today, first source today). */
export const audienceConversions = pgTable(
  "audience_conversions",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    kind: text("kind").$type<AudienceConversion>().notNull(),
    articleId: uuid("article_id").references(() => articles.id, { onDelete: "set null" }),
    source: text("source").$type<AudienceSource>().notNull().default("direct"),
    sourceHost: text("source_host").notNull().default(""),
    utmSource: text("utm_source").notNull().default(""),
    utmMedium: text("utm_medium").notNull().default(""),
    utmCampaign: text("utm_campaign").notNull().default(""),
    ref: text("ref").notNull().default(""),
  },
  (t) => [
    check("audience_conversions_kind", sql`${t.kind} in ('newsletter', 'member', 'paid')`),
    index("audience_conversions_at_idx").on(t.at),
    index("audience_conversions_article_idx").on(t.articleId, t.at),
  ],
);

/** How far the hourly rollup has gone: every hour before `rolled_until` is in the rollup tables. */
export const audienceRollupState = pgTable(
  "audience_rollup_state",
  {
    id: integer("id").primaryKey().default(1),
    rolledUntil: timestamp("rolled_until", { withTimezone: true }).notNull(),
  },
  (t) => [check("audience_rollup_state_single_row", sql`${t.id} = 1`)],
);

// ---------------------------------------------------------------- accounts (Better Auth tables)

export const user = pgTable("user", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  /** Better Auth's twoFactor plugin: a second factor (TOTP, backup codes) is asked at sign-in. */
  twoFactorEnabled: boolean("two_factor_enabled").default(false),
  /** Whether the back office's notifications are also e-mailed (issue 27; "Your account" turns it off). */
  emailNotifications: boolean("email_notifications").notNull().default(true),
  /** When a new team member was asked for their author page's photo, role and bio (issue 41): saved or skipped, never asked again. */
  authorProfileAskedAt: timestamp("author_profile_asked_at", { withTimezone: true }),
});

/** Better Auth's twoFactor plugin: the TOTP secret and backup codes of an account (both encrypted by Better Auth). */
export const twoFactor = pgTable(
  "two_factor",
  {
    id: text("id").primaryKey(),
    secret: text("secret").notNull(),
    backupCodes: text("backup_codes").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    verified: boolean("verified").default(true),
    failedVerificationCount: integer("failed_verification_count").default(0),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
  },
  (t) => [index("two_factor_user_id_idx").on(t.userId), index("two_factor_secret_idx").on(t.secret)],
);

export const session = pgTable(
  "session",
  {
    id: text("id").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    token: text("token").notNull().unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    /** The session's last request, kept to the minute (a back-office session idles out: accounts/session-policy.ts). */
    lastActiveAt: timestamp("last_active_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("session_user_id_idx").on(t.userId)],
);

export const account = pgTable(
  "account",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("account_user_id_idx").on(t.userId)],
);

export const verification = pgTable(
  "verification",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("verification_identifier_idx").on(t.identifier)],
);

export const userRoles = pgTable(
  "user_roles",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    role: text("role").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.role] }),
    // One role per account (decision 0017): the team screen replaces it, never adds a second.
    uniqueIndex("user_roles_user_key").on(t.userId),
    check("user_roles_role_known", sql`${t.role} in ('admin', 'editor', 'author')`),
  ],
);

/**
 * An invitation to the back office (decision 0017): a sign-up link mailed to `email` that gives `role`
 * once its holder signs up (or signs in) with that address. Only the token's SHA-256 is kept.
 */
export const invitations = pgTable(
  "invitations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull(),
    role: text("role").notNull(),
    tokenHash: text("token_hash").notNull(),
    invitedById: text("invited_by_id").references((): AnyPgColumn => user.id, { onDelete: "set null" }),
    invitedByName: text("invited_by_name").notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    acceptedById: text("accepted_by_id").references((): AnyPgColumn => user.id, { onDelete: "set null" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("invitations_token_hash_key").on(t.tokenHash),
    index("invitations_email_idx").on(t.email),
    check("invitations_role_known", sql`${t.role} in ('admin', 'editor', 'author')`),
  ],
);

/**
 * The audit trail (decision 0017): one row per back-office change and per sign-in attempt, written in
 * the change's own transaction where there is one. Who is kept as id and name as they were then (no
 * foreign key: deleting an account rewrites nothing); a trigger refuses every UPDATE and DELETE.
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    /** The account that acted; null for the system (the scheduler) or an unknown sign-in. */
    actorId: text("actor_id"),
    actorName: text("actor_name").notNull(),
    /** What happened, "{object}.{verb}": "article.publish", "role.grant", "sign_in.failure"... */
    kind: text("kind").notNull(),
    objectType: text("object_type"),
    objectId: text("object_id"),
    /** The object as people know it (a title, a name, an e-mail address) at the time. */
    objectLabel: text("object_label"),
    details: jsonb("details"),
    ip: text("ip"),
  },
  (t) => [
    index("audit_events_at_idx").on(t.at.desc(), t.id.desc()),
    index("audit_events_actor_at_idx").on(t.actorId, t.at.desc()),
    index("audit_events_kind_at_idx").on(t.kind, t.at.desc()),
    index("audit_events_object_idx").on(t.objectType, t.objectId),
  ],
);

/** Failed sign-in attempts, kept in the database so limits survive restarts and span processes. */
export const loginAttempts = pgTable(
  "login_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    email: text("email").notNull(),
    ip: text("ip").notNull(),
    attemptedAt: timestamp("attempted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("login_attempts_email_idx").on(t.email, t.attemptedAt),
    index("login_attempts_ip_idx").on(t.ip, t.attemptedAt),
  ],
);

/**
 * Requests counted against a limit other than sign-in (sign-ups, comment uploads), per bucket and key
 * (a client address), in the database so limits survive restarts and span processes.
 */
export const rateLimitHits = pgTable(
  "rate_limit_hits",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    bucket: text("bucket").notNull(),
    key: text("key").notNull(),
    hitAt: timestamp("hit_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("rate_limit_hits_bucket_key_idx").on(t.bucket, t.key, t.hitAt)],
);

// ---------------------------------------------------------------- imports (issue 29)

/**
 * One import of a WordPress or Ghost export: the file (kept under DATA_DIR/imports while it runs), its
 * progress (`done` of `total` posts and pages) and its summary counts. Runs as a job of the queue;
 * a dry run writes nothing but its notes.
 */
export const imports = pgTable(
  "imports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind", { enum: ["wordpress", "ghost"] }).notNull(),
    fileName: text("file_name").notNull(),
    filePath: text("file_path").notNull(),
    mediaDir: text("media_dir"),
    /** Images are not taken: each stays a link to the original (`--skip-media`). */
    skipMedia: boolean("skip_media").notNull().default(false),
    dryRun: boolean("dry_run").notNull().default(false),
    /** Posts sticky on the old site become pinned top stories (a choice when the import starts; issue 39). */
    pinSticky: boolean("pin_sticky").notNull().default(false),
    /**
     * Not an import of a file but "Retry missing images" of a site already imported (issue 39): the
     * images its stories lack (import_missing_images of summary.source) are fetched again.
     */
    retryMedia: boolean("retry_media").notNull().default(false),
    status: text("status", { enum: ["waiting", "running", "done", "failed"] }).notNull().default("waiting"),
    /** What it is doing now ("reading", "people and topics", "stories", "links"). */
    phase: text("phase"),
    total: integer("total").notNull().default(0),
    done: integer("done").notNull().default(0),
    /** Counts by what was made, kept, skipped (ImportSummary). */
    summary: jsonb("summary").notNull().default({}),
    error: text("error"),
    createdById: text("created_by_id").references((): AnyPgColumn => user.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    /** Moved while it runs: a "running" import whose heartbeat stopped was cut off and is resumed. */
    heartbeatAt: timestamp("heartbeat_at", { withTimezone: true }),
  },
  (t) => [
    index("imports_created_at_idx").on(t.createdAt.desc()),
    check("imports_kind_check", sql`${t.kind} in ('wordpress', 'ghost')`),
    check("imports_status_check", sql`${t.status} in ('waiting', 'running', 'done', 'failed')`),
  ],
);

/** The report's lines: everything skipped, not converted or not fetched, with the story it was in. */
export const importNotes = pgTable(
  "import_notes",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    importId: uuid("import_id")
      .notNull()
      .references(() => imports.id, { onDelete: "cascade" }),
    /** "skipped" | "unconverted" | "media" | "link" | "changed" */
    kind: text("kind").notNull(),
    /** What it concerns ("post 12 “Title”", "comment 7"). */
    what: text("what").notNull(),
    message: text("message").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("import_notes_import_idx").on(t.importId, t.id)],
);

/**
 * What an import made of each thing in the source (`source`: "wordpress:https://old.example",
 * "ghost"): a second run finds it here and leaves it alone. `target_path` is its new address.
 */
export const importedRows = pgTable(
  "imported_rows",
  {
    source: text("source").notNull(),
    /** "post" | "page" | "author" | "category" | "tag" | "media" | "comment" */
    sourceType: text("source_type").notNull(),
    sourceId: text("source_id").notNull(),
    targetId: text("target_id").notNull(),
    targetPath: text("target_path"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ name: "imported_rows_pk", columns: [t.source, t.sourceType, t.sourceId] })],
);

/**
 * An image an import could not have (issue 39): the story shows a link to its old address in its place
 * (a featured image is left out), until "Retry missing images" brings it and puts it there. The row
 * goes once the image is placed, or with its story.
 */
export const importMissingImages = pgTable(
  "import_missing_images",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** The imported site (imported_rows.source). */
    source: text("source").notNull(),
    articleId: uuid("article_id").references(() => articles.id, { onDelete: "cascade" }),
    pageId: uuid("page_id").references(() => pages.id, { onDelete: "cascade" }),
    /** "body": a paragraph linking to `url` stands in for it; "featured": the story's featured image. */
    place: text("place", { enum: ["body", "featured"] }).notNull(),
    /** The old address, as fetched. */
    url: text("url").notNull(),
    alt: text("alt").notNull().default(""),
    caption: text("caption").notNull().default(""),
    /** Why it could not be had, the last time it was tried. */
    reason: text("reason").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("import_missing_images_source_idx").on(t.source, t.id),
    uniqueIndex("import_missing_images_article_once").on(t.articleId, t.place, t.url),
    uniqueIndex("import_missing_images_page_once").on(t.pageId, t.place, t.url),
    check("import_missing_images_one_story", sql`(${t.articleId} is null) <> (${t.pageId} is null)`),
    check("import_missing_images_place_check", sql`${t.place} in ('body', 'featured')`),
  ],
);

// ---------------------------------------------------------------- newsletters (issue 30)

/** A newsletter: "Stories" are sent per article when an editor chooses; a "Digest" on its schedule. */
export const newsletters = pgTable(
  "newsletters",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    description: text("description").notNull().default(""),
    isPublic: boolean("is_public").notNull().default(true),
    senderName: text("sender_name"),
    replyTo: text("reply_to"),
    kind: text("kind", { enum: ["stories", "digest"] }).notNull().default("stories"),
    digestFrequency: text("digest_frequency", { enum: ["daily", "weekly"] }),
    /** 0 = Sunday … 6 = Saturday (weekly digests). */
    digestWeekday: integer("digest_weekday"),
    /** "HH:MM" on the site's wall clock. */
    digestTime: text("digest_time"),
    /** A digest's categories (null: every category). */
    digestCategoryIds: uuid("digest_category_ids").array(),
    /** "Track opens and clicks" (off by default): an open pixel and signed link redirects. */
    trackEngagement: boolean("track_engagement").notNull().default(false),
    position: integer("position").notNull().default(0),
    archivedAt: timestamp("archived_at", { withTimezone: true }),
    lastDigestAt: timestamp("last_digest_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("newsletters_slug_key").on(t.slug)],
);

/** A reader who signed up (or was imported with consent). One row per address, whatever the newsletters. */
export const subscribers = pgTable(
  "subscribers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull(),
    name: text("name"),
    status: text("status", { enum: ["pending", "active", "unsubscribed", "bounced", "complained"] }).notNull().default("pending"),
    /** Signs this subscriber's confirm, preferences and unsubscribe links; a new value voids the old links. */
    tokenKey: text("token_key")
      .notNull()
      .default(sql`replace(gen_random_uuid()::text, '-', '')`),
    /** The consent record: where ("/article/x", "/newsletter", "import") and when. */
    consentSource: text("consent_source"),
    consentAt: timestamp("consent_at", { withTimezone: true }),
    /** The article whose form they signed up on (the article list counts them). */
    signupArticleId: uuid("signup_article_id").references((): AnyPgColumn => articles.id, { onDelete: "set null" }),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    unsubscribedAt: timestamp("unsubscribed_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    // ---- the member (issue 40, decision 0054): a subscriber is a member, one person, one record.
    /** Better Auth's field (the members' instance): the address was proved by a sign-in link or a newsletter confirmation. */
    emailVerified: boolean("email_verified").notNull().default(false),
    /** Better Auth's field; unused. */
    image: text("image"),
    /** The member's Stripe customer, once they went to Checkout. */
    stripeCustomerId: text("stripe_customer_id"),
    /** A complimentary plan given by an admin: its tier, until `comp_until` (null: no end). */
    compTierId: uuid("comp_tier_id").references((): AnyPgColumn => memberTiers.id, { onDelete: "set null" }),
    compUntil: timestamp("comp_until", { withTimezone: true }),
    /** Moves whenever what the member may read changes: an access cookie issued before it is renewed. */
    accessChangedAt: timestamp("access_changed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("subscribers_stripe_customer_key").on(t.stripeCustomerId),
    uniqueIndex("subscribers_email_key").on(sql`lower(${t.email})`),
    index("subscribers_status_created_at_idx").on(t.status, t.createdAt.desc()),
    index("subscribers_signup_article_idx").on(t.signupArticleId).where(sql`${t.signupArticleId} is not null`),
  ],
);

export const subscriptions = pgTable(
  "subscriptions",
  {
    subscriberId: uuid("subscriber_id")
      .notNull()
      .references(() => subscribers.id, { onDelete: "cascade" }),
    newsletterId: uuid("newsletter_id")
      .notNull()
      .references(() => newsletters.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ name: "subscriptions_pk", columns: [t.subscriberId, t.newsletterId] }), index("subscriptions_newsletter_idx").on(t.newsletterId, t.subscriberId)],
);

/** A person erased at their request: only the hash of the address, so an import cannot add them back. */
export const subscriberTombstones = pgTable("subscriber_tombstones", {
  emailHash: text("email_hash").primaryKey(),
  createdAt: createdAt(),
});

/** The newsletters an article goes to when it becomes public ("Send by e-mail"). */
export const articleNewsletters = pgTable(
  "article_newsletters",
  {
    articleId: uuid("article_id")
      .notNull()
      .references(() => articles.id, { onDelete: "cascade" }),
    newsletterId: uuid("newsletter_id")
      .notNull()
      .references(() => newsletters.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ name: "article_newsletters_pk", columns: [t.articleId, t.newsletterId] })],
);

/** One send of a newsletter: a story's (once per story and newsletter) or a digest's. */
export const newsletterSends = pgTable(
  "newsletter_sends",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    newsletterId: uuid("newsletter_id")
      .notNull()
      .references(() => newsletters.id, { onDelete: "cascade" }),
    articleId: uuid("article_id").references((): AnyPgColumn => articles.id, { onDelete: "set null" }),
    kind: text("kind", { enum: ["story", "digest"] }).notNull(),
    status: text("status", { enum: ["queued", "sending", "sent", "cancelled", "failed", "skipped"] }).notNull().default("queued"),
    subject: text("subject").notNull(),
    createdById: text("created_by_id").references((): AnyPgColumn => user.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    recipients: integer("recipients").notNull().default(0),
    /** Why it was skipped or failed ("no stories since the last digest"). */
    note: text("note"),
  },
  (t) => [
    uniqueIndex("newsletter_sends_story_once").on(t.newsletterId, t.articleId).where(sql`${t.kind} = 'story'`),
    index("newsletter_sends_newsletter_created_at_idx").on(t.newsletterId, t.createdAt.desc()),
  ],
);

/** Each recipient of a send, frozen when it starts, with what happened to their message. */
export const sendRecipients = pgTable(
  "send_recipients",
  {
    sendId: uuid("send_id")
      .notNull()
      .references(() => newsletterSends.id, { onDelete: "cascade" }),
    subscriberId: uuid("subscriber_id").notNull(),
    email: text("email").notNull(),
    status: text("status", { enum: ["queued", "sending", "sent", "deferred", "bounced", "complained", "failed", "cancelled"] }).notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    lastError: text("last_error"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    /** In flight when the sending process was killed: it may have gone twice. */
    mayBeDuplicate: boolean("may_be_duplicate").notNull().default(false),
    openedAt: timestamp("opened_at", { withTimezone: true }),
    clickedAt: timestamp("clicked_at", { withTimezone: true }),
    unsubscribedAt: timestamp("unsubscribed_at", { withTimezone: true }),
  },
  (t) => [primaryKey({ name: "send_recipients_pk", columns: [t.sendId, t.subscriberId] }), index("send_recipients_send_status_idx").on(t.sendId, t.status)],
);


// ---------------------------------------------------------------- members and reader revenue (issue 40, decision 0054)

/** A plan readers pay for (Free is no row: every member without a paid plan). Archived tiers keep their members. */
export const memberTiers = pgTable(
  "member_tiers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    description: text("description").notNull().default(""),
    benefits: text("benefits").array().notNull().default(sql`'{}'::text[]`),
    /** In the currency's minor unit (cents). */
    monthlyPrice: integer("monthly_price").notNull(),
    yearlyPrice: integer("yearly_price").notNull(),
    currency: text("currency").notNull(),
    trialDays: integer("trial_days").notNull().default(0),
    position: integer("position").notNull().default(0),
    archivedAt: timestamp("archived_at", { withTimezone: true }),
    stripeProductId: text("stripe_product_id"),
    stripeMonthlyPriceId: text("stripe_monthly_price_id"),
    stripeYearlyPriceId: text("stripe_yearly_price_id"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("member_tiers_slug_key").on(t.slug),
    check("member_tiers_prices", sql`${t.monthlyPrice} >= 0 and ${t.yearlyPrice} >= 0 and ${t.trialDays} >= 0`),
  ],
);

/**
 * A paid subscription as Stripe last told it (fetched again on every event, so events out of order
 * leave it right). Kept, without its member, when the member is erased: the payment record.
 */
export const memberSubscriptions = pgTable(
  "member_subscriptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    memberId: uuid("member_id").references(() => subscribers.id, { onDelete: "set null" }),
    stripeSubscriptionId: text("stripe_subscription_id").notNull(),
    stripeCustomerId: text("stripe_customer_id").notNull(),
    tierId: uuid("tier_id").references(() => memberTiers.id, { onDelete: "set null" }),
    /** Stripe's status: active, trialing, past_due, unpaid (paid access), canceled, incomplete, incomplete_expired, paused. */
    status: text("status").notNull(),
    cadence: text("cadence", { enum: ["month", "year"] }).notNull(),
    /** Per period, in the minor unit. */
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    currentPeriodEnd: timestamp("current_period_end", { withTimezone: true }),
    cancelAtPeriodEnd: boolean("cancel_at_period_end").notNull().default(false),
    trialEnd: timestamp("trial_end", { withTimezone: true }),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("member_subscriptions_stripe_key").on(t.stripeSubscriptionId),
    index("member_subscriptions_member_idx").on(t.memberId),
    index("member_subscriptions_status_idx").on(t.status),
  ],
);

/** A paid invoice (the payment record the law asks to keep; kept without its member once erased). */
export const memberInvoices = pgTable(
  "member_invoices",
  {
    stripeInvoiceId: text("stripe_invoice_id").primaryKey(),
    memberId: uuid("member_id").references(() => subscribers.id, { onDelete: "set null" }),
    stripeSubscriptionId: text("stripe_subscription_id"),
    amountPaid: integer("amount_paid").notNull(),
    currency: text("currency").notNull(),
    status: text("status").notNull(),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("member_invoices_member_idx").on(t.memberId)],
);

/** A member's timeline: signed up, subscribed, payment failed, canceled, comp given… (the member page). */
export const memberEvents = pgTable(
  "member_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    memberId: uuid("member_id")
      .notNull()
      .references(() => subscribers.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    detail: jsonb("detail").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index("member_events_member_created_at_idx").on(t.memberId, t.createdAt.desc())],
);

/** Each Stripe webhook event, once by its id across machines; applied by the job queue (retried until it holds). */
export const stripeEvents = pgTable("stripe_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  /** Stripe's `created` (seconds), as a time. */
  stripeCreatedAt: timestamp("stripe_created_at", { withTimezone: true }).notNull(),
  payload: jsonb("payload").notNull(),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  processedAt: timestamp("processed_at", { withTimezone: true }),
  lastError: text("last_error"),
});

/** A gated story a signed-in free member read whole on their meter (issue 40): counted over 30 days. */
export const memberReads = pgTable(
  "member_reads",
  {
    memberId: uuid("member_id")
      .notNull()
      .references(() => subscribers.id, { onDelete: "cascade" }),
    articleId: uuid("article_id")
      .notNull()
      .references(() => articles.id, { onDelete: "cascade" }),
    readAt: timestamp("read_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "member_reads_pk", columns: [t.memberId, t.articleId] }), index("member_reads_member_read_at_idx").on(t.memberId, t.readAt)],
);

/** Better Auth's tables of the members' instance (app/domain/members/member-auth.server.ts): never the staff's. */
export const memberSession = pgTable(
  "member_session",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    token: text("token").notNull().unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: uuid("user_id")
      .notNull()
      .references(() => subscribers.id, { onDelete: "cascade" }),
  },
  (t) => [index("member_session_user_id_idx").on(t.userId)],
);

export const memberAccount = pgTable(
  "member_account",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => subscribers.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("member_account_user_id_idx").on(t.userId)],
);

export const memberVerification = pgTable(
  "member_verification",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("member_verification_identifier_idx").on(t.identifier)],
);

// ---------------------------------------------------------------- advertising (issue 43, decision 0061)
//
// The newsroom's own campaigns in the seed's ad slots: advertisers, their campaigns (dates, slots,
// categories, priority, weight, an impression goal), each campaign's creatives (an image from the
// media library with alt text and a link, or a text ad), and what they got, by day. The live ones are
// held in each process's memory (app/domain/ads/ad-book.server.ts), reloaded on these tables' notices.

export const adPriority = pgEnum("ad_priority", ["sponsorship", "standard", "house"]);
export type AdPriority = (typeof adPriority.enumValues)[number];
export const adCreativeKind = pgEnum("ad_creative_kind", ["image", "text"]);
export type AdCreativeKind = (typeof adCreativeKind.enumValues)[number];

export const advertisers = pgTable(
  "advertisers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    contactName: text("contact_name").notNull().default(""),
    contactEmail: text("contact_email").notNull().default(""),
    notes: text("notes").notNull().default(""),
    /** The newsroom itself: its house ads ("Subscribe", "Get our newsletter"). */
    house: boolean("house").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("advertisers_name_key").on(sql`lower(${t.name})`)],
);

export const adCampaigns = pgTable(
  "ad_campaigns",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    advertiserId: uuid("advertiser_id")
      .notNull()
      .references(() => advertisers.id, { onDelete: "restrict" }),
    name: text("name").notNull(),
    /** The first and last day it runs, in the site's time zone (both included). */
    startsOn: date("starts_on").notNull(),
    endsOn: date("ends_on").notNull(),
    /** The slots it may fill (AD_SLOTS' names). */
    slots: text("slots").array().notNull(),
    /** The categories whose pages it may fill; empty: every page of its slots. */
    categoryIds: uuid("category_ids").array().notNull().default(sql`'{}'::uuid[]`),
    priority: adPriority("priority").notNull().default("standard"),
    /** Its share against the other campaigns of its priority that could fill the same slot. */
    weight: integer("weight").notNull().default(1),
    /** Impressions sold; null: none (served by weight alone). Paced evenly over its days. */
    impressionGoal: integer("impression_goal"),
    /** Paused by the newsroom: not served, its dates kept. */
    paused: boolean("paused").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("ad_campaigns_dates", sql`${t.endsOn} >= ${t.startsOn}`),
    check("ad_campaigns_weight", sql`${t.weight} between 1 and 1000`),
    check("ad_campaigns_goal", sql`${t.impressionGoal} is null or ${t.impressionGoal} > 0`),
    check("ad_campaigns_slots", sql`cardinality(${t.slots}) > 0`),
    index("ad_campaigns_advertiser_idx").on(t.advertiserId),
    index("ad_campaigns_ends_on_idx").on(t.endsOn),
  ],
);

export const adCreatives = pgTable(
  "ad_creatives",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    campaignId: uuid("campaign_id")
      .notNull()
      .references(() => adCampaigns.id, { onDelete: "cascade" }),
    /** The slot size it is made for (AD_SIZES: "banner" for the 120 px slots, "box" for the 250 px ones). */
    size: text("size").notNull(),
    kind: adCreativeKind("kind").notNull(),
    /** An image creative's picture (the media library) and its alt text (required). */
    mediaId: uuid("media_id").references(() => media.id, { onDelete: "restrict" }),
    alt: text("alt").notNull().default(""),
    /** A text ad's headline and line. */
    headline: text("headline").notNull().default(""),
    body: text("body").notNull().default(""),
    /** Where a click goes (the advertiser's page), through /ads/click/{token}. */
    linkUrl: text("link_url").notNull(),
    /** Taken out of rotation; kept for the reports. */
    archived: boolean("archived").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    check("ad_creatives_size", sql`${t.size} in ('banner', 'box')`),
    check("ad_creatives_image", sql`${t.kind} <> 'image' or (${t.mediaId} is not null and length(btrim(${t.alt})) > 0)`),
    check("ad_creatives_text", sql`${t.kind} <> 'text' or length(btrim(${t.headline})) > 0`),
    index("ad_creatives_campaign_idx").on(t.campaignId),
  ],
);

/**
 * What each creative got, by day (the site's time zone) and slot: impressions served (the view rule),
 * viewable impressions (half in view for a second), clicks (once per token and reader a day). Written
 * in batches by app/domain/ads/ad-recorder.server.ts, incremented in place.
 */
export const adDays = pgTable(
  "ad_days",
  {
    day: date("day").notNull(),
    campaignId: uuid("campaign_id")
      .notNull()
      .references(() => adCampaigns.id, { onDelete: "cascade" }),
    creativeId: uuid("creative_id")
      .notNull()
      .references(() => adCreatives.id, { onDelete: "cascade" }),
    slot: text("slot").notNull(),
    impressions: bigint("impressions", { mode: "number" }).notNull().default(0),
    viewable: bigint("viewable", { mode: "number" }).notNull().default(0),
    clicks: bigint("clicks", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.campaignId, t.creativeId, t.slot] }), index("ad_days_campaign_day_idx").on(t.campaignId, t.day)],
);

/**
 * Clicks and viewable impressions already counted today: a hash of the token and who (a click: the
 * reader's daily visitor hash; a viewable impression: the answer's own id), so a second one counts
 * nothing. Days before yesterday are deleted by the ads' rollup job.
 */
export const adMarks = pgTable(
  "ad_marks",
  {
    day: date("day").notNull(),
    kind: text("kind").notNull(),
    key: bytea("key").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.kind, t.key] }), check("ad_marks_kind", sql`${t.kind} in ('click', 'view')`)],
);

/**
 * A capability given to one account on top of its role's (issue 43: an admin gives an editor
 * `ads.manage`). Only the capabilities GRANTABLE names (app/domain/accounts/roles.ts), to the roles it names.
 */
export const userGrants = pgTable(
  "user_grants",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    capability: text("capability").notNull(),
    grantedBy: text("granted_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.capability] })],
);

export type Advertiser = typeof advertisers.$inferSelect;
export type AdCampaign = typeof adCampaigns.$inferSelect;
export type AdCreative = typeof adCreatives.$inferSelect;

// ---------------------------------------------------------------- relations

export const articlesRelations = relations(articles, ({ one, many }) => ({
  category: one(categories, { fields: [articles.categoryId], references: [categories.id] }),
  comments: many(comments),
}));

export const categoriesRelations = relations(categories, ({ many }) => ({
  articles: many(articles),
}));

export const commentsRelations = relations(comments, ({ one }) => ({
  article: one(articles, { fields: [comments.articleId], references: [articles.id] }),
}));

export type Article = typeof articles.$inferSelect;
export type Category = typeof categories.$inferSelect;
export type Comment = typeof comments.$inferSelect;
export type ArticleCorrection = typeof articleCorrections.$inferSelect;
export type WebsiteSettings = typeof websiteSettings.$inferSelect;
export type MediaRow = typeof media.$inferSelect;
export type MemberTier = typeof memberTiers.$inferSelect;
export type MemberSubscription = typeof memberSubscriptions.$inferSelect;
export type EmbedPosterRow = typeof embedPosters.$inferSelect;
