import { ShieldCheck } from "lucide-react";
import { Link } from "react-router";
import { ExternalLink } from "~/components/static/external-link";
import { LegalPage, type LegalSection } from "~/components/static/legal-page";
import { COMPANY, useScrollToTopOnOpen, useSiteContacts, type SiteContacts } from "~/components/static/site-contacts";
import { PENDING_SIGNUP_DAYS } from "~/domain/newsletters/subscribers.schema";
import { trackingNewsletterNames } from "~/domain/newsletters/subscribers.server";
import { pageMeta } from "~/page-meta";
import { rootDataFromMatches } from "~/root";
import type { Route } from "./+types/privacy-policy";

/** What the newsletter section says is read from what is stored: which newsletters track opens and clicks. */
export async function loader({ context }: Route.LoaderArgs) {
  return { trackingNewsletters: await trackingNewsletterNames(context.db) };
}

/** And list them by name ("A", "A and B", "A, B and C"). */
function names(list: string[]): string {
  return list.length <= 1 ? (list[0] ?? "") : `${list.slice(0, -1).join(", ")} and ${list[list.length - 1]}`;
}

/** The newsletters (issue 30): what a subscriber's record holds, tracking, unsubscribing, how long unconfirmed sign-ups stay. */
function newsletterSection(c: SiteContacts, tracking: string[]): LegalSection {
  return {
    id: "newsletters",
    title: "Newsletters",
    content: (
      <>
        <p>If you sign up for one of our <Link to="/newsletter">newsletters</Link>, we keep:</p>
        <ul>
          <li>your e-mail address, and your name if you gave it;</li>
          <li>which newsletters you receive;</li>
          <li>when and where you gave your consent: the page whose form you used, and when you confirmed your address;</li>
          <li>for each e-mail we send you, a record of its delivery: when it was sent, and whether it was refused by your mail server (a bounce) or reported as spam.</li>
        </ul>
        {tracking.length > 0 ? (
          <p>
            {names(tracking)} {tracking.length === 1 ? "records" : "record"} when you open one of {tracking.length === 1 ? "its" : "their"} e-mails (with a small image in
            the message) and which of its links you click (the links pass through our site first). Our other newsletters record neither.
          </p>
        ) : (
          <p>None of our newsletters records whether you open its e-mails or which links you click: there is no tracking image, and links go straight to where they point.</p>
        )}
        <p>
          We ask you to confirm your address before we send you anything. A sign-up that is not confirmed within {PENDING_SIGNUP_DAYS} days is deleted.
          Every newsletter e-mail has an &ldquo;Unsubscribe&rdquo; link that works in one click (so does your mail app&rsquo;s unsubscribe button) and a
          &ldquo;Manage preferences&rdquo; link to choose your newsletters. Once you unsubscribe we keep your address only to make sure we never e-mail you
          again; ask us at <a href={`mailto:${c.privacyEmail}`}>{c.privacyEmail}</a> to erase it, and we keep only a one-way fingerprint of it, so that
          it cannot be added back to our lists by mistake.
        </p>
        <p>We do not sell or rent our subscriber lists. Our newsletters are sent through our e-mail service provider, which handles your address only to deliver them.</p>
      </>
    ),
  };
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const siteName = rootDataFromMatches(matches)?.settings.siteName ?? "Frontpage";
  return pageMeta(matches, {
    title: "Privacy Policy",
    description: `How ${siteName} collects, uses and protects your information, how cookies and ad networks work on the site, and your rights under the GDPR and the CCPA.`,
    path: "/privacy-policy",
  });
};

