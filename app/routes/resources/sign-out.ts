import { redirect } from "react-router";
import { setCookiesOf } from "~/lib/auth-cookie";
import type { Route } from "./+types/sign-out";

/** The header's sign-out form: the session row is deleted on the server, the cookie cleared, then home. */
export async function action({ request, context }: Route.ActionArgs) {
  const { headers } = await context.auth.api.signOut({ headers: request.headers, returnHeaders: true });
  return redirect("/", { headers: setCookiesOf(headers) });
}

/** Signing out changes state, so it is a POST only; a GET just goes home. */
export function loader() {
  return redirect("/");
}
