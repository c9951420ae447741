import { useEffect, useState } from "react";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Input, Label, Textarea } from "~/components/ui/input";
import { FieldError } from "~/components/admin/field-error";
import { OUTBOX_NOTICE, POSTAL_ADDRESS_WARNING, WEEKDAYS, type NewsletterFieldName } from "~/domain/newsletters/newsletter-admin.schema";

/** What the form starts from: a stored newsletter, or what was just refused. */
export interface NewsletterFormValues {
  name: string;
  description: string;
  isPublic: boolean;
  senderName: string;
  replyTo: string;
  kind: "stories" | "digest";
  digestFrequency: "daily" | "weekly";
  digestWeekday: string;
  digestTime: string;
  digestCategoryIds: string[];
  trackEngagement: boolean;
}

export const EMPTY_NEWSLETTER: NewsletterFormValues = {
  name: "",
  description: "",
  isPublic: true,
  senderName: "",
  replyTo: "",
  kind: "stories",
  digestFrequency: "daily",
  digestWeekday: "1",
  digestTime: "07:00",
  digestCategoryIds: [],
  trackEngagement: false,
};

const selectClass = "h-10 w-full rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900";

/**
 * The create and edit form of a newsletter. A plain form (works without JavaScript: the digest's
 * fields are then always shown and ignored for a Stories newsletter); with JavaScript they show only
 * for a digest.
 */
export function NewsletterForm({
  prefix,
  intent,
  id,
  values,
  errors,
  categories,
  submitLabel,
  busy,
}: {
  prefix: string;
  intent: "create" | "update";
  id?: string;
  values: NewsletterFormValues;
  errors: Partial<Record<NewsletterFieldName, string>>;
  categories: readonly { id: string; name: string }[];
  submitLabel: string;
  busy: boolean;
}) {
  const [kind, setKind] = useState(values.kind);
  const [frequency, setFrequency] = useState(values.digestFrequency);
  // Until the page runs its script every field shows (the form works without JavaScript).
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const showDigest = !hydrated || kind === "digest";
  const showWeekday = !hydrated || frequency === "weekly";
  const fieldId = (name: string) => `${prefix}-${name}`;
  const invalid = (name: NewsletterFieldName) => (errors[name] ? { "aria-invalid": true as const, "aria-describedby": `${fieldId(name)}-error` } : {});
  return (
    <Form method="post" className="grid gap-4 md:grid-cols-2">
      <input type="hidden" name="intent" value={intent} />
      {id ? <input type="hidden" name="id" value={id} /> : null}
      <div className="space-y-1.5">
        <Label htmlFor={fieldId("name")}>Name *</Label>
        <Input id={fieldId("name")} name="name" defaultValue={values.name} required maxLength={120} {...invalid("name")} />
        <FieldError id={`${fieldId("name")}-error`} message={errors.name} />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={fieldId("senderName")}>Sender name</Label>
        <Input id={fieldId("senderName")} name="senderName" defaultValue={values.senderName} maxLength={120} placeholder="The site's name" {...invalid("senderName")} />
        <FieldError id={`${fieldId("senderName")}-error`} message={errors.senderName} />
      </div>
      <div className="space-y-1.5 md:col-span-2">
        <Label htmlFor={fieldId("description")}>Description</Label>
        <Textarea id={fieldId("description")} name="description" defaultValue={values.description} rows={2} maxLength={1000} {...invalid("description")} />
        <FieldError id={`${fieldId("description")}-error`} message={errors.description} />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={fieldId("replyTo")}>Reply-to address</Label>
        <Input id={fieldId("replyTo")} name="replyTo" type="email" defaultValue={values.replyTo} placeholder="letters@example.com" {...invalid("replyTo")} />
        <FieldError id={`${fieldId("replyTo")}-error`} message={errors.replyTo} />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={fieldId("kind")}>Kind</Label>
        <select id={fieldId("kind")} name="kind" value={kind} onChange={(e) => setKind(e.target.value as "stories" | "digest")} className={selectClass} {...invalid("kind")}>
          <option value="stories">Stories: sent per article, when an editor chooses it</option>
          <option value="digest">Digest: sent on a schedule with the latest stories</option>
        </select>
        <FieldError id={`${fieldId("kind")}-error`} message={errors.kind} />
      </div>
      {showDigest ? (
        <fieldset className="grid gap-4 rounded-md border border-slate-200 p-3 md:col-span-2 md:grid-cols-3">
          <legend className="px-1 text-sm font-medium text-slate-800">Digest schedule (the site&apos;s time zone)</legend>
          <div className="space-y-1.5">
            <Label htmlFor={fieldId("digestFrequency")}>Frequency</Label>
            <select
              id={fieldId("digestFrequency")}
              name="digestFrequency"
              value={frequency}
              onChange={(e) => setFrequency(e.target.value as "daily" | "weekly")}
              className={selectClass}
              {...invalid("digestFrequency")}
            >
              <option value="daily">Daily</option>
              <option value="weekly">Weekly</option>
            </select>
            <FieldError id={`${fieldId("digestFrequency")}-error`} message={errors.digestFrequency} />
          </div>
          {showWeekday ? (
            <div className="space-y-1.5">
              <Label htmlFor={fieldId("digestWeekday")}>Day</Label>
              <select id={fieldId("digestWeekday")} name="digestWeekday" defaultValue={values.digestWeekday} className={selectClass} {...invalid("digestWeekday")}>
                {WEEKDAYS.map((day, index) => (
                  <option key={day} value={String(index)}>
                    {day}
                  </option>
                ))}
              </select>
              <FieldError id={`${fieldId("digestWeekday")}-error`} message={errors.digestWeekday} />
            </div>
          ) : null}
          <div className="space-y-1.5">
            <Label htmlFor={fieldId("digestTime")}>Time (HH:MM)</Label>
            <Input id={fieldId("digestTime")} name="digestTime" type="time" defaultValue={values.digestTime} {...invalid("digestTime")} />
            <FieldError id={`${fieldId("digestTime")}-error`} message={errors.digestTime} />
          </div>
          {categories.length > 0 ? (
            <fieldset className="md:col-span-3" aria-describedby={errors.digestCategoryIds ? `${fieldId("digestCategoryIds")}-error` : undefined}>
              <legend className="mb-1 text-sm font-medium text-slate-800">Categories (none ticked: every category)</legend>
              <div className="flex flex-wrap gap-x-4 gap-y-2">
                {categories.map((category) => (
                  <label key={category.id} className="inline-flex items-center gap-2 text-sm text-slate-800">
                    <input type="checkbox" name="digestCategoryIds" value={category.id} defaultChecked={values.digestCategoryIds.includes(category.id)} className="size-4" />
                    {category.name}
                  </label>
                ))}
              </div>
              <FieldError id={`${fieldId("digestCategoryIds")}-error`} message={errors.digestCategoryIds} />
            </fieldset>
          ) : null}
        </fieldset>
      ) : null}
      <div className="flex flex-col gap-2 md:col-span-2">
        <label className="inline-flex items-center gap-2 text-sm text-slate-800">
          <input type="checkbox" name="isPublic" defaultChecked={values.isPublic} className="size-4" />
          Public: readers can choose it on the sign-up forms and /newsletter
        </label>
        <label className="inline-flex items-center gap-2 text-sm text-slate-800">
          <input type="checkbox" name="trackEngagement" defaultChecked={values.trackEngagement} className="size-4" />
          Track opens and clicks
        </label>
      </div>
      <div className="md:col-span-2">
        <Button type="submit" disabled={busy}>
          {submitLabel}
        </Button>
      </div>
    </Form>
  );
}

