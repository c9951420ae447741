import { useEffect } from "react";
import { data, Form, Link, useActionData, useFetcher, useNavigation } from "react-router";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { ConfirmDeleteButton } from "~/components/admin/confirm-dialog";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { toast } from "~/components/ui/toaster";
import { actorOf } from "~/domain/accounts/actor";
import { requireCapability } from "~/domain/accounts/guard.server";
import { tagMergeSchema, tagRenameSchema } from "~/domain/tags/tags.schema";
import { deleteTag, listAdminTags, mergeTags, renameTag } from "~/domain/tags/tags.server";
import { AppError } from "~/lib/app-error";
import { formValues, parseForm, refuse, type Refusal } from "~/lib/forms";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/tags";

type TagField = "name" | "into";
type TagIntent = "rename" | "merge" | "delete";
/** What the screen's forms answer: done, or the refusal with the row it concerns (`id`). */
export type TagActionData = { ok: true; intent: TagIntent; message: string } | (Refusal<TagField> & { id: string; intent: string });

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireCapability(request, context, "tags.manage");
  return { tags: await listAdminTags(context.db) };
}

/** Rename, merge and delete (issue 29); every refusal is answered beside its row with its status (400 for bad input). */
export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(await requireCapability(request, context, "tags.manage"));
  const { intent, id, ...values } = formValues(await request.formData(), ["intent", "id", "name", "into"]);
  try {
    if (intent === "rename") {
      const { name } = parseForm(tagRenameSchema, { name: values.name });
      const tag = await renameTag(context.db, id, name, actor);
      context.log.info({ tagId: id, slug: tag.slug }, "tag renamed");
      return data<TagActionData>({ ok: true, intent, message: `Renamed to “${tag.name}”.` });
    }
    if (intent === "merge") {
      const { into } = parseForm(tagMergeSchema, { into: values.into });
      const tag = await mergeTags(context.db, id, into, actor);
      context.log.info({ tagId: id, into }, "tag merged");
      return data<TagActionData>({ ok: true, intent, message: `Merged into “${tag.name}”: its stories carry it now, and the old address leads there.` });
    }
    if (intent === "delete") {
      await deleteTag(context.db, id, actor);
      context.log.info({ tagId: id }, "tag deleted");
      return data<TagActionData>({ ok: true, intent, message: "Tag deleted." });
    }
    throw new AppError("invalid_input", "Unknown action.");
  } catch (error) {
    const answer = refuse<TagField>(error, values);
    return data<TagActionData>({ ...answer.data, id, intent }, answer.init ?? undefined);
  }
}

export const meta: Route.MetaFunction = ({ matches }) => backOfficeMeta(matches, { title: "Manage Tags", path: "/admin/tags" });

