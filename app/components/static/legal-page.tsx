import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "~/lib/cn";

/**
 * Reading typography for long static text, written with utility classes (the project has no
 * typography plugin). Applies to plain p, ul, ol, li, h3, a and strong elements inside.
 */
export const proseClass = cn(
  "text-base leading-7 text-slate-700",
  "[&_p]:mt-4 [&_p:first-child]:mt-0",
  "[&_h3]:mt-6 [&_h3]:font-semibold [&_h3]:text-lg [&_h3]:text-slate-900",
  "[&_ul]:mt-4 [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-6",
  "[&_ol]:mt-4 [&_ol]:list-decimal [&_ol]:space-y-2 [&_ol]:pl-6",
  "[&_li]:pl-1 [&_strong]:font-semibold [&_strong]:text-slate-900",
  "[&_a]:font-medium [&_a]:text-brand-700 [&_a]:underline [&_a]:underline-offset-2 [&_a:hover]:text-brand-900",
  "[&_address]:mt-4 [&_address]:not-italic",
);

export interface LegalSection {
  /** Fragment id, used by the table of contents. */
  id: string;
  title: string;
  content: ReactNode;
}

/** The coloured band at the top of a static page, holding its one h1. */
export function StaticHero({ icon: Icon, title, children }: { icon: LucideIcon; title: string; children?: ReactNode }) {
  return (
    <section className="bg-gradient-to-br from-brand-900 via-brand-800 to-brand-700 text-white">
      <div className="mx-auto max-w-4xl px-4 py-12 text-center sm:py-16">
        <Icon className="mx-auto h-12 w-12 text-amber-300" aria-hidden="true" />
        <h1 className="mt-4 font-serif text-3xl font-bold tracking-tight sm:text-5xl">{title}</h1>
        {children ? <div className="mx-auto mt-4 max-w-2xl text-lg text-brand-100">{children}</div> : null}
      </div>
    </section>
  );
}

function TableOfContents({ sections }: { sections: LegalSection[] }) {
  return (
    <nav aria-label="On this page" className="rounded-lg border border-slate-200 bg-slate-50 p-5 lg:sticky lg:top-24">
      <h2 className="text-sm font-semibold uppercase tracking-wide text-slate-700">On this page</h2>
      <ol className="mt-3 space-y-2 text-sm">
        {sections.map((section, index) => (
          <li key={section.id} className="flex gap-2">
            <span className="w-5 shrink-0 text-right tabular-nums text-slate-600" aria-hidden="true">
              {index + 1}.
            </span>
            <a href={`#${section.id}`} className="text-slate-800 hover:text-brand-700 hover:underline">
              {section.title}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** A legal or policy page: hero with the h1, an intro, a table of contents and numbered h2 sections. */
export function LegalPage({
  icon,
  title,
  summary,
  updated,
  intro,
  sections,
}: {
  icon: LucideIcon;
  title: string;
  /** One line under the heading in the hero. */
  summary: ReactNode;
  /** A "Last Updated" line or similar, shown above the text. */
  updated?: ReactNode;
  intro: ReactNode;
  sections: LegalSection[];
}) {
  return (
    <main className="flex-1">
      <StaticHero icon={icon} title={title}>
        <p>{summary}</p>
      </StaticHero>
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-10 lg:grid-cols-[16rem_minmax(0,1fr)] lg:py-14">
        <div>
          <TableOfContents sections={sections} />
        </div>
        <article className="max-w-3xl">
          {updated ? <p className="mb-6 text-sm font-medium text-slate-600">{updated}</p> : null}
          <div className={cn(proseClass, "text-lg leading-8")}>{intro}</div>
          {sections.map((section, index) => (
            <section key={section.id} id={section.id} aria-labelledby={`${section.id}-heading`} className="mt-10 scroll-mt-24 border-t border-slate-200 pt-8">
              <h2 id={`${section.id}-heading`} className="font-serif text-2xl font-bold text-slate-900">
                <span className="mr-2 text-brand-700">{index + 1}.</span>
                {section.title}
              </h2>
              <div className={cn(proseClass, "mt-4")}>{section.content}</div>
            </section>
          ))}
        </article>
      </div>
    </main>
  );
}
