import { Tabs } from "radix-ui";
import { useEffect, useRef, useState } from "react";
import { data, useFetcher } from "react-router";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { SettingsInput, SettingsTextarea } from "~/components/admin/settings-field";
import { SettingsImageField } from "~/components/admin/settings-image-field";
import { Button } from "~/components/ui/button";
import { toast } from "~/components/ui/toaster";
import { actorOf } from "~/domain/accounts/actor";
import { requireCapability } from "~/domain/accounts/guard.server";
import { can } from "~/domain/accounts/roles";
import {
  READER_REVENUE_FIELDS,
  AUDIENCE_RETENTION_LABEL,
  AUDIENCE_RETENTION_MAX,
  AUDIENCE_RETENTION_MIN,
  READER_REVENUE_MAX,
  SETTINGS_CHECKBOXES,
  SETTINGS_FIELD_TAB,
  SETTINGS_FIELDS,
  settingsFormSchema,
  type SettingsField,
} from "~/domain/settings/settings.schema";
import { getSettings, updateSettings } from "~/domain/settings/settings.server";
import { AppError, isAppError } from "~/lib/app-error";
import { expectedOr, formValues, parseForm, refuse, type Refusal } from "~/lib/forms";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/settings";

export const meta: Route.MetaFunction = ({ matches }) => backOfficeMeta(matches, { title: "Website Settings", path: "/admin/settings" });

export function headers() {
  return { "Cache-Control": "no-store" };
}

const TABS = [
  { value: "general", label: "General" },
  { value: "branding", label: "Branding" },
  { value: "contact", label: "Contact" },
  { value: "social", label: "Social Media" },
  { value: "newsletters", label: "Newsletters" },
  { value: "readerRevenue", label: "Reader revenue" },
  { value: "audience", label: "Audience" },
  { value: "advertising", label: "Advertising" },
] as const;
type TabValue = (typeof TABS)[number]["value"];

