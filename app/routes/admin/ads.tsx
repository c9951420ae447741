import { data, Form, Link, useActionData, useNavigation } from "react-router";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { useAnswerToast } from "~/components/admin/use-answer-toast";
import { useNoticeToast } from "~/components/admin/use-notice-toast";
import { Button } from "~/components/ui/button";
import { actorOf } from "~/domain/accounts/actor";
import { requireCapability } from "~/domain/accounts/guard.server";
import { AD_PRIORITY_LABELS, AD_SLOTS, isAdSlotName } from "~/domain/ads/ad-slots";
import { addHouseAds, listAdvertisers, listCampaigns } from "~/domain/ads/ads-admin.server";
import { campaignStatus, type CampaignStatus } from "~/domain/ads/ads.schema";
import { periodText } from "~/domain/audience/audience-format";
import { siteDayOf } from "~/domain/audience/audience-rollup.server";
import { getSettings } from "~/domain/settings/settings.server";
import { AppError } from "~/lib/app-error";
import { formValues, refuse, type Refusal } from "~/lib/forms";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/ads";

// The ads back office's home (issue 43): every campaign with what it served so far, the advertisers,
// and the newsroom's own house ads in one click.

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireCapability(request, context, "ads.manage");
  const today = siteDayOf(new Date(), context.env.TIME_ZONE);
  const [campaigns, advertisers] = await Promise.all([listCampaigns(context.db), listAdvertisers(context.db)]);
  return {
    campaigns: campaigns.map((c) => ({
      id: c.id,
      name: c.name,
      advertiserId: c.advertiserId,
      advertiserName: c.advertiserName,
      dates: periodText({ firstDay: c.startsOn, lastDay: c.endsOn }),
      slots: c.slots.map((slot) => (isAdSlotName(slot) ? AD_SLOTS[slot].where : slot)),
      priority: AD_PRIORITY_LABELS[c.priority],
      status: campaignStatus(c, today),
      impressions: c.impressions,
      goal: c.impressionGoal,
    })),
    advertisers,
    hasHouse: advertisers.some((a) => a.house),
  };
}

export type AdsActionData = { ok: true; message: string } | Refusal;

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireCapability(request, context, "ads.manage");
  const { intent } = formValues(await request.formData(), ["intent"]);
  try {
    if (intent !== "house-ads") throw new AppError("invalid_input", "Unknown action.");
    const settings = await getSettings(context.db);
    const { added } = await addHouseAds(context.db, actorOf(user), { siteName: settings.siteName, today: siteDayOf(new Date(), context.env.TIME_ZONE) });
    context.log.info({ added }, "house ads added");
    return data<AdsActionData>({ ok: true, message: added === 0 ? "The house ads are already there." : `House ads added: ${added === 1 ? "1 campaign" : `${added} campaigns`}.` });
  } catch (error) {
    return refuse(error);
  }
}

export const meta: Route.MetaFunction = ({ matches }) => backOfficeMeta(matches, { title: "Ads", path: "/admin/ads" });

const STATUS_CLASS: Record<CampaignStatus, string> = {
  Running: "bg-green-100 text-green-900",
  "Goal reached": "bg-violet-100 text-violet-900",
  Scheduled: "bg-sky-100 text-sky-900",
  Paused: "bg-amber-100 text-amber-900",
  Ended: "bg-slate-100 text-slate-700",
};

const cell = "px-4 py-3 max-md:px-2";

function HouseAdsButton({ busy, variant = "default" }: { busy: boolean; variant?: "default" | "outline" }) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="house-ads" />
      <Button type="submit" variant={variant} disabled={busy}>
        Add house ads
      </Button>
    </Form>
  );
}

