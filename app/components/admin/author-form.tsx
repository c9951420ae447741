import { Loader2 } from "lucide-react";
import { useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { ArticleUploadField } from "~/components/admin/article-upload-field";
import { Button } from "~/components/ui/button";
import { Input, Label, Textarea } from "~/components/ui/input";
import { AUTHOR_BIO_MAX, type AdminAuthor, type AuthorFieldName } from "~/domain/authors/authors.schema";
import { slugify } from "~/lib/slugs";

type Values = Partial<Record<AuthorFieldName, string>>;

function Field({
  name,
  label,
  error,
  hint,
  children,
}: {
  name: AuthorFieldName;
  label: string;
  error?: string;
  hint?: string;
  children: (props: { id: string; "aria-invalid"?: true; "aria-describedby"?: string }) => React.ReactNode;
}) {
  const id = `author-${name}`;
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>{label}</Label>
      {children({ id, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy })}
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The "New Author" / "Edit Author" form of /admin/authors: a plain form (it works without JavaScript;
 * only the photo upload needs it). The server checks every field (authors.schema, authors.server).
 */
export function AuthorForm({
  editing,
  accounts,
  values,
  errors,
}: {
  editing: AdminAuthor | null;
  /** The back-office accounts an author can be tied to. */
  accounts: { id: string; label: string }[];
  /** What was submitted and refused, shown again. */
  values?: Values;
  errors: Partial<Record<AuthorFieldName, string>>;
}) {
  const initial = (field: AuthorFieldName) => values?.[field] ?? (editing ? ((editing[field] as string | null) ?? "") : "");
  const [slug, setSlug] = useState(initial("slug"));
  const [slugEdited, setSlugEdited] = useState(Boolean(editing));
  const [uploading, setUploading] = useState(false);
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") !== "delete";
  return (
    <Form method="post" noValidate className="space-y-5 rounded-lg border border-slate-200 bg-white p-6" aria-labelledby="author-form-title">
      <h2 id="author-form-title" className="text-lg font-semibold text-slate-900">
        {editing ? `Edit Author: ${editing.name}` : "New Author"}
      </h2>
      <input type="hidden" name="intent" value={editing ? "update" : "create"} />
      {editing ? <input type="hidden" name="id" value={editing.id} /> : null}
      <div className="grid gap-5 sm:grid-cols-2">
        <Field name="name" label="Name *" error={errors.name}>
          {(props) => (
            <Input
              {...props}
              name="name"
              defaultValue={initial("name")}
              aria-required="true"
              onChange={(e) => {
                if (!slugEdited) setSlug(slugify(e.target.value));
              }}
            />
          )}
        </Field>
        <Field name="slug" label="Slug *" error={errors.slug} hint={`The author page's address: /author/${slug || "…"}`}>
          {(props) => (
            <Input
              {...props}
              name="slug"
              value={slug}
              aria-required="true"
              onChange={(e) => {
                setSlugEdited(true);
                setSlug(e.target.value);
              }}
            />
          )}
        </Field>
      </div>
      <Field name="roleTitle" label="Role title" error={errors.roleTitle} hint="For example: Political correspondent">
        {(props) => <Input {...props} name="roleTitle" defaultValue={initial("roleTitle")} />}
      </Field>
      <Field name="bio" label="Bio" error={errors.bio} hint={`Plain text, at most ${AUTHOR_BIO_MAX} characters.`}>
        {(props) => <Textarea {...props} name="bio" rows={5} maxLength={AUTHOR_BIO_MAX} defaultValue={initial("bio")} />}
      </Field>
      <div className="space-y-2">
        <span className="text-sm font-medium text-slate-900">Photo</span>
        <ArticleUploadField kind="image" name="photoUrl" defaultUrl={initial("photoUrl") || null} error={errors.photoUrl} onUploadingChange={setUploading} />
      </div>
      <Field
        name="userId"
        label="Back-office account"
        error={errors.userId}
        hint="The account this author signs in with: their new articles name them by default. None for a guest writer."
      >
        {(props) => (
          <select
            {...props}
            name="userId"
            defaultValue={initial("userId")}
            className="h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900"
          >
            <option value="">None (guest writer)</option>
            {accounts.map((a) => (
              <option key={a.id} value={a.id}>
                {a.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div className="grid gap-5 sm:grid-cols-3">
        <Field name="websiteUrl" label="Website" error={errors.websiteUrl}>
          {(props) => <Input {...props} type="url" name="websiteUrl" placeholder="https://" defaultValue={initial("websiteUrl")} />}
        </Field>
        <Field name="xUrl" label="X profile" error={errors.xUrl}>
          {(props) => <Input {...props} type="url" name="xUrl" placeholder="https://x.com/…" defaultValue={initial("xUrl")} />}
        </Field>
        <Field name="linkedinUrl" label="LinkedIn profile" error={errors.linkedinUrl}>
          {(props) => <Input {...props} type="url" name="linkedinUrl" placeholder="https://www.linkedin.com/in/…" defaultValue={initial("linkedinUrl")} />}
        </Field>
      </div>
      <div className="flex justify-end gap-3">
        {editing ? (
          <Button asChild variant="outline">
            <Link to="/admin/authors">Cancel</Link>
          </Button>
        ) : null}
        <Button type="submit" disabled={saving || uploading}>
          {saving ? <Loader2 aria-hidden="true" className="size-4 animate-spin" /> : null}
          {saving ? "Saving..." : editing ? "Update Author" : "Create Author"}
        </Button>
      </div>
    </Form>
  );
}
