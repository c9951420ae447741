import fs from "node:fs/promises";
import { and, count, desc, eq, like, ne, or, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import sharp from "~/lib/sharp.server";
import type { Db } from "~/db/client.server";
import { isUniqueViolation } from "~/db/pg-errors";
import { adCampaigns, adCreatives, articles, articleSlugRedirects, categories, comments, DEFAULT_AUTHOR_NAME, media, user, websiteSettings } from "~/db/schema";
import { FEATURED_IMAGE_ALT_REQUIRED, PUBLISH_BLOCKERS } from "~/domain/articles/articles.schema";
import { ensureAccountAuthor } from "~/domain/authors/account-author.server";
import { setArticleAuthors } from "~/domain/authors/authors.server";
import { slugify } from "~/lib/slugs";
import { AppError } from "~/lib/app-error";
import type { Bucket, Storage } from "~/lib/storage.server";
import { UPLOAD_RULES, type AcceptedType } from "~/lib/upload-rules";
import { SYSTEM_ACTOR, type Actor } from "~/domain/accounts/actor";
import { queueStorySends } from "~/domain/newsletters/newsletter-sends.server";
import { recordActivity } from "~/domain/activity/activity.server";
import { checkCapability } from "../articles/article-access.server";
import { recordRevision, revisionSourceColumns } from "../articles/article-revisions.server";
import type { FocalPoint } from "~/lib/image-variants";
import { MEDIA_LIST_LIMIT, READER_UPLOAD_SOURCE, type PublishMediaInput } from "./media-publish.schema";
import type { FocalPointInput } from "./media-focal-point.schema";

export interface MediaItem {
  id: string;
  bucket: string;
  name: string;
  originalName: string;
  contentType: string;
  size: number;
  createdAt: Date;
  url: string;
  /** An image's subject (issue 41); null: the centre. */
  focus: FocalPoint | null;
}

/** The files `where` picks, newest first, capped at `limit`, with their total. */
async function listWhere(db: Db, storage: Storage, where: SQL | undefined, limit: number) {
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        id: media.id,
        bucket: media.bucket,
        name: media.name,
        originalName: media.originalName,
        contentType: media.contentType,
        size: media.size,
        createdAt: media.createdAt,
        focalX: media.focalX,
        focalY: media.focalY,
      })
      .from(media)
      .where(where)
      .orderBy(desc(media.createdAt), desc(media.id))
      .limit(limit),
    db.select({ total: count() }).from(media).where(where),
  ]);
  const items: MediaItem[] = rows.map(({ focalX, focalY, ...row }) => ({
    ...row,
    url: storage.publicUrl(row.bucket as Bucket, row.name),
    focus: focalX === null || focalY === null ? null : { x: focalX, y: focalY },
  }));
  return { items, total };
}

/**
 * One bucket's files of the newsroom's own (uploaded in the back office: the library's and the
 * branding's), newest first, capped at MEDIA_LIST_LIMIT, with the bucket's total. Readers' comment
 * attachments are not the newsroom's media: listReaderUploads has them (issue 27).
 */
export function listMedia(db: Db, storage: Storage, bucket: Bucket, limit = MEDIA_LIST_LIMIT) {
  return listWhere(db, storage, and(eq(media.bucket, bucket), ne(media.source, READER_UPLOAD_SOURCE)), limit);
}

/** Readers' comment attachments (images and videos), newest first, capped at MEDIA_LIST_LIMIT, with their total. */
export function listReaderUploads(db: Db, storage: Storage, limit = MEDIA_LIST_LIMIT) {
  return listWhere(db, storage, eq(media.source, READER_UPLOAD_SOURCE), limit);
}

/** Matches a stored URL column that points at this file, relative ("/media/…") or absolute. */
function pointsAt(column: AnyPgColumn, path: string) {
  // Generated names hold only letters, digits, dots and hyphens: no LIKE wildcards to escape.
  return or(eq(column, path), like(column, `%${path}`));
}

/**
 * Where a stored file is still used: an article (featured image, video), a comment (image, video)
 * or the website settings (logo, favicon). Null when nothing uses it.
 */
