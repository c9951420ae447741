import { useEffect, useRef } from "react";
import { data, Form, useNavigation, useSubmit } from "react-router";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { ConfirmDialog } from "~/components/admin/confirm-dialog";
import { Button } from "~/components/ui/button";
import { Input, Label } from "~/components/ui/input";
import { toast } from "~/components/ui/toaster";
import { accountsWithTwoFactor, grantsByAccount, listAccounts, setGrant, setRole } from "~/domain/accounts/accounts.server";
import { actorOf } from "~/domain/accounts/actor";
import { requireCapability } from "~/domain/accounts/guard.server";
import { createInvitation, listPendingInvitations, withdrawInvitation } from "~/domain/accounts/invitations.server";
import { GRANT_LABELS, GRANTABLE, isGrantable, isRole, ROLE_DESCRIPTIONS, ROLE_LABELS, ROLES, type GrantableCapability, type Role } from "~/domain/accounts/roles";
import { recordActivity } from "~/domain/activity/activity.server";
import { getSettings, setRequireTwoFactor } from "~/domain/settings/settings.server";
import { AppError } from "~/lib/app-error";
import { formatPublishDate } from "~/lib/dates";
import { formValues, refuse, type Refusal } from "~/lib/forms";
import { invitationMail } from "~/lib/mail.server";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/team";

// The Team screen (decision 0017, admins only): who holds which role, invitations by e-mail, role
// changes and removal. Every action is checked on the server; the site always keeps one admin.

export async function loader({ request, context }: Route.LoaderArgs) {
  const me = await requireCapability(request, context, "team.manage");
  const [members, invitations, settings, withTwoFactor, grants] = await Promise.all([
    listAccounts(context.db, { withRole: true }),
    listPendingInvitations(context.db),
    getSettings(context.db),
    accountsWithTwoFactor(context.db),
    grantsByAccount(context.db),
  ]);
  const timeZone = context.env.TIME_ZONE;
  return {
    me: me.id,
    requireTwoFactor: settings.requireTwoFactor,
    members: members.map((m) => ({
      id: m.id,
      email: m.email,
      name: m.name && m.name !== m.email ? m.name : null,
      role: m.role as Role,
      twoFactor: withTwoFactor.has(m.id),
      grants: (grants.get(m.id) ?? []).filter(isGrantable),
      since: m.roleSince ? formatPublishDate(m.roleSince, timeZone) : "",
    })),
    invitations: invitations.map((i) => ({ ...i, expires: formatPublishDate(i.expiresAt, timeZone), expiresAt: i.expiresAt.toISOString() })),
  };
}

export type TeamActionData =
  | { ok: true; intent: "invite"; email: string; role: Role; link: string }
  | { ok: true; intent: "role" | "remove" | "withdraw"; email?: string }
  | { ok: true; intent: "grant"; email: string; capability: GrantableCapability; on: boolean }
  | { ok: true; intent: "require-2fa"; required: boolean }
  | (Refusal & { intent?: string });

