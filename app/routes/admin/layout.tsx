import { Bell, Shield } from "lucide-react";
import type { ReactNode } from "react";
import { isRouteErrorResponse, Link, Outlet, useLoaderData, useLocation, useNavigation, useRouteLoaderData, type ShouldRevalidateFunction } from "react-router";
import { AdminMobileMenu, AdminSidebar } from "~/components/admin/admin-nav";
import { requireBackOfficeUser } from "~/domain/accounts/guard.server";
import { ROLE_LABELS, type Role } from "~/domain/accounts/roles";
import { countUnread } from "~/domain/notifications/notifications.server";
import { bellLabel } from "~/domain/notifications/notifications.schema";
import type { RootData } from "~/root";
import type { Route } from "./+types/layout";

/**
 * The guard of every admin screen: nothing below renders (and no child loader's data is sent) unless
 * the request's user holds a back-office role right now. Child loaders and actions check the capability
 * of what they do themselves (requireCapability); the navigation shows the screens the role may open.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireBackOfficeUser(request, context);
  // The bell's count: one query on the partial index of unread notifications.
  return { email: user.email, role: user.role, grants: user.grants, unread: await countUnread(context.db, user.id) };
}

/**
 * The bell's count is read again on each move to another screen (not only after a form is sent), so
 * what arrived while someone worked shows when they go on; the guard runs then too.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
  currentUrl.pathname !== nextUrl.pathname || defaultShouldRevalidate;

/** The spec's loading texts while the next screen's data is pending ("Loading categories...", else "Loading..."). */
function pendingText(pathname: string): string {
  return /^\/admin\/categories\/?$/.test(pathname) ? "Loading categories..." : "Loading...";
}

export default function AdminLayout() {
  const { email, role, grants, unread } = useLoaderData<typeof loader>();
  return (
    <AdminShell email={email} role={role} grants={grants} unread={unread}>
      <Outlet />
    </AdminShell>
  );
}

/** The back office around a screen: the top bar, the navigation of the role, the pending state. */
function AdminShell({ email, role, grants, unread, children }: { email: string; role: Role; grants: readonly string[]; unread: number; children: ReactNode }) {
  const root = useRouteLoaderData("root") as RootData | undefined;
  const siteName = root?.settings.siteName ?? "Frontpage";
  const navigation = useNavigation();
  const pending = navigation.state === "loading" && navigation.location.pathname.startsWith("/admin");
  return (
    <div className="flex min-h-screen min-w-0 flex-1 flex-col bg-slate-50 print:bg-white">
      <nav aria-label="Admin" className="border-b border-slate-200 bg-slate-900 text-white print:hidden">
        <div className="flex h-12 items-center gap-2 px-4 text-sm">
          <AdminMobileMenu email={email} role={role} grants={grants} />
          <Link to="/admin" className="inline-flex min-w-0 items-center gap-2 font-semibold hover:underline">
            <Shield className="h-4 w-4 shrink-0" aria-hidden="true" />
            <span className="truncate">{siteName} Admin</span>
          </Link>
          <NotificationBell unread={unread} />
        </div>
      </nav>
      <div className="flex min-w-0 flex-1">
        {/* A screen made for paper (an advertiser's report) prints without the back office's chrome. */}
        <div className="contents print:hidden">
          <AdminSidebar email={email} role={role} grants={grants} />
        </div>
        {/* On a phone a long word (a headline, a name, an address) breaks rather than widening the screen (issue 41). */}
        <div className="flex min-w-0 flex-1 flex-col max-md:wrap-anywhere" aria-busy={pending || undefined}>
          {pending && (
            <p role="status" className="border-b border-slate-200 bg-white px-4 py-2 text-sm text-slate-600 print:hidden">
              {pendingText(navigation.location.pathname)}
            </p>
          )}
          <div className={pending ? "flex min-w-0 flex-1 flex-col opacity-60 transition-opacity" : "flex min-w-0 flex-1 flex-col"}>
            {children}
          </div>
        </div>
      </div>
    </div>
  );
}

/** The bell: the unread count, leading to the list of notifications (a page that works without JavaScript). */
function NotificationBell({ unread }: { unread: number }) {
  const label = bellLabel(unread);
  const here = useLocation().pathname === "/admin/notifications";
  return (
    <Link
      to="/admin/notifications"
      aria-label={label}
      aria-current={here ? "page" : undefined}
      title={label}
      className="relative ml-auto inline-flex size-9 shrink-0 items-center justify-center rounded-md text-white hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-white aria-[current=page]:bg-slate-800"
    >
      <Bell className="size-5" aria-hidden="true" />
      {unread > 0 ? (
        <span
          aria-hidden="true"
          className="absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-red-600 px-1 text-center text-xs leading-5 font-semibold text-white"
        >
          {unread > 99 ? "99+" : unread}
        </span>
      ) : null}
    </Link>
  );
}

/**
 * A screen that failed inside the back office (a 403 for a role without the capability, a 404, an
 * unexpected error) keeps the shell and its navigation, so the user can go where their role may.
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const shell = useRouteLoaderData("routes/admin/layout") as Awaited<ReturnType<typeof loader>> | undefined;
  const forbidden = isRouteErrorResponse(error) && error.status === 403;
  const title = forbidden ? "You don't have access to this page" : isRouteErrorResponse(error) && error.status === 404 ? "Page not found" : "Something went wrong";
  const message = forbidden
    ? `Your role${shell ? ` (${ROLE_LABELS[shell.role]})` : ""} cannot open this screen or do this. Ask an admin if you need it.`
    : isRouteErrorResponse(error) && error.status < 500
      ? `${error.status} ${error.statusText}`
      : "An unexpected error occurred. Please try again.";
  const content = (
    <main className="mx-auto flex w-full min-w-0 max-w-3xl flex-1 flex-col items-start gap-4 px-4 py-16">
      <h1 className="text-3xl font-bold text-slate-900">{title}</h1>
      <p className="text-slate-700">{message}</p>
      <Link to="/admin" className="font-medium text-brand-700 underline underline-offset-4 hover:text-brand-800">
        Back to Dashboard
      </Link>
    </main>
  );
  return shell ? (
    <AdminShell email={shell.email} role={shell.role} grants={shell.grants ?? []} unread={shell.unread}>
      {content}
    </AdminShell>
  ) : (
    content
  );
}
