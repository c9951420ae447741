/**
 * What a new site is called and says until its settings are saved. Its own module, without zod, so a
 * reader page that shows a default (the contact details on About and Contact) loads no validation
 * library (issue 13).
 */
export const DEFAULT_SETTINGS = {
  siteName: "Frontpage",
  siteTagline: "Stay Informed, Stay Connected",
  siteDescription:
    "Frontpage brings you breaking news, entertainment, sports, world news, technology and education stories from New York and around the world.",
  contactEmail: "contact@frontpage.example",
  contactPhone: "+1 (212) 555-0147",
  footerText: "Independent news for the United States and the world, reported from New York since 2024.",
  facebookUrl: "https://www.facebook.com/",
  twitterUrl: "https://x.com/",
  instagramUrl: "https://www.instagram.com/",
  linkedinUrl: "https://www.linkedin.com/",
  youtubeUrl: "https://www.youtube.com/",
};
