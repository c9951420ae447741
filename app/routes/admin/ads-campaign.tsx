import { useState } from "react";
import { data, Form, Link, redirect, useActionData, useNavigation, useSubmit } from "react-router";
import { AdCreativePreview } from "~/components/admin/ad-creative-preview";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { ConfirmDialog } from "~/components/admin/confirm-dialog";
import { FieldError } from "~/components/admin/field-error";
import { useNoticeToast, withNotice } from "~/components/admin/use-notice-toast";
import { Button } from "~/components/ui/button";
import { Input, Label, Textarea } from "~/components/ui/input";
import { useAnswerToast } from "~/components/admin/use-answer-toast";
import { actorOf } from "~/domain/accounts/actor";
import { requireCapability } from "~/domain/accounts/guard.server";
import { AD_PRIORITIES, AD_PRIORITY_LABELS, AD_SIZES, AD_SLOT_NAMES, AD_SLOTS, isAdSize, type AdSize } from "~/domain/ads/ad-slots";
import {
  addCreative,
  deleteCampaign,
  endCampaignToday,
  getCampaign,
  listAdImages,
  listAdvertisers,
  setCampaignPaused,
  setCreativeArchived,
  updateCampaign,
  createCampaign,
} from "~/domain/ads/ads-admin.server";
import {
  addDays,
  BODY_MAX,
  campaignFormSchema,
  campaignStatus,
  CATEGORY_SLOTS,
  creativeFormSchema,
  HEADLINE_MAX,
  missingSizes,
  type CampaignFieldName,
  type CreativeFieldName,
} from "~/domain/ads/ads.schema";
import { periodText } from "~/domain/audience/audience-format";
import { siteDayOf } from "~/domain/audience/audience-rollup.server";
import { listCategories } from "~/domain/categories/categories.server";
import { AppError } from "~/lib/app-error";
import { formValues, parseForm, refuse, type Refusal } from "~/lib/forms";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/ads-campaign";

// One campaign (issue 43): /admin/ads/campaigns/new makes one; /admin/ads/campaigns/:id edits it,
// pauses, resumes, ends or deletes it, and holds its creatives (image or text, archived or not).

const notFoundAs404 = (error: unknown): never => {
  if (error instanceof AppError && error.code === "not_found") throw data(error.message, { status: 404 });
  throw error;
};

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireCapability(request, context, "ads.manage");
  const today = siteDayOf(new Date(), context.env.TIME_ZONE);
  const [advertisers, categories] = await Promise.all([listAdvertisers(context.db), listCategories(context.db)]);
  const base = {
    today,
    advertisers: advertisers.map((a) => ({ id: a.id, name: a.name })),
    categories: categories.map((c) => ({ id: c.id, name: c.name })),
  };
  if (params.id === "new") {
    const chosen = new URL(request.url).searchParams.get("advertiser");
    return {
      ...base,
      campaign: null,
      defaults: { advertiserId: advertisers.some((a) => a.id === chosen) ? chosen! : "", startsOn: today, endsOn: addDays(today, 6) },
      creatives: [],
      images: [],
    };
  }
  const campaign = await getCampaign(context.db, params.id).catch(notFoundAs404);
  const images = await listAdImages(context.db);
  const urlOf = (name: string | null) => (name ? context.storage.publicUrl("images", name) : null);
  return {
    ...base,
    defaults: null,
    campaign: {
      id: campaign.id,
      name: campaign.name,
      advertiserId: campaign.advertiserId,
      advertiserName: campaign.advertiserName,
      house: campaign.house,
      startsOn: campaign.startsOn,
      endsOn: campaign.endsOn,
      dates: periodText({ firstDay: campaign.startsOn, lastDay: campaign.endsOn }),
      slots: campaign.slots,
      categoryIds: campaign.categoryIds,
      priority: campaign.priority,
      weight: campaign.weight,
      impressionGoal: campaign.impressionGoal,
      paused: campaign.paused,
      status: campaignStatus(campaign, today),
      impressions: campaign.impressions,
      clicks: campaign.clicks,
      hasServed: campaign.hasServed,
      missing: missingSizes(campaign.slots, campaign.creatives.map((c) => c.creative)),
    },
    creatives: campaign.creatives.map(({ creative: c, mediaName }) => ({
      id: c.id,
      size: (isAdSize(c.size) ? c.size : "box") as AdSize,
      kind: c.kind,
      imageUrl: urlOf(mediaName),
      alt: c.alt,
      headline: c.headline,
      body: c.body,
      linkUrl: c.linkUrl,
      archived: c.archived,
    })),
    images: images.map((i) => ({ id: i.id, url: urlOf(i.name)!, name: i.originalName })),
  };
}

