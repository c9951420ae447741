import { LogOut, Menu, Newspaper, Search, Shield, UserRound, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Form, Link, NavLink, useLocation } from "react-router";
import type { CategorySummary } from "~/domain/categories/categories.schema";
import { cn } from "~/lib/cn";
import { SearchForm } from "./search-form";
import { Button } from "./ui/button";
import { can, type Role } from "~/domain/accounts/roles";
import { hasReaderHint } from "~/domain/members/reader-cookies";

export interface HeaderProps {
  siteName: string;
  logoUrl: string | null;
  categories: CategorySummary[];
  user: { email: string; role: Role | null } | null;
}

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  cn("rounded-md px-3 py-2 text-sm font-medium hover:bg-slate-100 hover:text-slate-900", isActive ? "text-brand-700" : "text-slate-700");

function SignOutButton({ className }: { className?: string }) {
  return (
    <Form method="post" action="/auth/sign-out" reloadDocument className={className}>
      <Button type="submit" variant="ghost" size="icon" aria-label="Sign out" title="Sign out">
        <LogOut className="h-5 w-5" aria-hidden="true" />
      </Button>
    </Form>
  );
}

/**
 * Whether a member is signed in, from the hint cookie (issue 40). The server's HTML is the same for
 * everyone (reader pages come from the shared page cache), so the first render says "no" on both sides
 * (no hydration mismatch) and this effect swaps "Sign in"/"Subscribe" for "Account" after it, and again
 * after each navigation (signing in or out ends on another page).
 */
function useMemberHint(): boolean {
  const { key } = useLocation();
  const [member, setMember] = useState(false);
  useEffect(() => setMember(hasReaderHint(document.cookie)), [key]);
  return member;
}

/** The reader's own links: "Sign in" and "Subscribe", or "Account" for a signed-in member. */
function ReaderLinks({ member }: { member: boolean }) {
  if (member) {
    return (
      <Link to="/account" className="inline-flex h-9 items-center gap-1.5 rounded-md px-2 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900 sm:px-3">
        <UserRound className="h-5 w-5" aria-hidden="true" />
        <span>Account</span>
      </Link>
    );
  }
  return (
    <>
      <Link to="/account/sign-in" className="hidden h-9 items-center rounded-md px-3 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900 sm:inline-flex">
        Sign in
      </Link>
      <Link to="/subscribe" className="inline-flex h-9 items-center rounded-md bg-brand-700 px-3 text-sm font-medium text-white hover:bg-brand-800">
        Subscribe
      </Link>
    </>
  );
}

/**
 * Below 1024 px the header's search is an icon: a link to /search (so it works without JavaScript)
 * that, with it, opens the search field under the header instead.
 */
function SearchToggle({ open, onToggle }: { open: boolean; onToggle: () => void }) {
  return (
    <Button asChild variant="ghost" size="icon" className="lg:hidden">
      <Link
        to="/search"
        aria-label={open ? "Close search" : "Search"}
        title="Search"
        aria-expanded={open}
        aria-controls="header-search"
        onClick={(event) => {
          event.preventDefault();
          onToggle();
        }}
      >
        {open ? <X className="h-5 w-5" aria-hidden="true" /> : <Search className="h-5 w-5" aria-hidden="true" />}
      </Link>
    </Button>
  );
}

/**
 * The phone's menu: a native modal <dialog> (focus kept inside, Escape and the backdrop close it, focus
 * goes back to the button), so reader pages load no dialog library (issue 13).
 */
