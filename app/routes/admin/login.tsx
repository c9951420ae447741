import { useState, type FormEvent } from "react";
import { data, redirect, useActionData } from "react-router";
import { Button } from "~/components/ui/button";
import { Input, Label } from "~/components/ui/input";
import { toast } from "~/components/ui/toaster";
import { postToAuth, SIGN_IN_PATH, SIGN_UP_PATH, VERIFY_BACKUP_CODE_PATH, VERIFY_TOTP_PATH } from "~/domain/accounts/auth-handler.server";
import { getSessionUser } from "~/domain/accounts/guard.server";
import { setCookiesOf } from "~/lib/auth-cookie";
import { formValues, MISSING_FIELDS } from "~/lib/forms";
import { backOfficeMeta } from "~/page-meta";
import { errorMessageOf } from "~/domain/accounts/auth-answer";
import { can } from "~/domain/accounts/roles";
import type { Route } from "./+types/login";

/** The spec's post-login redirect delay. */
const REDIRECT_DELAY_MS = 100;

export function meta({ matches }: Route.MetaArgs) {
  return backOfficeMeta(matches, { title: "Admin Login", path: "/admin/login" });
}

/**
 * A signed-in admin has nothing to do here and goes straight to the dashboard. (Every answer of this
 * screen is no-store: server/middleware/personal-answers.ts, by the "admin login" path class.)
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getSessionUser(request, context);
  if (can(user?.role, "backOffice")) throw redirect("/admin");
  return { signedInAs: user?.email ?? null };
}

/** Signing in, signing up, or the second step of a sign-in: the code of an account with two-factor on. */
type Mode = "signIn" | "signUp" | "twoFactor";

const TWO_FACTOR_PROMPT = "Enter the 6-digit code from your authenticator app.";

