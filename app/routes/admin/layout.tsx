import { Shield } from "lucide-react";
import { Link, Outlet, useLoaderData, useNavigation, useRouteLoaderData } from "react-router";
import { AdminMobileMenu, AdminSidebar } from "~/components/admin/admin-nav";
import { requireCapability } from "~/domain/accounts/guard.server";
import type { RootData } from "~/root";
import type { Route } from "./+types/layout";

/**
 * The guard of every admin screen: nothing below renders (and no child loader's data is sent) unless
 * the request's user holds a back-office role right now. Child loaders and actions check the capability
 * of what they do themselves (requireCapability); the navigation shows the screens the role may open.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireCapability(request, context, "backOffice");
  return { email: user.email, role: user.role };
}

/** The spec's loading texts while the next screen's data is pending ("Loading categories...", else "Loading..."). */
function pendingText(pathname: string): string {
  return /^\/admin\/categories\/?$/.test(pathname) ? "Loading categories..." : "Loading...";
}

export default function AdminLayout() {
  const { email, role } = useLoaderData<typeof loader>();
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
            <Outlet />
          </div>
        </div>
      </div>
    </div>
  );
}
