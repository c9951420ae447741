import type { Config } from "@react-router/dev/config";

export default {
  appDirectory: "app",
  ssr: true,
  // The whole route manifest as one cached file (2.3 KB gzipped), not a partial one written into every
  // page and completed by /__manifest requests as links appear: building and printing that partial
  // manifest was 3–4% of an article's render (decision 0031, stop 24).
  routeDiscovery: { mode: "initial" },
} satisfies Config;
