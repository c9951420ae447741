import { NEWSLETTERS_FIELD } from "~/domain/newsletters/subscribers.schema";

/** A newsletter a reader can tick, as the preferences page and the member's account list them. */
export interface NewsletterChoice {
  id: string;
  name: string;
  description: string | null;
  subscribed: boolean;
}

/**
 * The newsletters a reader receives, one checkbox each (sent as NEWSLETTERS_FIELD): the old
 * preferences link's page and /account's Newsletters section save the same list the same way.
 */
export function NewsletterChoices({ newsletters, legend, legendClassName, listClassName }: { newsletters: NewsletterChoice[]; legend: string; legendClassName: string; listClassName: string }) {
  return (
    <fieldset>
      <legend className={legendClassName}>{legend}</legend>
      <ul className={listClassName}>
        {newsletters.map((n) => (
          <li key={n.id}>
            <label className="flex items-start gap-3">
              <input type="checkbox" name={NEWSLETTERS_FIELD} value={n.id} defaultChecked={n.subscribed} className="mt-1 size-4 accent-brand-700" />
              <span>
                <span className="font-medium text-slate-900">{n.name}</span>
                {n.description ? <span className="block text-sm text-slate-600">{n.description}</span> : null}
              </span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
