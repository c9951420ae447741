// Reading Better Auth's answers, in the browser and on the server alike.

/** The message Better Auth (or the sign-in limit) answered with, for a failure toast or a field. */
export async function errorMessageOf(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { message?: unknown };
    if (typeof body?.message === "string" && body.message) return body.message;
  } catch {
    // not JSON: fall through to the status line
  }
  return response.statusText || `Request failed with status ${response.status}`;
}
