import { Loader2 } from "lucide-react";
import { useState } from "react";
import { Form, redirect, useNavigation } from "react-router";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { ArticleUploadField } from "~/components/admin/article-upload-field";
import { Button } from "~/components/ui/button";
import { Input, Label, Textarea } from "~/components/ui/input";
import { actorOf } from "~/domain/accounts/actor";
import { requireBackOfficeUser } from "~/domain/accounts/guard.server";
import { AUTHOR_BIO_MAX } from "~/domain/authors/authors.schema";
import {
  authorProfileAsked,
  markAuthorProfileAsked,
  OWN_PROFILE_FIELDS,
  ownAuthor,
  ownProfileSchema,
  saveOwnAuthorProfile,
  type OwnProfileField,
} from "~/domain/authors/own-profile.server";
import { formValues, parseForm, refuse, type Refusal } from "~/lib/forms";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/welcome";

// /admin/welcome (issue 41): where /join sends a new team member, once. They are asked for the photo,
// role title and short bio of their author page; "Skip for now" writes nothing of it. Either way the
// account is marked as asked, and this screen sends it on to the dashboard from then on.

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireBackOfficeUser(request, context);
  if (await authorProfileAsked(context.db, user.id)) throw redirect("/admin");
  const author = await ownAuthor(context.db, user.id);
  if (!author) {
    // No author record to fill in (an older account): nothing to ask.
    await markAuthorProfileAsked(context.db, user.id);
    throw redirect("/admin");
  }
  return { author };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireBackOfficeUser(request, context);
  const { intent, ...values } = formValues(await request.formData(), ["intent", ...OWN_PROFILE_FIELDS]);
  if (intent === "skip") {
    await markAuthorProfileAsked(context.db, user.id);
    return redirect("/admin");
  }
  try {
    const input = parseForm(ownProfileSchema, values);
    const author = await saveOwnAuthorProfile(context.db, context.storage, user.id, input, actorOf(user));
    context.log.info({ authorId: author.id }, "new team member's author page filled in");
    return redirect("/admin");
  } catch (error) {
    return refuse<OwnProfileField>(error, values);
  }
}

export const meta: Route.MetaFunction = ({ matches }) => backOfficeMeta(matches, { title: "Your author page", path: "/admin/welcome" });

export default function Welcome({ loaderData, actionData }: Route.ComponentProps) {
  const { author } = loaderData;
  const refusal = actionData as Refusal<OwnProfileField> | undefined;
  const errors = refusal?.fieldErrors ?? {};
  const initial = (field: OwnProfileField) => refusal?.values?.[field] ?? author[field] ?? "";
  const [uploading, setUploading] = useState(false);
  const navigation = useNavigation();
  const saving = navigation.state !== "idle" && navigation.formData?.get("intent") === "save";
  const describedBy = (field: OwnProfileField, hint: boolean) =>
    [hint ? `welcome-${field}-hint` : null, errors[field] ? `welcome-${field}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <main className="mx-auto w-full min-w-0 max-w-2xl flex-1 px-4 py-8">
      <AdminPageHeader
        title="Your author page"
        description={
          <>
            Welcome to the team. Readers see your photo, role and a short bio on your author page,{" "}
            <a href={`/author/${author.slug}`} className="break-all font-medium text-brand-700 underline underline-offset-2">
              /author/{author.slug}
            </a>
            , above your stories. Add them now, or skip this for now.
          </>
        }
      />
      {refusal && !refusal.ok ? (
        <p role="alert" className="mb-4 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {refusal.error}
        </p>
      ) : null}
      <Form method="post" noValidate className="space-y-5 rounded-lg border border-slate-200 bg-white p-4 sm:p-6" aria-label="Your author page">
        <div className="space-y-2">
          <span className="text-sm font-medium text-slate-900">Photo</span>
          <ArticleUploadField kind="image" name="photoUrl" defaultUrl={initial("photoUrl") || null} error={errors.photoUrl} onUploadingChange={setUploading} />
        </div>
        <div className="space-y-2">
          <Label htmlFor="welcome-roleTitle">Role title</Label>
          <Input
            id="welcome-roleTitle"
            name="roleTitle"
            defaultValue={initial("roleTitle")}
            aria-invalid={errors.roleTitle ? true : undefined}
            aria-describedby={describedBy("roleTitle", true)}
          />
          <p id="welcome-roleTitle-hint" className="text-sm text-slate-600">
            For example: Political correspondent
          </p>
          {errors.roleTitle ? (
            <p id="welcome-roleTitle-error" className="text-sm text-red-700">
              {errors.roleTitle}
            </p>
          ) : null}
        </div>
        <div className="space-y-2">
          <Label htmlFor="welcome-bio">Bio</Label>
          <Textarea
            id="welcome-bio"
            name="bio"
            rows={5}
            maxLength={AUTHOR_BIO_MAX}
            defaultValue={initial("bio")}
            aria-invalid={errors.bio ? true : undefined}
            aria-describedby={describedBy("bio", true)}
          />
          <p id="welcome-bio-hint" className="text-sm text-slate-600">
            A sentence or two about you and what you cover. Plain text, at most {AUTHOR_BIO_MAX} characters.
          </p>
          {errors.bio ? (
            <p id="welcome-bio-error" className="text-sm text-red-700">
              {errors.bio}
            </p>
          ) : null}
        </div>
        {/* Save first: Enter in a field saves (the form's first button), never skips. */}
        <div className="flex flex-col gap-3 sm:flex-row-reverse sm:justify-start">
          <Button type="submit" name="intent" value="save" disabled={navigation.state !== "idle" || uploading}>
            {saving ? <Loader2 aria-hidden="true" className="size-4 animate-spin" /> : null}
            {saving ? "Saving..." : "Save and continue"}
          </Button>
          <Button type="submit" name="intent" value="skip" variant="outline" disabled={navigation.state !== "idle"}>
            Skip for now
          </Button>
        </div>
      </Form>
    </main>
  );
}