/**
 * Without JavaScript (or before hydration) the form posts here instead of being sent by fetch: the
 * same Better Auth endpoints, the same attempt limit, the same messages.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const fields = formValues(await request.formData(), ["mode", "email", "password", "code", "backup"]);
  if (fields.mode === "twoFactor") {
    const code = fields.code.replace(/\s+/g, "");
    if (!code) return data({ mode: "twoFactor" as Mode, title: MISSING_FIELDS.title, message: TWO_FACTOR_PROMPT, ok: false }, { status: 400 });
    const useBackup = fields.backup === "1";
    const response = await postToAuth(request, context, useBackup ? VERIFY_BACKUP_CODE_PATH : VERIFY_TOTP_PATH, { code });
    if (!response.ok) return data({ mode: "twoFactor" as Mode, title: "Login failed", message: await errorMessageOf(response), ok: false }, { status: response.status });
    throw redirect("/admin", { headers: setCookiesOf(response.headers) });
  }
  const mode: Mode = fields.mode === "signUp" ? "signUp" : "signIn";
  const email = fields.email.trim();
  const password = fields.password;
  if (!email || !password) {
    return data({ mode, title: MISSING_FIELDS.title, message: MISSING_FIELDS.loginDescription, ok: false }, { status: 400 });
  }
  const response =
    mode === "signUp"
      ? await postToAuth(request, context, SIGN_UP_PATH, { email, password, name: email.split("@")[0] || email, callbackURL: "/" })
      : await postToAuth(request, context, SIGN_IN_PATH, { email, password });
  if (!response.ok) {
    const title = mode === "signUp" ? "Signup failed" : "Login failed";
    return data({ mode, title, message: await errorMessageOf(response), ok: false }, { status: response.status });
  }
  if (mode === "signUp") {
    return { mode: "signIn" as Mode, title: "Account created!", message: "Please contact an admin to grant you admin access.", ok: true };
  }
  // The right password of an account with two-factor on: the code is asked next (Better Auth's cookie
  // remembers the first step for a few minutes).
  const body = (await response.clone().json().catch(() => null)) as { twoFactorRedirect?: boolean } | null;
  if (body?.twoFactorRedirect) {
    return data({ mode: "twoFactor" as Mode, title: "Two-factor authentication", message: TWO_FACTOR_PROMPT, ok: true }, { headers: setCookiesOf(response.headers) });
  }
  throw redirect("/admin", { headers: setCookiesOf(response.headers) });
}

async function postJson(path: string, body: unknown): Promise<Response> {
  return fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    credentials: "same-origin",
    body: JSON.stringify(body),
  });
}

export default function AdminLogin({ loaderData }: Route.ComponentProps) {
  const result = useActionData<typeof action>();
  const [mode, setMode] = useState<Mode>(result?.mode ?? "signIn");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [useBackup, setUseBackup] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const signingUp = mode === "signUp";
  const secondStep = mode === "twoFactor";

  async function handleCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!code.trim()) {
      toast.error(MISSING_FIELDS.title, TWO_FACTOR_PROMPT);
      return;
    }
    setSubmitting(true);
    try {
      const response = await postJson(useBackup ? "/api/auth/two-factor/verify-backup-code" : "/api/auth/two-factor/verify-totp", {
        code: code.replace(/\s+/g, ""),
      });
      if (!response.ok) {
        toast.error("Login failed", await errorMessageOf(response));
        return;
      }
      setTimeout(() => window.location.assign("/admin"), REDIRECT_DELAY_MS);
    } catch (error) {
      toast.error("Login failed", error instanceof Error ? error.message : "Network error. Please try again.");
    } finally {
      setSubmitting(false);
    }
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!email.trim() || !password) {
      toast.error(MISSING_FIELDS.title, MISSING_FIELDS.loginDescription);
      return;
    }
    setSubmitting(true);
    const failureTitle = signingUp ? "Signup failed" : "Login failed";
    try {
      const address = email.trim();
      if (signingUp) {
        const response = await postJson("/api/auth/sign-up/email", {
          email: address,
          password,
          name: address.split("@")[0] || address,
          callbackURL: "/",
        });
        if (!response.ok) {
          toast.error(failureTitle, await errorMessageOf(response));
          return;
        }
        toast.success("Account created!", "Please contact an admin to grant you admin access.");
        setMode("signIn");
        setPassword("");
      } else {
        const response = await postJson("/api/auth/sign-in/email", { email: address, password });
        if (!response.ok) {
          toast.error(failureTitle, await errorMessageOf(response));
          return;
        }
        const body = (await response.json().catch(() => null)) as { twoFactorRedirect?: boolean } | null;
        if (body?.twoFactorRedirect) {
          setPassword("");
          setMode("twoFactor");
          return;
        }
        // A full document load, so every loader (header, guard) sees the new session cookie.
        setTimeout(() => window.location.assign("/admin"), REDIRECT_DELAY_MS);
      }
    } catch (error) {
      toast.error(failureTitle, error instanceof Error ? error.message : "Network error. Please try again.");
    } finally {
      setSubmitting(false);
    }
  }

  const buttonLabel = submitting ? (signingUp ? "Creating account..." : "Signing in...") : signingUp ? "Sign Up" : "Sign In";

  return (
    <main className="flex flex-1 items-center justify-center bg-slate-50 px-4 py-12">
      <div className="w-full max-w-md rounded-lg border border-slate-200 bg-white p-8 shadow-sm">
        <h1 className="text-center text-2xl font-bold text-slate-900">{signingUp ? "Create Account" : "Admin Login"}</h1>
        <p className="mt-2 text-center text-sm text-slate-600">
          {signingUp ? "Sign up for a new account" : "Sign in to access the admin dashboard"}
        </p>
        {loaderData.signedInAs ? (
          <p className="mt-4 rounded-md bg-amber-50 p-3 text-sm text-amber-900" role="status">
            You are signed in as {loaderData.signedInAs}, but this account does not have admin access.
          </p>
        ) : null}
        {result ? (
          <p
            className={result.ok ? "mt-4 rounded-md bg-green-50 p-3 text-sm text-green-900" : "mt-4 rounded-md bg-red-50 p-3 text-sm text-red-900"}
            role={result.ok ? "status" : "alert"}
          >
            <strong>{result.title}</strong> {result.message}
          </p>
        ) : null}
        {secondStep ? (
          <form method="post" className="mt-6 space-y-4" onSubmit={handleCode} noValidate>
            <input type="hidden" name="mode" value="twoFactor" />
            <input type="hidden" name="backup" value={useBackup ? "1" : ""} />
            <p className="text-sm text-slate-700">{useBackup ? "Enter one of your backup codes." : TWO_FACTOR_PROMPT}</p>
            <div className="space-y-2">
              <Label htmlFor="login-code">{useBackup ? "Backup code" : "Authentication code"}</Label>
              <Input
                id="login-code"
                name="code"
                inputMode={useBackup ? "text" : "numeric"}
                autoComplete="one-time-code"
                autoFocus
                value={code}
                onChange={(e) => setCode(e.target.value)}
                disabled={submitting}
              />
            </div>
            <Button type="submit" className="w-full" disabled={submitting}>
              {submitting ? "Verifying..." : "Verify"}
            </Button>
            <Button type="button" variant="link" className="w-full" onClick={() => setUseBackup((v) => !v)} disabled={submitting}>
              {useBackup ? "Use a code from the app instead" : "Use a backup code instead"}
            </Button>
          </form>
        ) : null}
        <form method="post" className="mt-6 space-y-4" onSubmit={handleSubmit} noValidate hidden={secondStep}>
          <input type="hidden" name="mode" value={mode} />
          <div className="space-y-2">
            <Label htmlFor="login-email">Email</Label>
            <Input
              id="login-email"
              name="email"
              type="email"
              autoComplete="email"
              placeholder="admin@example.com"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              disabled={submitting}
            />
          </div>
          <div className="space-y-2">
            <Label htmlFor="login-password">Password</Label>
            <Input
              id="login-password"
              name="password"
              type="password"
              autoComplete={signingUp ? "new-password" : "current-password"}
              placeholder="••••••••"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              disabled={submitting}
            />
          </div>
          <Button type="submit" className="w-full" disabled={submitting}>
            {buttonLabel}
          </Button>
        </form>
        {mode === "signIn" ? (
          <p className="mt-4 text-center text-sm">
            <a href="/admin/forgot-password" className="text-brand-700 underline-offset-4 hover:underline">
              Forgot your password?
            </a>
          </p>
        ) : null}
        <div className="mt-4 text-center" hidden={secondStep}>
          <Button
            type="button"
            variant="link"
            onClick={() => setMode(signingUp ? "signIn" : "signUp")}
            disabled={submitting}
          >
            {signingUp ? "Already have an account? Sign In" : "Don't have an account? Sign Up"}
          </Button>
        </div>
        <p className="mt-2 text-center text-sm">
          <a href="/" className="text-brand-700 underline-offset-4 hover:underline">
            Back to site
          </a>
        </p>
      </div>
    </main>
  );
}
