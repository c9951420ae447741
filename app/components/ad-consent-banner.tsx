import { useEffect, useId, useRef, useState } from "react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { setAdConsent, useAdConsent } from "~/lib/ad-consent";

/** Where the banner's "Privacy Policy" link goes: the seed's static page (app/routes.ts). */
export const PRIVACY_POLICY_PATH = "/privacy-policy";

/**
 * The site's own ad-cookie banner (issue 43): asks the reader before the ad network (which may set
 * cookies) loads. Shown only in the browser, after hydration, when a network client id is set, the
 * site asks for consent and this reader has not chosen yet: the server's HTML never holds it, so a
 * cached page is the same for every reader. Not a dialog: a small region stuck to the bottom of the
 * window, at the end of the page, so it never hides the page's end for good; the page stays usable
 * around it. "Ad choices" in the footer forgets the choice, and the banner comes back with focus on it.
 */
export function AdConsentBanner({ clientId, consentRequired }: { clientId: string | null; consentRequired: boolean }) {
  const consent = useAdConsent();
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const headingId = useId();
  const acceptRef = useRef<HTMLButtonElement>(null);
  // A choice that is forgotten while the page is open ("Ad choices"): the reader asked to see the banner.
  const hadChoice = useRef(false);
  const shown = hydrated && Boolean(clientId) && consentRequired && consent === null;
  useEffect(() => {
    if (consent !== null) hadChoice.current = true;
    else if (shown && hadChoice.current) {
      hadChoice.current = false;
      acceptRef.current?.focus();
    }
  }, [consent, shown]);
  if (!shown) return null;
  return (
    <section
      aria-labelledby={headingId}
      data-ad-consent-banner=""
      className="sticky bottom-0 z-40 border-t border-slate-300 bg-white/95 shadow-[0_-4px_12px_rgba(15,23,42,0.12)] backdrop-blur"
    >
      <div className="mx-auto flex max-w-7xl flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:gap-4">
        <p className="flex-1 text-sm leading-5 text-slate-700">
          <strong id={headingId} className="font-semibold text-slate-900">
            Ads and cookies.
          </strong>{" "}
          Our ad network may set cookies to show and measure its ads.{" "}
          <Link to={PRIVACY_POLICY_PATH} className="text-brand-700 underline underline-offset-2 hover:text-brand-800">
            Privacy Policy
          </Link>
        </p>
        <div className="flex shrink-0 gap-2">
          <Button ref={acceptRef} type="button" size="sm" onClick={() => setAdConsent("granted")}>
            Accept ads cookies
          </Button>
          <Button type="button" size="sm" variant="outline" onClick={() => setAdConsent("denied")}>
            No thanks
          </Button>
        </div>
      </div>
    </section>
  );
}
