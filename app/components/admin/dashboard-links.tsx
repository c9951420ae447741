import { FilePlus, FileText, FolderTree, Image, MessageSquare, Settings, type LucideIcon } from "lucide-react";
import { Link, useRouteLoaderData } from "react-router";
import { can, type Capability, type Role } from "~/domain/accounts/roles";

const LINKS: { to: string; label: string; description: string; icon: LucideIcon; capability: Capability }[] = [
  { to: "/admin/articles/new", label: "New Article", description: "Write and publish a story", icon: FilePlus, capability: "articles.create" },
  { to: "/admin/articles", label: "Manage Articles", description: "Edit or delete articles", icon: FileText, capability: "backOffice" },
  { to: "/admin/categories", label: "Manage Categories", description: "Organise the site's sections", icon: FolderTree, capability: "categories.manage" },
  { to: "/admin/media", label: "Media Library", description: "Images, videos and files", icon: Image, capability: "backOffice" },
  { to: "/admin/comments", label: "Moderate Comments", description: "Review and remove comments", icon: MessageSquare, capability: "comments.moderate" },
  { to: "/admin/settings", label: "Website Settings", description: "Name, branding, contact, social", icon: Settings, capability: "settings.manage" },
];

/** The dashboard's management links to the admin screens the signed-in user's role may open. */
export function DashboardLinks() {
  // The admin layout's data: who is signed in, with which role.
  const role = (useRouteLoaderData("routes/admin/layout") as { role: Role } | undefined)?.role ?? null;
  const links = LINKS.filter((link) => can(role, link.capability));
  return (
    <nav aria-labelledby="manage-heading">
      <h2 id="manage-heading" className="mb-3 text-lg font-semibold text-slate-900">
        Manage
      </h2>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {links.map(({ to, label, description, icon: Icon }) => (
          <li key={to}>
            <Link
              to={to}
              className="flex h-full items-center gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm transition hover:border-brand-600 hover:shadow-md"
            >
              <Icon className="h-6 w-6 shrink-0 text-brand-700" aria-hidden="true" />
              <span>
                <span className="block font-medium text-slate-900">{label}</span>
                <span className="block text-sm text-slate-700">{description}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
