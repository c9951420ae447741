import { isRouteErrorResponse, Link } from "react-router";
import { SearchForm } from "./search-form";

export function NotFound({
  title = "Oops! Page not found",
  message = "The page you're looking for doesn't exist or has been moved.",
  status = 404,
}: {
  title?: string;
  message?: string;
  /** The status shown large (404; 410 for something that existed and is gone). */
  status?: 404 | 410;
}) {
  return (
    <main className="flex flex-1 flex-col items-center justify-center gap-4 px-4 py-24 text-center">
      <p className="text-6xl font-bold text-brand-700">{status}</p>
      <h1 className="text-3xl font-bold text-slate-900">{title}</h1>
      <p className="text-slate-600">{message}</p>
      <SearchForm inputId="not-found-search" label="Search articles" className="w-full max-w-md" />
      <Link to="/" className="font-medium text-brand-700 underline underline-offset-4 hover:text-brand-800">
        Return to Home
      </Link>
    </main>
  );
}

/**
 * A route's error view: the not-found page for a 404 (with the route's own texts), and a plain
 * "Something went wrong" for anything else, so a failing database is never reported as a missing page.
 */
export function RouteError({ error, notFound }: { error: unknown; notFound?: { title: string; message: string } }) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound {...notFound} />;
  return (
    <main className="flex flex-1 flex-col items-center justify-center gap-4 px-4 py-24 text-center">
      <h1 className="text-3xl font-bold text-slate-900">Something went wrong</h1>
      <p className="text-slate-600">
        {isRouteErrorResponse(error) && error.status < 500 ? `${error.status} ${error.statusText}` : "An unexpected error occurred. Please try again."}
      </p>
      <Link to="/" className="font-medium text-brand-700 underline underline-offset-4 hover:text-brand-800">
        Return to Home
      </Link>
    </main>
  );
}
