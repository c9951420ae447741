export function loader() {
  return new Response("Method not allowed", { status: 405 });
}
