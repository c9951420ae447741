import { Body, Container, Head, Hr, Html, Img, Link, Preview, Section } from "@react-email/components";
import { render, toPlainText } from "@react-email/render";
import { and, desc, eq, gt, inArray, lt, lte, or } from "drizzle-orm";
import { Fragment, type CSSProperties, type ReactElement, type ReactNode } from "react";
import { publiclyVisible } from "~/db/article-visibility";
import type { Db } from "~/db/client.server";
import { articles, categories, newsletterSends } from "~/db/schema";
import { cardColumns } from "~/domain/articles/article-cards.server";
import type { StoryDocument } from "~/domain/articles/story-document.schema";
import { storyFromPlainText } from "~/domain/articles/story-document";
import { embedLinkText } from "~/domain/articles/story-embed-html";
import { walkStory, type StoryRenderer, type StoryRun } from "~/domain/articles/story-walk";
import { joinNames, type BylineAuthor } from "~/domain/authors/byline";
import { callToActionOf, PUBLIC_STORY, type StoryAccess, type StoryAccessLevel } from "~/domain/members/access";
import { splitAtPaywall, withoutPaywall } from "~/domain/members/paywall";
import { getSettings } from "~/domain/settings/settings.server";
import { DEFAULT_TIME_ZONE, formatArticleDate } from "~/lib/dates";
import { isUuid } from "~/lib/ids";
import { fillTemplates, oneOffMarks, settleMarks, trackedHref, type Marks } from "./newsletter-email-template.server";
import { newsletterCampaignUrl } from "./newsletter-campaign";
import { isTrackableUrl } from "./newsletter-tracking.server";
import { newsletterById, type Newsletter } from "./newsletters.server";

// The newsletter e-mail (issue 30, decision 0042): react-email components rendered on the server,
// every style inline by construction (style props: no stylesheet, no class, nothing to inline later),
// a plain-text part made from the same HTML, and the story's body from the same story document the
// article page shows, through the same allow-list (story-walk.ts): only the node types below have an
// e-mail form, and nothing that mail clients block (no script, frame, video, form, external CSS or
// web font). Rendered once per send; each recipient's links are filled in by personalizeEmail,
// without rendering again (newsletter-email-template.server.ts).

export interface EmailSite {
  name: string;
  publicUrl: string;
  logoUrl: string | null;
  accentColor: string;
  postalAddress: string;
  /** The site's time zone for dates (TIME_ZONE); America/New_York when absent. */
  timeZone?: string;
}

export interface NewsletterEmail {
  subject: string;
  html: string;
  text: string;
}

/** The featured image as the e-mail shows it: an absolute address. */
export interface EmailImage {
  url: string;
  alt: string;
  caption: string | null;
  credit: string | null;
}

/** A story as the e-mail needs it: from a saved article, or from the article form's unsaved fields (test e-mail). */
export interface EmailStory {
  title: string;
  dek: string | null;
  /** The article's absolute address. */
  url: string;
  document: StoryDocument;
  featuredImage: EmailImage | null;
  /** "Ana Ruiz and Ben Ode" (empty: no byline line). */
  byline: string;
  publishedAt: Date | null;
  /** Who may read it whole (issue 40); absent: public. */
  access?: StoryAccess;
}

/**
 * The site's accent: the reader site's brand colour (app.css `--color-brand-700`, its links and
 * buttons). Settings have no colour of their own; the e-mail carries the one the site shows.
 */
export const SITE_ACCENT_COLOR = "#1e40af";

/** An address a mail client can load: our own paths made absolute on the public URL; https kept; anything else none. */
export function absoluteUrl(publicUrl: string, src: string | null | undefined): string | null {
  if (!src) return null;
  if (src.startsWith("/") && !src.startsWith("//")) return `${publicUrl}${src}`;
  return /^https?:\/\//i.test(src) ? src : null;
}

