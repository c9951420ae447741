import type { ReactNode } from "react";
import { Input, Label } from "~/components/ui/input";

/** A new password and the same again, as every form that sets one asks (the server checks both). */
export function NewPasswordFields({ idPrefix }: { idPrefix: string }) {
  return (
    <>
      <div className="space-y-1.5">
        <Label htmlFor={`${idPrefix}-new`}>New password</Label>
        <Input id={`${idPrefix}-new`} name="newPassword" type="password" autoComplete="new-password" minLength={8} maxLength={128} required />
        <p className="text-xs text-slate-600">At least 8 characters; common passwords are refused.</p>
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={`${idPrefix}-confirm`}>New password, again</Label>
        <Input id={`${idPrefix}-confirm`} name="confirmPassword" type="password" autoComplete="new-password" required />
      </div>
    </>
  );
}

/** The card of the screens around signing in (forgotten password, new password): a title, the outcome, the form, a way back. */
export function AccountCard({
  title,
  intro,
  result,
  back,
  children,
}: {
  title: string;
  intro?: string;
  result?: { ok: boolean; message: string };
  back: { href: string; label: string };
  children: ReactNode;
}) {
  return (
    <main className="flex flex-1 items-center justify-center bg-slate-50 px-4 py-12">
      <div className="w-full max-w-md rounded-lg border border-slate-200 bg-white p-8 shadow-sm">
        <h1 className="text-center text-2xl font-bold text-slate-900">{title}</h1>
        {intro ? <p className="mt-2 text-center text-sm text-slate-600">{intro}</p> : null}
        {result ? (
          <p role={result.ok ? "status" : "alert"} className={`mt-4 rounded-md p-3 text-sm ${result.ok ? "bg-green-50 text-green-900" : "bg-red-50 text-red-900"}`}>
            {result.message}
          </p>
        ) : null}
        {children}
        <p className="mt-4 text-center text-sm">
          <a href={back.href} className="text-brand-700 underline-offset-4 hover:underline">
            {back.label}
          </a>
        </p>
      </div>
    </main>
  );
}