const TEAM_FIELDS = ["intent", "email", "role", "userId", "id", "required", "capability", "on"] as const;

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireCapability(request, context, "team.manage");
  const actor = actorOf(user);
  const { intent, email, role, userId, id, required, capability, on } = formValues(await request.formData(), TEAM_FIELDS);
  try {
    if (intent === "require-2fa") {
      const on = required === "on";
      await setRequireTwoFactor(context.db, on, actor);
      context.log.info({ required: on }, "two-factor requirement changed");
      return data<TeamActionData>({ ok: true, intent, required: on });
    }
    if (intent === "invite") {
      if (!email.trim()) throw new AppError("missing_fields", "Enter the e-mail address to invite.", { field: "email" });
      const invitation = await createInvitation(context.db, actor, email, role);
      const link = `${context.env.publicUrl}/join/${invitation.token}`;
      const settings = await getSettings(context.db);
      await context.mailer
        .send(invitationMail({ to: invitation.email, siteName: settings.siteName, url: link, role: ROLE_LABELS[invitation.role], invitedBy: actor.name, expiresAt: invitation.expiresAt }))
        .catch((err: unknown) => context.log.error({ err, to: invitation.email }, "invitation e-mail could not be sent"));
      context.log.info({ email: invitation.email, role: invitation.role }, "team invitation created");
      return data<TeamActionData>({ ok: true, intent, email: invitation.email, role: invitation.role, link });
    }
    if (intent === "grant") {
      if (!isGrantable(capability)) throw new AppError("invalid_input", "This permission cannot be given to one account.", { field: "capability" });
      const members = await listAccounts(context.db, { withRole: true });
      const member = members.find((m) => m.id === userId);
      if (!member) throw new AppError("not_found", "This account is not on the team (any more).");
      const give = on === "on";
      await context.db.transaction(async (tx) => {
        const changed = await setGrant(context.db, member.id, capability, give, user.id, { inTx: tx });
        if (changed) {
          await recordActivity(tx, actor, { kind: "grant.change", objectType: "account", objectId: member.id, objectLabel: member.email, details: { capability, on: give } });
        }
      });
      context.log.info({ userId: member.id, capability, on: give }, "team grant changed");
      return data<TeamActionData>({ ok: true, intent, email: member.email, capability, on: give });
    }
    if (intent === "withdraw") {
      await withdrawInvitation(context.db, actor, id);
      return data<TeamActionData>({ ok: true, intent });
    }
    if (intent === "role" || intent === "remove") {
      const next = intent === "remove" ? null : isRole(role) ? role : null;
      if (intent === "role" && !next) throw new AppError("invalid_input", "Choose a role: Admin, Editor or Author.", { field: "role" });
      const members = await listAccounts(context.db, { withRole: true });
      const member = members.find((m) => m.id === userId);
      if (!member) throw new AppError("not_found", "This account is not on the team (any more).");
      await context.db.transaction(async (tx) => {
        const previous = await setRole(context.db, member.id, next, { inTx: tx });
        if (previous !== next) {
          await recordActivity(tx, actor, { kind: "role.change", objectType: "account", objectId: member.id, objectLabel: member.email, details: { role: next, previous } });
        }
      });
      context.log.info({ userId: member.id, role: next }, "team role changed");
      return data<TeamActionData>({ ok: true, intent, email: member.email });
    }
    throw new AppError("invalid_input", "Unknown action.");
  } catch (error) {
    return refuse(error, { intent, email, role });
  }
}

export const meta: Route.MetaFunction = ({ matches }) => backOfficeMeta(matches, { title: "Team", path: "/admin/team" });

const SELECT = "h-10 rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900";

function RoleSelect({ id, defaultValue, label }: { id: string; defaultValue: Role; label: string }) {
  return (
    <>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <select id={id} name="role" defaultValue={defaultValue} className={SELECT}>
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {ROLE_LABELS[r]}
          </option>
        ))}
      </select>
    </>
  );
}

