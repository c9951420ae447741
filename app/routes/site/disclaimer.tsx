import { AlertTriangle } from "lucide-react";
import { Link } from "react-router";
import { LastUpdatedToday } from "~/components/static/last-updated";
import { LegalPage, type LegalSection } from "~/components/static/legal-page";
import { useSiteContacts, type SiteContacts } from "~/components/static/site-contacts";
import { pageMeta } from "~/page-meta";
import { rootDataFromMatches } from "~/root";
import type { Route } from "./+types/disclaimer";

export const meta: Route.MetaFunction = ({ matches }) => {
  const siteName = rootDataFromMatches(matches)?.settings.siteName ?? "Frontpage";
  return pageMeta(matches, {
    title: "Disclaimer",
    description: `The limits of the information published on ${siteName}: accuracy, external links, professional advice, reader comments, affiliate links, copyright and fair use.`,
    path: "/disclaimer",
  });
};

function disclaimerSections(c: SiteContacts): LegalSection[] {
  return [
    {
      id: "general-information",
      title: "General Information",
      content: (
        <>
          <p>
            Everything published on {c.siteName}, including articles, headlines, photographs, videos, graphics and
            newsletters, is provided for general information only. It is offered in good faith, but it is not a
            substitute for your own judgement or for advice from a qualified professional.
          </p>
          <p>
            {c.siteName} is operated by {c.companyName}, a limited liability company registered in Delaware and based
            in New York. By using the site you accept this disclaimer. If you do not accept it, please do not rely on
            the content of the site.
          </p>
        </>
      ),
    },
    {
      id: "content-accuracy",
      title: "Content Accuracy",
      content: (
        <>
          <p>
            Our journalists verify facts with named sources, documents and, where possible, a second independent
            source before we publish. News, however, moves quickly: early reports can be incomplete, figures may be
            revised and situations can change after an article goes live.
          </p>
          <p>
            We therefore make no representation or warranty, express or implied, that any content is complete, current
            or free of errors. Dates and times in an article refer to the moment of publication or of its last
            revision, and older articles are not routinely updated.
          </p>
        </>
      ),
    },
    {
      id: "external-links",
      title: "External Links",
      content: (
        <>
          <p>
            Articles may link to websites run by other people, such as official statements, studies, social media posts
            or the sites of the organisations we report on. We add these links to help you check sources and read
            further.
          </p>
          <p>
            We do not control those sites and are not responsible for their content, availability, security or privacy
            practices. A link is not an endorsement. Please read the terms and privacy policy of every site you visit.
          </p>
        </>
      ),
    },
    {
      id: "professional-advice",
      title: "No Professional Advice",
      content: (
        <>
          <p>
            Coverage of health, law, money, markets, technology or education explains events and ideas; it is not
            medical, legal, financial, investment, tax or other professional advice, and reading it does not create a
            professional relationship of any kind.
          </p>
          <ul>
            <li>Speak to a doctor or other qualified health provider about any medical question.</li>
            <li>Consult a licensed attorney about your legal situation.</li>
            <li>Talk to a registered financial adviser before you make an investment decision.</li>
          </ul>
          <p>Never disregard professional advice, or delay seeking it, because of something you read on this site.</p>
        </>
      ),
    },
    {
      id: "user-comments",
      title: "User Comments",
      content: (
        <>
          <p>
            Readers can comment on articles and attach images or videos. Comments, replies and attachments are the
            views of the people who post them, not of {c.siteName} or its staff, and we do not check them before they
            appear.
          </p>
          <p>
            We may remove any comment that is unlawful, abusive, misleading, spam or off topic, without notice. If you
            see a comment that breaks the law or our <Link to="/terms-of-service">Terms of Service</Link>, please tell
            us at <a href={`mailto:${c.email}`}>{c.email}</a> with a link to the article.
          </p>
        </>
      ),
    },
    {
      id: "affiliate-disclosure",
      title: "Affiliate Disclosure",
      content: (
        <>
          <p>
            Some articles, particularly product reviews and buying guides, may contain affiliate links. If you buy
            something through such a link, we may earn a small commission at no extra cost to you.
          </p>
          <p>
            Affiliate relationships never decide what we cover or how we judge a product. Our editors choose and review
            products independently, and advertisers and partners do not see or approve articles before publication. The
            site also shows advertising, which is always labelled as such.
          </p>
        </>
      ),
    },
    {
      id: "copyright-fair-use",
      title: "Copyright and Fair Use",
      content: (
        <>
          <p>
            Unless stated otherwise, the text, photographs, videos, graphics and design of this site are owned by{" "}
            {c.companyName} or used under licence, and are protected by United States and international copyright law.
            You may share links to our articles and quote short passages with attribution and a link back to the
            original.
          </p>
          <p>
            Occasionally we reproduce limited portions of third-party material for news reporting, commentary,
            criticism or education, as permitted by the fair use doctrine (17 U.S.C. § 107). If you believe your work
            has been used in a way that infringes your rights, write to <a href={`mailto:${c.legalEmail}`}>{c.legalEmail}</a>;
            the full notice procedure is in our <Link to="/terms-of-service#dmca">Terms of Service</Link>.
          </p>
        </>
      ),
    },
    {
      id: "errors-omissions",
      title: "Errors and Omissions",
      content: (
        <>
          <p>
            We work hard to avoid mistakes, and when we make one we correct it openly. Significant corrections are noted
            at the end of the article together with the date of the change.
          </p>
          <p>
            To the fullest extent permitted by law, {c.companyName} is not liable for any loss or damage arising from
            errors or omissions in the content, or from any action taken in reliance on it. If you spot an error, please
            write to <a href={`mailto:${c.email}`}>{c.email}</a>.
          </p>
        </>
      ),
    },
    {
      id: "changes",
      title: "Changes to This Disclaimer",
      content: (
        <p>
          We may revise this disclaimer as the site and the law change. The date at the top of this page shows when it
          was last updated, and the version published here is the one that applies each time you use the site.
        </p>
      ),
    },
    {
      id: "contact",
      title: "Contact Us",
      content: (
        <>
          <p>Questions about this disclaimer can be sent to:</p>
          <ul>
            <li>
              E-mail: <a href={`mailto:${c.email}`}>{c.email}</a>
            </li>
            <li>
              Legal matters: <a href={`mailto:${c.legalEmail}`}>{c.legalEmail}</a>
            </li>
            <li>
              Phone: <a href={c.phoneHref}>{c.phone}</a>
            </li>
            <li>
              Or use our <Link to="/contact">contact form</Link>.
            </li>
          </ul>
        </>
      ),
    },
  ];
}

export default function Disclaimer() {
  const contacts = useSiteContacts();
  return (
    <LegalPage
      icon={AlertTriangle}
      title="Disclaimer"
      summary={`What you can and cannot rely on when you read ${contacts.siteName}.`}
      updated={<LastUpdatedToday />}
      intro={
        <p>
          Please read this disclaimer carefully. It explains the limits of the information published on{" "}
          {contacts.siteName} and applies to every page of the site, its newsletters and its social media accounts.
        </p>
      }
      sections={disclaimerSections(contacts)}
    />
  );
}
