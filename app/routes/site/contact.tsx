import { Clock, Mail, MapPin, Megaphone, MessageSquare, Newspaper, Phone, Send, type LucideIcon } from "lucide-react";
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { AdSlot } from "~/components/ad-slot";
import { StaticHero } from "~/components/static/legal-page";
import { BUSINESS_HOURS, COMPANY, useSiteContacts } from "~/components/static/site-contacts";
import { Button } from "~/components/ui/button";
import { Input, Label, Textarea } from "~/components/ui/input";
import { toast } from "~/components/ui/toaster";
import { pageMeta } from "~/page-meta";
import { rootDataFromMatches } from "~/root";
import type { Route } from "./+types/contact";

/** Spec: the send is simulated with a 1-second delay; no network call is made. */
export const SIMULATED_SEND_MS = 1000;

export const meta: Route.MetaFunction = ({ matches }) => {
  const siteName = rootDataFromMatches(matches)?.settings.siteName ?? "Frontpage";
  return pageMeta(matches, {
    title: "Contact Us",
    description: `Get in touch with the ${siteName} newsroom: e-mail, phone, our New York office, business hours, press and advertising contacts.`,
    path: "/contact",
  });
};

type ContactMessage = { name: string; email: string; subject: string; message: string };
const EMPTY_MESSAGE: ContactMessage = { name: "", email: "", subject: "", message: "" };

function ContactCard({ icon: Icon, title, children }: { icon: LucideIcon; title: string; children: ReactNode }) {
  return (
    <li className="flex gap-4 rounded-lg border border-slate-200 bg-white p-5">
      <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        <Icon className="h-5 w-5" aria-hidden="true" />
      </span>
      <div className="min-w-0">
        <h3 className="font-semibold text-slate-900">{title}</h3>
        <div className="mt-1 break-words text-slate-700">{children}</div>
      </div>
    </li>
  );
}

function ContactForm() {
  const [values, setValues] = useState<ContactMessage>(EMPTY_MESSAGE);
  const [sending, setSending] = useState(false);
  // The form works only in the browser (nothing is sent to the server), so submitting waits for hydration.
  const [hydrated, setHydrated] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    setHydrated(true);
    return () => clearTimeout(timer.current);
  }, []);

  function update(field: keyof ContactMessage) {
    return (event: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: event.target.value }));
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    if (Object.values(values).some((value) => value.trim() === "")) {
      toast.error("Missing Information", "Please fill in all fields before submitting.");
      return;
    }
    setSending(true);
    timer.current = setTimeout(() => {
      setSending(false);
      setValues(EMPTY_MESSAGE);
      toast.success("Message Sent!", "Thank you for contacting us. We'll get back to you within 24 hours.");
    }, SIMULATED_SEND_MS);
  }

  return (
    <form onSubmit={handleSubmit} noValidate className="space-y-5">
      <div className="grid gap-5 sm:grid-cols-2">
        <div className="space-y-2">
          <Label htmlFor="contact-name">Name</Label>
          <Input id="contact-name" name="name" autoComplete="name" placeholder="Your name" value={values.name} onChange={update("name")} required />
        </div>
        <div className="space-y-2">
          <Label htmlFor="contact-email">Email</Label>
          <Input
            id="contact-email"
            name="email"
            type="email"
            autoComplete="email"
            placeholder="you@example.com"
            value={values.email}
            onChange={update("email")}
            required
          />
        </div>
      </div>
      <div className="space-y-2">
        <Label htmlFor="contact-subject">Subject</Label>
        <Input id="contact-subject" name="subject" placeholder="What is this about?" value={values.subject} onChange={update("subject")} required />
      </div>
      <div className="space-y-2">
        <Label htmlFor="contact-message">Message</Label>
        <Textarea
          id="contact-message"
          name="message"
          rows={6}
          placeholder="Tell us how we can help"
          value={values.message}
          onChange={update("message")}
          required
        />
      </div>
      <Button type="submit" size="lg" className="w-full sm:w-auto" disabled={!hydrated || sending}>
        <Send className="h-4 w-4" aria-hidden="true" />
        {sending ? "Sending..." : "Send Message"}
      </Button>
    </form>
  );
}

export default function Contact() {
  const c = useSiteContacts();
  return (
    <main className="flex-1">
      <StaticHero icon={MessageSquare} title="Contact Us">
        <p>
          Questions, story tips or feedback? The {c.siteName} team would love to hear from you. We reply within 24 hours.
        </p>
      </StaticHero>

      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)] lg:py-16">
        <section aria-labelledby="get-in-touch">
          <h2 id="get-in-touch" className="font-serif text-2xl font-bold text-slate-900">
            Get in Touch
          </h2>
          <ul className="mt-5 space-y-4">
            <ContactCard icon={Mail} title="Email">
              <a href={`mailto:${c.email}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                {c.email}
              </a>
            </ContactCard>
            <ContactCard icon={Phone} title="Phone">
              <a href={c.phoneHref} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                {c.phone}
              </a>
            </ContactCard>
            <ContactCard icon={MapPin} title="Address">
              <address className="not-italic">
                {c.companyName}
                {COMPANY.address.map((line) => (
                  <span key={line} className="block">
                    {line}
                  </span>
                ))}
              </address>
            </ContactCard>
            <ContactCard icon={Clock} title="Business Hours">
              <ul>
                {BUSINESS_HOURS.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            </ContactCard>
          </ul>
        </section>

        <section className="rounded-xl border border-slate-200 bg-slate-50 p-6 sm:p-8">
          <h2 className="font-serif text-2xl font-bold text-slate-900">
            Send Us a Message
          </h2>
          <p className="mt-2 mb-6 text-slate-700">All fields are required.</p>
          <ContactForm />
        </section>
      </div>

      <div className="mx-auto max-w-6xl space-y-10 px-4 pb-14">
        <section aria-labelledby="press-advertising">
          <h2 id="press-advertising" className="font-serif text-2xl font-bold text-slate-900">
            Press and Advertising
          </h2>
          <ul className="mt-5 grid gap-4 md:grid-cols-2">
            <ContactCard icon={Newspaper} title="Press inquiries">
              <p>Interviews, statements and media requests for our newsroom.</p>
              <a href={`mailto:${c.pressEmail}`} className="mt-2 inline-block font-medium text-brand-700 underline-offset-2 hover:underline">
                {c.pressEmail}
              </a>
            </ContactCard>
            <ContactCard icon={Megaphone} title="Advertising">
              <p>Display advertising, sponsorships and partnership opportunities.</p>
              <a
                href={`mailto:${c.advertisingEmail}`}
                className="mt-2 inline-block font-medium text-brand-700 underline-offset-2 hover:underline"
              >
                {c.advertisingEmail}
              </a>
            </ContactCard>
          </ul>
        </section>

        <AdSlot name="contact" />
      </div>
    </main>
  );
}
