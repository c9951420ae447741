import type { ReactNode } from "react";
import { Link } from "react-router";
import { PENDING_SIGNUP_DAYS } from "~/domain/newsletters/subscribers.schema";
import { PREVIEW_ROBOTS } from "~/lib/seo";

/** The frame of a subscriber's own pages (confirm, preferences, unsubscribe): a heading and what follows. */
export function SubscriberPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="mx-auto w-full max-w-xl flex-1 px-4 py-12">
      <h1 className="font-serif text-3xl font-bold text-slate-900">{title}</h1>
      <div className="mt-6 space-y-5 text-slate-700">{children}</div>
      <p className="mt-10">
        <Link to="/" className="font-medium text-brand-700 underline underline-offset-4 hover:text-brand-800">
          Return to Home
        </Link>
      </p>
    </main>
  );
}

/** The pages' one button. */
export function SubscriberButton({ children, name, value }: { children: ReactNode; name?: string; value?: string }) {
  return (
    <button type="submit" name={name} value={value} className="h-11 rounded-md bg-brand-700 px-6 text-base font-medium text-white hover:bg-brand-800">
      {children}
    </button>
  );
}

/** What a forged, edited or expired link shows (with a 404). */
export const SUBSCRIBER_LINK_NOT_FOUND = {
  title: "Link not found",
  message: `This newsletter link is not valid: check that it was copied whole. A sign-up that was not confirmed within ${PENDING_SIGNUP_DAYS} days has expired: sign up again.`,
};

/** A subscriber's pages: personal (never stored by a browser or a proxy), never indexed. */
export const SUBSCRIBER_LINK_HEADERS = { "Cache-Control": "no-store", "X-Robots-Tag": PREVIEW_ROBOTS };
