import { data, Link } from "react-router";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { LiveUpdatesPanel } from "~/components/admin/live-updates-panel";
import { actorOf } from "~/domain/accounts/actor";
import { requireCapability } from "~/domain/accounts/guard.server";
import { listAuthorChoices } from "~/domain/authors/authors.server";
import { applyLiveRequest, getLivePanel } from "~/domain/live/live-admin.server";
import { LIVE_REFUSALS, LIVE_UPDATE_FIELDS, type LivePanelData } from "~/domain/live/live-admin.schema";
import { formValues, refuse } from "~/lib/forms";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/article-live";

/** The panel's data as it travels to the browser (times are ISO strings already). */
export type LivePanelAnswer = { ok: true; intent: string; panel: LivePanelData };

/**
 * GET /admin/articles/live/:id: a live story's "Live updates" screen (issue 31). An author cannot open a
 * published story's edit page, but may post updates on a live story whose byline names them: this
 * screen is theirs, and the edit page shows the same panel to editors. Its action is the one home of
 * every live write (post, edit, delete, pin, unpin; start, end, restart), whichever page sends it.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const actor = actorOf(await requireCapability(request, context, "live.post"));
  const [panel, authors] = await Promise.all([getLivePanel(context.db, params.id, actor), listAuthorChoices(context.db)]);
  if (!panel) throw data("Article not found", { status: 404 });
  // An author not on its byline (or on a story that is not live) may not open it: 403, as the edit page.
  if (!panel.mayOpen) throw data({ error: panel.story.live ? LIVE_REFUSALS.notOnByline : LIVE_REFUSALS.notLive }, { status: 403 });
  return { panel, authors };
}

/**
 * A write of the panel (a fetcher, or a plain form without JavaScript). Success answers the panel's
 * data as it now is (the edit page's panel shows it without reloading the article form); a refusal
 * is the usual Refusal with its status (403 for an author not on the byline: nothing is written).
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = actorOf(await requireCapability(request, context, "live.post"));
  const formData = await request.formData();
  try {
    const done = await applyLiveRequest(context.db, context.storage, actor, params.id, formData);
    context.log.info({ articleId: params.id, intent: done.intent, updateId: done.updateId }, "live coverage changed");
    const panel = await getLivePanel(context.db, params.id, actor);
    return { ok: true as const, intent: done.intent, panel: panel! } satisfies LivePanelAnswer;
  } catch (error) {
    const values = formValues(formData, [...LIVE_UPDATE_FIELDS, "intent", "updateId"]);
    return refuse(error, values);
  }
}

export const meta: Route.MetaFunction = ({ data, matches, params }) =>
  backOfficeMeta(matches, { title: data ? `Live updates: ${data.panel.story.title}` : "Live updates", path: `/admin/articles/live/${params.id}` });

export default function ArticleLiveUpdates({ loaderData }: Route.ComponentProps) {
  const { panel, authors } = loaderData;
  return (
    <main className="mx-auto w-full min-w-0 max-w-3xl flex-1 px-4 py-6 lg:py-8">
      <AdminPageHeader
        title="Live updates"
        back={{ to: "/admin/articles", label: "Back to Articles" }}
        description={
          <>
            <span className="font-medium text-slate-900">{panel.story.title}</span>
            {panel.story.status === "published" ? (
              <>
                {" · "}
                <Link to={`/article/${panel.story.slug}`} className="text-brand-700 underline underline-offset-2">
                  View the story
                </Link>
              </>
            ) : null}
          </>
        }
      />
      <LiveUpdatesPanel initial={panel} authors={authors} headingLevel="h2" standalone />
    </main>
  );
}
