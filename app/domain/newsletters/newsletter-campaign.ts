// Newsletter links say where they came from (issue 42, decision 0058): every link of a newsletter
// e-mail to the site itself carries utm_source=newsletter&utm_medium=email&utm_campaign=<the
// newsletter's slug>, so the audience figures count the visit under that newsletter (the click
// redirect keeps no referrer). Links to other sites are left as written: their tags are not ours to add.

export const NEWSLETTER_UTM_SOURCE = "newsletter";
export const NEWSLETTER_UTM_MEDIUM = "email";

/**
 * `url` with the newsletter's campaign tags when it is an address of the site (`publicUrl`'s origin),
 * its own query and fragment kept; unchanged when it is another site's, not an http(s) address, or
 * already says its source (an editor's own utm_source, or a link tagged before: never twice).
 */
export function newsletterCampaignUrl(publicUrl: string, url: string, newsletterSlug: string): string {
  let target: URL;
  let site: URL;
  try {
    target = new URL(url);
    site = new URL(publicUrl);
  } catch {
    return url;
  }
  if (target.origin !== site.origin || (target.protocol !== "https:" && target.protocol !== "http:")) return url;
  if (target.searchParams.has("utm_source")) return url;
  target.searchParams.append("utm_source", NEWSLETTER_UTM_SOURCE);
  target.searchParams.append("utm_medium", NEWSLETTER_UTM_MEDIUM);
  target.searchParams.append("utm_campaign", newsletterSlug);
  return target.toString();
}