export default function AdminTags({ loaderData }: Route.ComponentProps) {
  const { tags } = loaderData;
  const answer = useActionData<typeof action>();
  const deleter = useFetcher<TagActionData>({ key: "tag-delete" });
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";

  useEffect(() => {
    if (answer?.ok) toast.success(answer.message);
  }, [answer]);
  useEffect(() => {
    if (deleter.state !== "idle" || !deleter.data) return;
    if (deleter.data.ok) toast.success("Tag deleted");
    else toast.error("Error", deleter.data.error);
  }, [deleter.state, deleter.data]);

  const refusedFor = (id: string) => (answer && !answer.ok && answer.id === id ? answer : null);

  return (
    <main className="mx-auto w-full min-w-0 max-w-6xl flex-1 px-4 py-8">
      <AdminPageHeader title="Manage Tags" />
      <p className="mb-4 text-sm text-slate-700">
        Tags are made in the article form as you type. Here you rename them, merge one into another (its stories move, and its address
        leads to the other tag) and delete them.
      </p>
      {answer?.ok ? (
        <p role="status" className="mb-3 text-sm text-slate-800">
          {answer.message}
        </p>
      ) : null}

      {tags.length === 0 ? (
        <p className="rounded-lg border border-slate-200 bg-white py-16 text-center text-slate-700">No tags yet. Add some to a story in the article form.</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">All tags by name, with their story counts</caption>
            <thead className="bg-slate-50 text-slate-800">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">Name</th>
                <th scope="col" className="px-4 py-3 text-right font-semibold">Stories</th>
                <th scope="col" className="px-4 py-3 font-semibold">Rename</th>
                <th scope="col" className="px-4 py-3 font-semibold">Merge into</th>
                <th scope="col" className="px-4 py-3 text-right font-semibold">Delete</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {tags.map((tag) => {
                const refused = refusedFor(tag.id);
                const renameError = refused?.intent === "rename" ? (refused.fieldErrors.name ?? refused.error) : null;
                const mergeError = refused?.intent === "merge" ? (refused.fieldErrors.into ?? refused.error) : null;
                return (
                  <tr key={tag.id} className="align-top">
                    <td className="px-4 py-3 max-md:px-2">
                      <span className="font-medium break-words text-slate-900">{tag.name}</span>
                      <br />
                      <Link to={`/tag/${tag.slug}`} className="font-mono text-xs break-all text-slate-700 underline">
                        /tag/{tag.slug}
                      </Link>
                    </td>
                    <td className="px-4 py-3 text-right tabular-nums max-md:px-2">{tag.articleCount}</td>
                    <td className="px-4 py-3 max-md:px-2">
                      <Form method="post" className="flex gap-2">
                        <input type="hidden" name="intent" value="rename" />
                        <input type="hidden" name="id" value={tag.id} />
                        <Input
                          name="name"
                          defaultValue={tag.name}
                          aria-label={`New name for ${tag.name}`}
                          aria-invalid={renameError ? true : undefined}
                          aria-describedby={renameError ? `rename-error-${tag.id}` : undefined}
                          required
                          maxLength={50}
                          className="min-w-32"
                        />
                        <Button type="submit" variant="outline" disabled={busy}>
                          Rename
                        </Button>
                      </Form>
                      {renameError ? (
                        <p id={`rename-error-${tag.id}`} className="mt-1 text-sm text-red-700">
                          {renameError}
                        </p>
                      ) : null}
                    </td>
                    <td className="px-4 py-3 max-md:px-2">
                      <Form method="post" className="flex gap-2">
                        <input type="hidden" name="intent" value="merge" />
                        <input type="hidden" name="id" value={tag.id} />
                        <select
                          name="into"
                          aria-label={`Merge ${tag.name} into`}
                          aria-invalid={mergeError ? true : undefined}
                          aria-describedby={mergeError ? `merge-error-${tag.id}` : undefined}
                          required
                          defaultValue=""
                          className="h-10 min-w-32 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900"
                        >
                          <option value="" disabled>
                            Choose a tag
                          </option>
                          {tags
                            .filter((other) => other.id !== tag.id)
                            .map((other) => (
                              <option key={other.id} value={other.id}>
                                {other.name}
                              </option>
                            ))}
                        </select>
                        <Button type="submit" variant="outline" disabled={busy || tags.length < 2}>
                          Merge
                        </Button>
                      </Form>
                      {mergeError ? (
                        <p id={`merge-error-${tag.id}`} className="mt-1 text-sm text-red-700">
                          {mergeError}
                        </p>
                      ) : null}
                    </td>
                    <td className="px-4 py-3 max-md:px-2">
                      <div className="flex justify-end">
                        <ConfirmDeleteButton
                          label={`Delete ${tag.name}`}
                          title="Delete Tag"
                          description={`Delete “${tag.name}”? ${tag.articleCount === 1 ? "Its story" : `Its ${tag.articleCount} stories`} will no longer carry it, and /tag/${tag.slug} will be gone.`}
                          onConfirm={() => deleter.submit({ intent: "delete", id: tag.id }, { method: "post" })}
                        />
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </main>
  );
}
