import { and, asc, count, desc, eq, isNotNull, isNull, type SQL } from "drizzle-orm";
import { IN_REVIEW_LABEL } from "~/domain/articles/articles.schema";
import { publiclyVisible } from "~/db/article-visibility";
import type { Db } from "~/db/client.server";
import { articles, user } from "~/db/schema";
import { actorName } from "~/domain/accounts/actor";
import { can, mayEditArticle, type Role } from "~/domain/accounts/roles";
import { ownedBy } from "~/domain/articles/article-access.server";
import { AUTHOR_WORK, EDITOR_WORK, WORK_LIST_LIMIT, type WorkItem, type WorkList, type WorkListKey } from "./work.schema";

// The dashboard's work by role (issue 27): an author's own drafts, what was sent back to them, their
// scheduled and recently published stories; an editor's review queue, the scheduled stories and the
// recently published ones. Each list is a few stories with the time that matters for them.

export interface Viewer {
  id: string;
  role: Role;
}

interface ListQuery {
  where: SQL;
  /** The time shown and the order. */
  at: typeof articles.updatedAt | typeof articles.publishedAt | typeof articles.reviewNoteAt | typeof articles.reviewRequestedAt;
  direction: "asc" | "desc";
}

function listQueries(viewer: Viewer): Record<WorkListKey, ListQuery> {
  const mine = ownedBy(viewer.id);
  const draft = eq(articles.status, "draft");
  return {
    // An author's drafts (waiting for review or not): the last saved first. Those sent back are listed apart.
    myDrafts: { where: and(mine, draft, isNull(articles.reviewNote))!, at: articles.updatedAt, direction: "desc" },
    sentBack: { where: and(mine, draft, isNull(articles.reviewRequestedAt), isNotNull(articles.reviewNote))!, at: articles.reviewNoteAt, direction: "desc" },
    myScheduled: { where: and(mine, eq(articles.status, "scheduled"))!, at: articles.publishedAt, direction: "asc" },
    myPublished: { where: and(mine, publiclyVisible())!, at: articles.publishedAt, direction: "desc" },
    review: { where: and(draft, isNotNull(articles.reviewRequestedAt))!, at: articles.reviewRequestedAt, direction: "asc" },
    scheduled: { where: eq(articles.status, "scheduled"), at: articles.publishedAt, direction: "asc" },
    published: { where: publiclyVisible(), at: articles.publishedAt, direction: "desc" },
  };
}

async function readList(db: Db, viewer: Viewer, key: WorkListKey, query: ListQuery): Promise<WorkList> {
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        id: articles.id,
        title: articles.title,
        slug: articles.slug,
        status: articles.status,
        at: query.at,
        updatedAt: articles.updatedAt,
        own: ownedBy(viewer.id).mapWith(Boolean),
        inReview: isNotNull(articles.reviewRequestedAt).mapWith(Boolean),
        noteBy: articles.reviewNoteByName,
        submitterName: user.name,
        submitterEmail: user.email,
      })
      .from(articles)
      .leftJoin(user, eq(user.id, articles.reviewRequestedById))
      .where(query.where)
      .orderBy(query.direction === "asc" ? asc(query.at) : desc(query.at), desc(articles.id))
      .limit(WORK_LIST_LIMIT),
    db.select({ total: count() }).from(articles).where(query.where),
  ]);
  const items: WorkItem[] = rows.map((row) => {
    const editable = mayEditArticle(viewer, { status: row.status, own: Boolean(row.own) });
    const href = editable ? `/admin/articles/edit/${row.id}` : row.status === "published" ? `/article/${row.slug}` : null;
    let detail: string | undefined;
    if (key === "sentBack" && row.noteBy) detail = `by ${row.noteBy}`;
    if (key === "myDrafts" && row.inReview) detail = IN_REVIEW_LABEL;
    if (key === "review") detail = row.submitterEmail ? `by ${actorName({ email: row.submitterEmail, name: row.submitterName })}` : "by a former account";
    return { id: row.id, title: row.title, href, at: (row.at ?? row.updatedAt).toISOString(), ...(detail ? { detail } : {}) };
  });
  return { key, total, items };
}

/** The viewer's work lists: an author's four, or an editor's or admin's three. */
export async function getDashboardWork(db: Db, viewer: Viewer): Promise<WorkList[]> {
  const keys = can(viewer.role, "articles.publish") ? EDITOR_WORK : AUTHOR_WORK;
  const queries = listQueries(viewer);
  return Promise.all(keys.map((key) => readList(db, viewer, key, queries[key])));
}