export async function findMediaUsage(db: Db, storage: Storage, bucket: Bucket, name: string): Promise<string | null> {
  const path = storage.publicUrl(bucket, name);
  const [article] = await db
    .select({ title: articles.title })
    .from(articles)
    .where(
      or(
        pointsAt(articles.featuredImage, path),
        pointsAt(articles.videoUrl, path),
        // An inline image of a story from the editor: its "src" in the stored document.
        like(sql`${articles.contentDoc}::text`, `%"${path}"%`),
      ),
    )
    .limit(1);
  if (article) return `This file is used by the article “${article.title}”. Remove it there first.`;

  const [comment] = await db
    .select({ author: comments.authorName, article: articles.title })
    .from(comments)
    .innerJoin(articles, eq(comments.articleId, articles.id))
    .where(or(pointsAt(comments.imageUrl, path), pointsAt(comments.videoUrl, path)))
    .limit(1);
  if (comment) {
    return `This file is attached to a comment by ${comment.author} on “${comment.article}”. Delete that comment first.`;
  }

  const [settings] = await db
    .select({ logoUrl: websiteSettings.logoUrl, faviconUrl: websiteSettings.faviconUrl })
    .from(websiteSettings)
    .where(or(pointsAt(websiteSettings.logoUrl, path), pointsAt(websiteSettings.faviconUrl, path)))
    .limit(1);
  if (settings) {
    const what = settings.logoUrl?.endsWith(path) ? "logo" : "favicon";
    return `This file is the website ${what}. Remove it in Website Settings first.`;
  }

  // An ad's image (issue 43): kept while its creative exists, archived or not (the reports show it).
  const [creative] = await db
    .select({ campaign: adCampaigns.name })
    .from(adCreatives)
    .innerJoin(media, eq(media.id, adCreatives.mediaId))
    .innerJoin(adCampaigns, eq(adCampaigns.id, adCreatives.campaignId))
    .where(and(eq(media.bucket, bucket), eq(media.name, name)))
    .limit(1);
  if (creative) return `This file is an ad of the campaign “${creative.campaign}”. Delete that creative or campaign first.`;
  return null;
}

async function getMediaRow(db: Db, bucket: Bucket, name: string) {
  const [row] = await db
    .select({ id: media.id, bucket: media.bucket, name: media.name, contentType: media.contentType, source: media.source })
    .from(media)
    .where(and(eq(media.bucket, bucket), eq(media.name, name)))
    .limit(1);
  return row ?? null;
}

/**
 * Deletes a stored file, refusing while an article, a comment or the settings use it. The row goes
 * first, then the file: a crash in between leaves an unlisted file, never a row without its file.
 */
export async function deleteMedia(db: Db, storage: Storage, bucket: Bucket, name: string, actor: Actor = SYSTEM_ACTOR): Promise<void> {
  const row = await getMediaRow(db, bucket, name);
  if (!row) throw new AppError("not_found", "This file no longer exists.");
  const usage = await findMediaUsage(db, storage, bucket, name);
  if (usage) throw new AppError("in_use", usage);
  await db.transaction(async (tx) => {
    await tx.delete(media).where(eq(media.id, row.id));
    await recordActivity(tx, actor, { kind: "media.delete", objectType: "media", objectId: `${bucket}/${name}`, objectLabel: name });
  });
  await storage.delete(bucket, name);
}

/**
 * "Publish Article with Media": a new article whose slug comes from the title. An image becomes the
 * featured image, a video the video; a document sets neither. Publishing's blockers hold here as in
 * the article form (decision 0033): a category, alt text for an image, and a byline, which is the
 * publishing person's own (their author record, made if they have none yet).
 */
