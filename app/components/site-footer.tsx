import { FacebookIcon, InstagramIcon, LinkedinIcon, XIcon, YoutubeIcon } from "./social-icons";
import { Link } from "react-router";
import { setAdConsent } from "~/lib/ad-consent";
import { CachedElement } from "~/lib/fragments";
import type { CategorySummary } from "~/domain/categories/categories.schema";
import { pagePath, type FooterPage } from "~/domain/pages/page-path";
import type { PublicSettings } from "~/domain/settings/settings.schema";

const SOCIAL = [
  { key: "facebook", label: "Facebook", Icon: FacebookIcon },
  { key: "twitter", label: "X", Icon: XIcon },
  { key: "instagram", label: "Instagram", Icon: InstagramIcon },
  { key: "linkedin", label: "LinkedIn", Icon: LinkedinIcon },
  { key: "youtube", label: "YouTube", Icon: YoutubeIcon },
] as const;

const COMPANY = [
  { to: "/about", label: "About Us" },
  { to: "/contact", label: "Contact" },
  { to: "/disclaimer", label: "Disclaimer" },
];

const LEGAL = [
  { to: "/privacy-policy", label: "Privacy Policy" },
  { to: "/terms-of-service", label: "Terms of Service" },
  { to: "/cookie-policy", label: "Cookie Policy" },
];

function FooterLinks({ title, links, children }: { title: string; links: { to: string; label: string }[]; children?: React.ReactNode }) {
  return (
    <div>
      <h2 className="mb-3 text-sm font-semibold uppercase tracking-wide text-white">{title}</h2>
      <ul className="space-y-2 text-sm">
        {links.map((l) => (
          <li key={l.to}>
            <Link to={l.to} className="text-slate-300 hover:text-white">
              {l.label}
            </Link>
          </li>
        ))}
        {children}
      </ul>
    </div>
  );
}

/**
 * The site's footer. Published pages marked "Show in footer" (issue 29) follow the fixed Company links,
 * in their footer order.
 */
export function SiteFooter({ settings, categories, pages = [] }: { settings: PublicSettings; categories: CategorySummary[]; pages?: readonly FooterPage[] }) {
  const year = new Date().getFullYear();
  const shown = {
    siteName: settings.siteName,
    text: settings.footerText || settings.siteDescription,
    social: SOCIAL.filter((s) => settings.social[s.key]).map(({ key }) => ({
      key,
      href: settings.social[key]!,
    })),
    categories: categories.slice(0, 4).map((c) => ({ to: `/category/${c.slug}`, label: c.name })),
    pages: pages.map((p) => ({ to: pagePath(p.slug), label: p.title })),
    // "Ad choices" (issue 43): only where the ad network waits for the reader's consent.
    adChoices: Boolean(settings.adClientId) && settings.adConsentRequired,
    year,
  };
  // The same HTML on every page until the site's frame changes (app/lib/fragments.tsx): the key is all it shows.
  return (
    <CachedElement as="footer" pool="footer" className="mt-auto bg-slate-900 text-slate-300" cacheKey={JSON.stringify(shown)}>
      <FooterContent {...shown} />
    </CachedElement>
  );
}

type FooterShown = {
  siteName: string;
  text: string | null;
  social: { key: (typeof SOCIAL)[number]["key"]; href: string }[];
  categories: { to: string; label: string }[];
  pages: { to: string; label: string }[];
  adChoices: boolean;
  year: number;
};

function FooterContent({ siteName, text, social, categories, pages, adChoices, year }: FooterShown) {
  const icons = new Map(SOCIAL.map((s) => [s.key, s]));
  return (
    <>
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-12 sm:grid-cols-2 lg:grid-cols-5">
        <div className="lg:col-span-2">
          <p className="font-serif text-xl font-bold text-white">{siteName}</p>
          <p className="mt-3 max-w-md text-sm leading-6">{text}</p>
          {social.length > 0 ? (
            <ul className="mt-4 flex gap-3" aria-label="Social media">
              {social.map(({ key, href }) => {
                const { label, Icon } = icons.get(key)!;
                return (
                  <li key={key}>
                    <a
                      href={href}
                      target="_blank"
                      rel="noopener noreferrer"
                      aria-label={label}
                      className="inline-flex h-9 w-9 items-center justify-center rounded-full bg-slate-800 hover:bg-brand-700"
                    >
                      <Icon className="h-4 w-4" aria-hidden="true" />
                    </a>
                  </li>
                );
              })}
            </ul>
          ) : null}
        </div>
        <FooterLinks title="Categories" links={categories} />
        <FooterLinks title="Company" links={[...COMPANY, ...pages]} />
        <FooterLinks title="Legal" links={LEGAL}>
          {adChoices ? (
            <li>
              {/* Forgets the reader's answer: the ad-cookie banner asks again (app/components/ad-consent-banner.tsx). */}
              <button type="button" onClick={() => setAdConsent(null)} className="text-slate-300 hover:text-white">
                Ad choices
              </button>
            </li>
          ) : null}
        </FooterLinks>
      </div>
      <div className="border-t border-slate-800">
        <p className="mx-auto max-w-7xl px-4 py-6 text-center text-sm">
          © {year} {siteName}. All rights reserved.
        </p>
      </div>
    </>
  );
}
