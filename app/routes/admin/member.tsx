import { useState } from "react";
import { data, Form, redirect, useActionData, useNavigation, useSubmit } from "react-router";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { ConfirmDialog } from "~/components/admin/confirm-dialog";
import { withNotice } from "~/components/admin/use-notice-toast";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { useAnswerToast } from "~/components/admin/use-answer-toast";
import { actorOf } from "~/domain/accounts/actor";
import { requireCapability } from "~/domain/accounts/guard.server";
import { can } from "~/domain/accounts/roles";
import { deleteMember, getMemberForAdmin, grantComp, listTierChoices, resendSignInLink, takeBackComp } from "~/domain/members/members-admin.server";
import { COMP_FIELDS, compGrantSchema, formatMoney, MEMBER_STATUS_LABELS } from "~/domain/members/members-admin.schema";
import { AppError } from "~/lib/app-error";
import { formatCardDate, formatCommentDate } from "~/lib/dates";
import { formValues, parseForm, refuse, type Refusal } from "~/lib/forms";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/member";

export type MemberActionData = { ok: true; intent: string; message: string } | (Refusal<"tierId" | "until"> & { intent: string });

const EMAIL_STATES: Record<string, string> = {
  pending: "Sign-up not confirmed",
  active: "Receives e-mail",
  unsubscribed: "Unsubscribed",
  bounced: "Address bounced",
  complained: "Marked a newsletter as spam",
};

const SUBSCRIPTION_STATUSES: Record<string, string> = {
  active: "Active",
  trialing: "Trial",
  past_due: "Past due",
  unpaid: "Unpaid",
  canceled: "Canceled",
  incomplete: "Incomplete",
  incomplete_expired: "Expired before payment",
  paused: "Paused",
};

/** A timeline line as people read it (the event kinds of member_events and the subscriptions' starts and ends). */
function eventText(kind: string, detail: Record<string, unknown>): string {
  const tier = typeof detail.tier === "string" ? detail.tier : "a tier";
  switch (kind) {
    case "signed_up":
      return "Signed up";
    case "subscription_started":
      return `Subscribed to ${tier}${detail.cadence === "year" ? " (yearly)" : detail.cadence === "month" ? " (monthly)" : ""}`;
    case "subscription_ended":
      return `Subscription to ${tier} ended`;
    case "comp_granted":
      return `Complimentary ${tier}${typeof detail.until === "string" ? ` until ${detail.until.slice(0, 10)}` : ", no end"}${detail.source === "import" ? " (import)" : ""}`;
    case "comp_removed":
      return `Complimentary ${tier} taken back`;
    case "sign_in_link_sent":
      return "Sign-in link sent by the newsroom";
    default:
      return kind.replace(/[._]/g, " ").replace(/^./, (c) => c.toUpperCase());
  }
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireCapability(request, context, "members.view");
  const billing = can(user.role, "members.billing");
  const canManage = can(user.role, "members.manage");
  const [member, tiers] = await Promise.all([getMemberForAdmin(context.db, params.id, { billing }), canManage ? listTierChoices(context.db) : []]);
  if (!member) throw data({ error: "This member no longer exists." }, { status: 404 });
  const timeZone = context.env.TIME_ZONE;
  return {
    canManage,
    billing,
    tiers: tiers.filter((t) => !t.archived),
    member: {
      id: member.id,
      email: member.email,
      name: member.name,
      emailState: EMAIL_STATES[member.emailState] ?? member.emailState,
      createdAt: formatCardDate(member.createdAt, timeZone),
      status: MEMBER_STATUS_LABELS[member.memberStatus],
      tiers: member.tiers,
      newsletters: member.newsletters,
      comp: member.comp ? { tierName: member.comp.tierName, until: member.comp.until ? formatCardDate(member.comp.until, timeZone) : null, active: member.comp.active } : null,
      subscriptions: member.subscriptions.map((s) => ({
        id: s.id,
        tier: s.tierName ?? "A deleted tier",
        status: SUBSCRIPTION_STATUSES[s.status] ?? s.status,
        cadence: s.cadence === "year" ? "Yearly" : "Monthly",
        // Only with members.billing: the loader leaves it out for editors.
        ...(s.amount !== undefined && s.currency ? { amount: `${formatMoney(s.amount, s.currency)}/${s.cadence === "year" ? "yr" : "mo"}` } : {}),
        periodEnd: s.currentPeriodEnd ? `${s.cancelAtPeriodEnd ? "Ends" : "Renews"} ${formatCardDate(s.currentPeriodEnd, timeZone)}` : "—",
      })),
      timeline: member.timeline.map((e, i) => ({ key: `${e.at.getTime()}-${i}`, at: formatCommentDate(e.at, timeZone), text: eventText(e.kind, e.detail) })),
    },
  };
}