/** A refused form's values as the form shows them again. */
export function formValuesOfRefusal(values: Partial<Record<string, string>> | undefined): NewsletterFormValues {
  if (!values) return EMPTY_NEWSLETTER;
  return {
    name: values.name ?? "",
    description: values.description ?? "",
    isPublic: values.isPublic === "on",
    senderName: values.senderName ?? "",
    replyTo: values.replyTo ?? "",
    kind: values.kind === "digest" ? "digest" : "stories",
    digestFrequency: values.digestFrequency === "weekly" ? "weekly" : "daily",
    digestWeekday: values.digestWeekday || "1",
    digestTime: values.digestTime ?? "",
    digestCategoryIds: (values.digestCategoryIds ?? "").split(",").filter(Boolean),
    trackEngagement: values.trackEngagement === "on",
  };
}

/** The warning before a send whose e-mails will have no postal address (CAN-SPAM): it does not block. */
export function PostalAddressWarning({ className = "" }: { className?: string }) {
  return (
    <p role="note" data-testid="postal-address-warning" className={`rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 ${className}`}>
      {POSTAL_ADDRESS_WARNING}
    </p>
  );
}

/** The screens' notice when newsletters are written to the outbox folder instead of being sent. */
export function OutboxNotice() {
  return (
    <p role="note" className="mb-4 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
      {OUTBOX_NOTICE}
    </p>
  );
}

