import {
  Award,
  BadgeCheck,
  Building2,
  Clock,
  Compass,
  Cpu,
  Eye,
  Film,
  Globe,
  GraduationCap,
  Heart,
  Lightbulb,
  Newspaper,
  Scale,
  ShieldCheck,
  Smartphone,
  Target,
  Trophy,
  Users,
  type LucideIcon,
} from "lucide-react";
import { Link } from "react-router";
import { AdSlot } from "~/components/ad-slot";
import { proseClass, StaticHero } from "~/components/static/legal-page";
import { COMPANY, useScrollToTopOnOpen, useSiteContacts } from "~/components/static/site-contacts";
import { Button } from "~/components/ui/button";
import { pageMeta } from "~/page-meta";
import { rootDataFromMatches } from "~/root";
import type { Route } from "./+types/about";

export const meta: Route.MetaFunction = ({ matches }) => {
  const siteName = rootDataFromMatches(matches)?.settings.siteName ?? "Frontpage";
  return pageMeta(matches, {
    title: "About Us",
    description: `${siteName} is an independent news site founded in New York in ${COMPANY.founded}: our story, mission, values, coverage and editorial standards.`,
    path: "/about",
  });
};

/** The six sections of the site (spec, section 1). */
const OFFERINGS: { slug: string; name: string; icon: LucideIcon; text: string }[] = [
  { slug: "news", name: "News", icon: Newspaper, text: "Breaking news and the day's essential stories, verified before they are published." },
  { slug: "entertainment", name: "Entertainment", icon: Film, text: "Film, television, music and culture: releases, reviews and the people behind them." },
  { slug: "sport", name: "Sports", icon: Trophy, text: "Results, analysis and features from the leagues, teams and athletes you follow." },
  { slug: "worldnews", name: "World News", icon: Globe, text: "Events around the globe and what they mean for readers in the United States." },
  { slug: "technology", name: "Technology", icon: Cpu, text: "Gadgets, software, science and the companies shaping how we live and work." },
  { slug: "schools", name: "Schools", icon: GraduationCap, text: "Education news for students, parents and teachers, from classrooms to campuses." },
];

const VALUES: { title: string; icon: LucideIcon; text: string }[] = [
  { title: "Accuracy", icon: BadgeCheck, text: "We check facts before we publish and correct our mistakes openly." },
  { title: "Independence", icon: Scale, text: "Advertisers and owners have no say in what we report or how we report it." },
  { title: "Fairness", icon: Users, text: "We seek out the people involved in a story and give them a chance to respond." },
  { title: "Transparency", icon: Eye, text: "We say how we know what we know, and label opinion and advertising clearly." },
  { title: "Community", icon: Heart, text: "Our comments are open to every reader, and we listen to what they tell us." },
  { title: "Curiosity", icon: Lightbulb, text: "We ask the next question and follow stories past the headline." },
];

const REASONS: { title: string; icon: LucideIcon; text: string }[] = [
  { title: "Fast and reliable", icon: Clock, text: "Stories are updated as they develop, without trading speed for accuracy." },
  { title: "Clear and complete", icon: Compass, text: "Context and explainers that tell you what happened and why it matters." },
  { title: "Free to read", icon: Award, text: "Every article is free, supported by clearly labelled advertising." },
  { title: "Made for every screen", icon: Smartphone, text: "A fast, accessible site that reads well on a phone, a tablet or a desktop." },
];

function SectionHeading({ id, children }: { id: string; children: string }) {
  return (
    <h2 id={id} className="font-serif text-3xl font-bold text-slate-900">
      {children}
    </h2>
  );
}

