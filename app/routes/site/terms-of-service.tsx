import { FileText } from "lucide-react";
import { Link } from "react-router";
import { LegalPage, type LegalSection } from "~/components/static/legal-page";
import { COMPANY, useScrollToTopOnOpen, useSiteContacts, type SiteContacts } from "~/components/static/site-contacts";
import { pageMeta } from "~/page-meta";
import { rootDataFromMatches } from "~/root";
import type { Route } from "./+types/terms-of-service";

export const meta: Route.MetaFunction = ({ matches }) => {
  const siteName = rootDataFromMatches(matches)?.settings.siteName ?? "Frontpage";
  return pageMeta(matches, {
    title: "Terms of Service",
    description: `The terms for using ${siteName}: acceptable use, comments, intellectual property, DMCA notices, advertising, privacy rights and New York governing law.`,
    path: "/terms-of-service",
  });
};

function termsSections(c: SiteContacts): LegalSection[] {
  return [
    {
      id: "acceptance",
      title: "Acceptance of Terms",
      content: (
        <>
          <p>
            These Terms of Service are an agreement between you and {c.companyName}, a limited liability company
            registered in {COMPANY.registeredIn} and based in {COMPANY.city}, which publishes {c.siteName}. By using
            the website you agree to these terms, to our <Link to="/privacy-policy">Privacy Policy</Link> and to our{" "}
            <Link to="/cookie-policy">Cookie Policy</Link>. If you do not agree, please do not use the site.
          </p>
          <p>
            You must be at least 13 years old to use the site, and at least the age of majority where you live to create
            an account or post content without a parent&rsquo;s or guardian&rsquo;s permission.
          </p>
        </>
      ),
    },
    {
      id: "use-of-the-site",
      title: "Use of the Site",
      content: (
        <>
          <p>You may read, share and link to our content for your personal, non-commercial use. You agree not to:</p>
          <ul>
            <li>copy, republish, sell or redistribute our articles, photos or videos without written permission;</li>
            <li>scrape, crawl or harvest the site or its data by automated means, other than search engines that respect our robots file;</li>
            <li>interfere with the site&rsquo;s security or operation, or try to reach areas you are not authorised to use;</li>
            <li>impersonate anyone, or use the site for anything unlawful, fraudulent or harmful;</li>
            <li>block, hide or tamper with advertising in a way that breaks the site for others.</li>
          </ul>
        </>
      ),
    },
    {
      id: "accounts",
      title: "Accounts",
      content: (
        <p>
          If you create an account, keep your password confidential and tell us at once at{" "}
          <a href={`mailto:${c.supportEmail}`}>{c.supportEmail}</a> if you think someone else has used it. You are
          responsible for what happens under your account. We may suspend or close accounts that break these terms.
        </p>
      ),
    },
    {
      id: "user-content",
      title: "Comments and User Content",
      content: (
        <>
          <p>
            When you post a comment, reply, image or video, you confirm that you own it or have permission to post it,
            and that it is lawful. You keep ownership of your content, and you grant {c.companyName} a worldwide,
            non-exclusive, royalty-free licence to host, display, reproduce and distribute it on the site and in
            connection with our journalism.
          </p>
          <p>Do not post content that:</p>
          <ul>
            <li>is defamatory, harassing, hateful, threatening or obscene;</li>
            <li>infringes someone else&rsquo;s copyright, trademark, privacy or other rights;</li>
            <li>contains personal information about others, spam, advertising or malware;</li>
            <li>impersonates another person or misrepresents your affiliation.</li>
          </ul>
          <p>
            We do not review content before it appears, but we may remove any content and block any user at our
            discretion. Comments are the views of their authors, not of {c.siteName}.
          </p>
        </>
      ),
    },
    {
      id: "intellectual-property",
      title: "Intellectual Property",
      content: (
        <p>
          The site and its content, including text, photographs, videos, graphics, logos and the {c.siteName} name, are
          owned by {c.companyName} or its licensors and are protected by copyright, trademark and other laws. These terms
          give you no rights in them beyond the personal use described in section 2. For licensing and syndication,
          write to <a href={`mailto:${c.legalEmail}`}>{c.legalEmail}</a>.
        </p>
      ),
    },
    {
      id: "dmca",
      title: "Copyright Complaints (DMCA)",
      content: (
        <>
          <p>
            We respect intellectual property and respond to notices of alleged infringement under the Digital Millennium
            Copyright Act (17 U.S.C. § 512). Send notices to our designated copyright agent at{" "}
            <a href={`mailto:${c.legalEmail}`}>{c.legalEmail}</a>, or by mail to {c.companyName}, Attn: Copyright Agent,{" "}
            {COMPANY.address.join(", ")}. A notice must include:
          </p>
          <ol>
            <li>your physical or electronic signature;</li>
            <li>identification of the copyrighted work you say is infringed;</li>
            <li>the address (URL) of the material you want removed;</li>
            <li>your name, postal address, telephone number and e-mail address;</li>
            <li>a statement that you believe in good faith that the use is not authorised by the owner, its agent or the law;</li>
            <li>
              a statement, under penalty of perjury, that the information in the notice is accurate and that you are the
              owner or authorised to act for the owner.
            </li>
          </ol>
          <p>
            If your content was removed and you believe that was a mistake, you may send a counter-notice with the
            information required by 17 U.S.C. § 512(g). We close the accounts of repeat infringers.
          </p>
        </>
      ),
    },
    {
      id: "advertising-links",
      title: "Advertising and Third-Party Links",
      content: (
        <p>
          The site shows advertising served by third-party ad networks and links to websites we do not control. We are
          not responsible for the content, products or practices of advertisers or linked sites, and any dealings you
          have with them are between you and them. How ad networks use cookies is explained in our{" "}
          <Link to="/privacy-policy#ad-networks">Privacy Policy</Link>.
        </p>
      ),
    },
    {
      id: "privacy",
      title: "Privacy, Cookies and Your Data Rights",
      content: (
        <p>
          Our <Link to="/privacy-policy">Privacy Policy</Link> describes the data we collect and how we use cookies. It
          also explains your rights under the EU General Data Protection Regulation (GDPR) and the California Consumer
          Privacy Act (CCPA), such as the right to access or delete your data and to opt out of the sharing of personal
          information for advertising. To use these rights, write to{" "}
          <a href={`mailto:${c.privacyEmail}`}>{c.privacyEmail}</a>.
        </p>
      ),
    },
    {
      id: "disclaimers",
      title: "Disclaimer of Warranties",
      content: (
        <p>
          The site and its content are provided &ldquo;as is&rdquo; and &ldquo;as available&rdquo;. To the fullest
          extent permitted by law, we disclaim all warranties, express or implied, including warranties of accuracy,
          merchantability, fitness for a particular purpose and non-infringement, and we do not promise that the site
          will be uninterrupted or free of errors. Read our <Link to="/disclaimer">Disclaimer</Link> for more.
        </p>
      ),
    },
    {
      id: "liability",
      title: "Limitation of Liability",
      content: (
        <p>
          To the fullest extent permitted by law, {c.companyName} and its members, employees and partners are not liable
          for any indirect, incidental, special, consequential or punitive damages, or for any loss of data, profits or
          goodwill, arising from your use of the site. Our total liability for any claim relating to the site is limited
          to one hundred US dollars (US$100). Some jurisdictions do not allow these limits, so they may not apply to you.
        </p>
      ),
    },
    {
      id: "indemnification",
      title: "Indemnification",
      content: (
        <p>
          You agree to defend, indemnify and hold harmless {c.companyName} and its members, employees and partners from
          any claims, damages and costs, including reasonable legal fees, arising from content you post or from your
          breach of these terms.
        </p>
      ),
    },
    {
      id: "governing-law",
      title: "Governing Law and Disputes",
      content: (
        <p>
          These terms are governed by the laws of {COMPANY.governingLaw}, United States, without regard to its
          conflict-of-law rules. Any dispute arising from these terms or the site will be decided exclusively by the
          state and federal courts located in New York County, New York, and you consent to their jurisdiction. Nothing
          in this section takes away rights you have under the mandatory consumer laws of the place where you live.
        </p>
      ),
    },
    {
      id: "changes",
      title: "Changes and Termination",
      content: (
        <p>
          We may change these terms or the site at any time. The version on this page is the one in force, and by
          continuing to use the site after a change you accept the new terms. We may suspend or end your access to the
          site if you break these terms. If any provision is found unenforceable, the rest remain in effect.
        </p>
      ),
    },
    {
      id: "contact",
      title: "Contact Us",
      content: (
        <>
          <p>Questions about these terms? Contact us:</p>
          <ul>
            <li>
              Reader support: <a href={`mailto:${c.supportEmail}`}>{c.supportEmail}</a>
            </li>
            <li>
              Legal and copyright: <a href={`mailto:${c.legalEmail}`}>{c.legalEmail}</a>
            </li>
            <li>
              Privacy: <a href={`mailto:${c.privacyEmail}`}>{c.privacyEmail}</a>
            </li>
            <li>
              Phone: <a href={c.phoneHref}>{c.phone}</a>
            </li>
            <li>
              Mail: {c.companyName}, {COMPANY.address.join(", ")}
            </li>
          </ul>
        </>
      ),
    },
  ];
}

export default function TermsOfService() {
  useScrollToTopOnOpen();
  const contacts = useSiteContacts();
  return (
    <LegalPage
      icon={FileText}
      title="Terms of Service"
      summary={`The rules for reading, commenting on and sharing ${contacts.siteName}.`}
      intro={
        <p>
          Welcome to {contacts.siteName}. Please read these Terms of Service carefully before you use our website. They
          explain what you can expect from us and what we expect from you.
        </p>
      }
      sections={termsSections(contacts)}
    />
  );
}