/** The site as e-mails show it (settings: name, logo, colours, postal address). */
export async function emailSiteOf(db: Db, publicUrl: string, timeZone: string = DEFAULT_TIME_ZONE): Promise<EmailSite> {
  const settings = await getSettings(db);
  const logo = absoluteUrl(publicUrl, settings.logoUrl);
  return {
    name: settings.siteName,
    publicUrl,
    // Gmail and Outlook show no SVG: such a logo gives way to the site's name.
    logoUrl: logo && !/\.svg(?:$|[?#])/i.test(logo) ? logo : null,
    accentColor: SITE_ACCENT_COLOR,
    // (getSettings' defaults, before the settings row exists, carry no address.)
    postalAddress: (settings.postalAddress ?? "").trim(),
    timeZone,
  };
}

/** An article's fields as a story of the e-mail (the article form's unsaved fields, for a test e-mail, alike). */
export interface EmailStoryFields {
  title: string;
  slug: string;
  excerpt: string | null;
  /** The story editor's document (null: a plain-text story in `content`). */
  contentDoc: unknown;
  content: string;
  featuredImage: string | null;
  featuredImageAlt: string | null;
  featuredImageCaption: string | null;
  featuredImageCredit: string | null;
  authorName: string;
  authors?: BylineAuthor[];
  publishedAt: Date | null;
  /** The story's access (issue 40); absent: public. */
  access?: StoryAccessLevel;
  /** A paid story's tier (null: any paid tier). */
  accessTierId?: string | null;
}

/** A story for the e-mail from an article's fields (the document is walked through the allow-list when rendered). */
export function emailStoryOf(fields: EmailStoryFields, publicUrl: string): EmailStory {
  const image = absoluteUrl(publicUrl, fields.featuredImage);
  const names = fields.authors?.map((author) => author.name) ?? [];
  return {
    title: fields.title,
    dek: fields.excerpt?.trim() || null,
    url: `${publicUrl}/article/${encodeURIComponent(fields.slug)}`,
    document: fields.contentDoc && typeof fields.contentDoc === "object" ? (fields.contentDoc as StoryDocument) : storyFromPlainText(fields.content),
    featuredImage: image
      ? { url: image, alt: fields.featuredImageAlt?.trim() ?? "", caption: fields.featuredImageCaption?.trim() || null, credit: fields.featuredImageCredit?.trim() || null }
      : null,
    byline: names.length > 0 ? joinNames(names) : fields.authorName.trim(),
    publishedAt: fields.publishedAt,
    access: fields.access && fields.access !== "public" ? { level: fields.access, tierId: fields.access === "paid" ? (fields.accessTierId ?? null) : null } : PUBLIC_STORY,
  };
}

const storyColumns = {
  ...cardColumns,
  content: articles.content,
  contentDoc: articles.contentDoc,
  featuredImageCaption: articles.featuredImageCaption,
  featuredImageCredit: articles.featuredImageCredit,
  publishedAt: articles.publishedAt,
  access: articles.access,
  accessTierId: articles.accessTierId,
};

/** A saved article (whatever its status: the send engine renders a story as it becomes public) as a story of the e-mail. */
export async function emailStoryOfArticle(db: Db, articleId: string, publicUrl: string): Promise<EmailStory | null> {
  if (!isUuid(articleId)) return null;
  const [row] = await db.select(storyColumns).from(articles).leftJoin(categories, eq(articles.categoryId, categories.id)).where(eq(articles.id, articleId)).limit(1);
  return row ? emailStoryOf(row, publicUrl) : null;
}

// ---------------------------------------------------------------- digests

/** Most stories in one digest. */
export const DIGEST_MAX_STORIES = 20;

/**
 * A digest's stories: public ones published after `since` (null: no lower bound) and up to `until`,
 * newest first, at most 20, of the newsletter's categories when it chose some, with absolute addresses
 * on `publicUrl`. The send engine and the digest's browser view read the same (digestSendEmail).
 */
export async function digestStoriesOf(db: Db, newsletter: Newsletter, since: Date | null, until: Date, publicUrl: string): Promise<EmailStory[]> {
  const chosen = newsletter.digestCategoryIds?.filter(isUuid) ?? [];
  const rows = await db
    .select(storyColumns)
    .from(articles)
    .leftJoin(categories, eq(articles.categoryId, categories.id))
    .where(
      and(
        publiclyVisible(),
        since ? gt(articles.publishedAt, since) : undefined,
        lte(articles.publishedAt, until),
        chosen.length > 0 ? inArray(articles.categoryId, chosen) : undefined,
      ),
    )
    .orderBy(desc(articles.publishedAt), desc(articles.id))
    .limit(DIGEST_MAX_STORIES);
  return rows.map((row) => emailStoryOf(row, publicUrl));
}

/**
 * The window of a digest send: from the newsletter's previous digest send (whatever became of it: a
 * skipped one covered its window too) to this one's creation; the first digest covers the day (a
 * daily one) or the week (weekly) before it.
 */
export async function digestWindowOf(db: Db, send: { id: string; newsletterId: string; createdAt: Date }, newsletter: Pick<Newsletter, "digestFrequency">): Promise<{ since: Date; until: Date }> {
  const until = send.createdAt;
  const [previous] = await db
    .select({ createdAt: newsletterSends.createdAt })
    .from(newsletterSends)
    .where(
      and(
        eq(newsletterSends.newsletterId, send.newsletterId),
        eq(newsletterSends.kind, "digest"),
        or(lt(newsletterSends.createdAt, until), and(eq(newsletterSends.createdAt, until), lt(newsletterSends.id, send.id))),
      ),
    )
    .orderBy(desc(newsletterSends.createdAt), desc(newsletterSends.id))
    .limit(1);
  const days = newsletter.digestFrequency === "weekly" ? 7 : 1;
  return { since: previous?.createdAt ?? new Date(until.getTime() - days * 86_400_000), until };
}

// ---------------------------------------------------------------- the e-mail's look

const FONT = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";
const SERIF = "Georgia, 'Times New Roman', Times, serif";
const INK = "#0f172a";
const BODY_INK = "#1e293b";
const MUTED = "#475569";
/** The content column: 600 px wide, 24 px padding each side. */
const CONTENT_WIDTH = 552;

const s = {
  body: { backgroundColor: "#f1f5f9", margin: 0, padding: "24px 0", fontFamily: FONT, color: BODY_INK },
  // One column, 600 px at most and as narrow as a phone's 320 px: a long address or word breaks
  // rather than widening the column (`anywhere` counts in a table cell's narrowest width; `break-word`
  // for the clients that know only that). Inherited by everything inside.
  container: { maxWidth: "600px", backgroundColor: "#ffffff", borderRadius: "8px", wordBreak: "break-word", overflowWrap: "anywhere" },
  topLine: { padding: "12px 24px 0", fontSize: "12px", lineHeight: "18px", color: MUTED, textAlign: "right" },
  header: { padding: "16px 24px" },
  siteName: { fontFamily: SERIF, fontSize: "24px", lineHeight: "32px", fontWeight: 700, textDecoration: "none" },
  content: { padding: "8px 24px 24px" },
  title: { fontFamily: SERIF, fontSize: "30px", lineHeight: "38px", fontWeight: 700, color: INK, margin: "8px 0 12px" },
  dek: { fontSize: "18px", lineHeight: "28px", color: MUTED, margin: "0 0 12px" },
  meta: { fontSize: "14px", lineHeight: "20px", color: MUTED, margin: "0 0 20px" },
  p: { fontSize: "17px", lineHeight: "28px", color: BODY_INK, margin: "0 0 18px" },
  pInList: { fontSize: "17px", lineHeight: "28px", color: BODY_INK, margin: "0 0 6px" },
  h2: { fontFamily: SERIF, fontSize: "23px", lineHeight: "30px", fontWeight: 700, color: INK, margin: "28px 0 12px" },
  h3: { fontFamily: SERIF, fontSize: "19px", lineHeight: "26px", fontWeight: 700, color: INK, margin: "24px 0 10px" },
  list: { margin: "0 0 18px", padding: "0 0 0 24px" },
  li: { margin: "0 0 4px" },
  quote: { margin: "0 0 18px", padding: "2px 0 2px 16px", borderLeftWidth: "4px", borderLeftStyle: "solid", fontStyle: "italic" },
  hr: { borderColor: "#cbd5e1", margin: "24px 0" },
  figure: { margin: "0 0 20px" },
  image: { display: "block", width: "100%", maxWidth: `${CONTENT_WIDTH}px`, height: "auto", borderRadius: "6px" },
  caption: { fontSize: "13px", lineHeight: "19px", color: MUTED, margin: "8px 0 0" },
  credit: { color: "#64748b" },
  embed: { margin: "0 0 20px", padding: "14px 16px", backgroundColor: "#f8fafc", border: "1px solid #cbd5e1", borderRadius: "6px", fontSize: "15px", lineHeight: "22px" },
  embedUrl: { fontSize: "13px", color: MUTED, wordBreak: "break-all" },
  button: { display: "inline-block", padding: "12px 20px", borderRadius: "999px", color: "#ffffff", fontWeight: 700, fontSize: "16px", textDecoration: "none" },
  footer: { padding: "0 24px 24px", fontSize: "13px", lineHeight: "20px", color: MUTED },
  footerP: { margin: "0 0 10px" },
  digestItem: { margin: "0 0 8px" },
  digestTitle: { fontFamily: SERIF, fontSize: "21px", lineHeight: "28px", fontWeight: 700, margin: "0 0 6px" },
  digestDek: { fontSize: "16px", lineHeight: "24px", color: BODY_INK, margin: "0 0 6px" },
  gate: { margin: "8px 0 0", padding: "20px", backgroundColor: "#f8fafc", border: "1px solid #cbd5e1", borderRadius: "8px", textAlign: "center" },
  gateHeading: { fontFamily: SERIF, fontSize: "19px", lineHeight: "27px", fontWeight: 700, color: INK, margin: "0 0 14px" },
  gateLabel: { fontSize: "13px", lineHeight: "20px", fontWeight: 700, margin: "0 0 6px" },
  pixel: { display: "block", width: "1px", height: "1px", border: 0 },
} satisfies Record<string, CSSProperties>;

/** What one render knows: the site, its placeholders, whether its links go through the click redirect, and the newsletter's slug (its links' campaign). */
interface RenderContext {
  site: EmailSite;
  marks: Marks;
  tracked: boolean;
  campaign: string;
}

function renderContextOf(site: EmailSite, newsletter: Newsletter, marks: Marks): RenderContext {
  return { site, marks, tracked: newsletter.trackEngagement, campaign: newsletter.slug };
}

/**
 * A link's address in this e-mail: a link to the site tagged with the newsletter's campaign (issue 42,
 * newsletter-campaign.ts), then through the signed click redirect when the newsletter tracks (http and
 * https only; the redirect leads to the tagged address).
 */
function hrefOf(ctx: RenderContext, href: string): string {
  const url = newsletterCampaignUrl(ctx.site.publicUrl, href, ctx.campaign);
  if (!ctx.tracked || !isTrackableUrl(url)) return url;
  return trackedHref(ctx.site.publicUrl, url, ctx.marks.token);
}

function A({ ctx, href, style, children }: { ctx: RenderContext; href: string; style?: CSSProperties; children: ReactNode }) {
  return (
    <Link href={hrefOf(ctx, href)} target="_blank" style={{ color: ctx.site.accentColor, textDecoration: "underline", ...style }}>
      {children}
    </Link>
  );
}

const keyed = (nodes: ReactNode[]) => nodes.map((node, i) => <Fragment key={i}>{node}</Fragment>);

function runsOf(ctx: RenderContext, runs: StoryRun[]): ReactNode[] {
  return runs.map((run, i) => {
    if (run.kind === "break") return <br key={i} />;
    let node: ReactNode = run.text;
    if (run.italic) node = <em>{node}</em>;
    if (run.bold) node = <strong>{node}</strong>;
    if (run.href) node = <A ctx={ctx} href={run.href}>{node}</A>;
    return <Fragment key={i}>{node}</Fragment>;
  });
}

/** A paragraph element, so a list item can tighten the paragraphs it holds. */
const isParagraph = (node: ReactNode): node is ReactElement<{ style: CSSProperties; children?: ReactNode }> =>
  typeof node === "object" && node !== null && "type" in node && node.type === "p";

/** The e-mail's mapping of the allowed story nodes (story-walk.ts). */
function emailBody(ctx: RenderContext): StoryRenderer<ReactNode> {
  return {
    paragraph: (runs) => <p style={s.p}>{runsOf(ctx, runs)}</p>,
    heading: (level, runs) => (level === 3 ? <h3 style={s.h3}>{runsOf(ctx, runs)}</h3> : <h2 style={s.h2}>{runsOf(ctx, runs)}</h2>),
    bulletList: (children) => <ul style={s.list}>{keyed(children)}</ul>,
    orderedList: (start, children) => (
      <ol style={s.list} start={start ?? undefined}>
        {keyed(children)}
      </ol>
    ),
    listItem: (children) => <li style={s.li}>{keyed(children.map((child) => (isParagraph(child) ? <p style={s.pInList}>{child.props.children}</p> : child)))}</li>,
    blockquote: (children) => <blockquote style={{ ...s.quote, borderLeftColor: ctx.site.accentColor }}>{keyed(children)}</blockquote>,
    horizontalRule: () => <Hr style={s.hr} />,
    image: (image) => {
      const src = absoluteUrl(ctx.site.publicUrl, image.src);
      if (!src) return null;
      return <Figure src={src} alt={image.alt} caption={image.caption || null} credit={image.credit || null} />;
    },
    embed: (target) => (
      <div style={s.embed}>
        <A ctx={ctx} href={target.url} style={{ fontWeight: 700 }}>
          {`${target.provider === "youtube" ? "▶ " : ""}${embedLinkText(target.provider)}`}
        </A>
        <br />
        <span style={s.embedUrl}>{target.url}</span>
      </div>
    ),
    // A gallery (issue 41): its pictures one under the other, each with its caption.
    gallery: (images) => (
      <div>
        {keyed(
          images.map((image) => {
            const src = absoluteUrl(ctx.site.publicUrl, image.src);
            return src ? <Figure src={src} alt={image.alt} caption={image.caption || null} credit={null} /> : null;
          }),
        )}
      </div>
    ),
  };
}

function Figure({ src, alt, caption, credit, creditPrefix = "" }: { src: string; alt: string; caption: string | null; credit: string | null; creditPrefix?: string }) {
  return (
    <div style={s.figure}>
      <Img src={src} alt={alt} width={CONTENT_WIDTH} style={s.image} />
      {caption || credit ? (
        <p style={s.caption}>
          {caption}
          {caption && credit ? (creditPrefix ? " — " : " ") : null}
          {credit ? (
            <span style={s.credit}>{`${creditPrefix}${credit}`}</span>
          ) : null}
        </p>
      ) : null}
    </div>
  );
}

function dateLine(site: EmailSite, byline: string, publishedAt: Date | null): string {
  const parts = [byline ? `By ${byline}` : "", publishedAt ? formatArticleDate(publishedAt, site.timeZone) : ""];
  return parts.filter(Boolean).join(" · ");
}

/**
 * Why the reader gets it, naming the site once: "You subscribed to Frontpage." when the newsletter
 * carries the site's name (the first newsletter is named after the site), else "You subscribed to
 * {newsletter} at {site}."
 */
export function subscribedLine(newsletterName: string, siteName: string): string {
  const name = newsletterName.trim();
  const site = siteName.trim();
  return name.toLocaleLowerCase("en").includes(site.toLocaleLowerCase("en")) ? `You subscribed to ${name}.` : `You subscribed to ${name} at ${site}.`;
}

function Frame({ ctx, newsletter, subject, preview, viewUrl, children }: { ctx: RenderContext; newsletter: Newsletter; subject: string; preview: string; viewUrl: string; children: ReactNode }) {
  const { site } = ctx;
  return (
    <Html lang="en" dir="ltr">
      <Head>
        <title>{subject}</title>
        {/* A phone lays the e-mail out at its own width (without this, at 980 px, shrunk). */}
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
      </Head>
      <Preview>{preview}</Preview>
      <Body style={s.body}>
        <Container style={s.container}>
          <Section style={s.topLine}>
            <A ctx={ctx} href={viewUrl} style={{ color: MUTED }}>
              View in your browser
            </A>
          </Section>
          <Section style={{ ...s.header, borderBottom: `4px solid ${site.accentColor}` }}>
            <Link href={hrefOf(ctx, `${site.publicUrl}/`)} target="_blank" style={{ ...s.siteName, color: site.accentColor }} data-skip-in-text="true">
              {site.logoUrl ? <Img src={site.logoUrl} alt={site.name} width={160} style={{ height: "auto", maxWidth: "160px" }} /> : site.name}
            </Link>
          </Section>
          <Section style={s.content}>{children}</Section>
          <Section style={s.footer}>
            <Hr style={{ ...s.hr, margin: "0 0 16px" }} />
            <p style={s.footerP}>{subscribedLine(newsletter.name, site.name)}</p>
            <p style={s.footerP}>
              <Link href={ctx.marks.unsubscribe} target="_blank" style={{ color: MUTED, textDecoration: "underline" }}>
                Unsubscribe
              </Link>
              {" · "}
              <Link href={ctx.marks.preferences} target="_blank" style={{ color: MUTED, textDecoration: "underline" }}>
                Manage preferences
              </Link>
            </p>
            {site.postalAddress ? <p style={s.footerP}>{keyed(site.postalAddress.split(/\r?\n/).flatMap((line, i) => (i === 0 ? [line] : [<br />, line])))}</p> : null}
          </Section>
          {ctx.tracked ? <img src={`${site.publicUrl}/newsletter/open/${ctx.marks.token}.gif`} width={1} height={1} alt="" style={s.pixel} /> : null}
        </Container>
      </Body>
    </Html>
  );
}

/** The plain-text part's headings as written (html-to-text would shout them in capitals). */
const PLAIN_TEXT_SELECTORS = ["h1", "h2", "h3"].map((selector) => ({ selector, options: { uppercase: false } }));

async function renderEmail(subject: string, element: ReactNode, nonce: string): Promise<NewsletterEmail> {
  const html = settleMarks(await render(element), nonce);
  const text = toPlainText(html, { selectors: PLAIN_TEXT_SELECTORS });
  return { subject, html, text };
}

/** A subject line: one line, no control characters (a header). */
// eslint-disable-next-line no-control-regex -- the control characters are what it finds
const oneLine = (text: string) => text.replace(/[\u0000-\u001f\u007f]+/g, " ").replace(/\s+/g, " ").trim();

/**
 * The call to action that ends a gated story's teaser e-mail (issue 40): its heading (the page's own
 * words, access.ts `callToActionOf`), its button and where it leads. A paid story's teaser goes to
 * members without that tier ("Subscribe"); a members-only story's to readers not signed in (the
 * browser view, a test e-mail: every recipient of a send is a member and gets it whole).
 */
export function emailCallToAction(access: StoryAccess, publicUrl: string): { heading: string; button: string; url: string } {
  if (access.level === "members") return { heading: callToActionOf("anonymous", access).heading, button: "Sign in to read", url: `${publicUrl}/account/sign-in` };
  return { heading: callToActionOf("free", access).heading, button: "Subscribe to read the whole story", url: `${publicUrl}/subscribe` };
}

/**
 * A story's e-mail: its title as the subject, its featured image, byline and date, its body, and the
 * footer. With `gate`, the document given is a teaser's free part and it ends with the call to action
 * for that access instead of "Read it on {site}".
 */
export async function storyEmail(site: EmailSite, newsletter: Newsletter, story: EmailStory, options: { gate?: StoryAccess } = {}): Promise<NewsletterEmail> {
  const marks = oneOffMarks();
  const ctx = renderContextOf(site, newsletter, marks);
  const subject = oneLine(story.title);
  const meta = dateLine(site, story.byline, story.publishedAt);
  const element = (
    <Frame ctx={ctx} newsletter={newsletter} subject={subject} preview={story.dek ?? story.title} viewUrl={story.url}>
      <h1 style={s.title}>
        <A ctx={ctx} href={story.url} style={{ color: INK, textDecoration: "none" }}>
          {story.title}
        </A>
      </h1>
      {story.dek ? <p style={s.dek}>{story.dek}</p> : null}
      {meta ? <p style={s.meta}>{meta}</p> : null}
      {story.featuredImage ? (
        <Figure src={story.featuredImage.url} alt={story.featuredImage.alt} caption={story.featuredImage.caption} credit={story.featuredImage.credit} creditPrefix="Photo: " />
      ) : null}
      {keyed(walkStory(story.document, emailBody(ctx)))}
      {options.gate ? (
        <GateCallToAction ctx={ctx} cta={emailCallToAction(options.gate, site.publicUrl)} />
      ) : (
        <p style={{ margin: "8px 0 0" }}>
          <A ctx={ctx} href={story.url} style={{ ...s.button, backgroundColor: site.accentColor }}>
            {`Read it on ${site.name}`}
          </A>
        </p>
      )}
    </Frame>
  );
  return renderEmail(subject, element, marks.nonce);
}

function GateCallToAction({ ctx, cta }: { ctx: RenderContext; cta: ReturnType<typeof emailCallToAction> }) {
  return (
    <div style={s.gate} data-paywall-cta="true">
      <p style={s.gateHeading}>{cta.heading}</p>
      <p style={{ margin: 0 }}>
        <A ctx={ctx} href={cta.url} style={{ ...s.button, backgroundColor: ctx.site.accentColor }}>
          {cta.button}
        </A>
      </p>
    </div>
  );
}

/**
 * A story's e-mails for a send (issue 40, decision 0054): `whole`, the whole story without its paywall
 * blocks, for every reader of a public story and for readers with access to a gated one; `teaser`, the
 * free part (`splitAtPaywall` at its "Paywall here" block or after `paywallParagraphs` paragraphs) and
 * the call to action, for the others (null for a public story). Rendered once each per send: the
 * engine picks one per recipient as it claims them, and personalizes it without rendering again.
 */
export interface StoryEmailVariants {
  access: StoryAccess;
  whole: NewsletterEmail;
  teaser: NewsletterEmail | null;
}

export async function storyEmailVariants(site: EmailSite, newsletter: Newsletter, story: EmailStory, paywallParagraphs: number): Promise<StoryEmailVariants> {
  const access = story.access ?? PUBLIC_STORY;
  const whole = await storyEmail(site, newsletter, { ...story, document: withoutPaywall(story.document) });
  if (access.level === "public") return { access, whole, teaser: null };
  const teaser = await storyEmail(site, newsletter, { ...story, document: splitAtPaywall(story.document, paywallParagraphs).free }, { gate: access });
  return { access, whole, teaser };
}

/** A story's mark in a digest: who may read it whole (a digest shows every story's title and summary only, to everyone). */
const digestGateLabel = (access: StoryAccess | undefined) =>
  access?.level === "paid" ? "For paying subscribers" : access?.level === "members" ? "For members" : null;

/** A digest's subject: "{newsletter}: {date}". */
export const digestSubject = (site: EmailSite, newsletter: Newsletter, date: Date) => oneLine(`${newsletter.name}: ${formatArticleDate(date, site.timeZone)}`);

/**
 * A digest's e-mail: each story's title (linked), featured image, dek, byline and date, newest first
 * as given; "View in your browser" leads to `viewUrl` ({public url}/newsletter/view/{send id}).
 * `date` is the digest's (its send's creation; now by default).
 */
export async function digestEmail(site: EmailSite, newsletter: Newsletter, stories: EmailStory[], viewUrl: string, date: Date = new Date()): Promise<NewsletterEmail> {
  const marks = oneOffMarks();
  const ctx = renderContextOf(site, newsletter, marks);
  const subject = digestSubject(site, newsletter, date);
  const element = (
    <Frame ctx={ctx} newsletter={newsletter} subject={subject} preview={stories.map((story) => story.title).join(" · ")} viewUrl={viewUrl}>
      <h1 style={{ ...s.title, fontSize: "26px", lineHeight: "34px" }}>{newsletter.name}</h1>
      <p style={s.meta}>{formatArticleDate(date, site.timeZone)}</p>
      {stories.map((story, i) => {
        const meta = dateLine(site, story.byline, story.publishedAt);
        return (
          <div key={i} style={s.digestItem}>
            {i > 0 ? <Hr style={s.hr} /> : null}
            {story.featuredImage ? (
              <A ctx={ctx} href={story.url} style={{ textDecoration: "none" }}>
                <Img src={story.featuredImage.url} alt={story.featuredImage.alt} width={CONTENT_WIDTH} style={{ ...s.image, marginBottom: "12px" }} />
              </A>
            ) : null}
            <h2 style={s.digestTitle}>
              <A ctx={ctx} href={story.url} style={{ color: INK, textDecoration: "none" }}>
                {story.title}
              </A>
            </h2>
            {story.dek ? <p style={s.digestDek}>{story.dek}</p> : null}
            {meta ? <p style={{ ...s.meta, margin: "0 0 6px" }}>{meta}</p> : null}
            {digestGateLabel(story.access) ? <p style={{ ...s.gateLabel, color: ctx.site.accentColor }}>{digestGateLabel(story.access)}</p> : null}
            <p style={{ ...s.meta, margin: 0 }}>
              <A ctx={ctx} href={story.url}>
                Read more
              </A>
            </p>
          </div>
        );
      })}
    </Frame>
  );
  return renderEmail(subject, element, marks.nonce);
}

/**
 * Per recipient, fast (string replacement of fixed placeholders, no re-render): the footer's links,
 * and, when the newsletter tracks, the pixel and signed click links. Without `tracking`, a tracked
 * e-mail's links are the plain addresses and it has no pixel (a test e-mail, the browser view).
 */
export function personalizeEmail(
  email: NewsletterEmail,
  links: { unsubscribeUrl: string; preferencesUrl: string; tracking?: { secret: string; sendId: string; subscriberId: string } },
): NewsletterEmail {
  const { html, text } = fillTemplates(email.html, email.text, links);
  return { subject: email.subject, html, text };
}

/**
 * A digest send's e-mail, as the send engine sends it and its browser view shows it: the stories of
 * its window (digestWindowOf), its "View in your browser" at /newsletter/view/{send id}, dated by the
 * send's creation. `stories` 0: nothing to send (the engine records the send as skipped).
 */
export async function digestSendEmail(
  db: Db,
  send: { id: string; newsletterId: string; createdAt: Date },
  newsletter: Newsletter,
  publicUrl: string,
  timeZone?: string,
): Promise<{ email: NewsletterEmail; stories: number }> {
  const [site, window] = await Promise.all([emailSiteOf(db, publicUrl, timeZone), digestWindowOf(db, send, newsletter)]);
  const stories = await digestStoriesOf(db, newsletter, window.since, window.until, publicUrl);
  const email = await digestEmail(site, newsletter, stories, `${publicUrl}/newsletter/view/${send.id}`, send.createdAt);
  return { email, stories: stories.length };
}

// ---------------------------------------------------------------- a digest in the browser

/**
 * A digest send as a web page ("View in your browser"): its e-mail rebuilt from the same window of
 * stories, the personal links made links to /newsletter, nothing tracked. Null for an unknown send, a
 * story's, or a cancelled or skipped one.
 */
export async function digestSendPage(db: Db, sendId: string, publicUrl: string, timeZone?: string): Promise<string | null> {
  if (!isUuid(sendId)) return null;
  const [send] = await db
    .select({ id: newsletterSends.id, newsletterId: newsletterSends.newsletterId, kind: newsletterSends.kind, status: newsletterSends.status, createdAt: newsletterSends.createdAt })
    .from(newsletterSends)
    .where(eq(newsletterSends.id, sendId))
    .limit(1);
  if (!send || send.kind !== "digest" || send.status === "cancelled" || send.status === "skipped") return null;
  const newsletter = await newsletterById(db, send.newsletterId);
  if (!newsletter) return null;
  const { email } = await digestSendEmail(db, send, newsletter, publicUrl, timeZone);
  return personalizeEmail(email, { unsubscribeUrl: `${publicUrl}/newsletter`, preferencesUrl: `${publicUrl}/newsletter` }).html;
}