export default function Team({ loaderData, actionData }: Route.ComponentProps) {
  const { members, invitations, me, requireTwoFactor } = loaderData;
  const answer = actionData as TeamActionData | undefined;
  const submit = useSubmit();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";

  const lastInvited = answer?.ok && answer.intent === "invite" ? answer : null;
  // While the next invitation is on its way, the previous one's link is gone (issue 39): nobody copies
  // it for the new address.
  // (formData stays set while the page reloads its data after the action: the new answer comes then.)
  const sendingInvitation = navigation.state !== "idle" && navigation.formData?.get("intent") === "invite";
  const invited = sendingInvitation ? null : lastInvited;
  const linkRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!answer) return;
    if (!answer.ok) toast.error("Error", answer.error);
    // A sent invitation is confirmed in the page, beside its link (shown once): no toast to cover it.
    else if (answer.intent === "invite") return;
    else if (answer.intent === "role") toast.success("Role changed", `${answer.email} has the new role from their next click.`);
    else if (answer.intent === "grant")
      toast.success(
        answer.on ? "Permission given" : "Permission taken back",
        `${answer.email} ${answer.on ? "may" : "may no longer"} ${GRANT_LABELS[answer.capability].replace(/^May /, "").toLowerCase()}, from their next click.`,
      );
    else if (answer.intent === "remove") toast.success("Access removed", `${answer.email} keeps the account but no longer opens the back office.`);
    else if (answer.intent === "require-2fa")
      toast.success(
        answer.required ? "Two-factor required" : "Two-factor optional",
        answer.required ? "Members without it are asked to turn it on at their next click." : "Members may turn it off again.",
      );
    else toast.success("Invitation withdrawn", "Its link no longer works.");
  }, [answer]);

  // The link takes the focus once it is shown (the answer arrives while the page still reloads its data).
  useEffect(() => {
    if (invited) linkRef.current?.focus();
  }, [invited]);

  const inviteRefusal = answer && !answer.ok && answer.intent === "invite" ? answer : null;

  return (
    <main className="mx-auto w-full min-w-0 max-w-6xl flex-1 px-4 py-8">
      <AdminPageHeader title="Team" description="Who works in the back office, and with which role." />

      {answer && !answer.ok && answer.intent !== "invite" ? (
        <p role="alert" className="mb-4 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {answer.error}
        </p>
      ) : null}

      <section aria-labelledby="members-heading" className="mb-8">
        <h2 id="members-heading" className="mb-3 text-lg font-semibold text-slate-900">
          Members ({members.length})
        </h2>
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {members.map((m) => (
            <li key={m.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm">
              <div className="min-w-0">
                <p className="break-words font-medium text-slate-900">
                  {m.name ? `${m.name} · ` : ""}
                  {m.email}
                  {m.id === me ? <span className="ml-1 text-xs font-normal text-slate-600">(you)</span> : null}
                </p>
                <p className="text-xs text-slate-600">
                  {ROLE_LABELS[m.role]}
                  {m.since ? ` since ${m.since}` : ""}
                  {" · "}
                  {m.twoFactor ? "Two-factor on" : "No two-factor"}
                </p>
                {(Object.keys(GRANTABLE) as GrantableCapability[])
                  .filter((capability) => (GRANTABLE[capability] as readonly Role[]).includes(m.role))
                  .map((capability) => {
                    const held = m.grants.includes(capability);
                    return (
                      <label key={capability} className="mt-2 flex items-center gap-2 text-sm text-slate-800">
                        <input
                          key={`${capability}-${held}`}
                          type="checkbox"
                          defaultChecked={held}
                          disabled={busy}
                          className="h-4 w-4"
                          onChange={(e) => submit({ intent: "grant", userId: m.id, capability, on: e.currentTarget.checked ? "on" : "off" }, { method: "post" })}
                        />
                        {GRANT_LABELS[capability]}
                      </label>
                    );
                  })}
              </div>
              <div className="flex flex-wrap items-center gap-2">
                <Form method="post" className="flex items-center gap-2">
                  <input type="hidden" name="intent" value="role" />
                  <input type="hidden" name="userId" value={m.id} />
                  <RoleSelect id={`role-${m.id}`} defaultValue={m.role} label={`Role of ${m.email}`} />
                  <Button type="submit" variant="outline" disabled={busy} aria-label={`Change role of ${m.email}`}>
                    Change role
                  </Button>
                </Form>
                <ConfirmDialog
                  title="Remove access"
                  description={`${m.email} keeps their account but can no longer open the back office. Their articles stay.`}
                  confirmLabel="Remove access"
                  onConfirm={() => submit({ intent: "remove", userId: m.id }, { method: "post" })}
                  trigger={
                    <Button type="button" variant="outline" disabled={busy} aria-label={`Remove access of ${m.email}`}>
                      Remove access
                    </Button>
                  }
                />
              </div>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="two-factor-heading" className="mb-8 rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
        <h2 id="two-factor-heading" className="mb-1 text-lg font-semibold text-slate-900">
          Two-factor authentication
        </h2>
        <p className="mb-4 text-sm text-slate-700">
          {requireTwoFactor
            ? "Required: every back-office account must sign in with a code from an authenticator app. Members without it are sent to set it up."
            : "Optional: each member may turn it on in Your account. Requiring it sends members without it to set it up at their next click."}
        </p>
        <Form method="post">
          <input type="hidden" name="intent" value="require-2fa" />
          <input type="hidden" name="required" value={requireTwoFactor ? "off" : "on"} />
          <Button type="submit" variant={requireTwoFactor ? "outline" : "default"} disabled={busy}>
            {requireTwoFactor ? "Make two-factor optional" : "Require two-factor for everyone"}
          </Button>
        </Form>
      </section>

      <section aria-labelledby="invite-heading" className="mb-8 rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
        <h2 id="invite-heading" className="mb-1 text-lg font-semibold text-slate-900">
          Invite someone
        </h2>
        <p className="mb-4 text-sm text-slate-700">They get an e-mail with a link to sign up (or sign in) and join with the role you choose. The link works once, for 7 days.</p>
        {sendingInvitation ? (
          <p role="status" className="mb-4 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm text-slate-800">
            Sending the invitation…
          </p>
        ) : null}
        {invited ? (
          <div role="status" className="mb-4 rounded-md border border-green-200 bg-green-50 p-3 text-sm text-green-900">
            <p>
              <strong>Invitation sent</strong> to <strong className="break-all">{invited.email}</strong> as {ROLE_LABELS[invited.role]}. If the e-mail does not arrive,
              give them this link (shown once):
            </p>
            <Label htmlFor="invite-link" className="sr-only">
              Invitation link
            </Label>
            <Input ref={linkRef} id="invite-link" readOnly value={invited.link} className="mt-2 font-mono" onFocus={(e) => e.currentTarget.select()} />
          </div>
        ) : null}
        {/* A new form after each invitation sent: the address field is empty again, so a second click cannot invite twice. */}
        <Form key={lastInvited?.link ?? "invite"} method="post" className="space-y-4">
          <input type="hidden" name="intent" value="invite" />
          <div className="space-y-1">
            <Label htmlFor="invite-email">E-mail address</Label>
            <Input
              id="invite-email"
              name="email"
              type="email"
              required
              autoComplete="off"
              defaultValue={inviteRefusal?.values?.email ?? ""}
              aria-invalid={inviteRefusal ? true : undefined}
              aria-describedby={inviteRefusal ? "invite-error" : undefined}
              className="max-w-md"
            />
            {inviteRefusal ? (
              <p id="invite-error" className="text-sm font-medium text-red-700">
                {inviteRefusal.error}
              </p>
            ) : null}
          </div>
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-slate-900">Role</legend>
            {ROLES.map((r) => (
              <label key={r} className="flex items-start gap-2 text-sm text-slate-800">
                <input type="radio" name="role" value={r} defaultChecked={r === "author"} className="mt-1" />
                <span>
                  <span className="font-medium">{ROLE_LABELS[r]}</span> — {ROLE_DESCRIPTIONS[r]}
                </span>
              </label>
            ))}
          </fieldset>
          <Button type="submit" disabled={busy}>
            Send invitation
          </Button>
        </Form>
      </section>

      <section aria-labelledby="invitations-heading">
        <h2 id="invitations-heading" className="mb-3 text-lg font-semibold text-slate-900">
          Pending invitations ({invitations.length})
        </h2>
        {invitations.length === 0 ? (
          <p className="text-sm text-slate-700">No invitations are waiting.</p>
        ) : (
          <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
            {invitations.map((i) => (
              <li key={i.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm">
                <div className="min-w-0">
                  <p className="break-words font-medium text-slate-900">{i.email}</p>
                  <p className="text-xs text-slate-600">
                    {ROLE_LABELS[i.role]}, invited by {i.invitedByName}, until <time dateTime={i.expiresAt}>{i.expires}</time>
                  </p>
                </div>
                <Form method="post">
                  <input type="hidden" name="intent" value="withdraw" />
                  <input type="hidden" name="id" value={i.id} />
                  <Button type="submit" variant="outline" disabled={busy} aria-label={`Withdraw the invitation of ${i.email}`}>
                    Withdraw
                  </Button>
                </Form>
              </li>
            ))}
          </ul>
        )}
      </section>
    </main>
  );
}
