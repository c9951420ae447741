import { useSyncExternalStore } from "react";

/**
 * The reader's answer to the ad network's consent banner (issue 43): kept in this browser's
 * localStorage, never in a cookie, so the server never sees it and a cached page is the same HTML for
 * every reader. Browser-safe; on the server (and while a page hydrates) there is no answer.
 */
export type AdConsent = "granted" | "denied";

export const AD_CONSENT_KEY = "frontpage:ad-consent";
/**
 * How long a choice holds before the banner asks again: six months, as the CNIL recommends for
 * consent to cookies (a choice is kept with the time it was made: `granted:1764460800000`).
 */
export const AD_CONSENT_DAYS = 182;
const AD_CONSENT_MS = AD_CONSENT_DAYS * 86_400_000;

/** The answer where localStorage cannot be used (blocked storage, some private windows): for this page's life. */
let inMemory: AdConsent | null = null;
const listeners = new Set<() => void>();

/** The stored form of a choice made at `at`. */
export const adConsentValue = (choice: AdConsent, at = Date.now()) => `${choice}:${at}`;

/** A stored choice still in force at `now`, or null (none, unreadable, or older than AD_CONSENT_DAYS). */
function parse(value: string | null, now = Date.now()): AdConsent | null {
  const match = /^(granted|denied):(\d{1,15})$/.exec(value ?? "");
  if (!match) return null;
  const at = Number(match[2]);
  return at <= now + 60_000 && now - at < AD_CONSENT_MS ? (match[1] as AdConsent) : null;
}

/** The reader's choice, or null when they have not chosen, or chose more than AD_CONSENT_DAYS ago (or outside a browser). */
export function readAdConsent(): AdConsent | null {
  if (typeof window === "undefined") return null;
  try {
    return parse(window.localStorage.getItem(AD_CONSENT_KEY));
  } catch {
    return inMemory;
  }
}

/** Keeps the reader's choice (null forgets it: the banner asks again) and tells every subscriber of this tab. */
export function setAdConsent(choice: AdConsent | null): void {
  inMemory = choice;
  try {
    if (choice) window.localStorage.setItem(AD_CONSENT_KEY, adConsentValue(choice));
    else window.localStorage.removeItem(AD_CONSENT_KEY);
  } catch {
    // Storage refused: the choice holds for this page only.
  }
  for (const listener of [...listeners]) listener();
}

/** Another tab's choice arrives as a storage event (key null: that tab cleared all of the site's storage). */
function onStorage(event: StorageEvent) {
  if (event.key !== AD_CONSENT_KEY && event.key !== null) return;
  for (const listener of [...listeners]) listener();
}

/** Calls `listener` whenever the choice changes, in this tab or another; returns the unsubscribe. */
export function subscribeAdConsent(listener: () => void): () => void {
  if (listeners.size === 0) window.addEventListener("storage", onStorage);
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener("storage", onStorage);
  };
}

const noAnswer = () => null;

/**
 * The reader's choice, kept current (this tab and others). Null on the server and during hydration,
 * so the server's HTML and the hydrated page agree; the browser's answer follows right after.
 */
export function useAdConsent(): AdConsent | null {
  return useSyncExternalStore(subscribeAdConsent, readAdConsent, noAnswer);
}

/** Whether the ad network may load now: there is one, and consent is not needed or was given. */
export function mayLoadAdNetwork(clientId: string | null | undefined, consentRequired: boolean, consent: AdConsent | null): clientId is string {
  return Boolean(clientId) && (!consentRequired || consent === "granted");
}