type FieldErrors = Partial<Record<SettingsField, string>>;
type Checkbox = (typeof SETTINGS_CHECKBOXES)[number];
const isCheckbox = (key: SettingsField): key is Checkbox => (SETTINGS_CHECKBOXES as readonly string[]).includes(key);
type ActionResult = { ok: true } | Refusal<SettingsField>;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireCapability(request, context, "settings.manage");
  const settings = await getSettings(context.db);
  const values = Object.fromEntries(
    SETTINGS_FIELDS.filter((key) => !isCheckbox(key)).map((key) => {
      const value = (settings as Record<string, unknown>)[key];
      // The blocked domains are a list, edited one a line.
      return [key, Array.isArray(value) ? value.join("\n") : (value ?? "")];
    }),
  ) as Record<Exclude<SettingsField, Checkbox>, string>;
  const checked = { showWelcomeBanner: settings.showWelcomeBanner, adConsentRequired: settings.adConsentRequired } satisfies Record<Checkbox, boolean>;
  // Reader revenue (issue 40): the paywall and the meters are tiers.manage's.
  const readerRevenue = can(user.role, "tiers.manage");
  // An AD_CLIENT_ID in the environment serves when the field is empty (root.tsx: publicSettings).
  const envAdClientId = Boolean(context.env.AD_CLIENT_ID);
  return data({ values, checked, readerRevenue, envAdClientId }, { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(await requireCapability(request, context, "settings.manage"));
  const noStore = { "Cache-Control": "no-store" };
  try {
    const values = formValues(await request.formData(), SETTINGS_FIELDS);
    // The paywall and the meters (issue 40) need tiers.manage as well, whatever the form showed.
    if (READER_REVENUE_FIELDS.some((field) => values[field] !== "") && !can(actor.role, "tiers.manage")) {
      throw new AppError("forbidden", "Your role may not change the paywall or the meters (tiers.manage).");
    }
    await updateSettings(context.db, parseForm(settingsFormSchema, values), actor);
  } catch (error) {
    const refusal = expectedOr(error, "The settings could not be saved. Please try again.", (err) => context.log.error({ err }, "settings save failed"));
    return refuse(refusal, undefined, { headers: noStore });
  }
  return data<ActionResult>({ ok: true }, { headers: noStore });
}

export default function WebsiteSettings({ loaderData }: Route.ComponentProps) {
  const { values, checked, readerRevenue, envAdClientId } = loaderData;
  const fetcher = useFetcher<ActionResult>();
  const formRef = useRef<HTMLFormElement>(null);
  const [tab, setTab] = useState<TabValue>("general");
  const [logoUrl, setLogoUrl] = useState(values.logoUrl);
  const [faviconUrl, setFaviconUrl] = useState(values.faviconUrl);
  const [errors, setErrors] = useState<FieldErrors>({});
  const saving = fetcher.state !== "idle";

  function showProblem(fieldErrors: FieldErrors, message: string) {
    setErrors(fieldErrors);
    toast.error("Error", message);
    const first = SETTINGS_FIELDS.find((key) => fieldErrors[key]);
    if (!first) return;
    setTab(SETTINGS_FIELD_TAB[first]);
    // Focus the field once its tab is shown.
    requestAnimationFrame(() => {
      const element = formRef.current?.querySelector<HTMLElement>(`#settings-${first}, #settings-${first.replace("Url", "")}-file`);
      element?.focus();
    });
  }

  useEffect(() => {
    if (!fetcher.data) return;
    if (fetcher.data.ok) {
      setErrors({});
      toast.success("Settings updated", "Website settings have been updated successfully");
    } else {
      showProblem(fetcher.data.fieldErrors, fetcher.data.error);
    }
  }, [fetcher.data]);

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    // Same schema as the server: refuse early with the same messages; the server checks again.
    try {
      parseForm(settingsFormSchema, formValues(form, SETTINGS_FIELDS));
    } catch (error) {
      if (!isAppError(error)) throw error;
      showProblem(error.fieldErrors ?? {}, error.message);
      return;
    }
    setErrors({});
    void fetcher.submit(form, { method: "post" });
  }

  const tabContent = "space-y-5 rounded-lg border border-slate-200 bg-white p-6 shadow-sm data-[state=inactive]:hidden";

  return (
    <main className="mx-auto w-full min-w-0 max-w-6xl flex-1 px-4 py-8">
      <AdminPageHeader title="Website Settings" description="Manage your website configuration and appearance" />

      <fetcher.Form ref={formRef} method="post" noValidate onSubmit={submit} className="mt-6">
        <Tabs.Root value={tab} onValueChange={(value) => setTab(value as TabValue)}>
          <Tabs.List aria-label="Settings sections" className="grid w-full grid-cols-2 gap-1 rounded-md bg-slate-100 p-1 sm:grid-cols-4">
            {TABS.filter((t) => t.value !== "readerRevenue" || readerRevenue).map((t) => (
              <Tabs.Trigger
                key={t.value}
                value={t.value}
                className="rounded px-3 py-1.5 text-sm font-medium text-slate-700 data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow-sm"
              >
                {t.label}
              </Tabs.Trigger>
            ))}
          </Tabs.List>

          {/* forceMount keeps every tab's inputs in the form, so one save sends them all. */}
          <Tabs.Content value="general" forceMount className={`mt-4 ${tabContent}`}>
            <h2 className="text-xl font-semibold text-slate-900">General</h2>
            <SettingsInput name="siteName" label="Site Name" required defaultValue={values.siteName} error={errors.siteName} maxLength={100} />
            <SettingsInput name="siteTagline" label="Tagline" defaultValue={values.siteTagline} error={errors.siteTagline} maxLength={200} />
            <SettingsTextarea name="siteDescription" label="Description" rows={3} defaultValue={values.siteDescription} error={errors.siteDescription} maxLength={1000} />
            <SettingsTextarea name="footerText" label="Footer Text" rows={2} defaultValue={values.footerText} error={errors.footerText} maxLength={500} />
            <div className="flex items-start gap-3">
              <input
                id="settings-showWelcomeBanner"
                type="checkbox"
                name="showWelcomeBanner"
                defaultChecked={checked.showWelcomeBanner}
                aria-describedby="settings-showWelcomeBanner-message"
                className="mt-0.5 size-4 rounded border-slate-400 accent-brand-700"
              />
              <div>
                <label htmlFor="settings-showWelcomeBanner" className="text-sm font-medium text-slate-900">
                  Show the welcome banner
                </label>
                <p id="settings-showWelcomeBanner-message" className="text-sm text-slate-600">
                  The “Stay Informed, Stay Connected” banner above the news on the home page. Turn it off to put the news first.
                </p>
              </div>
            </div>
          </Tabs.Content>

          <Tabs.Content value="branding" forceMount className={`mt-4 ${tabContent}`}>
            <h2 className="text-xl font-semibold text-slate-900">Branding</h2>
            <SettingsImageField
              kind="logo"
              label="Logo"
              description="JPEG, PNG, SVG or WebP. SVG logos are converted to PNG."
              value={logoUrl}
              onChange={setLogoUrl}
              error={errors.logoUrl}
            />
            <SettingsImageField
              kind="favicon"
              label="Favicon"
              description="ICO or PNG, ideally square."
              value={faviconUrl}
              onChange={setFaviconUrl}
              error={errors.faviconUrl}
            />
          </Tabs.Content>

          <Tabs.Content value="contact" forceMount className={`mt-4 ${tabContent}`}>
            <h2 className="text-xl font-semibold text-slate-900">Contact</h2>
            <SettingsInput name="contactEmail" label="Email" type="email" autoComplete="email" defaultValue={values.contactEmail} error={errors.contactEmail} maxLength={254} />
            <SettingsInput name="contactPhone" label="Phone" type="tel" autoComplete="tel" defaultValue={values.contactPhone} error={errors.contactPhone} maxLength={40} />
          </Tabs.Content>

          <Tabs.Content value="social" forceMount className={`mt-4 ${tabContent}`}>
            <h2 className="text-xl font-semibold text-slate-900">Social Media</h2>
            <SettingsInput name="facebookUrl" label="Facebook" type="url" placeholder="https://facebook.com/yourpage" defaultValue={values.facebookUrl} error={errors.facebookUrl} />
            <SettingsInput name="twitterUrl" label="Twitter/X" type="url" placeholder="https://x.com/yourhandle" defaultValue={values.twitterUrl} error={errors.twitterUrl} />
            <SettingsInput name="instagramUrl" label="Instagram" type="url" placeholder="https://instagram.com/yourhandle" defaultValue={values.instagramUrl} error={errors.instagramUrl} />
            <SettingsInput name="linkedinUrl" label="LinkedIn" type="url" placeholder="https://linkedin.com/company/yourcompany" defaultValue={values.linkedinUrl} error={errors.linkedinUrl} />
            <SettingsInput name="youtubeUrl" label="YouTube" type="url" placeholder="https://youtube.com/@yourchannel" defaultValue={values.youtubeUrl} error={errors.youtubeUrl} />
          </Tabs.Content>

          <Tabs.Content value="newsletters" forceMount className={`mt-4 ${tabContent}`}>
            <h2 className="text-xl font-semibold text-slate-900">Newsletters</h2>
            <SettingsTextarea
              name="postalAddress"
              label="Postal address"
              rows={3}
              defaultValue={values.postalAddress}
              error={errors.postalAddress}
              maxLength={500}
              hint="Shown in the footer of every newsletter e-mail, as anti-spam laws (CAN-SPAM) require."
            />
            <SettingsTextarea
              name="newsletterBlockedDomains"
              label="Blocked sign-up domains"
              rows={5}
              defaultValue={values.newsletterBlockedDomains}
              error={errors.newsletterBlockedDomains}
              hint="One domain a line, like example.com. Sign-ups from these domains and their subdomains are refused."
            />
          </Tabs.Content>
          {readerRevenue ? (
            <Tabs.Content value="readerRevenue" forceMount className={`mt-4 ${tabContent}`}>
              <h2 className="text-xl font-semibold text-slate-900">Reader revenue</h2>
              <SettingsInput
                name="paywallParagraphs"
                label="Paragraphs before the paywall"
                type="number"
                inputMode="numeric"
                min={0}
                max={READER_REVENUE_MAX}
                step={1}
                required
                defaultValue={values.paywallParagraphs}
                error={errors.paywallParagraphs}
                hint="A Members or Paid story shows this many paragraphs to readers without access, unless a “Paywall here” block in the story says where."
              />
              <SettingsInput
                name="meterAnonymous"
                label="Free stories for anonymous readers"
                type="number"
                inputMode="numeric"
                min={0}
                max={READER_REVENUE_MAX}
                step={1}
                required
                defaultValue={values.meterAnonymous}
                error={errors.meterAnonymous}
                hint="Gated stories a reader who is not signed in may read whole every 30 days. 0 turns the meter off."
              />
              <SettingsInput
                name="meterMembers"
                label="Free stories for signed-in members"
                type="number"
                inputMode="numeric"
                min={0}
                max={READER_REVENUE_MAX}
                step={1}
                required
                defaultValue={values.meterMembers}
                error={errors.meterMembers}
                hint="Paid stories a signed-in free member may read whole every 30 days. 0 turns the meter off."
              />
            </Tabs.Content>
          ) : null}
          <Tabs.Content value="audience" forceMount className={`mt-4 ${tabContent}`}>
            <h2 className="text-xl font-semibold text-slate-900">Audience</h2>
            <SettingsInput
              name="audienceRetentionDays"
              label={AUDIENCE_RETENTION_LABEL}
              type="number"
              inputMode="numeric"
              min={AUDIENCE_RETENTION_MIN}
              max={AUDIENCE_RETENTION_MAX}
              step={1}
              required
              defaultValue={values.audienceRetentionDays}
              error={errors.audienceRetentionDays}
              hint="Each page load is kept this long, then its day is deleted whole. The hourly figures of /admin/audience are kept for ever."
            />
          </Tabs.Content>
          <Tabs.Content value="advertising" forceMount className={`mt-4 ${tabContent}`}>
            <h2 className="text-xl font-semibold text-slate-900">Advertising</h2>
            <SettingsInput
              name="adClientId"
              label="Ad network client id"
              placeholder="ca-pub-1234567890123456"
              autoComplete="off"
              spellCheck={false}
              defaultValue={values.adClientId}
              error={errors.adClientId}
              maxLength={30}
              hint={
                envAdClientId
                  ? "Google AdSense fills the ad slots no campaign of yours fills. Empty: the server's AD_CLIENT_ID is used."
                  : "Google AdSense fills the ad slots no campaign of yours fills. Empty: no ad network; a slot with nothing to show takes no space."
              }
            />
            <div className="flex items-start gap-3">
              <input
                id="settings-adConsentRequired"
                type="checkbox"
                name="adConsentRequired"
                defaultChecked={checked.adConsentRequired}
                aria-describedby="settings-adConsentRequired-message"
                className="mt-0.5 size-4 rounded border-slate-400 accent-brand-700"
              />
              <div>
                <label htmlFor="settings-adConsentRequired" className="text-sm font-medium text-slate-900">
                  Ask readers&rsquo; consent before loading the ad network
                </label>
                <p id="settings-adConsentRequired-message" className="text-sm text-slate-600">
                  The ad network may set cookies, so a small banner asks each reader first and its ads load only after “Accept ads cookies”. Readers can change
                  their mind from “Ad choices” in the footer. Your own campaigns set no cookie and never ask.
                </p>
              </div>
            </div>
          </Tabs.Content>
        </Tabs.Root>

        <div className="mt-6 flex">
          <Button type="submit" disabled={saving}>
            {saving ? "Saving..." : "Save Settings"}
          </Button>
        </div>
      </fetcher.Form>
    </main>
  );
}
