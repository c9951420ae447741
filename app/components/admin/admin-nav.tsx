import { Activity, BadgeDollarSign, ChartLine, BookOpen, Mail, Contact, FileText, FileUp, FolderTree, Image, KeyRound, LayoutDashboard, LogOut, Megaphone, Menu, MessageSquare, Newspaper, PenLine, PlusCircle, Settings, Signpost, Tags, Users, X } from "lucide-react";
import type { LucideIcon } from "lucide-react";
import { Dialog } from "radix-ui";
import { useEffect, useState } from "react";
import { Form, Link, useLocation } from "react-router";
import { holds, ROLE_LABELS, type Capability, type Role } from "~/domain/accounts/roles";
import { cn } from "~/lib/cn";

/** The back-office screens a navigation entry can lead to. */
export type AdminScreen =
  | "dashboard"
  | "audience"
  | "articles"
  | "new-article"
  | "authors"
  | "categories"
  | "tags"
  | "pages"
  | "front-page"
  | "media"
  | "comments"
  | "activity"
  | "team"
  | "redirects"
  | "ads"
  | "newsletters"
  | "members"
  | "tiers"
  | "settings"
  | "import"
  | "profile";

export interface AdminNavItem {
  screen: AdminScreen;
  label: string;
  to: string;
  icon: LucideIcon;
  /** What the role needs to open the screen (the screen's own loader refuses the others: this only hides). */
  capability: Capability;
  /** Only an exact path match marks the entry current (the dashboard, "New Article"). */
  end?: boolean;
}

/** Every entry of the back-office navigation, in order; `navItemsFor` keeps those a role may open. */
export const NAV_ITEMS: readonly AdminNavItem[] = [
  { screen: "dashboard", label: "Dashboard", to: "/admin", icon: LayoutDashboard, capability: "backOffice", end: true },
  { screen: "articles", label: "Articles", to: "/admin/articles", icon: FileText, capability: "backOffice" },
  { screen: "new-article", label: "New Article", to: "/admin/articles/new", icon: PlusCircle, capability: "articles.create", end: true },
  { screen: "authors", label: "Authors", to: "/admin/authors", icon: PenLine, capability: "authors.manage" },
  { screen: "categories", label: "Categories", to: "/admin/categories", icon: FolderTree, capability: "categories.manage" },
  { screen: "tags", label: "Tags", to: "/admin/tags", icon: Tags, capability: "tags.manage" },
  { screen: "pages", label: "Pages", to: "/admin/pages", icon: BookOpen, capability: "pages.manage" },
  { screen: "front-page", label: "Front page", to: "/admin/front-page", icon: Newspaper, capability: "frontPage.manage" },
  { screen: "audience", label: "Audience", to: "/admin/audience", icon: ChartLine, capability: "audience.view" },
  { screen: "media", label: "Media", to: "/admin/media", icon: Image, capability: "backOffice" },
  { screen: "comments", label: "Comments", to: "/admin/comments", icon: MessageSquare, capability: "comments.moderate" },
  { screen: "newsletters", label: "Newsletters", to: "/admin/newsletters", icon: Mail, capability: "newsletters.manage" },
  { screen: "ads", label: "Ads", to: "/admin/ads", icon: Megaphone, capability: "ads.manage" },
  { screen: "members", label: "Members", to: "/admin/members", icon: Contact, capability: "members.view" },
  { screen: "tiers", label: "Tiers", to: "/admin/members/tiers", icon: BadgeDollarSign, capability: "tiers.manage" },
  { screen: "activity", label: "Activity", to: "/admin/activity", icon: Activity, capability: "activity.view" },
  { screen: "team", label: "Team", to: "/admin/team", icon: Users, capability: "team.manage" },
  { screen: "redirects", label: "Redirects", to: "/admin/redirects", icon: Signpost, capability: "redirects.manage" },
  { screen: "settings", label: "Settings", to: "/admin/settings", icon: Settings, capability: "settings.manage" },
  { screen: "import", label: "Import", to: "/admin/import", icon: FileUp, capability: "import.run" },
  { screen: "profile", label: "Your account", to: "/admin/profile", icon: KeyRound, capability: "backOffice" },
];

