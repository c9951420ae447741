import { Pencil, Plus } from "lucide-react";
import { useEffect } from "react";
import { data, Form, Link, redirect, useFetcher, useSearchParams } from "react-router";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { AuthorForm } from "~/components/admin/author-form";
import { ConfirmDeleteButton } from "~/components/admin/confirm-dialog";
import { Button } from "~/components/ui/button";
import { toast } from "~/components/ui/toaster";
import { actorOf } from "~/domain/accounts/actor";
import { requireCapability } from "~/domain/accounts/guard.server";
import { AUTHOR_FIELDS, authorInputSchema, deleteAuthorWarning, REQUIRED_AUTHOR_FIELDS, type AuthorFieldName } from "~/domain/authors/authors.schema";
import { createAuthor, deleteAuthor, listAccountChoices, listAdminAuthors, unlinkAuthorAccount, updateAuthor } from "~/domain/authors/authors.server";
import { AppError } from "~/lib/app-error";
import { formValues, parseForm, refuse, type Refusal } from "~/lib/forms";
import { formatCount } from "~/lib/numbers";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/authors";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireCapability(request, context, "authors.manage");
  const [authors, accounts] = await Promise.all([listAdminAuthors(context.db), listAccountChoices(context.db)]);
  return { authors, accounts };
}

type AuthorsActionData = { ok: true; intent: "delete" } | { ok: true; intent: "unlink"; name: string } | Refusal<AuthorFieldName>;

export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(await requireCapability(request, context, "authors.manage"));
  const { intent, id, ...values } = formValues(await request.formData(), ["intent", "id", ...AUTHOR_FIELDS]);
  try {
    if (intent === "delete") {
      await deleteAuthor(context.db, id, actor);
      context.log.info({ authorId: id }, "author deleted");
      return data<AuthorsActionData>({ ok: true, intent });
    }
    if (intent === "unlink") {
      const { name } = await unlinkAuthorAccount(context.db, id, actor);
      return data<AuthorsActionData>({ ok: true, intent, name });
    }
    if (intent !== "create" && intent !== "update") throw new AppError("invalid_input", "Unknown action.");
    const input = parseForm(authorInputSchema, values, { required: REQUIRED_AUTHOR_FIELDS });
    const author =
      intent === "create" ? await createAuthor(context.db, context.storage, input, actor) : await updateAuthor(context.db, context.storage, id, input, actor);
    context.log.info({ authorId: author.id, slug: author.slug }, `author ${intent}d`);
    return redirect(`/admin/authors?${intent}d=${encodeURIComponent(author.slug)}`);
  } catch (error) {
    return refuse(error, values);
  }
}

export const meta: Route.MetaFunction = ({ matches }) => backOfficeMeta(matches, { title: "Manage Authors", path: "/admin/authors" });

export default function AdminAuthors({ loaderData, actionData }: Route.ComponentProps) {
  const { authors, accounts } = loaderData;
  const [params] = useSearchParams();
  const editing = authors.find((a) => a.id === params.get("edit")) ?? null;
  const deleter = useFetcher<AuthorsActionData>({ key: "author-delete" });
  const deletingId = deleter.state !== "idle" ? deleter.formData?.get("id") : null;
  const accountLabel = (userId: string | null) => (userId ? (accounts.find((a) => a.id === userId)?.label ?? "An account") : null);
  const unlinked = actionData && actionData.ok && actionData.intent === "unlink" ? actionData.name : null;
  const refusal = actionData && !actionData.ok ? actionData : null;
  const saved = params.get("created") ?? params.get("updated");

  useEffect(() => {
    if (deleter.state !== "idle" || !deleter.data) return;
    if (deleter.data.ok) toast.success("Author deleted");
    else toast.error("Error", deleter.data.error);
  }, [deleter.state, deleter.data]);

  return (
    <main className="mx-auto w-full min-w-0 max-w-6xl flex-1 px-4 py-8">
      <AdminPageHeader
        title="Manage Authors"
        description="Bylines link to each author's page: /author/{slug}."
        action={
          <Button asChild>
            <Link to="/admin/authors#author-form-title">
              <Plus aria-hidden="true" className="size-4" />
              New Author
            </Link>
          </Button>
        }
      />

      <p role="status" className="mb-3 min-h-5 text-sm text-slate-700">
        {refusal ? "" : unlinked ? `${unlinked} is no longer linked to an account.` : saved ? `Author ${params.has("created") ? "created" : "updated"}: /author/${saved}` : ""}
      </p>
      {refusal ? (
        <p role="alert" className="mb-3 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {refusal.code === "missing_fields" ? `Missing fields: ${refusal.error}` : refusal.error}
        </p>
      ) : null}

      {authors.length === 0 ? (
        <p className="mb-8 rounded-lg border border-slate-200 bg-white py-16 text-center text-slate-700">No authors yet. Create the first one below.</p>
      ) : (
        <div className="mb-8 overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">All authors by name</caption>
            <thead className="bg-slate-50 text-slate-800">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">Name</th>
                <th scope="col" className="px-4 py-3 font-semibold">Slug</th>
                <th scope="col" className="px-4 py-3 font-semibold">Account</th>
                <th scope="col" className="px-4 py-3 font-semibold">Articles</th>
                <th scope="col" className="px-4 py-3 text-right font-semibold">Actions</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {authors.map((author) => (
                <tr key={author.id} className={deletingId === author.id ? "opacity-50" : undefined}>
                  <td className="px-4 py-3 font-medium text-slate-900">
                    {author.name}
                    {author.roleTitle ? <span className="block text-xs font-normal text-slate-600">{author.roleTitle}</span> : null}
                  </td>
                  <td className="px-4 py-3 font-mono text-slate-800">
                    <a href={`/author/${author.slug}`} className="underline underline-offset-2">
                      {author.slug}
                    </a>
                  </td>
                  <td className="px-4 py-3 text-slate-800">
                    {author.userId ? (
                      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                        <span className="break-all">{accountLabel(author.userId)}</span>
                        <Form method="post">
                          <input type="hidden" name="intent" value="unlink" />
                          <input type="hidden" name="id" value={author.id} />
                          <Button type="submit" variant="link" size="inline">
                            Unlink from account<span className="sr-only"> ({author.name})</span>
                          </Button>
                        </Form>
                      </div>
                    ) : (
                      <span className="text-slate-600">None (guest writer)</span>
                    )}
                  </td>
                  <td className="px-4 py-3 text-slate-800">{formatCount(author.articleCount)}</td>
                  <td className="px-4 py-3">
                    <div className="flex justify-end gap-1">
                      <Button asChild variant="ghost" size="icon">
                        <Link to={`/admin/authors?edit=${author.id}#author-form-title`} aria-label={`Edit ${author.name}`}>
                          <Pencil aria-hidden="true" className="size-4" />
                        </Link>
                      </Button>
                      <ConfirmDeleteButton
                        label={`Delete ${author.name}`}
                        disabled={deletingId === author.id}
                        title="Delete Author"
                        description={deleteAuthorWarning(author.name, author.articleCount)}
                        onConfirm={() => deleter.submit({ intent: "delete", id: author.id }, { method: "post" })}
                      />
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <AuthorForm
        key={`${editing?.id ?? "new"}-${refusal ? "refused" : ""}`}
        editing={editing}
        accounts={accounts}
        values={refusal?.values}
        errors={refusal?.fieldErrors ?? {}}
      />
    </main>
  );
}
