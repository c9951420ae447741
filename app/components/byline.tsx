import { Fragment } from "react";
import { Link } from "react-router";
import { bylineSeparator, type BylineAuthor } from "~/domain/authors/byline";

/**
 * A byline (decision 0015): the article's authors, each linking to /author/{slug}, joined "A and B" /
 * "A, B and C"; without authors, the article's Author Name as text.
 */
export function Byline({ authors, authorName, linkClassName }: { authors?: readonly BylineAuthor[]; authorName: string; linkClassName?: string }) {
  if (!authors || authors.length === 0) return <>{authorName}</>;
  return (
    <>
      {authors.map((author, i) => (
        <Fragment key={author.slug}>
          {bylineSeparator(i, authors.length)}
          <Link to={`/author/${author.slug}`} className={linkClassName ?? "underline-offset-2 hover:underline"}>
            {author.name}
          </Link>
        </Fragment>
      ))}
    </>
  );
}