type Intent = "save" | "pause" | "resume" | "end" | "delete" | "add-image" | "add-text" | "archive" | "restore";
type FieldName = CampaignFieldName | CreativeFieldName;
export type CampaignActionData = { ok: true; intent: Intent; message: string } | (Refusal<FieldName> & { intent: string });

const CAMPAIGN_FIELDS = ["name", "advertiserId", "startsOn", "endsOn", "categoryScope", "priority", "weight", "impressionGoal"] as const;
const CREATIVE_FIELDS = ["size", "mediaId", "alt", "headline", "body", "linkUrl"] as const;

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = actorOf(await requireCapability(request, context, "ads.manage"));
  const form = await request.formData();
  const { intent, creativeId } = formValues(form, ["intent", "creativeId"]);
  const id = params.id;
  const answer = (message: string) => data<CampaignActionData>({ ok: true, intent: intent as Intent, message });
  let values: Partial<Record<FieldName, string>> = {};
  try {
    if (intent === "save") {
      const listed = (name: string) =>
        form
          .getAll(name)
          .filter((v): v is string => typeof v === "string")
          .join(",");
      const fields = { ...formValues(form, CAMPAIGN_FIELDS), slots: listed("slots"), categoryIds: listed("categoryIds") };
      values = fields;
      const input = parseForm(campaignFormSchema, fields, { required: ["name"], missingMessage: "Name is required." });
      if (id === "new") {
        const created = await createCampaign(context.db, actor, input);
        return redirect(withNotice(`/admin/ads/campaigns/${created}`, "campaign-created"));
      }
      await updateCampaign(context.db, actor, id, input);
      return answer("Campaign saved");
    }
    if (id === "new") throw new AppError("invalid_input", "Save the campaign first.");
    if (intent === "pause" || intent === "resume") {
      await setCampaignPaused(context.db, actor, id, intent === "pause");
      return answer(intent === "pause" ? "Campaign paused: it no longer shows on the site." : "Campaign resumed.");
    }
    if (intent === "end") {
      await endCampaignToday(context.db, actor, id, siteDayOf(new Date(), context.env.TIME_ZONE));
      return answer("Campaign ends today.");
    }
    if (intent === "delete") {
      await deleteCampaign(context.db, actor, id);
      return redirect(withNotice("/admin/ads", "campaign-deleted"));
    }
    if (intent === "add-image" || intent === "add-text") {
      const campaign = await getCampaign(context.db, id);
      const fields = { kind: intent === "add-image" ? "image" : "text", ...formValues(form, CREATIVE_FIELDS) };
      values = fields;
      const input = parseForm(creativeFormSchema({ house: campaign.house }), fields);
      await addCreative(context.db, actor, id, input);
      return answer(intent === "add-image" ? "Image creative added" : "Text ad added");
    }
    if (intent === "archive" || intent === "restore") {
      await setCreativeArchived(context.db, actor, id, creativeId, intent === "archive");
      return answer(intent === "archive" ? "Creative archived: it no longer shows, its figures stay." : "Creative restored.");
    }
    throw new AppError("invalid_input", "Unknown action.");
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found" && intent !== "archive" && intent !== "restore") notFoundAs404(error);
    const refusal = refuse<FieldName>(error, values);
    return data<CampaignActionData>({ ...refusal.data, intent }, refusal.init ?? undefined);
  }
}