/** Comp grant and take back, sign-in link, delete: admins only (members.manage), enforced here before anything is read. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = actorOf(await requireCapability(request, context, "members.manage"));
  const { intent, ...values } = formValues(await request.formData(), ["intent", ...COMP_FIELDS]);
  try {
    if (intent === "comp-grant") {
      const input = parseForm(compGrantSchema, values, { required: ["tierId"] });
      const given = await grantComp(context.db, actor, params.id, input, { timeZone: context.env.TIME_ZONE });
      context.log.info({ memberId: params.id, tier: given.tierName }, "complimentary plan given");
      return data<MemberActionData>({ ok: true, intent, message: `Complimentary plan given: ${given.tierName}` });
    }
    if (intent === "comp-remove") {
      await takeBackComp(context.db, actor, params.id);
      context.log.info({ memberId: params.id }, "complimentary plan taken back");
      return data<MemberActionData>({ ok: true, intent, message: "Complimentary plan taken back" });
    }
    if (intent === "resend-link") {
      await resendSignInLink(context.db, actor, params.id, async (email) => {
        await context.memberAuth.api.signInMagicLink({ body: { email, callbackURL: "/account" }, headers: request.headers });
      });
      return data<MemberActionData>({ ok: true, intent, message: "Sign-in link sent" });
    }
    if (intent === "delete") {
      await deleteMember(context.db, context.billing, actor, params.id);
      context.log.info({ memberId: params.id }, "member erased");
      return redirect(withNotice("/admin/members", "member-deleted"));
    }
    throw new AppError("invalid_input", "Unknown action.");
  } catch (error) {
    const answer = refuse<"tierId" | "until">(error, values);
    return data<MemberActionData>({ ...answer.data, intent }, answer.init ?? undefined);
  }
}

export const meta: Route.MetaFunction = ({ matches, params }) => backOfficeMeta(matches, { title: "Member", path: `/admin/members/${params.id}` });

export default function AdminMember({ loaderData }: Route.ComponentProps) {
  const { member, canManage, billing, tiers } = loaderData;
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const submit = useSubmit();
  const [confirmDelete, setConfirmDelete] = useState(false);

  useAnswerToast(answer);
  const compRefusal = answer && !answer.ok && answer.intent === "comp-grant" ? answer : null;

  return (
    <main className="mx-auto w-full min-w-0 max-w-5xl flex-1 space-y-6 px-4 py-8">
      <AdminPageHeader title={member.email} description={member.name ?? undefined} back={{ to: "/admin/members", label: "Back to Members" }} />

      <section aria-labelledby="member-details" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="member-details" className="mb-3 font-semibold text-slate-900">
          Details
        </h2>
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
          <dt className="font-medium text-slate-700">E-mail</dt>
          <dd className="break-all text-slate-900">{member.email}</dd>
          <dt className="font-medium text-slate-700">Name</dt>
          <dd className="text-slate-900">{member.name ?? "—"}</dd>
          <dt className="font-medium text-slate-700">Signed up</dt>
          <dd className="text-slate-900">{member.createdAt}</dd>
          <dt className="font-medium text-slate-700">Plan</dt>
          <dd className="text-slate-900" data-testid="member-plan">
            {member.status}
            {member.tiers.length ? `: ${member.tiers.join(", ")}` : ""}
          </dd>
          <dt className="font-medium text-slate-700">E-mail state</dt>
          <dd className="text-slate-900">{member.emailState}</dd>
          <dt className="font-medium text-slate-700">Newsletters</dt>
          <dd className="text-slate-900">{member.newsletters.length ? member.newsletters.join(", ") : "None"}</dd>
        </dl>
      </section>

      <section aria-labelledby="member-subscriptions" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="member-subscriptions" className="mb-3 font-semibold text-slate-900">
          Subscriptions
        </h2>
        {member.subscriptions.length === 0 ? (
          <p className="text-sm text-slate-700">No paid subscription.</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead className="text-slate-800">
                <tr>
                  <th scope="col" className="py-2 pr-4 font-semibold">Tier</th>
                  <th scope="col" className="py-2 pr-4 font-semibold">Status</th>
                  <th scope="col" className="py-2 pr-4 font-semibold">Cadence</th>
                  {billing ? <th scope="col" className="py-2 pr-4 font-semibold">Amount</th> : null}
                  <th scope="col" className="py-2 pr-4 font-semibold">Period</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200">
                {member.subscriptions.map((s) => (
                  <tr key={s.id} data-testid="member-subscription">
                    <td className="py-2 pr-4">{s.tier}</td>
                    <td className="py-2 pr-4">{s.status}</td>
                    <td className="py-2 pr-4">{s.cadence}</td>
                    {billing ? <td className="py-2 pr-4 whitespace-nowrap">{"amount" in s ? s.amount : "—"}</td> : null}
                    <td className="py-2 pr-4 whitespace-nowrap">{s.periodEnd}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section aria-labelledby="member-comp" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="member-comp" className="mb-2 font-semibold text-slate-900">
          Complimentary plan
        </h2>
        <p className="mb-3 text-sm text-slate-800" data-testid="member-comp">
          {member.comp
            ? `${member.comp.tierName}, ${member.comp.until ? `${member.comp.active ? "until" : "ended"} ${member.comp.until}` : "no end date"}.`
            : "None."}
        </p>
        {canManage ? (
          tiers.length === 0 ? (
            <p className="text-sm text-slate-700">Create a paid tier at /admin/members/tiers to give complimentary plans.</p>
          ) : (
            <div className="flex flex-wrap items-end gap-3">
              <Form method="post" className="flex flex-wrap items-end gap-3">
                <input type="hidden" name="intent" value="comp-grant" />
                <div className="space-y-1">
                  <label htmlFor="comp-tier" className="block text-sm font-medium text-slate-800">
                    Tier
                  </label>
                  <select
                    id="comp-tier"
                    name="tierId"
                    defaultValue={tiers[0]?.id}
                    className="h-10 max-w-full rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900"
                    aria-invalid={compRefusal?.fieldErrors.tierId ? true : undefined}
                  >
                    {tiers.map((t) => (
                      <option key={t.id} value={t.id}>
                        {t.name}
                      </option>
                    ))}
                  </select>
                </div>
                <div className="w-44 space-y-1">
                  <label htmlFor="comp-until" className="block text-sm font-medium text-slate-800">
                    Until (optional)
                  </label>
                  <Input
                    id="comp-until"
                    type="date"
                    name="until"
                    aria-invalid={compRefusal?.fieldErrors.until ? true : undefined}
                    aria-describedby={compRefusal?.fieldErrors.until ? "comp-until-error" : undefined}
                  />
                </div>
                <Button type="submit" disabled={busy}>
                  {member.comp ? "Replace complimentary plan" : "Give complimentary plan"}
                </Button>
              </Form>
              {member.comp ? (
                <Form method="post">
                  <input type="hidden" name="intent" value="comp-remove" />
                  <Button type="submit" variant="outline" disabled={busy}>
                    Take it back
                  </Button>
                </Form>
              ) : null}
            </div>
          )
        ) : null}
        {compRefusal?.fieldErrors.until ? (
          <p id="comp-until-error" className="mt-2 text-sm text-red-700">
            {compRefusal.fieldErrors.until}
          </p>
        ) : null}
      </section>

      <section aria-labelledby="member-timeline" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="member-timeline" className="mb-3 font-semibold text-slate-900">
          Timeline
        </h2>
        <ol className="space-y-2 border-l-2 border-slate-200 pl-4 text-sm" data-testid="member-timeline">
          {member.timeline.map((e) => (
            <li key={e.key}>
              <span className="block text-slate-900">{e.text}</span>
              <span className="block text-xs text-slate-600">{e.at}</span>
            </li>
          ))}
        </ol>
      </section>

      {canManage ? (
        <section aria-labelledby="member-actions" className="flex flex-wrap gap-3 rounded-lg border border-slate-200 bg-white p-4">
          <h2 id="member-actions" className="sr-only">
            Actions
          </h2>
          <Form method="post">
            <input type="hidden" name="intent" value="resend-link" />
            <Button type="submit" variant="outline" disabled={busy}>
              Resend sign-in link
            </Button>
          </Form>
          <ConfirmDialog
            open={confirmDelete}
            onOpenChange={setConfirmDelete}
            trigger={
              <Button type="button" variant="destructive" disabled={busy}>
                Delete member
              </Button>
            }
            title="Delete Member"
            description={`Erase ${member.email} for good? Their paid subscriptions are canceled first; their newsletters and timeline go, and only a hash of the address is kept so an import cannot add them back. Payment records stay, without their name.`}
            onConfirm={() => submit({ intent: "delete" }, { method: "post" })}
          />
        </section>
      ) : null}
    </main>
  );
}
