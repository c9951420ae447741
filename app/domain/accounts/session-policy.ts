// How long a back-office session lasts (issue 12): it idles out after 30 minutes without a request,
// and ends 12 hours after sign-in whatever happens. Readers' sessions keep Better Auth's own lifetime.

export const BACK_OFFICE_IDLE_MINUTES = 30;
export const BACK_OFFICE_MAX_HOURS = 12;
/** A session's last activity is written at most this often (one UPDATE a minute, not one a request). */
export const ACTIVITY_WRITE_INTERVAL_MS = 60_000;

export type SessionState = "active" | "idle" | "expired";

/** Whether a back-office session may still be used at `now`. */
export function backOfficeSessionState(session: { createdAt: Date; lastActiveAt: Date }, now: Date): SessionState {
  if (now.getTime() - session.createdAt.getTime() >= BACK_OFFICE_MAX_HOURS * 3_600_000) return "expired";
  if (now.getTime() - session.lastActiveAt.getTime() >= BACK_OFFICE_IDLE_MINUTES * 60_000) return "idle";
  return "active";
}
