import { eq } from "drizzle-orm";
import { data, Form, redirect, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Input, Label } from "~/components/ui/input";
import { user } from "~/db/schema";
import { createPasswordAccount, findUserByEmail } from "~/domain/accounts/accounts.server";
import { PASSWORD_MIN_LENGTH } from "~/domain/accounts/accounts.schema";
import { errorMessageOf } from "~/domain/accounts/auth-answer";
import { postToAuth, SIGN_IN_PATH } from "~/domain/accounts/auth-handler.server";
import { acceptInvitation, findInvitation } from "~/domain/accounts/invitations.server";
import { ROLE_LABELS } from "~/domain/accounts/roles";
import { isAppError } from "~/lib/app-error";
import { setCookiesOf } from "~/lib/auth-cookie";
import { formValues } from "~/lib/forms";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/join";

// /join/{token}: a team invitation's link (decision 0017). A new person chooses a name and a password;
// someone with an account already enters its password. Either way they are signed in with the role.

async function invitationOr404(db: Parameters<typeof findInvitation>[0], token: string) {
  try {
    return await findInvitation(db, token);
  } catch (error) {
    if (isAppError(error, "not_found")) throw data({ message: error.message }, { status: error.status });
    throw error;
  }
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const invitation = await invitationOr404(context.db, params.token);
  const account = await findUserByEmail(context.db, invitation.email);
  return { email: invitation.email, role: ROLE_LABELS[invitation.role], invitedBy: invitation.invitedByName, hasAccount: Boolean(account) };
}

type JoinAnswer = { error: string; field?: "name" | "password" | "confirm" };

export async function action({ request, params, context }: Route.ActionArgs) {
  const invitation = await invitationOr404(context.db, params.token);
  const { name, password, confirm } = formValues(await request.formData(), ["name", "password", "confirm"]);
  const existing = await findUserByEmail(context.db, invitation.email);
  if (!existing) {
    if (!name.trim()) return data<JoinAnswer>({ error: "Enter your name as readers and colleagues should see it.", field: "name" }, { status: 400 });
    if (password.length < PASSWORD_MIN_LENGTH) return data<JoinAnswer>({ error: `The password must be at least ${PASSWORD_MIN_LENGTH} characters.`, field: "password" }, { status: 400 });
    if (password !== confirm) return data<JoinAnswer>({ error: "The two passwords differ.", field: "confirm" }, { status: 400 });
    // The link came to this mailbox: the address is confirmed.
    const created = await createPasswordAccount(context.auth, context.db, invitation.email, password);
    await context.db.update(user).set({ name: name.trim().slice(0, 100) }).where(eq(user.id, created.id));
  } else if (!password) {
    return data<JoinAnswer>({ error: "Enter the password of your account.", field: "password" }, { status: 400 });
  }
  // Signing in checks the password of an existing account (with the sign-in limit) and opens the session.
  const signedIn = await postToAuth(request, context, SIGN_IN_PATH, { email: invitation.email, password });
  if (!signedIn.ok) return data<JoinAnswer>({ error: await errorMessageOf(signedIn), field: "password" }, { status: signedIn.status });
  const account = (await findUserByEmail(context.db, invitation.email))!;
  const [row] = await context.db.select({ name: user.name }).from(user).where(eq(user.id, account.id));
  try {
    await acceptInvitation(context.db, params.token, { id: account.id, email: account.email, name: row?.name ?? account.email });
  } catch (error) {
    if (isAppError(error)) return data<JoinAnswer>({ error: error.message }, { status: error.status });
    throw error;
  }
  // Then, once, the photo, role title and bio of their author page (issue 41; skippable): /admin/welcome.
  throw redirect("/admin/welcome", { headers: setCookiesOf(signedIn.headers) });
}

export function headers() {
  return { "Cache-Control": "no-store" };
}

export const meta: Route.MetaFunction = ({ matches, params }) => [
  ...backOfficeMeta(matches, { title: "Join the team", path: `/join/${params.token}` }),
];

export default function Join({ loaderData, actionData }: Route.ComponentProps) {
  const { email, role, invitedBy, hasAccount } = loaderData;
  const answer = actionData as JoinAnswer | undefined;
  const busy = useNavigation().state !== "idle";
  const errorFor = (field: JoinAnswer["field"]) => (answer && answer.field === field ? answer.error : undefined);
  return (
    <main className="mx-auto flex w-full max-w-md flex-1 flex-col px-4 py-12">
      <h1 className="text-2xl font-bold text-slate-900">You're invited to join as {role}</h1>
      <p className="mt-2 text-sm text-slate-700">
        {invitedBy} invited <strong className="break-all">{email}</strong>.{" "}
        {hasAccount ? "Enter the password of your account to accept." : "Choose your name and a password to create your account."}
      </p>
      {answer && !answer.field ? (
        <p role="alert" className="mt-4 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {answer.error}
        </p>
      ) : null}
      <Form method="post" className="mt-6 space-y-4">
        {!hasAccount ? (
          <Field id="name" label="Your name" type="text" autoComplete="name" error={errorFor("name")} />
        ) : null}
        <Field id="password" label="Password" type="password" autoComplete={hasAccount ? "current-password" : "new-password"} error={errorFor("password")} />
        {!hasAccount ? <Field id="confirm" label="Password again" type="password" autoComplete="new-password" error={errorFor("confirm")} /> : null}
        <Button type="submit" disabled={busy} className="w-full">
          {busy ? "Joining..." : "Accept and join"}
        </Button>
      </Form>
    </main>
  );
}

function Field({ id, label, type, autoComplete, error }: { id: string; label: string; type: string; autoComplete: string; error?: string }) {
  return (
    <div className="space-y-1">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} name={id} type={type} required autoComplete={autoComplete} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} />
      {error ? (
        <p id={`${id}-error`} className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const message =
    error && typeof error === "object" && "data" in error && typeof (error as { data?: { message?: unknown } }).data?.message === "string"
      ? (error as { data: { message: string } }).data.message
      : "This invitation link cannot be used.";
  return (
    <main className="mx-auto flex w-full max-w-md flex-1 flex-col px-4 py-12">
      <h1 className="text-2xl font-bold text-slate-900">Invitation not available</h1>
      <p className="mt-2 text-slate-700">{message}</p>
    </main>
  );
}
