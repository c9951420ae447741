import { FilePlus, FileText, FolderTree, Image, MessageSquare, Settings, type LucideIcon } from "lucide-react";
import { Link } from "react-router";

const LINKS: { to: string; label: string; description: string; icon: LucideIcon }[] = [
  { to: "/admin/articles/new", label: "New Article", description: "Write and publish a story", icon: FilePlus },
  { to: "/admin/articles", label: "Manage Articles", description: "Edit or delete articles", icon: FileText },
  { to: "/admin/categories", label: "Manage Categories", description: "Organise the site's sections", icon: FolderTree },
  { to: "/admin/media", label: "Media Library", description: "Images, videos and files", icon: Image },
  { to: "/admin/comments", label: "Moderate Comments", description: "Review and remove comments", icon: MessageSquare },
  { to: "/admin/settings", label: "Website Settings", description: "Name, branding, contact, social", icon: Settings },
];

/** The dashboard's management links to every admin screen. */
export function DashboardLinks() {
  return (
    <nav aria-labelledby="manage-heading">
      <h2 id="manage-heading" className="mb-3 text-lg font-semibold text-slate-900">
        Manage
      </h2>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {LINKS.map(({ to, label, description, icon: Icon }) => (
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