export default function AdminAds({ loaderData }: Route.ComponentProps) {
  const { campaigns, advertisers, hasHouse } = loaderData;
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  useNoticeToast();

  useAnswerToast(answer);

  const empty = campaigns.length === 0 && advertisers.length === 0;

  return (
    <main className="mx-auto w-full min-w-0 max-w-6xl flex-1 px-4 py-8">
      <AdminPageHeader
        title="Ads"
        description="The newsroom's own campaigns in the site's ad slots, chosen for each reader at the door and counted without cookies."
        action={
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="outline">
              <Link to="/admin/ads/advertisers/new">New advertiser</Link>
            </Button>
            <Button asChild>
              <Link to="/admin/ads/campaigns/new">New campaign</Link>
            </Button>
          </div>
        }
      />

      {empty ? (
        <section aria-labelledby="ads-empty" className="rounded-lg border border-slate-200 bg-white px-6 py-12 text-center">
          <h2 id="ads-empty" className="mb-2 text-lg font-semibold text-slate-900">
            No campaigns yet
          </h2>
          <p className="mx-auto mb-2 max-w-2xl text-sm text-slate-700">
            A campaign puts an advertiser&apos;s banner or text ad in the site&apos;s ad slots (the home page, articles, category pages, Contact and About) between
            two dates, for all pages or chosen categories. Add an advertiser, then a campaign with its creatives.
          </p>
          <p className="mx-auto mb-6 max-w-2xl text-sm text-slate-700">
            House ads are the newsroom&apos;s own (&ldquo;Subscribe&rdquo;, &ldquo;Get our newsletter&rdquo;): they fill any slot no other campaign fills. A slot
            with nothing to show takes no space.
          </p>
          <div className="flex flex-wrap justify-center gap-2">
            <HouseAdsButton busy={busy} />
            <Button asChild variant="outline">
              <Link to="/admin/ads/advertisers/new">New advertiser</Link>
            </Button>
          </div>
        </section>
      ) : (
        <>
          <section aria-labelledby="campaigns-heading" className="mb-8">
            <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
              <h2 id="campaigns-heading" className="text-lg font-semibold text-slate-900">
                Campaigns ({campaigns.length})
              </h2>
              {hasHouse ? null : <HouseAdsButton busy={busy} variant="outline" />}
            </div>
            {campaigns.length === 0 ? (
              <p className="rounded-lg border border-slate-200 bg-white py-10 text-center text-sm text-slate-700">No campaigns yet: add one with “New campaign”.</p>
            ) : (
              <div className="relative overflow-x-auto rounded-lg border border-slate-200 bg-white">
                <table className="w-full text-left text-sm">
                  <caption className="sr-only">Campaigns, the latest ending first, with their impressions so far</caption>
                  <thead className="bg-slate-50 text-slate-800">
                    <tr>
                      <th scope="col" className={`${cell} font-semibold`}>Campaign</th>
                      <th scope="col" className={`${cell} font-semibold max-md:hidden`}>Dates</th>
                      <th scope="col" className={`${cell} font-semibold max-md:hidden`}>Slots</th>
                      <th scope="col" className={`${cell} font-semibold max-md:hidden`}>Priority</th>
                      <th scope="col" className={`${cell} font-semibold whitespace-nowrap`}>Status</th>
                      <th scope="col" className={`${cell} text-right font-semibold whitespace-nowrap`}>Impressions</th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-slate-200">
                    {campaigns.map((c) => (
                      <tr key={c.id} className="align-top">
                        <td className={`${cell} min-w-32`}>
                          <Link to={`/admin/ads/campaigns/${c.id}`} className="font-medium break-words text-slate-900 underline">
                            {c.name}
                          </Link>
                          <p className="text-xs text-slate-600">{c.advertiserName}</p>
                          <p className="text-xs text-slate-600 md:hidden">
                            {c.dates} · {c.priority} · {c.slots.join(", ")}
                          </p>
                        </td>
                        <td className={`${cell} min-w-28 text-slate-800 max-md:hidden`}>{c.dates}</td>
                        <td className={`${cell} text-slate-800 max-md:hidden`}>{c.slots.join(", ")}</td>
                        <td className={`${cell} whitespace-nowrap max-md:hidden`}>{c.priority}</td>
                        <td className={`${cell} whitespace-nowrap`}>
                          <span className={`rounded px-2 py-0.5 text-xs font-semibold ${STATUS_CLASS[c.status]}`} data-testid="campaign-status">
                            {c.status}
                          </span>
                        </td>
                        <td className={`${cell} text-right whitespace-nowrap tabular-nums`} data-testid="campaign-impressions">
                          {c.impressions.toLocaleString("en-US")}
                          {c.goal ? (
                            <>
                              <span className="text-slate-600"> / {c.goal.toLocaleString("en-US")}</span>
                              <p className="text-xs text-slate-600">{Math.min(100, Math.floor((c.impressions / c.goal) * 100))}% of the goal</p>
                            </>
                          ) : null}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>

          <section aria-labelledby="advertisers-heading">
            <h2 id="advertisers-heading" className="mb-3 text-lg font-semibold text-slate-900">
              Advertisers ({advertisers.length})
            </h2>
            {advertisers.length === 0 ? (
              <p className="rounded-lg border border-slate-200 bg-white py-10 text-center text-sm text-slate-700">No advertisers yet: add one with “New advertiser”.</p>
            ) : (
              <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
                {advertisers.map((a) => (
                  <li key={a.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3 text-sm">
                    <div className="min-w-0">
                      <Link to={`/admin/ads/advertisers/${a.id}`} className="font-medium break-words text-slate-900 underline">
                        {a.name}
                      </Link>
                      {a.house ? <span className="ml-2 text-xs font-semibold text-slate-600 uppercase">House</span> : null}
                      {a.contactName || a.contactEmail ? <p className="text-xs break-words text-slate-600">{[a.contactName, a.contactEmail].filter(Boolean).join(" · ")}</p> : null}
                    </div>
                    <span className="text-slate-700">{a.campaigns === 1 ? "1 campaign" : `${a.campaigns} campaigns`}</span>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </main>
  );
}
