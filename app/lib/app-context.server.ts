import type { Db } from "~/db/client.server";
import type { Auth } from "./auth.server";
import type { ChangeFeed } from "./change-feed.server";
import type { Env } from "./env.server";
import type { Logger } from "./logger.server";
import type { Storage } from "./storage.server";
import type { ViewRecorder } from "./view-recorder.server";

/** The services the Node entry hands to every loader and action (one instance per process). */
export interface AppServices {
  db: Db;
  /** Better Auth (sessions, sign-in, sign-up); see app/lib/auth.server.ts. */
  auth: Auth;
  env: Env;
  log: Logger;
  storage: Storage;
  views: ViewRecorder;
  changes: ChangeFeed;
}

declare module "react-router" {
  // An interface (not a type alias) so that it merges with React Router's own declaration.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends AppServices {}
}
