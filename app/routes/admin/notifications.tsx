import { Bell, Check } from "lucide-react";
import { data, Form, redirect, useNavigation } from "react-router";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { Button } from "~/components/ui/button";
import { requireBackOfficeUser } from "~/domain/accounts/guard.server";
import { countUnread, listNotifications, markAllRead, openNotification } from "~/domain/notifications/notifications.server";
import { AppError, isAppError } from "~/lib/app-error";
import { formValues } from "~/lib/forms";
import { cn } from "~/lib/cn";
import { formatPublishDate } from "~/lib/dates";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/notifications";

// /admin/notifications (issue 27): what the back office told the signed-in person, newest first.
// Opening one marks it read and goes where it leads; "Mark all as read" clears the bell. Plain forms:
// the page works without JavaScript.

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireBackOfficeUser(request, context);
  // Unread counts every notification, not only the newest page of them listed here (the bell's figure).
  const [items, unread] = await Promise.all([listNotifications(context.db, user.id), countUnread(context.db, user.id)]);
  const timeZone = context.env.TIME_ZONE;
  return { items: items.map((item) => ({ ...item, when: formatPublishDate(new Date(item.createdAt), timeZone) })), unread };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireBackOfficeUser(request, context);
  const { intent, id } = formValues(await request.formData(), ["intent", "id"]);
  try {
    if (intent === "open") throw redirect(await openNotification(context.db, user.id, id));
    if (intent === "mark-all-read") {
      const marked = await markAllRead(context.db, user.id);
      return data({ ok: true as const, message: marked === 1 ? "1 notification marked as read." : `${marked} notifications marked as read.` });
    }
    throw new AppError("invalid_input", "Unknown action.");
  } catch (error) {
    if (!isAppError(error)) throw error;
    return data({ ok: false as const, message: error.message }, { status: error.status });
  }
}

export function headers() {
  return { "Cache-Control": "no-store" };
}

export const meta: Route.MetaFunction = ({ matches }) => backOfficeMeta(matches, { title: "Notifications", path: "/admin/notifications" });

export default function Notifications({ loaderData, actionData }: Route.ComponentProps) {
  const { items, unread } = loaderData;
  const busy = useNavigation().state !== "idle";
  return (
    <main className="mx-auto w-full min-w-0 max-w-3xl flex-1 px-4 py-8">
      <AdminPageHeader
        title="Notifications"
        description={unread > 0 ? `${unread} unread` : "Nothing unread"}
        action={
          unread > 0 ? (
            <Form method="post">
              <input type="hidden" name="intent" value="mark-all-read" />
              <Button type="submit" variant="outline" disabled={busy}>
                <Check className="size-4" aria-hidden="true" />
                Mark all as read
              </Button>
            </Form>
          ) : null
        }
      />
      <p role="status" className={cn("mb-3 min-h-5 text-sm", actionData && !actionData.ok ? "text-red-700" : "text-slate-700")}>
        {actionData?.message ?? ""}
      </p>
      {items.length === 0 ? (
        <div className="rounded-lg border border-slate-200 bg-white px-4 py-16 text-center text-slate-700">
          <Bell className="mx-auto mb-3 size-8 text-slate-400" aria-hidden="true" />
          <p>No notifications yet. You'll be told here when a story is sent back, waits for review or is published, and when comments wait.</p>
        </div>
      ) : (
        <ul className="divide-y divide-slate-200 overflow-hidden rounded-lg border border-slate-200 bg-white">
          {items.map((item) => (
            <li key={item.id} className={item.read ? undefined : "bg-brand-50/60"}>
              <Form method="post" className="flex">
                <input type="hidden" name="intent" value="open" />
                <input type="hidden" name="id" value={item.id} />
                <button
                  type="submit"
                  className="flex w-full min-w-0 items-start gap-3 px-4 py-3 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-700"
                >
                  <span
                    aria-hidden="true"
                    className={cn("mt-1.5 size-2.5 shrink-0 rounded-full", item.read ? "bg-transparent" : "bg-brand-600")}
                  />
                  <span className="min-w-0 flex-1">
                    <span className={cn("block break-words text-slate-900", item.read ? "font-normal" : "font-semibold")}>
                      {item.text}
                      {item.read ? null : <span className="sr-only"> (unread)</span>}
                    </span>
                    {item.note ? (
                      <span className="mt-1 block whitespace-pre-wrap break-words rounded-md border-l-4 border-amber-400 bg-amber-50 px-3 py-2 text-sm text-slate-800">
                        {item.note}
                      </span>
                    ) : null}
                    <time dateTime={item.createdAt} className="mt-1 block text-xs text-slate-600">
                      {item.when}
                    </time>
                  </span>
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
