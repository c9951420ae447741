import { Link } from "react-router";
import { Plus } from "lucide-react";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { useNoticeToast } from "~/components/admin/use-notice-toast";
import { Button } from "~/components/ui/button";
import { requireCapability } from "~/domain/accounts/guard.server";
import { PAGE_STATUS_LABELS, pagePath } from "~/domain/pages/pages.schema";
import { listAdminPages } from "~/domain/pages/pages.server";
import { formatPublishDate, useSiteTimeZone } from "~/lib/dates";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/pages";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireCapability(request, context, "pages.manage");
  const pages = await listAdminPages(context.db);
  return { pages: pages.map((p) => ({ ...p, updatedAt: p.updatedAt.toISOString() })) };
}

export const meta: Route.MetaFunction = ({ matches }) => backOfficeMeta(matches, { title: "Manage Pages", path: "/admin/pages" });

/** /admin/pages (issue 29): every standalone page with its address, status, last change and footer place. */
export default function AdminPages({ loaderData }: Route.ComponentProps) {
  const { pages } = loaderData;
  const timeZone = useSiteTimeZone();
  useNoticeToast();
  return (
    <main className="mx-auto w-full min-w-0 max-w-6xl flex-1 px-4 py-8">
      <AdminPageHeader
        title="Manage Pages"
        description="Standalone pages such as an ethics policy or a masthead, at their own address. The site's fixed pages (About, Contact, the legal pages) are not listed here."
        action={
          <Button asChild>
            <Link to="/admin/pages/new">
              <Plus aria-hidden="true" className="size-4" />
              New Page
            </Link>
          </Button>
        }
      />
      {pages.length === 0 ? (
        <p className="rounded-lg border border-slate-200 bg-white py-16 text-center text-slate-700">No pages yet. Create one with New Page.</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">All pages, most recently changed first</caption>
            <thead className="bg-slate-50 text-slate-800">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">Title</th>
                <th scope="col" className="px-4 py-3 font-semibold">Address</th>
                <th scope="col" className="px-4 py-3 font-semibold">Status</th>
                <th scope="col" className="px-4 py-3 font-semibold">Updated</th>
                <th scope="col" className="px-4 py-3 font-semibold">In footer</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {pages.map((page) => (
                <tr key={page.id} className="align-top">
                  <td className="px-4 py-3 max-md:px-2">
                    <Link to={`/admin/pages/edit/${page.id}`} className="font-medium break-words text-slate-900 underline-offset-2 hover:underline">
                      {page.title}
                    </Link>
                  </td>
                  <td className="px-4 py-3 font-mono text-xs break-all max-md:px-2">
                    {page.status === "published" ? (
                      <a href={pagePath(page.slug)} className="text-slate-700 underline">
                        {pagePath(page.slug)}
                      </a>
                    ) : (
                      <span className="text-slate-700">{pagePath(page.slug)}</span>
                    )}
                  </td>
                  <td className="px-4 py-3 max-md:px-2">{PAGE_STATUS_LABELS[page.status]}</td>
                  <td className="px-4 py-3 max-md:px-2">{formatPublishDate(page.updatedAt, timeZone)}</td>
                  <td className="px-4 py-3 max-md:px-2">{page.showInFooter ? `Yes (position ${page.footerPosition})` : "No"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </main>
  );
}
