import { useEffect, useState } from "react";
import type { ArticlePaywall } from "~/domain/articles/articles.schema";
import { meterNote } from "~/domain/members/access";
import { cookieValue, METER_NOTE_COOKIE, parseMeterNote } from "~/domain/members/reader-cookies";
import { PAYWALLED_CONTENT_CLASS } from "~/lib/structured-data";

/** Where the call to action leads (issue 40): the plans, and the members' sign-in, back to the story after. */
export const SUBSCRIBE_PATH = "/subscribe";
export const signInPathFor = (storyPath: string) => `/account/sign-in?next=${encodeURIComponent(storyPath)}`;

const primary = "inline-flex h-11 items-center justify-center rounded-md bg-brand-700 px-6 text-base font-medium text-white hover:bg-brand-800";
const secondary = "inline-flex h-11 items-center justify-center rounded-md border border-slate-300 bg-white px-6 text-base font-medium text-slate-900 hover:bg-slate-50";

/**
 * A teaser's call to action (issue 40), in place of the story's paid part: in the element the JSON-LD's
 * hasPart names. The texts are the class's (access.ts), never a person's: the page is shared by every
 * reader of its class. Plain links: the plans and the sign-in are pages of their own.
 */
export function PaywallCallToAction({ paywall, storyPath }: { paywall: ArticlePaywall; storyPath: string }) {
  const cta = paywall.callToAction;
  if (!cta) return null;
  const subscribe = (
    <a href={SUBSCRIBE_PATH} className={cta.action === "sign-in" ? secondary : primary}>
      {cta.action === "upgrade" ? "Upgrade" : "Subscribe"}
    </a>
  );
  const signIn =
    paywall.variant === "anonymous" ? (
      <a href={signInPathFor(storyPath)} className={cta.action === "sign-in" ? primary : secondary}>
        Sign in
      </a>
    ) : null;
  return (
    <section
      aria-labelledby="paywall-heading"
      data-testid="paywall"
      className={`${PAYWALLED_CONTENT_CLASS} mt-10 rounded-xl border border-slate-200 bg-slate-50 px-5 py-8 text-center sm:px-10`}
    >
      <h2 id="paywall-heading" className="mx-auto max-w-xl font-serif text-2xl font-bold leading-snug text-slate-900">
        {cta.heading}
      </h2>
      {paywall.meterNote ? (
        <p className="mt-3 text-sm text-slate-700" data-testid="paywall-meter">
          {paywall.meterNote}
        </p>
      ) : null}
      <div className="mt-6 flex flex-col items-stretch justify-center gap-3 sm:flex-row sm:items-center">
        {cta.action === "sign-in" ? (
          <>
            {signIn}
            {subscribe}
          </>
        ) : (
          <>
            {subscribe}
            {signIn}
          </>
        )}
      </div>
    </section>
  );
}

/**
 * A metered read of a gated story (issue 40): "2 of 3 free stories left", from the hint cookie the page
 * cache's door sets when it opens the story on the reader's meter. Read here, in the browser, only for
 * this story: the cached page itself is the same for every reader of its class.
 */
export function MeterBanner({ articleId }: { articleId: string }) {
  const [note, setNote] = useState<string | null>(null);
  useEffect(() => {
    const hint = parseMeterNote(cookieValue(document.cookie, METER_NOTE_COOKIE));
    setNote(hint && hint.articleId === articleId ? meterNote(hint.left, hint.allowed) : null);
  }, [articleId]);
  if (!note) return null;
  return (
    <p role="status" data-testid="meter-banner" className="mt-6 rounded-md border border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-950">
      {note}. <a href={SUBSCRIBE_PATH} className="font-medium underline underline-offset-2">Subscribe</a> for unlimited access.
    </p>
  );
}