export default function About() {
  useScrollToTopOnOpen();
  const c = useSiteContacts();
  return (
    <main className="flex-1">
      <StaticHero icon={Newspaper} title={`About ${c.siteName}`}>
        <p>
          Independent news for the United States and the world, reported from {COMPANY.city} since {COMPANY.founded}.
        </p>
      </StaticHero>

      <div className="mx-auto max-w-5xl space-y-16 px-4 py-12 sm:py-16">
        <section aria-labelledby="our-story" className="mx-auto max-w-3xl">
          <SectionHeading id="our-story">Our Story</SectionHeading>
          <div className={`${proseClass} mt-4 text-lg leading-8`}>
            <p>
              {c.siteName} was founded in {COMPANY.founded} in {COMPANY.city} by a small group of reporters and editors
              who believed readers deserved a news site that was quick without being careless, and free without being
              cluttered. We started with a single newsroom desk and a simple promise: tell people what happened, tell them
              why it matters, and get it right.
            </p>
            <p>
              Since then we have grown into a team covering breaking news, entertainment, sports, world affairs,
              technology and education, for readers across the United States and around the world. The promise has not
              changed.
            </p>
          </div>
        </section>

        <section aria-label="Mission and vision" className="grid gap-6 md:grid-cols-2">
          <div className="rounded-xl border border-slate-200 bg-brand-50 p-6">
            <Target className="h-8 w-8 text-brand-700" aria-hidden="true" />
            <h2 className="mt-3 font-serif text-2xl font-bold text-slate-900">Our Mission</h2>
            <p className="mt-3 leading-7 text-slate-700">
              To deliver accurate, timely and fair journalism that helps people understand their world and take part in
              the conversations that shape it.
            </p>
          </div>
          <div className="rounded-xl border border-slate-200 bg-amber-50 p-6">
            <Eye className="h-8 w-8 text-amber-800" aria-hidden="true" />
            <h2 className="mt-3 font-serif text-2xl font-bold text-slate-900">Our Vision</h2>
            <p className="mt-3 leading-7 text-slate-700">
              A public that is better informed every day, served by a newsroom that earns its trust story by story and
              stays open to every reader.
            </p>
          </div>
        </section>

        <section aria-labelledby="our-values">
          <SectionHeading id="our-values">Our Values</SectionHeading>
          <ul className="mt-6 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
            {VALUES.map(({ title, icon: Icon, text }) => (
              <li key={title} className="rounded-lg border border-slate-200 p-5">
                <Icon className="h-6 w-6 text-brand-700" aria-hidden="true" />
                <h3 className="mt-3 text-lg font-semibold text-slate-900">{title}</h3>
                <p className="mt-1 text-slate-700">{text}</p>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="what-we-offer">
          <SectionHeading id="what-we-offer">What We Offer</SectionHeading>
          <p className="mt-3 max-w-3xl text-lg text-slate-700">Six sections, one newsroom, updated throughout the day.</p>
          <ul className="mt-6 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
            {OFFERINGS.map(({ slug, name, icon: Icon, text }) => (
              <li key={slug}>
                <Link
                  to={`/category/${slug}`}
                  prefetch="intent"
                  className="group flex h-full flex-col rounded-lg border border-slate-200 p-5 transition-colors hover:border-brand-600 hover:bg-brand-50"
                >
                  <Icon className="h-7 w-7 text-brand-700" aria-hidden="true" />
                  <h3 className="mt-3 text-lg font-semibold text-slate-900 group-hover:text-brand-800">{name}</h3>
                  <p className="mt-1 text-slate-700">{text}</p>
                </Link>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="why-choose-us" className="rounded-2xl bg-slate-50 p-6 sm:p-10">
          <SectionHeading id="why-choose-us">Why Choose Us</SectionHeading>
          <ul className="mt-6 grid gap-6 sm:grid-cols-2">
            {REASONS.map(({ title, icon: Icon, text }) => (
              <li key={title} className="flex gap-4">
                <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-full bg-brand-700 text-white">
                  <Icon className="h-5 w-5" aria-hidden="true" />
                </span>
                <div>
                  <h3 className="text-lg font-semibold text-slate-900">{title}</h3>
                  <p className="mt-1 text-slate-700">{text}</p>
                </div>
              </li>
            ))}
          </ul>
        </section>

        <AdSlot name="about" />

        <div className="grid gap-10 md:grid-cols-2">
          <section aria-labelledby="company-information">
            <div className="flex items-center gap-3">
              <Building2 className="h-7 w-7 text-brand-700" aria-hidden="true" />
              <SectionHeading id="company-information">Company Information</SectionHeading>
            </div>
            <dl className="mt-5 divide-y divide-slate-200 rounded-lg border border-slate-200">
              {[
                ["Legal name", c.companyName],
                ["Company type", `Limited liability company (${COMPANY.legalForm})`],
                ["Registered in", `${COMPANY.registeredIn}, United States`],
                ["Headquarters", `${COMPANY.city}, United States`],
                ["Founded", String(COMPANY.founded)],
              ].map(([term, value]) => (
                <div key={term} className="grid grid-cols-[9rem_1fr] gap-3 px-4 py-3 text-sm sm:text-base">
                  <dt className="font-medium text-slate-600">{term}</dt>
                  <dd className="text-slate-900">{value}</dd>
                </div>
              ))}
            </dl>
          </section>

          <section aria-labelledby="team-standards">
            <div className="flex items-center gap-3">
              <ShieldCheck className="h-7 w-7 text-brand-700" aria-hidden="true" />
              <SectionHeading id="team-standards">Our Team and Editorial Standards</SectionHeading>
            </div>
            <div className={`${proseClass} mt-4`}>
              <p>
                Our reporters, editors, photographers and producers work from {COMPANY.city} and with correspondents
                across the country and abroad. Every story is read by an editor before it is published.
              </p>
              <ul>
                <li>Facts are checked against named sources and documents, with a second source for sensitive claims.</li>
                <li>News and opinion are kept apart, and opinion is always labelled.</li>
                <li>Corrections are made promptly and noted on the article.</li>
                <li>Advertising is separated from journalism and marked as such.</li>
              </ul>
              <p>
                Spotted an error? Write to <a href={`mailto:${c.email}`}>{c.email}</a>. Read more in our{" "}
                <Link to="/disclaimer">Disclaimer</Link>.
              </p>
            </div>
          </section>
        </div>

        <section aria-labelledby="join-us" className="rounded-2xl bg-slate-900 px-6 py-12 text-center text-white">
          <h2 id="join-us" className="font-serif text-3xl font-bold">
            Be part of the story
          </h2>
          <p className="mx-auto mt-3 max-w-xl text-slate-300">
            Have a tip, a question or feedback for our newsroom? We read every message.
          </p>
          <div className="mt-6 flex flex-wrap justify-center gap-3">
            <Button asChild size="lg" variant="accent">
              <Link to="/contact">Contact Us</Link>
            </Button>
            <Button asChild size="lg" variant="outline-light">
              <Link to="/">Read the Latest News</Link>
            </Button>
          </div>
        </section>
      </div>
    </main>
  );
}
