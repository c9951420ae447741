import { useEffect, useRef } from "react";
import { data, Form, redirect, useActionData, useNavigation } from "react-router";
import { NewPasswordFields } from "~/components/admin/account-forms";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { Button } from "~/components/ui/button";
import { Input, Label } from "~/components/ui/input";
import { requireBackOfficeUser } from "~/domain/accounts/guard.server";
import {
  changePassword,
  confirmTwoFactor,
  newBackupCodes,
  signOutEverywhere,
  startTwoFactor,
  turnOffTwoFactor,
  type TwoFactorSetup,
} from "~/domain/accounts/profile.server";
import { BACK_OFFICE_IDLE_MINUTES, BACK_OFFICE_MAX_HOURS } from "~/domain/accounts/session-policy";
import { emailNotificationsOn, setEmailNotifications } from "~/domain/notifications/notifications.server";
import { getSettings } from "~/domain/settings/settings.server";
import { AppError } from "~/lib/app-error";
import { setCookiesOf } from "~/lib/auth-cookie";
import { formValues, refusalOf, type Refusal } from "~/lib/forms";
import { isAppError } from "~/lib/app-error";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/profile";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireBackOfficeUser(request, context);
  const settings = await getSettings(context.db);
  const emailNotifications = await emailNotificationsOn(context.db, user.id);
  return { email: user.email, twoFactorEnabled: user.twoFactorEnabled, required: settings.requireTwoFactor, emailNotifications };
}

const FIELDS = ["intent", "password", "code", "currentPassword", "newPassword", "confirmPassword", "emailNotifications"] as const;
type Field = (typeof FIELDS)[number];

type ProfileResult =
  | { ok: true; intent: string; message: string; setup?: TwoFactorSetup; backupCodes?: string[] }
  | (Refusal<Field> & { intent: string });

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireBackOfficeUser(request, context);
  const values = formValues(await request.formData(), FIELDS);
  const { intent } = values;
  try {
    switch (intent) {
      case "start-2fa": {
        const setup = await startTwoFactor(request, context, user, values.password);
        return data<ProfileResult>({ ok: true, intent, setup, message: "Scan the QR code, then enter the code your app shows." });
      }
      case "confirm-2fa": {
        const headers = await confirmTwoFactor(request, context, user, values.code);
        return data<ProfileResult>(
          { ok: true, intent, message: "Two-factor authentication is on. Each sign-in now asks for a code from your app." },
          { headers: setCookiesOf(headers) },
        );
      }
      case "disable-2fa": {
        const { requireTwoFactor } = await getSettings(context.db);
        await turnOffTwoFactor(request, context, user, values.password, requireTwoFactor);
        return data<ProfileResult>({ ok: true, intent, message: "Two-factor authentication is off." });
      }
      case "backup-codes": {
        const backupCodes = await newBackupCodes(request, context, user, values.password);
        return data<ProfileResult>({ ok: true, intent, backupCodes, message: "Your new backup codes are below; the old ones no longer work." });
      }
      case "change-password": {
        const headers = await changePassword(request, context, user, values);
        return data<ProfileResult>(
          { ok: true, intent, message: "Your password has been changed, and every other session has been signed out." },
          { headers: setCookiesOf(headers) },
        );
      }
      case "email-notifications": {
        const on = values.emailNotifications === "on";
        await setEmailNotifications(context.db, user.id, on);
        return data<ProfileResult>({
          ok: true,
          intent,
          message: on ? "Notifications are e-mailed to you again." : "Notifications are no longer e-mailed to you. They still appear under the bell.",
        });
      }
      case "sign-out-everywhere":
        await signOutEverywhere(request, context, user);
        throw redirect("/admin/login");
      default:
        throw new AppError("invalid_input", "Unknown action.");
    }
  } catch (error) {
    if (!isAppError(error)) throw error;
    // Passwords and codes are never sent back to the form.
    return data<ProfileResult>({ ...refusalOf<Field>(error), intent }, { status: error.status });
  }
}

