import { useEffect } from "react";
import { useRouteLoaderData } from "react-router";
import { DEFAULT_SETTINGS } from "~/domain/settings/default-settings";
import type { RootData } from "~/root";

/** The company facts the static pages state (spec, section 9). */
export const COMPANY = {
  founded: 2024,
  legalForm: "LLC",
  registeredIn: "Delaware",
  city: "New York",
  governingLaw: "the State of New York",
  address: ["New York, NY", "United States"],
} as const;

/** Spec: business hours of the newsroom's reader desk. */
export const BUSINESS_HOURS = ["Mon-Fri 9am-6pm EST", "Sat 10am-4pm EST", "Sun closed"] as const;

export interface SiteContacts {
  siteName: string;
  /** The legal name of the company behind the site. */
  companyName: string;
  email: string;
  phone: string;
  /** `tel:` form of the phone number (digits and a leading +). */
  phoneHref: string;
  supportEmail: string;
  privacyEmail: string;
  legalEmail: string;
  pressEmail: string;
  advertisingEmail: string;
}

/** The mailbox domain of the contact e-mail ("contact@frontpage.example" -> "frontpage.example"). */
export function mailDomain(email: string): string {
  const at = email.lastIndexOf("@");
  const domain = at >= 0 ? email.slice(at + 1).trim() : "";
  return domain || DEFAULT_SETTINGS.contactEmail.split("@")[1];
}

/** Contact details for the static pages: the settings' e-mail and phone, plus role addresses on the same domain. */
export function siteContacts(settings: { siteName: string; contactEmail: string | null; contactPhone: string | null } | undefined): SiteContacts {
  const siteName = settings?.siteName?.trim() || DEFAULT_SETTINGS.siteName;
  const email = settings?.contactEmail?.trim() || DEFAULT_SETTINGS.contactEmail;
  const phone = settings?.contactPhone?.trim() || DEFAULT_SETTINGS.contactPhone;
  const domain = mailDomain(email);
  return {
    siteName,
    companyName: `${siteName} Media ${COMPANY.legalForm}`,
    email,
    phone,
    phoneHref: `tel:${phone.replace(/[^\d+]/g, "")}`,
    supportEmail: `support@${domain}`,
    privacyEmail: `privacy@${domain}`,
    legalEmail: `legal@${domain}`,
    pressEmail: `press@${domain}`,
    advertisingEmail: `advertising@${domain}`,
  };
}

/** The contact details from the root loader's settings. */
export function useSiteContacts(): SiteContacts {
  const root = useRouteLoaderData("root") as RootData | undefined;
  return siteContacts(root?.settings);
}

/**
 * Spec: some static pages scroll to the top when they open. A link to one of their sections
 * (a URL with a #fragment) is left at that section.
 */
export function useScrollToTopOnOpen() {
  useEffect(() => {
    if (!window.location.hash) window.scrollTo(0, 0);
  }, []);
}
