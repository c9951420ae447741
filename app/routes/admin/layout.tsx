import { Shield } from "lucide-react";
import { Link, Outlet, useRouteLoaderData } from "react-router";
import { requireAdmin } from "~/domain/accounts/guard.server";
import type { RootData } from "~/root";
import type { Route } from "./+types/layout";

/**
 * The guard of every admin screen: nothing below renders (and no child loader's data is sent)
 * unless the request's user is an admin right now. Child loaders and actions call requireAdmin too.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireAdmin(request, context);
  return { email: user.email };
}

export default function AdminLayout() {
  const root = useRouteLoaderData("root") as RootData | undefined;
  const siteName = root?.settings.siteName ?? "Frontpage";
  return (
    <div className="flex min-h-screen flex-1 flex-col bg-slate-50">
      <nav aria-label="Admin" className="border-b border-slate-200 bg-slate-900 text-white">
        <div className="mx-auto flex h-10 max-w-7xl items-center px-4 text-sm">
          <Link to="/admin" className="inline-flex items-center gap-2 font-semibold hover:underline">
            <Shield className="h-4 w-4" aria-hidden="true" />
            {siteName} Admin
          </Link>
        </div>
      </nav>
      <Outlet />
    </div>
  );
}
