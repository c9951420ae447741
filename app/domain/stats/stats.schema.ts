/** What the dashboard shows: the shapes stats.server.ts computes, safe in the browser. */
import type { ActivityPeriod } from "./periods";

export interface PeriodFigures {
  today: number;
  month: number;
  year: number;
}

/** Page views (page_views beacon rows): today, this month, this year and all time, one measure. */
export interface PageViewFigures extends PeriodFigures {
  allTime: number;
}

export interface DashboardTotals {
  /** Article views: the sum of every article's view counter (counted on each article load, with no time kept). */
  articleViews: number;
  /** Public articles (published, their time passed): what readers can see. */
  articles: number;
  /** Articles readers cannot see yet, counted apart. */
  drafts: number;
  scheduled: number;
  comments: number;
  categories: number;
}

export interface DashboardArticle {
  id: string;
  title: string;
  slug: string;
  views: number;
  /** When it went public (the dashboard lists public articles only). */
  publishedAt: Date;
  categoryName: string | null;
}

export interface DashboardComment {
  id: string;
  authorName: string;
  content: string;
  createdAt: Date;
  articleTitle: string;
  articleSlug: string;
}

/** A scheduled article and when it goes live. */
export interface ScheduledArticle {
  id: string;
  title: string;
  publishAt: Date;
}

export interface PeriodActivity {
  articleCount: number;
  commentCount: number;
  viewCount: number;
  articles: DashboardArticle[];
  comments: DashboardComment[];
}

export interface DashboardStats {
  totals: DashboardTotals;
  /** Page views (page_views rows) by when the view happened, and all of them. */
  pageViews: PageViewFigures;
  topArticles: DashboardArticle[];
  /** The newest articles, for the "Total Articles" dialog (at most ARTICLE_DIALOG_LIMIT). */
  allArticles: DashboardArticle[];
  recentComments: DashboardComment[];
  /** The scheduled articles that go live next, soonest first. */
  nextScheduled: ScheduledArticle[];
  activity: Record<ActivityPeriod, PeriodActivity>;
}
