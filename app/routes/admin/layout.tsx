import { Shield } from "lucide-react";
import type { ReactNode } from "react";
import { isRouteErrorResponse, Link, Outlet, useLoaderData, useNavigation, useRouteLoaderData } from "react-router";
import { AdminMobileMenu, AdminSidebar } from "~/components/admin/admin-nav";
import { requireBackOfficeUser } from "~/domain/accounts/guard.server";
import { ROLE_LABELS, type Role } from "~/domain/accounts/roles";
import type { RootData } from "~/root";
import type { Route } from "./+types/layout";

/**
 * The guard of every admin screen: nothing below renders (and no child loader's data is sent) unless
 * the request's user holds a back-office role right now. Child loaders and actions check the capability
 * of what they do themselves (requireCapability); the navigation shows the screens the role may open.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireBackOfficeUser(request, context);
  return { email: user.email, role: user.role };
}

/** The spec's loading texts while the next screen's data is pending ("Loading categories...", else "Loading..."). */
function pendingText(pathname: string): string {
  return /^\/admin\/categories\/?$/.test(pathname) ? "Loading categories..." : "Loading...";
}

export default function AdminLayout() {
  const { email, role } = useLoaderData<typeof loader>();
  return (
    <AdminShell email={email} role={role}>
      <Outlet />
    </AdminShell>
  );
}

/** The back office around a screen: the top bar, the navigation of the role, the pending state. */
function AdminShell({ email, role, children }: { email: string; role: Role; children: ReactNode }) {
  const root = useRouteLoaderData("root") as RootData | undefined;
  const siteName = root?.settings.siteName ?? "Frontpage";
  const navigation = useNavigation();
  const pending = navigation.state === "loading" && navigation.location.pathname.startsWith("/admin");
  return (
    <div className="flex min-h-screen min-w-0 flex-1 flex-col bg-slate-50">
      <nav aria-label="Admin" className="border-b border-slate-200 bg-slate-900 text-white">
        <div className="flex h-12 items-center gap-2 px-4 text-sm">
          <AdminMobileMenu email={email} role={role} />
          <Link to="/admin" className="inline-flex min-w-0 items-center gap-2 font-semibold hover:underline">
            <Shield className="h-4 w-4 shrink-0" aria-hidden="true" />
            <span className="truncate">{siteName} Admin</span>
          </Link>
        </div>
      </nav>
      <div className="flex min-w-0 flex-1">
        <AdminSidebar email={email} role={role} />
        <div className="flex min-w-0 flex-1 flex-col" aria-busy={pending || undefined}>
          {pending && (
            <p role="status" className="border-b border-slate-200 bg-white px-4 py-2 text-sm text-slate-600">
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
    <AdminShell email={shell.email} role={shell.role}>
      {content}
    </AdminShell>
  ) : (
    content
  );
}
