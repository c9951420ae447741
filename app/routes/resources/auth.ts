import { handleAuthRequest } from "~/domain/accounts/auth-handler.server";
import type { Route } from "./+types/auth";

// Better Auth's endpoints (/api/auth/*): sign-in (with the attempt limit), sign-up, sign-out,
// session, e-mail verification.
export function loader({ request, context }: Route.LoaderArgs) {
  return handleAuthRequest(request, context);
}

export function action({ request, context }: Route.ActionArgs) {
  return handleAuthRequest(request, context);
}
