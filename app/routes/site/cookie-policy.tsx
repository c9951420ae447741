import { Cookie } from "lucide-react";
import { Link } from "react-router";
import { ExternalLink } from "~/components/static/external-link";
import { LegalPage, type LegalSection } from "~/components/static/legal-page";
import { useSiteContacts, type SiteContacts } from "~/components/static/site-contacts";
import { pageMeta } from "~/page-meta";
import { rootDataFromMatches } from "~/root";
import type { Route } from "./+types/cookie-policy";

export const meta: Route.MetaFunction = ({ matches }) => {
  const siteName = rootDataFromMatches(matches)?.settings.siteName ?? "Frontpage";
  return pageMeta(matches, {
    title: "Cookie Policy",
    description: `How ${siteName} uses cookies and similar technologies: essential, analytics and functional cookies, third-party advertising cookies, and how to manage your preferences.`,
    path: "/cookie-policy",
  });
};

function cookieSections(c: SiteContacts): LegalSection[] {
  return [
    {
      id: "what-are-cookies",
      title: "What Are Cookies",
      content: (
        <>
          <p>
            Cookies are small text files that a website stores in your browser when you visit it. They let the site
            remember information between pages and between visits, such as whether you are signed in or which pages you
            have already counted as viewed.
          </p>
          <p>
            This policy also covers similar technologies that work in the same way, such as local storage in your
            browser and the small scripts (sometimes called pixels or tags) that our advertising and analytics partners
            use. For how we handle personal information in general, see our{" "}
            <Link to="/privacy-policy">Privacy Policy</Link>.
          </p>
        </>
      ),
    },
    {
      id: "types-of-cookies",
      title: "Types of Cookies We Use",
      content: (
        <>
          <h3>Essential cookies</h3>
          <p>
            These cookies make the site work and keep it secure. They keep signed-in users signed in, protect forms
            against misuse and balance traffic across our servers. The site cannot work properly without them, so they
            cannot be switched off in our systems.
          </p>
          <h3>Analytics and performance cookies</h3>
          <p>
            These cookies help us understand how readers use the site: which pages are visited, how readers move from
            page to page and whether pages load quickly. We record the address of each page viewed to count views and
            to improve our coverage; the figures we look at are aggregated and do not identify you.
          </p>
          <h3>Functional cookies</h3>
          <p>
            These cookies and similar browser storage remember choices you make, such as details you have already
            entered or settings you have picked, so that you do not have to repeat them on every visit. If you block
            them, some conveniences may not work.
          </p>
        </>
      ),
    },
    {
      id: "third-party-cookies",
      title: "Third-Party Cookies",
      content: (
        <>
          <p>
            Some cookies are set by other companies whose services appear on our pages. We do not control these cookies;
            they are governed by the privacy policies of the companies that set them.
          </p>
          <ul>
            <li>
              <strong>Advertising networks</strong>, such as Google AdSense, use cookies to show ads, limit how often you
              see the same ad, measure ad performance and, where permitted, show ads based on your interests.
            </li>
            <li>
              <strong>Analytics providers</strong>, such as Google Analytics, use cookies to produce aggregated
              statistics about visits to the site.
            </li>
            <li>
              <strong>Social networks</strong>: when you use a share button for Facebook, X or LinkedIn, a window
              from that network opens and it may set its own cookies.
            </li>
            <li>
              <strong>Embedded media</strong>: videos or posts embedded from other platforms may set cookies when you
              play or view them.
            </li>
          </ul>
        </>
      ),
    },
    {
      id: "how-we-use-cookies",
      title: "How We Use Cookies",
      content: (
        <>
          <p>We use cookies and similar technologies to:</p>
          <ul>
            <li>keep the site secure and keep signed-in users signed in;</li>
            <li>count article views and understand which stories readers find useful;</li>
            <li>measure how quickly pages load and find technical problems;</li>
            <li>remember your preferences and the details you entered in forms;</li>
            <li>show advertising that pays for our journalism, and measure whether it works.</li>
          </ul>
          <p>We do not use cookies to sell your personal information.</p>
        </>
      ),
    },
    {
      id: "managing-cookies",
      title: "Managing Your Cookie Preferences",
      content: (
        <>
          <h3>Browser settings</h3>
          <p>
            Every major browser lets you see, block and delete cookies, either for all sites or for particular ones.
            Look for the privacy or cookie settings in Chrome, Firefox, Safari or Edge. Blocking essential cookies may
            stop parts of the site from working, such as signing in.
          </p>
          <h3>Opt-out links</h3>
          <p>You can opt out of interest-based advertising and analytics with these tools:</p>
          <ul>
            <li>
              <ExternalLink href="https://adssettings.google.com/">Google Ads Settings</ExternalLink>
            </li>
            <li>
              <ExternalLink href="https://tools.google.com/dlpage/gaoptout">Google Analytics Opt-out Browser Add-on</ExternalLink>
            </li>
            <li>
              <ExternalLink href="https://optout.aboutads.info/">Digital Advertising Alliance (WebChoices)</ExternalLink>
            </li>
            <li>
              <ExternalLink href="https://optout.networkadvertising.org/">Network Advertising Initiative opt-out</ExternalLink>
            </li>
            <li>
              <ExternalLink href="https://www.youronlinechoices.eu/">Your Online Choices (Europe)</ExternalLink>
            </li>
          </ul>
          <p>Opting out does not remove ads; the ads you see will simply be less related to your interests.</p>
          <h3>Mobile devices</h3>
          <p>
            On a phone or tablet you can limit ad tracking in the device settings: on iOS, under Settings, Privacy &amp;
            Security, Tracking; on Android, under Settings, Google, Ads (or Privacy, Ads), where you can delete or reset
            your advertising ID. Your mobile browser has cookie settings of its own as well.
          </p>
        </>
      ),
    },
    {
      id: "cookie-duration",
      title: "How Long Cookies Last",
      content: (
        <ul>
          <li>
            <strong>Session cookies</strong> exist only while your browser is open and are deleted when you close it.
          </li>
          <li>
            <strong>Persistent cookies</strong> remain on your device until they expire or you delete them. Our own
            persistent cookies last no longer than needed for their purpose (a sign-in cookie, for example, expires
            when you sign out or when the session times out); third-party cookies can last longer, as set by the company that places them.
          </li>
        </ul>
      ),
    },
    {
      id: "updates",
      title: "Updates to This Policy",
      content: (
        <p>
          We may update this Cookie Policy when we change the services we use or when the law changes. Changes take
          effect when they are published on this page, so please check it from time to time.
        </p>
      ),
    },
    {
      id: "contact",
      title: "Contact Us",
      content: (
        <>
          <p>If you have questions about our use of cookies, contact us:</p>
          <ul>
            <li>
              Privacy questions: <a href={`mailto:${c.privacyEmail}`}>{c.privacyEmail}</a>
            </li>
            <li>
              General enquiries: <a href={`mailto:${c.email}`}>{c.email}</a>
            </li>
            <li>
              Phone: <a href={c.phoneHref}>{c.phone}</a>
            </li>
          </ul>
        </>
      ),
    },
  ];
}

export default function CookiePolicy() {
  const contacts = useSiteContacts();
  return (
    <LegalPage
      icon={Cookie}
      title="Cookie Policy"
      summary="Which cookies we use, why we use them and how you can control them."
      intro={
        <p>
          This Cookie Policy explains how {contacts.companyName} (&ldquo;{contacts.siteName}&rdquo;, &ldquo;we&rdquo;,
          &ldquo;us&rdquo;) uses cookies and similar technologies when you visit our website, and the choices you have.
        </p>
      }
      sections={cookieSections(contacts)}
    />
  );
}
