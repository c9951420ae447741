import { Search } from "lucide-react";
import { Form } from "react-router";
import { SEARCH_QUERY_MAX } from "~/domain/articles/search.schema";
import { cn } from "~/lib/cn";
import { Button } from "./ui/button";
import { Input } from "./ui/input";

/**
 * The site's search box: a plain GET form to /search (it works without JavaScript; with it, React
 * Router navigates). The header, the 404 page and the search page all use this one.
 */
export function SearchForm({
  defaultValue,
  className,
  inputId = "site-search",
  autoFocus,
  label = "Search the site",
  children,
}: {
  /** The search landmark's name: unique on a page, so several boxes can be told apart. */
  label?: string;
  defaultValue?: string;
  className?: string;
  /** Unique per page: the header and a page's own box can both be on screen. */
  inputId?: string;
  autoFocus?: boolean;
  /** More fields inside the form (the search page's category filter). */
  children?: React.ReactNode;
}) {
  return (
    <Form method="get" action="/search" role="search" aria-label={label} className={cn("flex items-center gap-2", className)}>
      <label htmlFor={inputId} className="sr-only">
        Search articles
      </label>
      <Input
        id={inputId}
        type="search"
        name="q"
        defaultValue={defaultValue}
        placeholder="Search articles"
        maxLength={SEARCH_QUERY_MAX}
        autoFocus={autoFocus}
        enterKeyHint="search"
        className="min-w-0 flex-1"
      />
      {children}
      <Button type="submit" size="icon" aria-label="Search" title="Search">
        <Search className="h-4 w-4" aria-hidden="true" />
      </Button>
    </Form>
  );
}