function MobileMenu({ categories, member, staff, signedIn }: { categories: CategorySummary[]; member: boolean; staff: boolean; signedIn: boolean }) {
  const menu = useRef<HTMLDialogElement>(null);
  // Its content is rendered from the first open on: a closed dialog shows nothing, and only script
  // opens it, so the server's page leaves its links out (one render of every page cheaper).
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (wanted) menu.current?.showModal();
  }, [wanted]);
  const open = () => (wanted ? menu.current?.showModal() : setWanted(true));
  const close = () => menu.current?.close();
  return (
    <>
      <Button variant="ghost" size="icon" className="md:hidden" aria-label="Open menu" aria-haspopup="dialog" onClick={open}>
        <Menu className="h-6 w-6" aria-hidden="true" />
      </Button>
      <dialog
        ref={menu}
        aria-labelledby={wanted ? "mobile-menu-title" : undefined}
        aria-describedby={wanted ? "mobile-menu-description" : undefined}
        className="fixed inset-y-0 right-0 left-auto m-0 h-dvh max-h-dvh w-72 max-w-[85vw] bg-white p-0 shadow-xl backdrop:bg-black/50"
        // A click on the dialog itself (not its content) is a click on the backdrop.
        onClick={(event) => event.target === event.currentTarget && close()}
      >
        {wanted ? (
          <div className="flex h-full flex-col gap-2 p-6">
            <div className="mb-4 flex items-center justify-between">
              <h2 id="mobile-menu-title" className="text-lg font-semibold">
                Menu
              </h2>
              <Button variant="ghost" size="icon" aria-label="Close menu" onClick={close}>
                <X className="h-5 w-5" aria-hidden="true" />
              </Button>
            </div>
            <p id="mobile-menu-description" className="sr-only">
              Site sections and pages
            </p>
            <nav aria-label="Mobile" className="flex flex-col gap-1">
              {categories.map((c) => (
                <NavLink key={c.id} to={`/category/${c.slug}`} className={navLinkClass} onClick={close}>
                  {c.name}
                </NavLink>
              ))}
              <NavLink to="/about" className={navLinkClass} onClick={close}>
                About Us
              </NavLink>
              <NavLink to="/contact" className={navLinkClass} onClick={close}>
                Contact
              </NavLink>
              <NavLink to={member ? "/account" : "/account/sign-in"} className={navLinkClass} onClick={close}>
                {member ? "Account" : "Sign in"}
              </NavLink>
              {staff ? (
                <Link to="/admin" className="rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900 sm:hidden">
                  Admin dashboard
                </Link>
              ) : null}
            </nav>
            {signedIn ? (
              <Form method="post" action="/auth/sign-out" reloadDocument className="sm:hidden">
                <button type="submit" className="w-full rounded-md px-3 py-2 text-left text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900">
                  Sign out
                </button>
              </Form>
            ) : null}
          </div>
        ) : null}
      </dialog>
    </>
  );
}

export function SiteHeader({ siteName, logoUrl, categories, user }: HeaderProps) {
  const [searching, setSearching] = useState(false);
  const location = useLocation();
  // A search (or any navigation) closes the phone's search field.
  const [lastPath, setLastPath] = useState(location.key);
  if (lastPath !== location.key) {
    setLastPath(location.key);
    setSearching(false);
  }
  useEffect(() => {
    if (searching) document.getElementById("header-search-phone")?.focus();
  }, [searching]);
  const member = useMemberHint();
  const desktop = categories.slice(0, 4);
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4">
        <Link to="/" className="flex min-w-0 items-center gap-2 text-xl font-bold text-slate-900" aria-label={`${siteName} home`}>
          {logoUrl ? (
            <img src={logoUrl} alt="" className="h-9 w-auto max-w-40 object-contain" width={144} height={36} />
          ) : (
            <Newspaper className="h-7 w-7 shrink-0 text-brand-700" aria-hidden="true" />
          )}
          <span className="truncate font-serif">{siteName}</span>
        </Link>

        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          {desktop.map((c) => (
            <NavLink key={c.id} to={`/category/${c.slug}`} className={navLinkClass} prefetch="intent">
              {c.name}
            </NavLink>
          ))}
          <NavLink to="/about" className={navLinkClass} prefetch="intent">
            About
          </NavLink>
        </nav>

        <div className="flex items-center gap-1">
          <SearchForm inputId="header-search-wide" className="hidden w-56 lg:flex" />
          <SearchToggle open={searching} onToggle={() => setSearching((s) => !s)} />
          {/* A signed-in member of staff: on a phone these two move into the menu (the bar keeps to 390 px). */}
          {can(user?.role, "backOffice") ? (
            <span className="hidden sm:contents">
              <Button asChild variant="ghost" size="icon">
                <Link to="/admin" aria-label="Admin dashboard" title="Admin dashboard">
                  <Shield className="h-5 w-5" aria-hidden="true" />
                </Link>
              </Button>
            </span>
          ) : null}
          {user ? <SignOutButton className="hidden sm:block" /> : null}
          <ReaderLinks member={member} />
          <MobileMenu categories={categories} member={member} staff={can(user?.role, "backOffice")} signedIn={Boolean(user)} />
        </div>
      </div>
      {/* The field is rendered once asked for: until then it is hidden, and without script the icon is a link to /search. */}
      <div id="header-search" hidden={!searching} className="border-t border-slate-200 px-4 py-3 lg:hidden">
        {searching ? <SearchForm inputId="header-search-phone" className="mx-auto max-w-7xl" /> : null}
      </div>
    </header>
  );
}