function privacySections(c: SiteContacts, trackingNewsletters: string[]): LegalSection[] {
  return [
    {
      id: "information-we-collect",
      title: "Information We Collect",
      content: (
        <>
          <h3>Information you give us</h3>
          <ul>
            <li>
              <strong>Comments and replies:</strong> the name and e-mail address you enter, the text of your comment and
              any image or video you attach. Your name, comment and attachments are public; your e-mail address is never
              shown on the site.
            </li>
            <li>
              <strong>Accounts:</strong> if you create an account, your e-mail address and a password, which we store
              only in hashed form.
            </li>
            <li>
              <strong>Correspondence:</strong> what you tell us when you e-mail or call us, including your contact
              details.
            </li>
          </ul>
          <h3>Information collected automatically</h3>
          <ul>
            <li>
              <strong>Usage data:</strong> the address (path and query string) of each page you view and the time of
              the visit, which we use to count page and article views.
            </li>
            <li>
              <strong>Technical data:</strong> your IP address, browser type, device type, operating system and the page
              that referred you, recorded in our server logs.
            </li>
            <li>
              <strong>Cookies and similar technologies</strong>, described in section 3 and in our{" "}
              <Link to="/cookie-policy">Cookie Policy</Link>.
            </li>
          </ul>
        </>
      ),
    },
    {
      id: "how-we-use-information",
      title: "How We Use Your Information",
      content: (
        <>
          <p>We use the information we collect to:</p>
          <ul>
            <li>publish and moderate comments, and operate reader and staff accounts;</li>
            <li>answer your questions and requests;</li>
            <li>count views and understand which coverage readers value;</li>
            <li>keep the site secure, prevent spam and abuse, and fix technical problems;</li>
            <li>show advertising that funds our journalism, and measure its performance;</li>
            <li>meet our legal obligations and enforce our <Link to="/terms-of-service">Terms of Service</Link>.</li>
          </ul>
          <p>We do not sell your personal information.</p>
        </>
      ),
    },
    {
      id: "cookies",
      title: "Cookies and Tracking Technologies",
      content: (
        <p>
          We and our partners use cookies, local storage and similar technologies: essential cookies that keep the site
          working and keep you signed in, analytics cookies that measure how the site is used, and advertising cookies
          set by ad networks. You can block or delete cookies in your browser settings. Our{" "}
          <Link to="/cookie-policy">Cookie Policy</Link> lists the types of cookies we use and explains how to manage
          them.
        </p>
      ),
    },
    {
      id: "ad-networks",
      title: "Advertising Networks",
      content: (
        <>
          <p>
            {c.siteName} is funded in part by advertising. We work with third-party ad networks, including Google
            AdSense, which use cookies and similar technologies to serve ads on our pages and on other websites you
            visit, limit how often an ad is shown, and measure results.
          </p>
          <p>
            Google&rsquo;s use of advertising cookies enables it and its partners to serve ads based on your visits to
            this and other sites. These networks collect information directly from your browser under their own privacy
            policies; we do not give them your name, e-mail address or comments.
          </p>
          <ul>
            <li>
              Manage personalised Google ads in{" "}
              <ExternalLink href="https://adssettings.google.com/">Google Ads Settings</ExternalLink>.
            </li>
            <li>
              Read how Google uses information from sites that use its services:{" "}
              <ExternalLink href="https://policies.google.com/technologies/partner-sites">Google partner sites policy</ExternalLink>.
            </li>
            <li>
              Opt out of interest-based ads from many networks at{" "}
              <ExternalLink href="https://optout.aboutads.info/">aboutads.info</ExternalLink>.
            </li>
          </ul>
        </>
      ),
    },
    {
      id: "sharing",
      title: "How We Share Information",
      content: (
        <>
          <p>We share personal information only:</p>
          <ul>
            <li>
              with service providers that host the site, store files, send e-mail or provide analytics and advertising,
              under contracts that limit their use of the data;
            </li>
            <li>when the law requires it, or to protect the rights, property or safety of our readers, staff or others;</li>
            <li>with a buyer or successor if our business is reorganised, merged or sold, under this policy.</li>
          </ul>
          <p>Anything you post in a comment is public and can be seen by anyone who visits the article.</p>
        </>
      ),
    },
    {
      id: "retention-security",
      title: "Data Retention and Security",
      content: (
        <>
          <p>
            We keep comments for as long as the article is published, or until you or a moderator remove them. We keep
            account data while your account exists, and server logs and view statistics only as long as needed for
            security and reporting. Correspondence is kept as long as needed to deal with your request.
          </p>
          <p>
            We protect your information with encrypted connections (HTTPS), hashed passwords, access restricted to staff
            who need it, and regular updates of our systems. No method of transmission or storage is completely secure,
            so we cannot guarantee absolute security.
          </p>
        </>
      ),
    },
    {
      id: "gdpr-rights",
      title: "Your Rights Under the GDPR",
      content: (
        <>
          <p>
            If you are in the European Economic Area, the United Kingdom or Switzerland, the General Data Protection
            Regulation (GDPR) or its local equivalent gives you the right to:
          </p>
          <ul>
            <li>access the personal data we hold about you and receive a copy of it;</li>
            <li>have inaccurate data corrected;</li>
            <li>have your data erased;</li>
            <li>restrict or object to our processing of your data, including for direct marketing;</li>
            <li>receive your data in a portable format;</li>
            <li>withdraw your consent at any time, where we rely on consent;</li>
            <li>complain to your local data protection authority.</li>
          </ul>
          <p>
            We process personal data to perform our agreement with you (accounts), on the basis of our legitimate
            interests (publishing comments, security, measuring readership), with your consent (non-essential cookies and
            personalised advertising where required) and to comply with the law. Your data is stored and processed in the
            United States.
          </p>
        </>
      ),
    },
    {
      id: "ccpa-rights",
      title: "Your California Privacy Rights (CCPA)",
      content: (
        <>
          <p>
            If you live in California, the California Consumer Privacy Act, as amended by the California Privacy Rights
            Act (CCPA), gives you the right to:
          </p>
          <ul>
            <li>know which categories and specific pieces of personal information we collect, use and disclose;</li>
            <li>request deletion of your personal information;</li>
            <li>correct inaccurate personal information;</li>
            <li>opt out of the sale or sharing of your personal information for cross-context behavioural advertising;</li>
            <li>not be discriminated against for exercising these rights.</li>
          </ul>
          <p>
            We do not sell personal information for money. Ad networks on our pages may collect identifiers such as
            cookie IDs, which California law may treat as &ldquo;sharing&rdquo;; you can opt out with the tools in
            section 4 or by asking us as described in section 9.
          </p>
        </>
      ),
    },
    {
      id: "exercising-rights",
      title: "How to Exercise Your Rights",
      content: (
        <p>
          Send your request to <a href={`mailto:${c.privacyEmail}`}>{c.privacyEmail}</a> or call us at{" "}
          <a href={c.phoneHref}>{c.phone}</a>. We may ask you to confirm your identity, for example from the e-mail
          address you used to comment, and we answer within 30 days (GDPR) or 45 days (CCPA). An authorised agent may
          make a request on your behalf with your written permission.
        </p>
      ),
    },
    // After "How to Exercise Your Rights" (section 9): the sections above keep their numbers, which the text cites.
    newsletterSection(c, trackingNewsletters),
    {
      id: "children",
      title: "Children's Privacy",
      content: (
        <p>
          {c.siteName} is a general-audience news site and is not directed at children under 13. We do not knowingly
          collect personal information from children under 13. If you believe a child has given us personal information,
          write to <a href={`mailto:${c.privacyEmail}`}>{c.privacyEmail}</a> and we will delete it.
        </p>
      ),
    },
    {
      id: "dmca",
      title: "Copyright Complaints (DMCA)",
      content: (
        <p>
          If you believe that material on our site, including a reader comment or attachment, infringes your copyright,
          send a notice under the Digital Millennium Copyright Act to our designated agent at{" "}
          <a href={`mailto:${c.legalEmail}`}>{c.legalEmail}</a>. What the notice must contain is set out in our{" "}
          <Link to="/terms-of-service#dmca">Terms of Service</Link>.
        </p>
      ),
    },
    {
      id: "governing-law",
      title: "Governing Law",
      content: (
        <p>
          This Privacy Policy is governed by the laws of {COMPANY.governingLaw}, United States, without regard to its
          conflict-of-law rules, except where the law of the country or state in which you live gives you rights that
          cannot be waived.
        </p>
      ),
    },
    {
      id: "changes",
      title: "Changes to This Policy",
      content: (
        <p>
          We may update this Privacy Policy as our services or the law change. The version on this page is the one in
          force; if a change materially affects how we use your personal information, we will say so prominently on the
          site before it takes effect.
        </p>
      ),
    },
    {
      id: "contact",
      title: "Contact Us",
      content: (
        <>
          <p>
            {c.siteName} is operated by {c.companyName}, a limited liability company registered in {COMPANY.registeredIn}{" "}
            and based in {COMPANY.city}. For anything about this policy or your personal information:
          </p>
          <ul>
            <li>
              Privacy: <a href={`mailto:${c.privacyEmail}`}>{c.privacyEmail}</a>
            </li>
            <li>
              Reader support: <a href={`mailto:${c.supportEmail}`}>{c.supportEmail}</a>
            </li>
            <li>
              Phone: <a href={c.phoneHref}>{c.phone}</a>
            </li>
            <li>
              Mail: {c.companyName}, Attn: Privacy, {COMPANY.address.join(", ")}
            </li>
          </ul>
        </>
      ),
    },
  ];
}

export default function PrivacyPolicy({ loaderData }: Route.ComponentProps) {
  useScrollToTopOnOpen();
  const contacts = useSiteContacts();
  return (
    <LegalPage
      icon={ShieldCheck}
      title="Privacy Policy"
      summary="What we collect, why we collect it and the choices you have."
      intro={
        <p>
          Your privacy matters to us. This Privacy Policy explains how {contacts.companyName} (&ldquo;
          {contacts.siteName}&rdquo;, &ldquo;we&rdquo;, &ldquo;us&rdquo;) collects, uses and protects personal
          information when you read our website, comment on articles or contact us.
        </p>
      }
      sections={privacySections(contacts, loaderData.trackingNewsletters)}
    />
  );
}