export const meta: Route.MetaFunction = ({ matches, data: loaded }) =>
  backOfficeMeta(matches, { title: loaded?.campaign ? loaded.campaign.name : "New campaign", path: "/admin/ads" });

const SELECT = "h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900";
const fieldProps = (prefix: string, name: string, error?: string) => ({
  id: `${prefix}-${name}`,
  name,
  "aria-invalid": error ? true : undefined,
  "aria-describedby": error ? `${prefix}-${name}-error` : undefined,
});

type LoaderData = Route.ComponentProps["loaderData"];

function CampaignForm({ data: d, refused, busy }: { data: LoaderData; refused: (Refusal<FieldName> & { intent: string }) | null; busy: boolean }) {
  const c = d.campaign;
  const errors = refused?.fieldErrors ?? {};
  const v = refused?.values;
  const slotsChosen = v?.slots !== undefined ? v.slots.split(",").filter(Boolean) : (c?.slots ?? []);
  const categoriesChosen = v?.categoryIds !== undefined ? v.categoryIds.split(",").filter(Boolean) : (c?.categoryIds ?? []);
  const [scope, setScope] = useState<"all" | "chosen">((v?.categoryScope as "all" | "chosen" | undefined) ?? (categoriesChosen.length > 0 ? "chosen" : "all"));
  const p = "campaign";
  return (
    <Form method="post" className="space-y-5" noValidate>
      <input type="hidden" name="intent" value="save" />
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-1">
          <Label htmlFor="campaign-name">Name</Label>
          <Input {...fieldProps(p, "name", errors.name)} defaultValue={v?.name ?? c?.name ?? ""} required maxLength={120} />
          <FieldError id="campaign-name-error" message={errors.name} />
        </div>
        <div className="space-y-1">
          <Label htmlFor="campaign-advertiserId">Advertiser</Label>
          <select {...fieldProps(p, "advertiserId", errors.advertiserId)} defaultValue={v?.advertiserId ?? c?.advertiserId ?? d.defaults?.advertiserId ?? ""} className={SELECT} required>
            <option value="">Choose an advertiser…</option>
            {d.advertisers.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
          <FieldError id="campaign-advertiserId-error" message={errors.advertiserId} />
          {d.advertisers.length === 0 ? (
            <p className="text-sm text-slate-700">
              No advertisers yet: <Link to="/admin/ads/advertisers/new" className="underline">add one first</Link>.
            </p>
          ) : null}
        </div>
        <div className="space-y-1">
          <Label htmlFor="campaign-startsOn">Start date</Label>
          <Input {...fieldProps(p, "startsOn", errors.startsOn)} type="date" defaultValue={v?.startsOn ?? c?.startsOn ?? d.defaults?.startsOn} required />
          <FieldError id="campaign-startsOn-error" message={errors.startsOn} />
        </div>
        <div className="space-y-1">
          <Label htmlFor="campaign-endsOn">End date</Label>
          <Input {...fieldProps(p, "endsOn", errors.endsOn)} type="date" defaultValue={v?.endsOn ?? c?.endsOn ?? d.defaults?.endsOn} required />
          <FieldError id="campaign-endsOn-error" message={errors.endsOn} />
        </div>
      </div>
      <p className="text-sm text-slate-700">Both days are included, on the site&apos;s clock (today is {d.today}).</p>

      <fieldset className="space-y-2" aria-describedby={errors.slots ? "campaign-slots-error" : undefined}>
        <legend className="text-sm font-medium text-slate-800">Slots</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {AD_SLOT_NAMES.map((slot) => (
            <label key={slot} className="flex items-start gap-2 text-sm text-slate-800">
              <input type="checkbox" name="slots" value={slot} defaultChecked={slotsChosen.includes(slot)} className="mt-1 h-4 w-4" />
              <span>
                {AD_SLOTS[slot].where} <span className="text-slate-600">({AD_SIZES[AD_SLOTS[slot].size].label.toLowerCase()})</span>
              </span>
            </label>
          ))}
        </div>
        <FieldError id="campaign-slots-error" message={errors.slots} />
      </fieldset>

      <fieldset className="space-y-2" aria-describedby="campaign-categories-help">
        <legend className="text-sm font-medium text-slate-800">Categories</legend>
        <p id="campaign-categories-help" className="text-sm text-slate-700">
          Only the {CATEGORY_SLOTS.map((s) => AD_SLOTS[s].where.toLowerCase()).join(" and the ")} have a category: elsewhere a campaign for chosen categories does not show.
        </p>
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input type="radio" name="categoryScope" value="all" checked={scope === "all"} onChange={() => setScope("all")} className="h-4 w-4" />
          All pages
        </label>
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input type="radio" name="categoryScope" value="chosen" checked={scope === "chosen"} onChange={() => setScope("chosen")} className="h-4 w-4" />
          Only these categories:
        </label>
        <div className="grid gap-1 pl-6 sm:grid-cols-3">
          {d.categories.map((cat) => (
            <label key={cat.id} className="flex items-center gap-2 text-sm text-slate-800">
              <input
                type="checkbox"
                name="categoryIds"
                value={cat.id}
                defaultChecked={categoriesChosen.includes(cat.id)}
                onChange={(e) => (e.currentTarget.checked ? setScope("chosen") : undefined)}
                className="h-4 w-4"
              />
              {cat.name}
            </label>
          ))}
        </div>
        <FieldError id="campaign-categoryIds-error" message={errors.categoryIds} />
      </fieldset>

      <div className="grid gap-4 sm:grid-cols-3">
        <div className="space-y-1">
          <Label htmlFor="campaign-priority">Priority</Label>
          <select {...fieldProps(p, "priority", errors.priority)} defaultValue={v?.priority ?? c?.priority ?? "standard"} className={SELECT}>
            {AD_PRIORITIES.map((priority) => (
              <option key={priority} value={priority}>
                {AD_PRIORITY_LABELS[priority]}
              </option>
            ))}
          </select>
          <FieldError id="campaign-priority-error" message={errors.priority} />
        </div>
        <div className="space-y-1">
          <Label htmlFor="campaign-weight">Weight</Label>
          <Input {...fieldProps(p, "weight", errors.weight)} type="number" min={1} max={1000} step={1} defaultValue={v?.weight ?? c?.weight ?? 1} required />
          <FieldError id="campaign-weight-error" message={errors.weight} />
        </div>
        <div className="space-y-1">
          <Label htmlFor="campaign-impressionGoal">Impression goal</Label>
          <Input {...fieldProps(p, "impressionGoal", errors.impressionGoal)} type="number" min={1} step={1} defaultValue={v?.impressionGoal ?? c?.impressionGoal ?? ""} placeholder="None" />
          <FieldError id="campaign-impressionGoal-error" message={errors.impressionGoal} />
        </div>
      </div>
      <p className="text-sm text-slate-700">
        A slot shows a sponsorship first, else a standard campaign, else a house ad. Among campaigns of the same priority, weight sets the share (weights 1 and 3: a
        quarter and three quarters). A goal paces the campaign evenly over its days; without one it is served by weight alone.
      </p>
      <Button type="submit" disabled={busy}>
        {c ? "Save campaign" : "Create campaign"}
      </Button>
    </Form>
  );
}

function CreativeForms({ data: d, refused, busy, resetKey }: { data: LoaderData; refused: (Refusal<FieldName> & { intent: string }) | null; busy: boolean; resetKey: string }) {
  const house = d.campaign?.house ?? false;
  const image = refused?.intent === "add-image" ? refused : null;
  const text = refused?.intent === "add-text" ? refused : null;
  const linkHelp = house ? "A full http(s) address, or a path of this site like /subscribe." : "The advertiser's page: a full address starting with https:// or http://.";
  const sizeSelect = (prefix: string, value?: string) => (
    <div className="space-y-1">
      <Label htmlFor={`${prefix}-size`}>Size</Label>
      <select id={`${prefix}-size`} name="size" defaultValue={value ?? "box"} className={SELECT}>
        {(Object.keys(AD_SIZES) as AdSize[]).map((size) => (
          <option key={size} value={size}>
            {AD_SIZES[size].label}
          </option>
        ))}
      </select>
    </div>
  );
  const linkField = (prefix: string, r: typeof image) => (
    <div className="space-y-1">
      <Label htmlFor={`${prefix}-linkUrl`}>Link</Label>
      <Input {...fieldProps(prefix, "linkUrl", r?.fieldErrors.linkUrl)} type={house ? "text" : "url"} defaultValue={r?.values?.linkUrl ?? ""} required maxLength={2048} placeholder="https://" />
      <p className="text-xs text-slate-600">{linkHelp}</p>
      <FieldError id={`${prefix}-linkUrl-error`} message={r?.fieldErrors.linkUrl} />
    </div>
  );
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <details className="rounded-lg border border-slate-200 bg-white p-4" open={image ? true : undefined}>
        <summary className="cursor-pointer font-semibold text-slate-900">Add image creative</summary>
        <Form key={`image-${resetKey}`} method="post" className="mt-4 space-y-4" noValidate>
          <input type="hidden" name="intent" value="add-image" />
          {sizeSelect("image", image?.values?.size)}
          <fieldset className="space-y-2" aria-describedby={image?.fieldErrors.mediaId ? "image-mediaId-error" : "image-mediaId-help"}>
            <legend className="text-sm font-medium text-slate-800">Image from the media library</legend>
            <p id="image-mediaId-help" className="text-xs text-slate-600">
              Box: 300 × 250 px; banner: 970 × 120 px. Upload new images in the <Link to="/admin/media" className="underline">media library</Link>.
            </p>
            {d.images.length === 0 ? (
              <p className="text-sm text-slate-700">The media library has no images yet.</p>
            ) : (
              <div className="grid max-h-72 grid-cols-2 gap-2 overflow-y-auto sm:grid-cols-3">
                {d.images.map((img) => (
                  <label key={img.id} className="relative block cursor-pointer rounded border border-slate-200 p-1 has-[:checked]:border-brand-700 has-[:checked]:ring-2 has-[:checked]:ring-brand-700">
                    <input type="radio" name="mediaId" value={img.id} defaultChecked={image?.values?.mediaId === img.id} className="absolute top-2 left-2 h-4 w-4" />
                    <img src={img.url} alt="" className="h-20 w-full object-cover" loading="lazy" />
                    <span className="block truncate text-xs text-slate-700">{img.name}</span>
                  </label>
                ))}
              </div>
            )}
            <FieldError id="image-mediaId-error" message={image?.fieldErrors.mediaId} />
          </fieldset>
          <div className="space-y-1">
            <Label htmlFor="image-alt">Alt text</Label>
            <Input {...fieldProps("image", "alt", image?.fieldErrors.alt)} defaultValue={image?.values?.alt ?? ""} required maxLength={300} />
            <p className="text-xs text-slate-600">What the image says, for readers who cannot see it (its words, the advertiser&apos;s name).</p>
            <FieldError id="image-alt-error" message={image?.fieldErrors.alt} />
          </div>
          {linkField("image", image)}
          <Button type="submit" disabled={busy}>
            Add image creative
          </Button>
        </Form>
      </details>
      <details className="rounded-lg border border-slate-200 bg-white p-4" open={text ? true : undefined}>
        <summary className="cursor-pointer font-semibold text-slate-900">Add text ad</summary>
        <Form key={`text-${resetKey}`} method="post" className="mt-4 space-y-4" noValidate>
          <input type="hidden" name="intent" value="add-text" />
          {sizeSelect("text", text?.values?.size)}
          <div className="space-y-1">
            <Label htmlFor="text-headline">Headline</Label>
            <Input {...fieldProps("text", "headline", text?.fieldErrors.headline)} defaultValue={text?.values?.headline ?? ""} required maxLength={HEADLINE_MAX} />
            <FieldError id="text-headline-error" message={text?.fieldErrors.headline} />
          </div>
          <div className="space-y-1">
            <Label htmlFor="text-body">Line</Label>
            <Textarea {...fieldProps("text", "body", text?.fieldErrors.body)} rows={2} defaultValue={text?.values?.body ?? ""} maxLength={BODY_MAX} />
            <p className="text-xs text-slate-600">Optional, up to {BODY_MAX} characters.</p>
            <FieldError id="text-body-error" message={text?.fieldErrors.body} />
          </div>
          {linkField("text", text)}
          <Button type="submit" disabled={busy}>
            Add text ad
          </Button>
        </Form>
      </details>
    </div>
  );
}

