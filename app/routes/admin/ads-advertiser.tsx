import { useEffect } from "react";
import { data, Form, Link, redirect, useActionData, useFetcher, useNavigation } from "react-router";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { ConfirmDialog } from "~/components/admin/confirm-dialog";
import { FieldError } from "~/components/admin/field-error";
import { useNoticeToast, withNotice } from "~/components/admin/use-notice-toast";
import { Button } from "~/components/ui/button";
import { Input, Label, Textarea } from "~/components/ui/input";
import { useAnswerToast } from "~/components/admin/use-answer-toast";
import { toast } from "~/components/ui/toaster";
import { actorOf } from "~/domain/accounts/actor";
import { requireCapability } from "~/domain/accounts/guard.server";
import { AD_PRIORITY_LABELS } from "~/domain/ads/ad-slots";
import { createAdvertiser, deleteAdvertiser, getAdvertiser, listCampaigns, updateAdvertiser } from "~/domain/ads/ads-admin.server";
import { advertiserFormSchema, campaignStatus, type AdvertiserFieldName } from "~/domain/ads/ads.schema";
import { periodText } from "~/domain/audience/audience-format";
import { siteDayOf } from "~/domain/audience/audience-rollup.server";
import { AppError } from "~/lib/app-error";
import { formValues, parseForm, refuse, type Refusal } from "~/lib/forms";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/ads-advertiser";

// One advertiser (issue 43): /admin/ads/advertisers/new adds one; /admin/ads/advertisers/:id edits it,
// lists its campaigns, links its report, and deletes it while it has no campaign.

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireCapability(request, context, "ads.manage");
  if (params.id === "new") return { advertiser: null, campaigns: [] };
  const advertiser = await getAdvertiser(context.db, params.id).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "not_found") throw data(error.message, { status: 404 });
    throw error;
  });
  const today = siteDayOf(new Date(), context.env.TIME_ZONE);
  const campaigns = await listCampaigns(context.db, { advertiserId: advertiser.id });
  return {
    advertiser: {
      id: advertiser.id,
      name: advertiser.name,
      contactName: advertiser.contactName,
      contactEmail: advertiser.contactEmail,
      notes: advertiser.notes,
      house: advertiser.house,
    },
    campaigns: campaigns.map((c) => ({
      id: c.id,
      name: c.name,
      dates: periodText({ firstDay: c.startsOn, lastDay: c.endsOn }),
      priority: AD_PRIORITY_LABELS[c.priority],
      status: campaignStatus(c, today),
      impressions: c.impressions,
    })),
  };
}

export type AdvertiserActionData = { ok: true; message: string } | (Refusal<AdvertiserFieldName> & { intent: string });

const FIELDS = ["intent", "name", "contactName", "contactEmail", "notes"] as const;

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = actorOf(await requireCapability(request, context, "ads.manage"));
  const { intent, ...values } = formValues(await request.formData(), FIELDS);
  try {
    if (intent === "save") {
      const input = parseForm(advertiserFormSchema, values, { required: ["name"], missingMessage: "Name is required." });
      if (params.id === "new") {
        const id = await createAdvertiser(context.db, actor, input);
        return redirect(withNotice(`/admin/ads/advertisers/${id}`, "advertiser-added"));
      }
      await updateAdvertiser(context.db, actor, params.id, input);
      return data<AdvertiserActionData>({ ok: true, message: "Advertiser saved" });
    }
    if (intent === "delete" && params.id !== "new") {
      await deleteAdvertiser(context.db, actor, params.id);
      return redirect(withNotice("/admin/ads", "advertiser-deleted"));
    }
    throw new AppError("invalid_input", "Unknown action.");
  } catch (error) {
    const answer = refuse<AdvertiserFieldName>(error, values);
    return data<AdvertiserActionData>({ ...answer.data, intent }, answer.init ?? undefined);
  }
}

export const meta: Route.MetaFunction = ({ matches, data: loaded }) =>
  backOfficeMeta(matches, { title: loaded?.advertiser ? loaded.advertiser.name : "New advertiser", path: "/admin/ads" });