/** The entries a role (and the account's grants) may open. */
export const navItemsFor = (role: Role | null, grants: readonly string[] = []): readonly AdminNavItem[] =>
  NAV_ITEMS.filter((item) => holds({ role, grants }, item.capability));

/** The entry the path belongs to: the longest matching `to` ("/admin/articles/new" is New Article, not Articles). */
export function currentScreen(pathname: string, items: readonly AdminNavItem[] = NAV_ITEMS): AdminScreen | undefined {
  const path = pathname.replace(/\/+$/, "") || "/";
  let best: AdminNavItem | undefined;
  for (const item of items) {
    const hit = item.end ? path === item.to : path === item.to || path.startsWith(`${item.to}/`);
    if (hit && (!best || item.to.length > best.to.length)) best = item;
  }
  return best?.screen;
}

function NavList({ items, onNavigate }: { items: readonly AdminNavItem[]; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  const current = currentScreen(pathname, items);
  return (
    <ul className="space-y-1">
      {items.map((item) => {
        const active = item.screen === current;
        const Icon = item.icon;
        return (
          <li key={item.screen}>
            <Link
              to={item.to}
              onClick={onNavigate}
              aria-current={active ? "page" : undefined}
              className={cn(
                "flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium",
                active ? "bg-slate-800 text-white" : "text-slate-200 hover:bg-slate-800 hover:text-white",
              )}
            >
              <Icon className="h-4 w-4 shrink-0" aria-hidden="true" />
              {item.label}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

function Account({ email, role }: { email: string; role: Role }) {
  return (
    <div className="border-t border-slate-700 pt-4 text-sm">
      <p className="truncate text-slate-300" title={email}>
        <span className="sr-only">Signed in as </span>
        {email}
      </p>
      <p className="text-xs text-slate-400">{ROLE_LABELS[role]}</p>
      <Form method="post" action="/auth/sign-out" reloadDocument className="mt-2">
        <button
          type="submit"
          className="inline-flex items-center gap-2 rounded-md px-3 py-2 text-slate-200 hover:bg-slate-800 hover:text-white focus-visible:outline-2 focus-visible:outline-white"
        >
          <LogOut className="h-4 w-4" aria-hidden="true" />
          Sign out
        </button>
      </Form>
    </div>
  );
}

/** The desktop sidebar (≥1024 px): the screens, the signed-in user and Sign out. */
export function AdminSidebar({ email, role, grants = [] }: { email: string; role: Role; grants?: readonly string[] }) {
  const items = navItemsFor(role, grants);
  return (
    <aside className="hidden w-56 shrink-0 flex-col justify-between bg-slate-900 p-4 text-white lg:flex">
      <nav aria-label="Back office">
        <NavList items={items} />
      </nav>
      <Account email={email} role={role} />
    </aside>
  );
}

/** The phone/tablet menu (<1024 px): a button opening the same navigation in a modal dialog (focus trapped, Escape closes). */
export function AdminMobileMenu({ email, role, grants = [] }: { email: string; role: Role; grants?: readonly string[] }) {
  const items = navItemsFor(role, grants);
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();
  useEffect(() => setOpen(false), [pathname]);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <button
          type="button"
          className="inline-flex h-9 items-center gap-2 rounded-md px-2 text-sm font-medium text-white hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-white lg:hidden"
        >
          <Menu className="h-5 w-5" aria-hidden="true" />
          Menu
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/50 lg:hidden" />
        <Dialog.Content className="fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col justify-between overflow-y-auto bg-slate-900 p-4 text-white shadow-xl lg:hidden">
          <div>
            <div className="mb-4 flex items-center justify-between">
              <Dialog.Title className="text-base font-semibold">Back office</Dialog.Title>
              <Dialog.Close asChild>
                <button type="button" aria-label="Close menu" className="rounded-md p-2 hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-white">
                  <X className="h-5 w-5" aria-hidden="true" />
                </button>
              </Dialog.Close>
            </div>
            <Dialog.Description className="sr-only">Go to a back-office screen or sign out.</Dialog.Description>
            <nav aria-label="Back office">
              <NavList items={items} onNavigate={() => setOpen(false)} />
            </nav>
          </div>
          <div className="mt-6">
            <Account email={email} role={role} />
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
