import { data } from "react-router";
import { NotFound } from "~/components/not-found";
import { pageMeta } from "~/page-meta";
import { NOINDEX } from "~/lib/seo";
import type { Route } from "./+types/not-found";

export function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  context.log.warn({ path: url.pathname }, "404: no page at this path");
  return data({ path: url.pathname }, { status: 404 });
}

export const meta: Route.MetaFunction = ({ matches, data }) => pageMeta(matches, { title: "Page not found", path: data?.path ?? "/", robots: NOINDEX });

export default function NotFoundPage() {
  return <NotFound />;
}