export async function publishMediaArticle(db: Db, storage: Storage, input: PublishMediaInput, actor: Actor = SYSTEM_ACTOR) {
  checkCapability(actor, "articles.publish");
  const row = await getMediaRow(db, input.bucket, input.name);
  if (!row) throw new AppError("not_found", "This file no longer exists.");
  // A reader's comment attachment is theirs, not the newsroom's: it never becomes a story's media.
  if (row.source === READER_UPLOAD_SOURCE) throw new AppError("invalid_media", READER_UPLOAD_NOT_PUBLISHABLE);
  if (!input.categoryId) throw new AppError("invalid_input", PUBLISH_BLOCKERS.categoryId, { field: "categoryId" });
  const [category] = await db.select({ id: categories.id }).from(categories).where(eq(categories.id, input.categoryId));
  if (!category) throw new AppError("unknown_category", "The selected category no longer exists.");
  // The images tab also holds logo and favicon uploads (an .ico among them): only the article image
  // types may become a featured image, as in the article form.
  if (input.bucket === "images" && !UPLOAD_RULES.image.types.some((t) => t.mime === row.contentType)) {
    throw new AppError("invalid_media", UPLOAD_RULES.image.wrongTypeMessage);
  }
  // The image becomes the featured image: it needs its alt text, as in the article form.
  if (input.bucket === "images" && !input.featuredImageAlt) {
    throw new AppError("invalid_input", FEATURED_IMAGE_ALT_REQUIRED, { field: "featuredImageAlt" });
  }
  const slug = slugify(input.title);
  const slugTaken = () =>
    new AppError("slug_taken", `An article with the slug “${slug}” already exists. Choose a different title.`, { status: 409 });
  const [existing] = await db.select({ id: articles.id }).from(articles).where(eq(articles.slug, slug)).limit(1);
  if (existing) throw slugTaken();
  // An old address of another article still redirects there (decision 0012): this dialog cannot take it over.
  const [redirected] = await db
    .select({ title: articles.title })
    .from(articleSlugRedirects)
    .innerJoin(articles, eq(articles.id, articleSlugRedirects.articleId))
    .where(eq(articleSlugRedirects.oldSlug, slug))
    .limit(1);
  if (redirected) {
    throw new AppError("slug_redirects", `The address /article/${slug} still redirects to “${redirected.title}”. Choose a different title.`);
  }
  const url = storage.publicUrl(input.bucket, input.name);
  try {
    // The article and its first revision (decision 0011) in one transaction.
    return await db.transaction(async (tx) => {
      // The byline: the signed-in person's author record (the system, in scripts and tests, signs as the newsroom).
      const [account] = actor.id ? await tx.select({ id: user.id, name: user.name, email: user.email }).from(user).where(eq(user.id, actor.id)) : [];
      const byline = account ? await ensureAccountAuthor(tx, account) : null;
      const [article] = await tx
        .insert(articles)
        .values({
          authorName: account ? account.name.trim() || account.email : DEFAULT_AUTHOR_NAME,
          title: input.title,
          slug,
          excerpt: input.excerpt,
          content: input.content,
          categoryId: input.categoryId,
          featuredImage: input.bucket === "images" ? url : null,
          featuredImageAlt: input.bucket === "images" ? input.featuredImageAlt : null,
          ...featuredImageFocusColumns(storage, input.bucket === "images" ? url : null),
          videoUrl: input.bucket === "videos" ? url : null,
          createdById: actor.id,
        })
        .returning(revisionSourceColumns);
      if (byline) await setArticleAuthors(tx, article!.id, [byline.id]);
      await recordRevision(tx, article!, actor);
      await recordActivity(tx, actor, { kind: "article.publish", objectType: "article", objectId: article!.id, objectLabel: article!.title, details: { status: "published", from: "media library" } });
      // Every path that makes an article public queues its "Send by e-mail" newsletters (issue 30); a
      // story made here has chosen none yet, so this adds nothing unless that changes.
      await queueStorySends(tx, { id: article!.id }, actor.id);
      return { id: article!.id, slug: article!.slug };
    });
  } catch (error) {
    // Two publishes of the same title at once: the unique index decides, with the same message.
    if (isUniqueViolation(error)) throw slugTaken();
    throw error;
  }
}

/** The name of our own image a featured image URL points at (null: an outside URL, or another bucket's). */
function imageNameOf(storage: Storage, url: string | null | undefined): string | null {
  if (!url) return null;
  let name: string;
  try {
    name = decodeURIComponent(url.slice(url.lastIndexOf("/") + 1));
  } catch {
    return null;
  }
  return name && storage.publicUrl("images", name) === url ? name : null;
}

/**
 * An article's featured image focal point columns for a write that sets its featured image to `url`:
 * the image's media record's point, read in the same statement (null, the centre, for an image
 * without one or an outside URL).
 */