export default function AdminCampaign({ loaderData }: Route.ComponentProps) {
  const { campaign, creatives } = loaderData;
  const answer = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const submit = useSubmit();
  useNoticeToast();

  useAnswerToast(answer, (answer) => answer.code === "invalid_input" && Object.keys(answer.fieldErrors).length > 1 ? "Please correct the highlighted fields." : answer.error);

  const refused = answer && !answer.ok ? answer : null;
  const post = (intent: string, extra: Record<string, string> = {}) => submit({ intent, ...extra }, { method: "post" });

  return (
    <main className="mx-auto w-full min-w-0 max-w-5xl flex-1 px-4 py-8">
      <AdminPageHeader
        title={campaign ? campaign.name : "New campaign"}
        description={
          campaign ? (
            <>
              <Link to={`/admin/ads/advertisers/${campaign.advertiserId}`} className="underline">
                {campaign.advertiserName}
              </Link>{" "}
              · {campaign.dates} · <span data-testid="campaign-status">{campaign.status}</span> · {campaign.impressions.toLocaleString("en-US")} impressions
              {campaign.impressionGoal ? ` of ${campaign.impressionGoal.toLocaleString("en-US")}` : ""} · {campaign.clicks.toLocaleString("en-US")} clicks
            </>
          ) : undefined
        }
        back={{ to: "/admin/ads", label: "Back to Ads" }}
        action={
          campaign ? (
            <div className="flex flex-wrap gap-2">
              <Button asChild variant="outline">
                <Link to={`/admin/ads/campaigns/${campaign.id}/report`}>Report</Link>
              </Button>
              {campaign.status === "Ended" ? null : campaign.paused ? (
                <Button variant="outline" disabled={busy} onClick={() => post("resume")}>
                  Resume
                </Button>
              ) : campaign.status === "Running" ? (
                <ConfirmDialog
                  trigger={
                    <Button variant="outline" disabled={busy}>
                      Pause
                    </Button>
                  }
                  title="Pause Campaign"
                  description="It stops showing on the site at once. Its dates and figures are kept; resume it any time."
                  confirmLabel="Pause"
                  onConfirm={() => post("pause")}
                />
              ) : (
                <Button variant="outline" disabled={busy} onClick={() => post("pause")}>
                  Pause
                </Button>
              )}
            </div>
          ) : undefined
        }
      />

      {campaign && campaign.missing.length > 0 ? (
        <div role="status" className="mb-6 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950" data-testid="missing-creatives">
          {campaign.missing.map((m) => (
            <p key={m.size}>
              No creative for the {m.size} slots: it will not show there ({m.slots.map((s) => AD_SLOTS[s].where).join(", ")}).
            </p>
          ))}
        </div>
      ) : null}

      <section aria-labelledby="campaign-settings" className="mb-8 rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
        <h2 id="campaign-settings" className="mb-4 text-lg font-semibold text-slate-900">
          {campaign ? "Settings" : "Campaign"}
        </h2>
        <CampaignForm data={loaderData} refused={refused?.intent === "save" ? refused : null} busy={busy} key={answer?.ok && answer.intent === "save" ? answer.message : "campaign"} />
      </section>

      {campaign ? (
        <section aria-labelledby="campaign-creatives" className="mb-8">
          <h2 id="campaign-creatives" className="mb-3 text-lg font-semibold text-slate-900">
            Creatives ({creatives.length})
          </h2>
          {creatives.length === 0 ? (
            <p className="mb-4 rounded-lg border border-slate-200 bg-white py-8 text-center text-sm text-slate-700">No creatives yet: add an image or a text ad below.</p>
          ) : (
            <ul className="mb-4 grid gap-4 md:grid-cols-2">
              {creatives.map((cr) => (
                <li key={cr.id} className={`min-w-0 rounded-lg border border-slate-200 bg-white p-4 ${cr.archived ? "opacity-70" : ""}`} data-testid="creative">
                  <AdCreativePreview creative={cr} />
                  <p className="mt-2 text-sm text-slate-800">
                    {cr.kind === "image" ? "Image" : "Text ad"} · {AD_SIZES[cr.size].label}
                    {cr.archived ? <span className="ml-2 text-xs font-semibold text-slate-600 uppercase">Archived</span> : null}
                  </p>
                  {cr.kind === "image" ? <p className="text-xs break-words text-slate-600">Alt text: {cr.alt}</p> : null}
                  <p className="text-xs break-all text-slate-600">Link: {cr.linkUrl}</p>
                  <Button variant="outline" size="sm" className="mt-2" disabled={busy} onClick={() => post(cr.archived ? "restore" : "archive", { creativeId: cr.id })}>
                    {cr.archived ? "Restore" : "Archive"}
                    <span className="sr-only"> {cr.kind === "image" ? cr.alt : cr.headline}</span>
                  </Button>
                </li>
              ))}
            </ul>
          )}
          <CreativeForms data={loaderData} refused={refused} busy={busy} resetKey={answer?.ok ? `${answer.intent}-${creatives.length}` : "creative"} />
        </section>
      ) : null}

      {campaign ? (
        <section aria-labelledby="campaign-remove" className="rounded-lg border border-red-200 bg-white p-4 sm:p-6">
          <h2 id="campaign-remove" className="mb-1 text-lg font-semibold text-slate-900">
            {campaign.hasServed ? "End campaign" : "Delete campaign"}
          </h2>
          {campaign.hasServed ? (
            <>
              <p className="mb-3 text-sm text-slate-700">It has been shown on the site, so it stays for its reports. Pause it, or end it today.</p>
              <ConfirmDialog
                trigger={
                  <Button variant="destructive" disabled={busy || campaign.status === "Ended" || campaign.endsOn <= loaderData.today}>
                    End today
                  </Button>
                }
                title="End Campaign"
                description="Its last day becomes today; its figures are kept."
                confirmLabel="End today"
                onConfirm={() => post("end")}
              />
            </>
          ) : (
            <>
              <p className="mb-3 text-sm text-slate-700">It has never been shown on the site: it can be deleted with its creatives.</p>
              <ConfirmDialog
                trigger={
                  <Button variant="destructive" disabled={busy}>
                    Delete campaign
                  </Button>
                }
                title="Delete Campaign"
                description={`Delete “${campaign.name}” and its creatives? This cannot be undone.`}
                confirmLabel="Delete"
                onConfirm={() => post("delete")}
              />
            </>
          )}
        </section>
      ) : null}
    </main>
  );
}