export const meta: Route.MetaFunction = ({ matches }) => backOfficeMeta(matches, { title: "Your account", path: "/admin/profile" });

export default function Profile({ loaderData }: Route.ComponentProps) {
  const { email, twoFactorEnabled, required, emailNotifications } = loaderData;
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const outcome = (intent: string) => (result?.intent === intent ? result : undefined);
  const setup = result?.ok && result.intent === "start-2fa" ? result.setup : undefined;
  const confirmRefused = result && !result.ok && result.intent === "confirm-2fa";

  return (
    <main className="mx-auto w-full min-w-0 max-w-3xl flex-1 px-4 py-8">
      <AdminPageHeader title="Your account" description={`Signed in as ${email}`} />

      {required && !twoFactorEnabled ? (
        <p role="alert" className="mb-6 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
          <strong>Two-factor authentication is required.</strong> Your newsroom asks every back-office account to use a code from an
          authenticator app when signing in. Turn it on below to reach the other screens.
        </p>
      ) : null}

      <Section id="two-factor" title="Two-factor authentication">
        <p className="text-sm text-slate-700">
          Status: <strong>{twoFactorEnabled ? "On" : "Off"}</strong>. With it on, signing in asks for a 6-digit code from an authenticator app
          (such as 1Password, Google Authenticator or Aegis) after your password, or one of your backup codes.
        </p>
        <Outcome result={outcome("start-2fa") ?? outcome("confirm-2fa") ?? outcome("disable-2fa") ?? outcome("backup-codes")} />

        {!twoFactorEnabled && (setup || confirmRefused) ? (
          <div className="space-y-4">
            {setup ? (
              <>
                <div className="flex flex-wrap items-start gap-6">
                  <div
                    className="size-48 shrink-0 rounded-md border border-slate-200 bg-white p-2"
                    role="img"
                    aria-label="QR code to scan with your authenticator app"
                    dangerouslySetInnerHTML={{ __html: setup.qrSvg }}
                  />
                  <div className="min-w-0 space-y-2 text-sm text-slate-800">
                    <p>Scan the QR code with your authenticator app, or type this key into it:</p>
                    <p className="break-all font-mono text-base" data-testid="totp-secret">
                      {setup.secret}
                    </p>
                  </div>
                </div>
                <BackupCodes codes={setup.backupCodes} />
              </>
            ) : null}
            <Form method="post" className="flex flex-wrap items-end gap-3">
              <input type="hidden" name="intent" value="confirm-2fa" />
              <div className="w-40 space-y-1.5">
                <Label htmlFor="totp-code">Code from the app</Label>
                <Input id="totp-code" name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9 ]*" maxLength={7} required />
              </div>
              <Button type="submit" disabled={busy}>
                Turn on
              </Button>
            </Form>
          </div>
        ) : null}

        {!twoFactorEnabled && !setup && !confirmRefused ? (
          <PasswordForm intent="start-2fa" label="Set up two-factor authentication" busy={busy} />
        ) : null}

        {twoFactorEnabled ? (
          <div className="space-y-4">
            {result?.ok && result.intent === "backup-codes" && result.backupCodes ? <BackupCodes codes={result.backupCodes} /> : null}
            <PasswordForm intent="backup-codes" label="Make new backup codes" busy={busy} variant="outline" />
            {required ? (
              <p className="text-sm text-slate-700">Your newsroom requires two-factor authentication, so it cannot be turned off.</p>
            ) : (
              <PasswordForm intent="disable-2fa" label="Turn off two-factor authentication" busy={busy} variant="outline" />
            )}
          </div>
        ) : null}
      </Section>

      <Section id="password" title="Password">
        <Outcome result={outcome("change-password")} />
        <ChangePasswordForm busy={busy} done={Boolean(result?.ok && result.intent === "change-password")} />
      </Section>

      <Section id="notification-email" title="E-mail notifications">
        <Outcome result={outcome("email-notifications")} />
        <p className="text-sm text-slate-700">
          The bell at the top lists what needs you: a story sent back to you, a story waiting for review, your story published, comments waiting
          for moderation. Each is also e-mailed to {email} unless you turn that off here.
        </p>
        <Form method="post" className="flex flex-wrap items-center gap-4">
          <input type="hidden" name="intent" value="email-notifications" />
          <label className="inline-flex items-center gap-2 text-sm font-medium text-slate-900">
            <input
              key={String(emailNotifications)}
              type="checkbox"
              name="emailNotifications"
              defaultChecked={emailNotifications}
              className="size-4 rounded border-slate-400 accent-brand-700"
            />
            E-mail me my notifications
          </label>
          <Button type="submit" variant="outline" disabled={busy}>
            Save
          </Button>
        </Form>
      </Section>

      <Section id="sessions" title="Sessions">
        <p className="text-sm text-slate-700">
          A back-office session ends after {BACK_OFFICE_IDLE_MINUTES} minutes without use, and {BACK_OFFICE_MAX_HOURS} hours after signing in. Lost a
          laptop or signed in somewhere you should not have? End every session of your account, this one included.
        </p>
        <Form method="post">
          <input type="hidden" name="intent" value="sign-out-everywhere" />
          <Button type="submit" variant="destructive" disabled={busy}>
            Sign out everywhere
          </Button>
        </Form>
      </Section>
    </main>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={`${id}-heading`} className="mb-6 space-y-4 rounded-lg border border-slate-200 bg-white p-6">
      <h2 id={`${id}-heading`} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Outcome({ result }: { result: ProfileResult | undefined }) {
  if (!result) return null;
  return result.ok ? (
    <p role="status" className="rounded-md border border-green-300 bg-green-50 p-3 text-sm text-green-900">
      {result.message}
    </p>
  ) : (
    <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900">
      <strong>Error:</strong> {result.error}
    </p>
  );
}

function PasswordForm({ intent, label, busy, variant }: { intent: string; label: string; busy: boolean; variant?: "outline" }) {
  const id = `${intent}-password`;
  return (
    <Form method="post" className="flex flex-wrap items-end gap-3">
      <input type="hidden" name="intent" value={intent} />
      <div className="w-64 space-y-1.5">
        <Label htmlFor={id}>Your password</Label>
        <Input id={id} name="password" type="password" autoComplete="current-password" required />
      </div>
      <Button type="submit" variant={variant} disabled={busy}>
        {label}
      </Button>
    </Form>
  );
}

function BackupCodes({ codes }: { codes: string[] }) {
  return (
    <div className="rounded-md border border-slate-200 bg-slate-50 p-4">
      <p className="text-sm font-medium text-slate-900">Backup codes</p>
      <p className="mt-1 text-sm text-slate-700">
        Keep these somewhere safe (a password manager, or printed). Each works once, in place of a code from the app, if you lose your phone.
        They are shown only now.
      </p>
      <ul className="mt-3 grid grid-cols-2 gap-2 font-mono text-sm sm:grid-cols-5" aria-label="Backup codes">
        {codes.map((code) => (
          <li key={code} className="rounded bg-white px-2 py-1 text-center">
            {code}
          </li>
        ))}
      </ul>
    </div>
  );
}

function ChangePasswordForm({ busy, done }: { busy: boolean; done: boolean }) {
  const form = useRef<HTMLFormElement>(null);
  // A changed password leaves no password in the fields.
  useEffect(() => {
    if (done) form.current?.reset();
  }, [done]);
  return (
    <Form method="post" ref={form} className="grid gap-4 sm:max-w-md">
      <input type="hidden" name="intent" value="change-password" />
      <div className="space-y-1.5">
        <Label htmlFor="current-password">Current password</Label>
        <Input id="current-password" name="currentPassword" type="password" autoComplete="current-password" required />
      </div>
      <NewPasswordFields idPrefix="change" />
      <div>
        <Button type="submit" disabled={busy}>
          Change password
        </Button>
      </div>
    </Form>
  );
}