export function featuredImageFocusColumns(storage: Storage, url: string | null | undefined) {
  const name = imageNameOf(storage, url);
  if (!name) return { featuredImageFocalX: null, featuredImageFocalY: null };
  const of = (column: typeof media.focalX | typeof media.focalY) =>
    sql<number | null>`(select ${column} from ${media} where ${media.bucket} = 'images' and ${media.name} = ${name})`;
  return { featuredImageFocalX: of(media.focalX), featuredImageFocalY: of(media.focalY) };
}

export const FOCAL_POINT_IMAGES_ONLY = "Only an image of the newsroom's own has a focal point.";

/**
 * "Set focal point" (issue 41): an image's subject, which every crop of it keeps in frame (null: the
 * centre). In the same transaction every article whose featured image it is gets the point too (the
 * articles trigger then drops their pages from the caches), with an entry in the audit trail.
 */
export async function setFocalPoint(db: Db, storage: Storage, input: FocalPointInput, actor: Actor = SYSTEM_ACTOR): Promise<{ focus: FocalPoint | null; articles: number }> {
  checkCapability(actor, "media.manage", "Your role cannot change media.");
  const row = await getMediaRow(db, input.bucket, input.name);
  if (!row) throw new AppError("not_found", "This file no longer exists.");
  if (row.bucket !== "images" || row.source === READER_UPLOAD_SOURCE || !UPLOAD_RULES.image.types.some((t) => t.mime === row.contentType)) {
    throw new AppError("invalid_media", FOCAL_POINT_IMAGES_ONLY);
  }
  const url = storage.publicUrl("images", row.name);
  const x = input.focus?.x ?? null;
  const y = input.focus?.y ?? null;
  return db.transaction(async (tx) => {
    await tx.update(media).set({ focalX: x, focalY: y }).where(eq(media.id, row.id));
    const changed = await tx
      .update(articles)
      .set({ featuredImageFocalX: x, featuredImageFocalY: y })
      .where(pointsAt(articles.featuredImage, url))
      .returning({ id: articles.id });
    await recordActivity(tx, actor, {
      kind: "media.focal_point",
      objectType: "media",
      objectId: `${row.bucket}/${row.name}`,
      objectLabel: row.name,
      details: { focus: input.focus, articles: changed.length },
    });
    return { focus: input.focus, articles: changed.length };
  });
}

export const READER_UPLOAD_NOT_PUBLISHABLE = "This file is a reader's comment attachment: it cannot be published as an article.";

const PNG_TYPE: AcceptedType = { mime: "image/png", extension: "png", extensions: ["png"] };
/** Rasterised logos are at least this wide (when the SVG is smaller) and fit in this box. */
const LOGO_TARGET_WIDTH = 800;
const LOGO_MAX_SIZE = 2000;
const UNREADABLE_SVG = "This SVG logo could not be read. Upload a valid SVG, PNG, JPEG or WebP image.";

/**
 * An uploaded SVG logo is never stored as SVG (it could carry scripts): it is rasterised to PNG.
 * librsvg gets the bytes without a base location, so it cannot fetch external references.
 */
export async function rasteriseSvgLogo(file: string, contentType: string): Promise<AcceptedType | void> {
  if (contentType !== "image/svg+xml") return;
  const svg = await fs.readFile(file);
  let meta;
  try {
    meta = await sharp(svg).metadata();
  } catch {
    throw new AppError("unsupported_type", UNREADABLE_SVG);
  }
  const width = meta.width || LOGO_TARGET_WIDTH;
  // Render small drawings at a higher density so the PNG stays sharp.
  const density = Math.min(72 * Math.max(1, LOGO_TARGET_WIDTH / width), 2400);
  let png: Buffer;
  try {
    png = await sharp(svg, { density, limitInputPixels: 100_000_000 })
      .resize({ width: LOGO_MAX_SIZE, height: LOGO_MAX_SIZE, fit: "inside", withoutEnlargement: true })
      .png()
      .toBuffer();
  } catch {
    throw new AppError("unsupported_type", UNREADABLE_SVG);
  }
  await fs.writeFile(file, png);
  return PNG_TYPE;
}
