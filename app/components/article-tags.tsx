import { Link } from "react-router";

/** A story's tags under it, each a link to its tag's page (issue 29). Nothing when it has none. */
export function ArticleTags({ tags }: { tags: readonly { name: string; slug: string }[] }) {
  if (tags.length === 0) return null;
  return (
    <nav aria-label="Tags" className="mt-8">
      <ul className="flex flex-wrap gap-2">
        {tags.map((tag) => (
          <li key={tag.slug}>
            <Link
              to={`/tag/${tag.slug}`}
              className="inline-block rounded-full border border-slate-300 px-3 py-1 text-sm text-slate-700 hover:border-slate-500 hover:text-slate-900"
            >
              {tag.name}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
