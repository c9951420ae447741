import type { Role } from "./roles";

/**
 * Who does a back-office change: the signed-in user (id, how History and the activity log name them,
 * and their role, which the services' object-level rules read), or the system.
 */
export interface Actor {
  id: string | null;
  name: string;
  /**
   * The role the change is made with. Undefined for the system (the scheduler, the seed, scripts and
   * tests that name nobody): the services' role rules do not apply to it.
   */
  role?: Role | null;
}

/** A change made by no signed-in person (scripts, the scheduler, tests that name nobody). */
export const SYSTEM_ACTOR: Actor = { id: null, name: "System" };

/** How History and the activity log name an account: "Name (e-mail)", or the e-mail alone when the name adds nothing. */
export function actorName(user: { email: string; name?: string | null }): string {
  const name = user.name?.trim();
  return name && name !== user.email ? `${name} (${user.email})` : user.email;
}

/** The actor of a signed-in user (with their role when the guard read it). */
export function actorOf(user: { id: string; email: string; name?: string | null; role?: Role | null }): Actor {
  return { id: user.id, name: actorName(user), ...(user.role !== undefined ? { role: user.role } : {}) };
}
