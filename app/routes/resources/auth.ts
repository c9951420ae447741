// Placeholder until the accounts/admin work fills this resource route in.
export function loader() {
  return new Response("Not found", { status: 404 });
}