export default function AdminAdvertiser({ loaderData }: Route.ComponentProps) {
  const { advertiser, campaigns } = loaderData;
  const answer = useActionData<typeof action>();
  const deleter = useFetcher<AdvertiserActionData>({ key: "advertiser-delete" });
  const busy = useNavigation().state !== "idle";

  useNoticeToast();
  useAnswerToast(answer, (answer) => answer.code === "invalid_input" && Object.keys(answer.fieldErrors).length > 1 ? "Please correct the highlighted fields." : answer.error);
  useEffect(() => {
    if (deleter.state === "idle" && deleter.data && !deleter.data.ok) toast.error("Error", deleter.data.error);
  }, [deleter.state, deleter.data]);

  const refused = answer && !answer.ok ? answer : null;
  const errors = refused?.fieldErrors ?? {};
  const value = (name: AdvertiserFieldName) => refused?.values?.[name] ?? advertiser?.[name] ?? "";
  const field = (name: "name" | "contactName" | "contactEmail", label: string, extra: { type?: string; required?: boolean; autoComplete?: string } = {}) => (
    <div className="space-y-1">
      <Label htmlFor={`advertiser-${name}`}>{label}</Label>
      <Input
        id={`advertiser-${name}`}
        name={name}
        defaultValue={value(name)}
        maxLength={name === "contactEmail" ? 254 : 120}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `advertiser-${name}-error` : undefined}
        {...extra}
      />
      <FieldError id={`advertiser-${name}-error`} message={errors[name]} />
    </div>
  );

  return (
    <main className="mx-auto w-full min-w-0 max-w-4xl flex-1 px-4 py-8">
      <AdminPageHeader
        title={advertiser ? advertiser.name : "New advertiser"}
        description={advertiser?.house ? "The newsroom itself: its house ads fill a slot no other campaign fills." : undefined}
        back={{ to: "/admin/ads", label: "Back to Ads" }}
        action={
          advertiser ? (
            <Button asChild variant="outline">
              <Link to={`/admin/ads/advertisers/${advertiser.id}/report`}>Report</Link>
            </Button>
          ) : undefined
        }
      />

      <section aria-labelledby="advertiser-details" className="mb-8 rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
        <h2 id="advertiser-details" className="mb-4 text-lg font-semibold text-slate-900">
          Details
        </h2>
        <Form method="post" className="space-y-4" noValidate>
          <input type="hidden" name="intent" value="save" />
          {field("name", "Name", { required: true, autoComplete: "organization" })}
          <div className="grid gap-4 sm:grid-cols-2">
            {field("contactName", "Contact name", { autoComplete: "off" })}
            {field("contactEmail", "Contact e-mail", { type: "email", autoComplete: "off" })}
          </div>
          <div className="space-y-1">
            <Label htmlFor="advertiser-notes">Notes</Label>
            <Textarea
              id="advertiser-notes"
              name="notes"
              rows={3}
              defaultValue={value("notes")}
              maxLength={2000}
              aria-invalid={errors.notes ? true : undefined}
              aria-describedby={errors.notes ? "advertiser-notes-error" : undefined}
            />
            <FieldError id="advertiser-notes-error" message={errors.notes} />
          </div>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={busy}>
              {advertiser ? "Save advertiser" : "Add advertiser"}
            </Button>
          </div>
        </Form>
      </section>

      {advertiser ? (
        <section aria-labelledby="advertiser-campaigns" className="mb-8">
          <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
            <h2 id="advertiser-campaigns" className="text-lg font-semibold text-slate-900">
              Campaigns ({campaigns.length})
            </h2>
            <Button asChild variant="outline">
              <Link to={`/admin/ads/campaigns/new?advertiser=${advertiser.id}`}>New campaign</Link>
            </Button>
          </div>
          {campaigns.length === 0 ? (
            <p className="rounded-lg border border-slate-200 bg-white py-8 text-center text-sm text-slate-700">No campaigns for this advertiser yet.</p>
          ) : (
            <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
              {campaigns.map((c) => (
                <li key={c.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3 text-sm">
                  <div className="min-w-0">
                    <Link to={`/admin/ads/campaigns/${c.id}`} className="font-medium break-words text-slate-900 underline">
                      {c.name}
                    </Link>
                    <p className="text-xs text-slate-600">
                      {c.dates} · {c.priority} · {c.status}
                    </p>
                  </div>
                  <span className="tabular-nums text-slate-700">{c.impressions.toLocaleString("en-US")} impressions</span>
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : null}

      {advertiser ? (
        <section aria-labelledby="advertiser-delete" className="rounded-lg border border-red-200 bg-white p-4 sm:p-6">
          <h2 id="advertiser-delete" className="mb-1 text-lg font-semibold text-slate-900">
            Delete advertiser
          </h2>
          <p className="mb-3 text-sm text-slate-700">
            {campaigns.length > 0 ? "An advertiser with campaigns cannot be deleted: its campaigns and their figures are kept for the reports." : "It has no campaigns: it can be deleted."}
          </p>
          <ConfirmDialog
            trigger={
              <Button variant="destructive" disabled={busy || campaigns.length > 0}>
                Delete advertiser
              </Button>
            }
            title="Delete Advertiser"
            description={`Delete “${advertiser.name}”? This cannot be undone.`}
            confirmLabel="Delete"
            onConfirm={() => deleter.submit({ intent: "delete" }, { method: "post" })}
          />
        </section>
      ) : null}
    </main>
  );
}
