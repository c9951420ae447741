/** The settings row a new site starts with. */
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

export const DEFAULT_KEYWORDS = [
  "news",
  "breaking news",
  "world news",
  "entertainment",
  "sports",
  "technology",
  "education",
  "United States",
  "New York",
];
